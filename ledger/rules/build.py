"""Turn what the scorekeeper typed (names, words, points) into validated deal facts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace

from ledger.errors import FactError, LedgerError, MissingFact, fact_word
from ledger.i18n import _
from ledger.rules.cards import parse_called
from ledger.rules.contracts import (
    PASS,
    SIDE_WORDS,
    Contract,
    Side,
    parse_aggravation,
    parse_call,
    parse_contract,
    parse_side,
)
from ledger.rules.count import parse_count
from ledger.rules.facts import DECLARER, MONTE, Call, DealFacts
from ledger.rules.points import check_thirds
from ledger.rules.profiles import Profile
from ledger.rules.scoring import DealResult, score_valid
from ledger.rules.seats import name_key, resolve_player
from ledger.rules.validate import validate


@dataclass(frozen=True)
class DealInput:
    """A deal as typed: every field optional text or number, exactly what `score` and `record` take."""

    declarer: str | None = None
    contract: str | None = None
    aggravation: str | None = None
    called: str | None = None
    holder: str | None = None
    thirds: int | None = None
    points: str | None = None
    count: str | None = None
    tricks: int | None = None
    last_trick: str | None = None
    monte_thirds: int | None = None
    auction: str | None = None
    passed: bool = False
    passed_before: int = 0

    @property
    def declares(self) -> bool:
        """The facts say who declared, or that everyone passed (a new deal needs that before anything else)."""
        return bool(self.declarer or self.passed or self.auction)

    def to_dict(self) -> dict[str, object]:
        """Only the fields that were given."""
        return {k: v for k, v in asdict(self).items() if v != getattr(_TYPED_NOTHING, k)}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> DealInput:
        """The inverse of to_dict; unknown keys are an error."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise LedgerError(_("deal input: unknown fields {unknown}").format(unknown=", ".join(sorted(unknown))))
        return cls(**data)  # type: ignore[arg-type]

    @classmethod
    def of_facts(cls, facts: DealFacts) -> DealInput:
        """Stored facts written as a deal typed in full, to be amended by what the scorekeeper changes."""
        if facts.passed:
            return cls(passed=True, passed_before=facts.passed_before)
        assert facts.contract is not None
        auction = ",".join(f"{seat}:{call.value if call else PASS}" for seat, call in facts.auction)
        return cls(
            declarer=facts.declarer,
            contract=facts.contract.value,
            aggravation=facts.aggravation.value if facts.aggravation else None,
            called=str(facts.called) if facts.called else None,
            holder=facts.holder,
            thirds=facts.thirds,
            tricks=facts.tricks,
            last_trick=facts.last_trick.value if facts.last_trick else None,
            monte_thirds=facts.monte_thirds,
            auction=auction or None,
            passed_before=facts.passed_before,
        )

    def amended(self, changes: DealInput) -> DealInput:
        """This input with every field given in `changes` replaced, dropping the facts they supersede."""
        given = changes.to_dict()
        cleared = {old for key in given for old in _SUPERSEDES.get(key, ())}
        kept = {k: v for k, v in self.to_dict().items() if k not in cleared}
        return DealInput.from_dict({**kept, **given})


_TYPED_NOTHING = DealInput()
_PLAY = ("declarer", "contract", "aggravation", "called", "holder", "auction")
_SUPERSEDES: dict[str, tuple[str, ...]] = {
    "passed": (*_PLAY, "thirds", "points", "tricks", "last_trick", "monte_thirds"),
    "auction": (*_PLAY, "passed"),
    "declarer": ("passed", "auction"),
    "contract": ("aggravation", "called", "holder", "passed", "auction"),
    "thirds": ("points", "count"),
    "points": ("thirds", "count"),
    "count": ("thirds", "points", "last_trick"),
}


def parse_auction(text: str, speakers: tuple[str, ...], contracts: Sequence[str]) -> tuple[Call, ...]:
    """`pass,solo,pass` or `Anna:pass,Bruno:solo`: calls in speaking order from the seat after the dealer; an error
    lists the `contracts` of the table."""
    calls = []
    for index, item in enumerate(part.strip() for part in text.split(",")):
        name, sep, word = item.rpartition(":")
        if not item:
            raise FactError("auction", text, _("an empty call; write calls separated by commas"))
        if sep:
            key = name_key(name)
            if not key or not any(name_key(s).startswith(key) for s in speakers):
                raise FactError(
                    "auction",
                    text,
                    _("{name!r} does not speak in this deal; the speakers in turn are {speakers}").format(
                        name=name.strip(), speakers=", ".join(speakers)
                    ),
                )
            seat = resolve_player(name, speakers, "auction")
        elif index < len(speakers):
            seat = speakers[index]
        else:
            raise FactError(
                "auction",
                text,
                _("{number} calls, but only {n_speakers} players speak").format(
                    number=index + 1, n_speakers=len(speakers)
                ),
            )
        calls.append((seat, parse_call(word, contracts)))
    return tuple(calls)


