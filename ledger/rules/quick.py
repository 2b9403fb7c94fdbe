"""The quick syntax: one deal typed as one short line, read into a `DealInput` (pure: no I/O).

The grammar, as `play` shows it, is `SYNTAX` below.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ledger.errors import LedgerError, fact_word
from ledger.i18n import N_, _, language
from ledger.rules.answers import holders
from ledger.rules.build import DealInput
from ledger.rules.cards import DEAL_THIRDS, Card, Rank, Suit, parse_called, parse_card
from ledger.rules.contracts import AGGRAVATION_WORDS, CONTRACT_WORDS, PASS, PASS_WORDS, SIDE_WORDS, Contract
from ledger.rules.count import looks_like_count, parse_count
from ledger.rules.facts import DECLARER, MONTE, DealFacts
from ledger.rules.line import write_line
from ledger.rules.numbers import shortened
from ledger.rules.points import format_points, parse_points
from ledger.rules.profiles import Profile
from ledger.rules.seats import did_you_mean, name_key, typed_key

SYNTAX = N_("""A line is `pass`, or

    DECLARER CONTRACT [AGGRAVATION] [CARD][@HOLDER] POINTS [key=value ...]

  bruno solo 22                        Bruno solo, 22 thirds (7+1/3)
  br so 7+1/3                          the same, with prefixes and Italian points
  carla chiamo 3D@anna 17 last=opp     Carla called the 3 of denari, Anna held it; last trick to the opponents
  anna solissimo scegliete 35 tricks=12
  pass                                 everyone passed

Words ignore case (and accents in names), and any unambiguous prefix of a name or of a word below
will do: `br so` is `bruno solo`. A prefix that fits two players or two words is an error naming them.
Aliases in parentheses (call, alone, choose, ...) are written in full.
- DECLARER: the first word on the line is a seated player, or `pass` (also `passo`, `-`). If it is
  neither, it is read like the words after it (useful with auction=..., which names the declarer).
- CONTRACT: chiamo (call, play), mediatore, solo, solissimo. `so` means solo (write `soli` for solissimo).
- AGGRAVATION, only on a solissimo: dividete (divide), scegliete (choose, sceliete).
  Contract and aggravation words may come in any order after the declarer.
