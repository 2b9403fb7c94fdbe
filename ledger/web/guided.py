"""The guided deal form: big buttons for the facts, and one question at a time for what the rules still need.

Every answer is read by the parser `play` uses for its questions (`parse_answer`), so a tap, a typed word
and a prefix mean the same on the phone as at the terminal. Answers given so far travel as hidden fields
in the text the player chose, and are read again with each step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ledger.i18n import N_
from ledger.rules.answers import holders, tricks_in_deal
from ledger.rules.build import DealInput
from ledger.rules.cards import DEAL_THIRDS, Rank
from ledger.rules.contracts import Aggravation, Contract
from ledger.rules.count import Count
from ledger.rules.facts import DECLARER, MONTE
from ledger.rules.line import count_word
from ledger.rules.points import format_points
from ledger.rules.profiles import Profile
from ledger.rules.quick import parse_answer
from ledger.values import DealView, EveningInfo

FACTS = ("declarer", "contract", "thirds", "holder", "tricks", "last_trick", "monte_thirds")
"""The facts a deal can lack, as `MissingFact.fact` names them and `parse_answer` reads them."""
FIELDS = (*FACTS, "called")
"""The guided form's fields (the called card is given, never asked for)."""


@dataclass(frozen=True)
class Choice:
    """One button: the answer it sends and the text on it (a word of the page is translated, a name is not)."""

    value: str
    label: str
    word: bool = False


@dataclass(frozen=True)
class Question:
    """What the page asks for one fact: buttons to tap, or a text box when `choices` is empty."""

    fact: str
    choices: tuple[Choice, ...] = ()


PAD = ("whole", "third", "rank", "suit", "aces", "figures", "last")
"""The pad's buttons: the points as a whole number and a third (`7` and `1/3`), or counted as at the table (aces,
figures, the last trick); the called card as rank and suit."""
THIRDS = (Choice("", "+0"), Choice("1/3", "+⅓"), Choice("2/3", "+⅔"))
"""The pad's thirds of a point; nothing tapped is none."""
THIRD_OF = {choice.value: n for n, choice in enumerate(THIRDS)}
"""The thirds each of the pad's third buttons adds."""
COUNTED = ("aces", "figures", "last")
"""The pad's buttons that count the points as at the table."""
RANKS = ("3", "2", "A", "R", "C", "F", "7", "6", "5", "4")
SUITS = (
    Choice("D", N_("denari"), word=True),
    Choice("C", N_("coppe"), word=True),
    Choice("S", N_("spade"), word=True),
    Choice("B", N_("bastoni"), word=True),
)


def tapped(form: Mapping[str, object]) -> dict[str, str]:
    """The deal's fields as tapped or typed, the pad's buttons as they are (empty ones left out): what a page asking
    one more fact carries, and what a refused deal's pad shows again."""
    given = {name: form.get(name) for name in (*FIELDS, *PAD)}
    return {name: value.strip() for name, value in given.items() if isinstance(value, str) and value.strip()}


def answers(form: Mapping[str, object]) -> dict[str, str]:
    """The guided fields given, as typed or tapped (empty ones left out); the pad's taps are read as the points
    (`7` and `1/3` as `7+1/3`, or counted: `2a10f+u`) and the called card (`3` and `D` as `3D`), unless typed."""
    found = tapped(form)
    taps = {name: found.pop(name) for name in PAD if name in found}
    card = taps["rank"] + taps.get("suit", "") if "rank" in taps else ""
    return {**{fact: word for fact, word in (("thirds", _points(taps)), ("called", card)) if word}, **found}


def _points(taps: Mapping[str, str]) -> str:
    """The points tapped, as a line writes them: counted as at the table (`2a10f+u`), else a whole number and a third
    (`7+1/3`); taps that are none of the pad's buttons are passed on joined, for the parser to say what is wrong."""
    aces, figures, whole = (taps.get(name, "0") for name in ("aces", "figures", "whole"))
    third = THIRD_OF.get(taps.get("third", ""))
    if third is None or not (aces + figures + whole).isdecimal():
        return "+".join(taps[name] for name in (*COUNTED, "whole", "third") if name in taps)
    if taps.keys() & set(COUNTED):
        return count_word(Count(int(aces), int(figures), "last" in taps))
    return format_points(3 * int(whole) + third) if taps.keys() & {"whole", "third"} else ""


def deal_input(given: Mapping[str, str], players: Sequence[str], profile: Profile) -> DealInput:
    """The facts the answers give, each read as `play` reads the answer to its question."""
    facts: dict[str, object] = {}
    for fact in FACTS:
        if fact in given:
            facts.update(parse_answer(fact, given[fact], players, profile).to_dict())
    if "called" in given:
        facts["called"] = given["called"]
    if facts.get("contract") and facts["contract"] not in {c.value for c in profile.calls_card}:
        facts.pop("called", None)  # tapped for a chiamo, then the contract changed: no card is called in this one
        facts.pop("holder", None)
    return DealInput.from_dict(facts)