def _holder(text: str, players: tuple[str, ...], declarer: str | None) -> str:
    """Who held the called card: a seated player, the monte, or the declarer (as the last trick names that side:
    `declarer`, `decl`, `chiamante`)."""
    word = text.strip().lower()
    if word == MONTE:
        return word
    if SIDE_WORDS.get(word) is Side.DECLARER:
        return DECLARER
    name = resolve_player(text, players, "holder")
    return DECLARER if name == declarer else name


def _points(typed: DealInput, profile: Profile) -> tuple[int | None, Side | None]:
    """The declarer side's thirds, from the thirds, the points or the count, and who took the last trick."""
    given = [fact_word(name) for name in ("thirds", "points", "count") if getattr(typed, name) is not None]
    if len(given) > 1:
        raise LedgerError(
            _("give the declarer side's points once: {options} both say it").format(options=_(" and ").join(given))
        )
    last_trick = parse_side(typed.last_trick) if typed.last_trick else None
    if typed.count is not None:
        count = parse_count(typed.count)
        if last_trick is not None and last_trick is not count.last_trick:
            if count.last:
                raise FactError(
                    "count",
                    typed.count,
                    _("the count has the last trick, but the last trick went to the {side}").format(
                        side=last_trick.value
                    ),
                )
            raise FactError(
                "count",
                typed.count,
                _("the count lacks the last trick, but the last trick went to the {side}").format(
                    side=last_trick.value
                ),
            )
        return count.thirds, count.last_trick
    if typed.points is not None:
        return profile.parse_points(typed.points), last_trick
    return (check_thirds(typed.thirds) if typed.thirds is not None else None), last_trick


def build_facts(
    typed: DealInput, profile: Profile, players: tuple[str, ...], dealer: str, *, count_cards: bool = True
) -> DealFacts:
    """Parse and validate a typed deal at the given seats; errors name the offending value. Not `count_cards`, a
    played deal's facts are not counted card by card (`validate`)."""
    if dealer not in players:
        raise FactError("dealer", dealer, _("not seated; the players are {players}").format(players=", ".join(players)))
    facts = DealFacts(players=players, dealer=dealer, passed_before=typed.passed_before)
    speakers = facts.active(profile)
    auction = parse_auction(typed.auction, speakers, profile.calls) if typed.auction else ()
    bids = [(seat, call) for seat, call in auction if call is not None]
    declarer = resolve_player(typed.declarer, players, "declarer") if typed.declarer else None
    contract = parse_contract(typed.contract, profile.calls) if typed.contract else None
    if bids:
        declarer = declarer or bids[-1][0]
        contract = contract or bids[-1][1]
    aggravation = parse_aggravation(typed.aggravation) if typed.aggravation else None
    if contract is None and aggravation is not None:
        contract = Contract.SOLISSIMO  # dividete and scegliete exist only on a solissimo
    if typed.passed and (declarer or contract):
        raise LedgerError(_("a passed deal has no declarer or contract"))
    if not typed.passed and not auction and declarer is None:
        raise MissingFact("declarer", _("who declared, or did everyone pass?"))
    thirds, last_trick = _points(typed, profile)
    facts = replace(
        facts,
        auction=auction,
        declarer=declarer,
        contract=contract,
        aggravation=aggravation,
        called=parse_called(typed.called) if typed.called else None,
        holder=_holder(typed.holder, players, declarer) if typed.holder else None,
        thirds=thirds,
        tricks=typed.tricks,
        last_trick=last_trick,
        monte_thirds=typed.monte_thirds,
    )
    validate(facts, profile, count_cards=count_cards)
    return facts


def judge(
    typed: DealInput, profile: Profile, players: tuple[str, ...], dealer: str, *, count_cards: bool = True
) -> tuple[DealFacts, DealResult]:
    """A typed deal's facts, validated once, and their score (not `count_cards`: see `build_facts`)."""
    facts = build_facts(typed, profile, players, dealer, count_cards=count_cards)
    return facts, score_valid(facts, profile, count_cards=count_cards)