- CARD@HOLDER: the card called in chiamo, rank then suit (3D, RS, AC, KH), and who held it: a player,
  `monte`, or `declarer` (the declarer's own hand): `3D@anna`, `3D@monte`. `3D` alone when the holder
  is not known, `@anna` alone when only the holder is, `3@anna` when the call named the rank only.
- POINTS: the declarer side's card points on the evening's scale.
  Italian (every profile but cavendish): whole points and thirds, `7`, `7+1/3`, `5+2/3`, `2/3`,
  0 to 11+2/3. A whole number from 12 to 35 cannot be Italian points and is read as thirds
  (`22` = 22 thirds = 7+1/3). `22t` or `t=22` always means 22 thirds.
  American (cavendish): 0 to 35.
  Or the count as made at the table, aces (a, assi), figures (f, figure) and the last trick (u, ultima,
  last) when the declarer side took it: `2a10f+u` or `c=2a+10f+u` is 2 x 3 + 10 + 3 = 19 thirds.
- key=value, anywhere on the line (keys too may be prefixes):
    t=N, thirds=N        the declarer side's thirds, 0 to 35
    points=X             the same as a POINTS word
    c=COUNT, count=COUNT the count: aces, figures, last trick, e.g. c=2a+10f+u
    tricks=N             tricks the declarer side took (asked only at 0 or 35 thirds)
    last=decl|opp        who took the last trick (asked only when a sweep depends on it)
    monte=X              the card points in the monte, written like POINTS (asked only when
                         stramazzo_counts=tricks and a stramazzo depends on them)
    holder=NAME|monte|declarer, called=CARD    the same as CARD@HOLDER
    dealer=NAME          who dealt, when not the next in the rotation
    auction=CALL,CALL,.. the calls from the seat after the dealer, each `call` or `name:call`,
                         e.g. auction=pass,solo,pass; the last bid gives the declarer and contract
  Italian keys work too: terzi=, punti=, prese=, ultima=chiamante|avversari, aveva= (the holder),
  carta= or chiamata=, mazziere=, licitazione=, monte=.
""")
"""The grammar of a quick line, for `help` screens (translated when shown)."""


@dataclass(frozen=True)
class Word:
    """What a typed word means: its kind (player, pass, contract, ...) and its canonical value."""

    kind: str
    value: str

    def __str__(self) -> str:
        return _("{name} (a player)").format(name=self.value) if self.kind == "player" else self.value


@dataclass(frozen=True)
class Vocabulary:
    """The words of one place in a line: those any prefix may stand for, and aliases written out in full."""

    prefixed: Mapping[str, Word]
    exact: Mapping[str, Word] = field(default_factory=dict)

    def __or__(self, other: Vocabulary) -> Vocabulary:
        return Vocabulary({**self.prefixed, **other.prefixed}, {**self.exact, **other.exact})

    def lookup(self, text: str, what: str) -> Word | None:
        """The word `text` is, exactly, else the one meaning its prefixes share; None when nothing fits."""
        key = name_key(text)
        if key in self.exact or key in self.prefixed:
            return self.exact.get(key) or self.prefixed[key]
        found = {word for known, word in self.prefixed.items() if key and known.startswith(key)}
        if len(found) > 1:
            raise LedgerError(
                _("{what} {text!r} is ambiguous: it could be {found}").format(
                    what=what, text=shortened(text), found=", ".join(sorted(map(str, found)))
                )
            )
        return found.pop() if found else None

    def suggest(self, text: str) -> str:
        """` (did you mean Marco?)` when a word of this place is close to the mistyped `text`."""
        return did_you_mean(text, {word.value for word in (*self.prefixed.values(), *self.exact.values())})

    def need(self, text: str, what: str, allowed: str) -> Word:
        """Like lookup, but nothing fitting is an error naming what is allowed."""
        word = self.lookup(text, what)
        if word is None:
            raise LedgerError(
                _("{what} {text!r}{suggestion}: allowed are {allowed}").format(
                    what=what, text=shortened(text), suggestion=self.suggest(text), allowed=allowed
                )
            )
        return word


@dataclass(frozen=True)
class QuickLine:
    """A parsed line: the deal's facts and, separately, the dealer when `dealer=` overrides the rotation."""

    deal: DealInput
    dealer: str | None = None


def _vocabulary(kind: str, table: Mapping[str, object], prefixed: set[str]) -> Vocabulary:
    words = {text: Word(kind, str(getattr(value, "value", value))) for text, value in table.items()}
    return Vocabulary(
        {k: w for k, w in words.items() if k in prefixed}, {k: w for k, w in words.items() if k not in prefixed}
    )


PASSES = _vocabulary("pass", dict.fromkeys(PASS_WORDS, PASS), {"pass", "passo"})
CONTRACTS = _vocabulary(
    "contract", {**CONTRACT_WORDS, "so": "solo"}, {"chiamo", "play", "mediatore", "solo", "solissimo"}
)
AGGRAVATIONS = _vocabulary("aggravation", AGGRAVATION_WORDS, {"dividete", "scegliete", "sceliete"})
SIDES = _vocabulary("side", SIDE_WORDS, {"declarer", "opponents", "chiamante", "avversari"})
_KEY_NAMES = ("thirds", "points", "count", "tricks", "last", "monte", "holder", "called", "dealer", "auction")
_ITALIAN_KEYS = {
    "terzi": "thirds",
    "punti": "points",
    "prese": "tricks",
    "ultima": "last",
    "aveva": "holder",
    "carta": "called",
    "chiamata": "called",
    "mazziere": "dealer",
    "licitazione": "auction",
}
KEYS = _vocabulary(
    "key",
    {
        **{k: k for k in _KEY_NAMES},
        **_ITALIAN_KEYS,
        "t": "thirds",
        "p": "points",
        "c": "count",
        "l": "last",
        "last_trick": "last",
        "card": "called",
    },
    {*_KEY_NAMES, *_ITALIAN_KEYS} - {"aveva"},  # written whole: `a=` stays the auction
)
KEY_HELP = N_("t (thirds), points, c (count), tricks, last, monte, holder, called, dealer, auction")


def contract_words(profile: Profile) -> list[str]:
    """The contracts the evening's rules have, low to high (cavendish's one bid is `play`), then the aggravations
    where there are any."""
    return [*profile.calls, "dividete", "scegliete"] if profile.aggravations else list(profile.calls)


_FACT_KEYS = {
    "thirds": "thirds",
    "points": "points",
    "count": "count",
    "tricks": "tricks",
    "last_trick": "last",
    "monte_thirds": "monte",
    "holder": "holder",
    "called": "called",
    "dealer": "dealer",
    "auction": "auction",
}
"""The key a line gives each fact with (in English; `key_of` gives it in the language in use)."""


def key_of(fact: str) -> str | None:
    """The key a line gives the fact with, in the language in use (`tricks` -> `prese` in Italian), or None when a
    line says the fact without a key (the declarer, the contract)."""
    key = _FACT_KEYS.get(fact)
    if key is None or language() != "it":
        return key
    return next((italian for italian, english in _ITALIAN_KEYS.items() if english == key), key)


_THIRDS = re.compile(r"(\d+)t")
_NUMBER = re.compile(r"[\d+/]+")
_NUMBERED_CARD = re.compile(r"\d[dcsbh]", re.IGNORECASE)
_CARD_LIKE = re.compile(r"\d[a-z]", re.IGNORECASE)
"""A rank and a letter: a card with a suit mistyped (`3Z`), unless it is a count (`2a`) or thirds (`4t`)."""
CALLING = (Contract.CHIAMO.value, Contract.MEDIATORE.value)
"""The contracts in which a card is called."""


def seated(players: Sequence[str]) -> Vocabulary:
    """The players' names, any prefix allowed, with or without the symbols in them (`😀Gigi` or `gigi`)."""
    typed = {typed_key(player): Word("player", player) for player in players if typed_key(player)}
    return Vocabulary({**typed, **{name_key(player): Word("player", player) for player in players}})


def _holders(players: Sequence[str], profile: Profile) -> tuple[Vocabulary, str]:
    """The words for who held the called card, and those the game allows for an error: the players, the monte where
    there is one, the declarer where a declarer may call a card of their own hand (the words are read in every game,
    so that the rules say why one is not allowed here)."""
    words = seated(players) | Vocabulary(
        {MONTE: Word("holder", MONTE), DECLARER: Word("holder", DECLARER)}, {"chiamante": Word("holder", DECLARER)}
    )
    allowed, game = ", ".join(players), holders(players, profile)
    if MONTE in game and DECLARER in game:
        allowed = _("{players}, monte or declarer").format(players=allowed)
    elif MONTE in game:
        allowed = _("{players} or monte").format(players=allowed)
    elif DECLARER in game:
        allowed = _("{players} or declarer").format(players=allowed)
    return words, allowed


def parse_thirds_word(text: str, profile: Profile) -> dict[str, object]:
    """`22t`, a count (`2a10f+u`) or a POINTS word, as the DealInput field it fills: `thirds`, `count` or `points`."""
    word = text.strip().lower()
    if looks_like_count(word):
        parse_count(word)
        return {"count": word}
    american = profile.american
    thirds = _THIRDS.fullmatch(word)
    if thirds:
        return {"thirds": _checked(thirds.group(1), text)}
    scale = _("0 to 35") if american else _("7, 7+1/3, 5+2/3 (0 to 11+2/3), or thirds as 22t")
    if not _NUMBER.fullmatch(word):
        raise LedgerError(
            _("points {text!r}: write the declarer side's points, {scale}").format(text=shortened(text), scale=scale)
        )
    if not american and word.isdecimal() and (len(word) > 2 or int(word) > DEAL_THIRDS // 3):
        return {"thirds": _checked(word, text)}
    try:
        parse_points(word, american=american)
    except LedgerError:
        raise LedgerError(
            _("points {text!r}: write the declarer side's points, {scale}").format(text=shortened(text), scale=scale)
        ) from None
    return {"points": word}


def _checked(digits: str, text: str) -> int:
    """Thirds written in digits, 0 to 35 (read only when short: Python refuses thousands of digits)."""
    if len(digits) > 2 or int(digits) > DEAL_THIRDS:
        raise LedgerError(
            _("points {text!r}: a deal has only {thirds} thirds ({points})").format(
                text=shortened(text), thirds=DEAL_THIRDS, points=format_points(DEAL_THIRDS)
            )
        )
    return int(digits)


def parse_monte_word(text: str, profile: Profile) -> int:
    """The thirds in the monte, written like POINTS (`1+1/3`, `4t`) or as a count without the last trick (`1a1f`)."""
    filled = parse_thirds_word(text, profile)
    if "count" in filled:
        count = parse_count(text)
        if count.last:
            raise LedgerError(
                _("monte {text!r}: the monte holds cards, not the last trick; write its aces and figures").format(
                    text=shortened(text)
                )
            )
        return count.thirds
    if "points" in filled:
        return profile.parse_points(text)
    thirds = filled["thirds"]
    assert isinstance(thirds, int)
    return thirds


def parse_tricks(text: str) -> int:
    """A count of tricks (its range is the rules' to check)."""
    if not text.strip().isdecimal():
        raise LedgerError(_("tricks {text!r}: a whole number of tricks, e.g. tricks=12").format(text=shortened(text)))
    if len(text.strip()) > 2:
        raise LedgerError(_("tricks {text!r}: a deal has at most 12 tricks").format(text=shortened(text)))
    return int(text)


def parse_side_word(text: str) -> str:
    """`decl` or `opp` (or any prefix of declarer, opponents) as the side's canonical value."""
    return SIDES.need(text, _("last trick"), _("declarer or opponents (also decl, opp)")).value


def parse_holder_word(text: str, players: Sequence[str], profile: Profile) -> str:
    """A player, `monte` or `declarer` (where the game has them), by prefix; a leading `@` is allowed."""
    holders, allowed = _holders(players, profile)
    return holders.need(text.strip().removeprefix("@"), _("holder"), allowed).value


def _auction_words(text: str, players: Sequence[str]) -> str:
    """`p,so,pass` or `an:pass,br:solo` with every word written out: `pass,solo,pass`, `Anna:pass,Bruno:solo`."""
    items = []
    for item in text.split(","):
        name, sep, call = item.rpartition(":")
        if not call.strip():
            raise LedgerError(
                _("auction={text}: an empty call; write calls separated by commas, e.g. pass,solo,pass").format(
                    text=shortened(text)
                )
            )
        word = (PASSES | CONTRACTS).need(call, _("auction call"), "pass, chiamo, mediatore, solo, solissimo").value
        if sep:
            word = seated(players).need(name, _("auction player"), ", ".join(players)).value + f":{word}"
        items.append(word)
    return ",".join(items)


def _card(text: str) -> Card | None:
    """The card a word names, if it names one (`CH` is the cavallo of coppe, not a prefix of chiamo)."""
    try:
        return parse_card(text)
    except LedgerError:
        return None


class _Reader:
    """Reads the tokens of one line into DealInput fields, refusing a fact given twice."""

    def __init__(self, players: Sequence[str], profile: Profile) -> None:
        self.players = tuple(players)
        self.profile = profile
        self.fields: dict[str, object] = {}
        self.dealer: str | None = None
        self.words = 0

    def put(self, name: str, value: object, text: str) -> None:
        if name in self.fields:
            raise LedgerError(
                _("{text!r}: the {name} is given twice").format(text=shortened(text), name=fact_word(name))
            )
        self.fields[name] = value

    def token(self, text: str) -> None:
        if "=" in text:
            key, _sep, value = text.partition("=")
            self.option(key, value, text)
        elif "@" in text:
            card, _sep, holder = text.partition("@")
            if card:
                self.put("called", str(parse_called(card)), text)
            self.put("holder", parse_holder_word(holder, self.players, self.profile), text)
        elif _NUMBERED_CARD.fullmatch(text) or self.mistyped_card(text):
            self.put("called", str(parse_card(text)), text)
        elif text[0].isdigit():
            self.points(parse_thirds_word(text, self.profile), text)
        else:
            self.word(text)

    def mistyped_card(self, text: str) -> bool:
        """A rank and a letter after a contract that calls a card, before any card: the card mistyped (`3Z`)."""
        calls = self.fields.get("contract") in CALLING and "called" not in self.fields
        return (
            calls
            and bool(_CARD_LIKE.fullmatch(text))
            and not looks_like_count(text)
            and not _THIRDS.fullmatch(text.lower())
        )

    def points(self, filled: dict[str, object], text: str) -> None:
        if {"thirds", "points", "count"} & set(self.fields):
            raise LedgerError(_("{text!r}: the points are given twice").format(text=shortened(text)))
        self.fields.update(filled)

    def word(self, text: str) -> None:
        self.words += 1
        first = (seated(self.players) | PASSES).lookup(text, _("word")) if self.words == 1 else None
        if first is not None:
            name, value = ("passed", True) if first.kind == "pass" else ("declarer", first.value)
            self.put(name, value, text)
            return
        meaning = (CONTRACTS | AGGRAVATIONS).lookup(text, _("word"))
        card = _card(text)
        if meaning is not None and not (meaning.kind in self.fields and card is not None):
            self.put(meaning.kind, meaning.value, text)
            return
        if PASSES.lookup(text, _("word")):
            raise LedgerError(
                _("{text!r}: a passed deal is written `pass`, as the first word").format(text=shortened(text))
            )
        if card is not None:
            self.put("called", str(card), text)
        elif seated(self.players).lookup(text, _("player")):
            raise LedgerError(
                _(
                    "{text!r}: only the first word names the declarer; write @{text} for who held the "
                    "called card, or dealer={text} for who dealt"
                ).format(text=shortened(text))
            )
        else:
            players = ", ".join(self.players)
            first_word = _("a player ({players}), pass, ").format(players=players) if self.words == 1 else ""
            known = seated(self.players) | CONTRACTS | AGGRAVATIONS
            raise LedgerError(
                _(
                    "{text!r} is not a word of the quick syntax{suggestion}: allowed are {first_word}"
                    "{play_help}, or a card such as 3D, RS, AC, KH"
                ).format(
                    text=shortened(text),
                    suggestion=known.suggest(text),
                    first_word=first_word,
                    play_help=", ".join(contract_words(self.profile)),
                )
            )

    def option(self, key: str, value: str, text: str) -> None:
        name = KEYS.need(key, _("key"), _(KEY_HELP)).value if key else ""
        if not name or not value:
            raise LedgerError(
                _("{text!r}: write key=value, e.g. last=opp or tricks=12; the keys are {key_help}").format(
                    text=shortened(text), key_help=_(KEY_HELP)
                )
            )
        if name == "dealer":
            if self.dealer is not None:
                raise LedgerError(_("{text!r}: the dealer is given twice").format(text=shortened(text)))
            self.dealer = seated(self.players).need(value, _("dealer"), ", ".join(self.players)).value
        elif name == "thirds":
            if not value.isdecimal():
                raise LedgerError(
                    _("{text!r}: thirds are a whole number, 0 to {thirds}").format(
                        text=shortened(text), thirds=DEAL_THIRDS
                    )
                )
            self.points({"thirds": _checked(value, text)}, text)
        elif name == "points":
            self.points(parse_thirds_word(value, self.profile), text)
        elif name == "count":
            parse_count(value)
            self.points({"count": value}, text)
        elif name == "monte":
            self.put("monte_thirds", parse_monte_word(value, self.profile), text)
        elif name == "holder":
            self.put("holder", parse_holder_word(value, self.players, self.profile), text)
        else:
            self.put(*_OPTIONS[name](value, self.players), text)


_OPTIONS: dict[str, Callable[[str, Sequence[str]], tuple[str, object]]] = {
    "tricks": lambda value, _: ("tricks", parse_tricks(value)),
    "last": lambda value, _: ("last_trick", parse_side_word(value)),
    "called": lambda value, _: ("called", str(parse_called(value))),
    "auction": lambda value, players: ("auction", _auction_words(value, players)),
}


def parse_quick_line(line: str, players: Sequence[str], profile: Profile) -> QuickLine:
    """Read a quick line (see the module doc) into a deal's facts and an optional dealer override.

    Only the facts written are filled in, so a fragment such as `20 last=opp` serves to amend a deal.
    """
    reader = _Reader(players, profile)
    for text in line.split():
        reader.token(text)
    return QuickLine(DealInput(**reader.fields), reader.dealer)  # type: ignore[arg-type]


def parse_answer(fact: str, text: str, players: Sequence[str], profile: Profile) -> DealInput:
    """The answer to a question for one missing fact (`declarer`, `contract`, `thirds`, `tricks`, `last_trick`,
    `monte_thirds`, `holder`), as the DealInput fields it fills."""
    if not text.strip():
        raise LedgerError(_("no answer: the deal needs its {fact}").format(fact=fact_word(fact)))
    if fact == "declarer":
        allowed = _("{players} or pass").format(players=", ".join(players))
        word = (seated(players) | PASSES).need(text, _("declarer"), allowed)
        return DealInput(passed=True) if word.kind == "pass" else DealInput(declarer=word.value)
    if fact == "contract":
        allowed = ", ".join(contract_words(profile))
        words = [(CONTRACTS | AGGRAVATIONS).need(part, _("contract"), allowed) for part in text.split()]
        found = {word.kind: word.value for word in words}
        if "contract" not in found or len(found) < len(words):
            raise LedgerError(
                _("contract {text!r}: write one contract, and on a solissimo dividete or scegliete").format(
                    text=shortened(text)
                )
            )
        return DealInput(**found)  # type: ignore[arg-type]
    if fact == "thirds":
        return DealInput(**parse_thirds_word(text, profile))  # type: ignore[arg-type]
    if fact == "tricks":
        return DealInput(tricks=parse_tricks(text))
    if fact == "last_trick":
        return DealInput(last_trick=parse_side_word(text))
    if fact == "monte_thirds":
        return DealInput(monte_thirds=parse_monte_word(text, profile))
    if fact == "holder":
        return DealInput(holder=parse_holder_word(text, players, profile))
    raise LedgerError(_("the deal needs its {fact}, which cannot be asked for here").format(fact=fact_word(fact)))


def examples(players: tuple[str, ...], profile: Profile) -> tuple[str, str]:
    """Two deal lines to show as examples, with this table's names and contracts and the evening's points: a solo
    (or the lowest bid where there is none) by the second seat, and a bid with a called card by the third."""
    first, second, third = players[:3]
    solo = Contract.SOLO if Contract.SOLO in profile.contracts else profile.bids[0]
    three = Card(Suit.DENARI, Rank.TRE)
    return (
        write_line(DealFacts(players, first, second, solo, thirds=22), profile),
        write_line(DealFacts(players, first, third, profile.bids[0], called=three, holder=first, thirds=17), profile),
    )