def so_far(given: Mapping[str, str]) -> str:
    """A deal's answers in a few words, as a quick line writes them: `Bruno chiamo 3D@Anna 7+1/3`."""
    card = given.get("called", "") + (f"@{given['holder']}" if "holder" in given else "")
    rest = (given.get(fact, "") for fact in FACTS if fact not in ("declarer", "contract", "holder"))
    return " ".join(part for part in (given.get("declarer", ""), given.get("contract", ""), card, *rest) if part)


def contract_choices(profile: Profile) -> tuple[Choice, ...]:
    """The profile's contracts low to high, then a solissimo raised to dividete or scegliete where it can be."""
    words = [Choice(profile.word(c), profile.word(c)) for c in profile.bids]
    if profile.aggravations and Contract.SOLISSIMO in profile.bids:
        solissimo = profile.word(Contract.SOLISSIMO)
        words += [Choice(f"{solissimo} {a.value}", f"{solissimo} {a.value}") for a in Aggravation]
    return tuple(words)


def question(fact: str, players: Sequence[str], profile: Profile) -> Question:
    """The buttons for a fact the deal lacks; points are typed."""
    if fact == "declarer":
        return Question(fact, (*(Choice(p, p) for p in players), Choice("pass", N_("pass"), word=True)))
    if fact == "contract":
        return Question(fact, contract_choices(profile))
    if fact == "holder":
        return Question(fact, tuple(_holder(choice, players) for choice in holders(players, profile)))
    if fact == "tricks":
        return Question(fact, tuple(Choice(str(n), str(n)) for n in range(tricks_in_deal(players, profile) + 1)))
    if fact == "last_trick":
        return Question(
            fact, (Choice("decl", N_("declarer side"), word=True), Choice("opp", N_("opponents"), word=True))
        )
    return Question(fact)


def _holder(choice: str, players: Sequence[str]) -> Choice:
    """A holder's button: a player by name, the monte or the declarer in words."""
    words = {MONTE: N_("monte"), DECLARER: N_("declarer")}
    return Choice(choice, choice) if choice in players else Choice(choice, words[choice], word=True)


@dataclass(frozen=True)
class Pad:
    """The buttons of a deal tapped in, for one evening."""

    declarers: tuple[Choice, ...]
    contracts: tuple[Choice, ...]
    calling: frozenset[str]
    """The contracts (as their buttons send them) in which a card is called: the card and holder show for them."""
    ranks: tuple[Choice, ...]
    suits: tuple[Choice, ...]
    holders: tuple[Choice, ...]
    wholes: tuple[Choice, ...]
    thirds: tuple[Choice, ...]
    aces: tuple[Choice, ...] = tuple(Choice(str(n), str(n)) for n in range(5))
    figures: tuple[Choice, ...] = tuple(Choice(str(n), str(n)) for n in range(21))


def pad(evening: EveningInfo, *, every_declarer: bool = False) -> Pad:
    """The pad for the evening's next deal (the dealer who sits out not offered as declarer), or for amending any
    deal (`every_declarer`)."""
    profile, players = evening.profile, evening.players
    out = evening.next_dealer if profile.sits_out(len(players)) and not every_declarer else None
    return Pad(
        declarers=question("declarer", [p for p in players if p != out], profile).choices,
        contracts=contract_choices(profile),
        calling=frozenset(profile.word(contract) for contract in profile.calls_card),
        ranks=tuple(Choice(rank, rank) for rank in RANKS if callable_rank(profile, rank)),
        suits=SUITS,
        holders=question("holder", players, profile).choices,
        wholes=wholes(profile),
        thirds=() if profile.american else THIRDS,
    )


def callable_rank(profile: Profile, rank: str) -> bool:
    """Whether a chiamo of the profile may name a card of `rank` (quartiglio and quintiglio: threes only).

    >>> from ledger.rules.profiles import make_profile
    >>> [r for r in RANKS if callable_rank(make_profile("quintiglio"), r)], callable_rank(make_profile("pagat"), "A")
    (['3'], True)
    """
    return profile.callable_ranks is None or Rank(rank) in profile.callable_ranks


def given_of(deal: DealView) -> dict[str, str]:
    """A stored deal as the pad's buttons tapped: to amend it by tapping what changed."""
    if deal.passed:
        return {"declarer": "pass"}
    given = {"declarer": deal.declarer or ""}
    if deal.contract:
        word = deal.profile.word(Contract(deal.contract))
        given["contract"] = f"{word} {deal.aggravation}" if deal.aggravation else word
    if deal.called:
        given["rank"], given["suit"] = deal.called[:1], deal.called[1:]  # a rank alone when the suit was not said
    if deal.holder:
        given["holder"] = deal.holder
    if deal.declarer_thirds is not None:
        whole, third = (deal.declarer_thirds, 0) if deal.profile.american else divmod(deal.declarer_thirds, 3)
        given["whole"], given["third"] = str(whole), ("", "1/3", "2/3")[third]
    return given


def wholes(profile: Profile) -> tuple[Choice, ...]:
    """The pad's whole points: 0 to 11 (a third more with the thirds' buttons), or 0 to 35 on the American scale."""
    most = DEAL_THIRDS if profile.american else DEAL_THIRDS // 3
    return tuple(Choice(str(n), str(n)) for n in range(most + 1))
