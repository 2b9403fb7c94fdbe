"""What happened at the table in one deal, as an immutable value."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from ledger.rules.cards import Card, Rank, parse_called
from ledger.rules.contracts import Aggravation, Contract, Side
from ledger.rules.profiles import Lead, Partnership, Profile
from ledger.rules.seats import seat_after, turn_from

MONTE = "monte"
DECLARER = "declarer"

Call = tuple[str, Contract | None]
E = TypeVar("E", bound=Enum)


@dataclass(frozen=True)
class DealFacts:
    """One deal's facts; `declarer` is None for a passed deal (everyone passed).

    `players` are the seats in turn order; `called` is a card, or a rank alone when the suit was not said;
    `holder` is the seat that held the called card, or `monte`, or `declarer`; `thirds`, `tricks` and
    `last_trick` are the declarer side's; `monte_thirds` are the card points the monte held.
    """

    players: tuple[str, ...]
    dealer: str
    declarer: str | None = None
    contract: Contract | None = None
    aggravation: Aggravation | None = None
    called: Card | Rank | None = None
    holder: str | None = None
    thirds: int | None = None
    tricks: int | None = None
    last_trick: Side | None = None
    monte_thirds: int | None = None
    passed_before: int = 0
    auction: tuple[Call, ...] = ()

    @property
    def passed(self) -> bool:
        """Everyone passed: no declarer, no payout."""
        return self.declarer is None

    def sitting_out(self, profile: Profile) -> str | None:
        """The dealer at a three-player game with four seated sits the deal out."""
        if profile.sits_out(len(self.players)):
            return self.dealer
        return None

    def active(self, profile: Profile) -> tuple[str, ...]:
        """Who holds cards, in speaking order from the seat after the dealer."""
        out = self.sitting_out(profile)
        order = turn_from(self.players, seat_after(self.players, self.dealer))
        return tuple(p for p in order if p != out)

    def partner(self, profile: Profile) -> str | None:
        """The holder of the called three in Quartiglio and Quintiglio chiamo."""
        partnership = profile.partnership is not Partnership.NONE and self.contract is Contract.CHIAMO
        if partnership and self.holder not in (None, MONTE, DECLARER):
            return self.holder
        return None

    def first_lead(self, profile: Profile) -> str:
        """Recorded only: the declarer in solissimo (or always, by option); else the seat after the dealer, or in
        Cavendish the declarer's left-hand opponent (the seat before the declarer in turn order)."""
        if self.declarer and (self.contract is Contract.SOLISSIMO or profile.declarer_always_leads):
            return self.declarer
        active = self.active(profile)
        if self.declarer and profile.lead is Lead.DECLARER_LEFT:
            return active[active.index(self.declarer) - 1]
        return active[0]


def facts_from_dict(data: dict[str, Any], players: tuple[str, ...], dealer: str) -> DealFacts:
    """Facts written as plain values (players by name, words as enum values) at the given seats."""

    def enum(kind: type[E], value: object) -> E | None:
        return kind(value) if value is not None else None

    return DealFacts(
        players=players,
        dealer=dealer,
        declarer=data.get("declarer"),
        contract=enum(Contract, data.get("contract")),
        aggravation=enum(Aggravation, data.get("aggravation")),
        called=parse_called(data["called"]) if data.get("called") else None,
        holder=data.get("holder"),
        thirds=data.get("thirds"),
        tricks=data.get("tricks"),
        last_trick=enum(Side, data.get("last_trick")),
        monte_thirds=data.get("monte_thirds"),
        passed_before=int(data.get("passed_before") or 0),
        auction=tuple((seat, enum(Contract, call)) for seat, call in data.get("auction") or ()),
    )
