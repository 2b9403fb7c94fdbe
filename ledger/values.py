"""What the ledger's methods return: frozen values with plain fields, never database rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ledger.fmt import plain_cents
from ledger.rules.profiles import Profile
from ledger.rules.scoring import DealResult
from ledger.settlement import Transfer


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


@dataclass(frozen=True)
class PlayerInfo:
    """A player of the ledger: `id`, the name now, and when they were first seen."""

    id: int
    name: str
    created_at: datetime

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values."""
        return {"id": self.id, "name": self.name, "since": self.created_at.isoformat()}


@dataclass(frozen=True)
class EveningInfo:
    """An evening: seats in turn order, the profile pinned at the start, the stake, and where it stands now.

    `points` are the game points per seat over the deals that stand; `revision` counts every change, so
    a front end can tell whether the evening changed since it last looked; `next_dealer` deals the next
    deal and `first_speaker` speaks first in it (the seat after the dealer, the dealer sitting out or not).
    """

    number: int
    players: tuple[str, ...]
    profile: Profile
    stake_cents: int
    currency: str
    place: str | None
    note: str | None
    started_at: datetime
    closed_at: datetime | None
    revision: int
    first_dealer: str
    next_dealer: str
    first_speaker: str
    points: dict[str, int] = field(default_factory=dict)

    @property
    def closed(self) -> bool:
        """No deal of a closed evening can change."""
        return self.closed_at is not None

    @property
    def dealer_sits_out(self) -> bool:
        """More players are seated than hold cards: the dealer sits each deal out."""
        return self.profile.sits_out(len(self.players))

    @property
    def cents(self) -> dict[str, int]:
        """Money per seat, in cents of the evening's currency."""
        return {name: value * self.stake_cents for name, value in self.points.items()}

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values (money in cents)."""
        return {
            "evening": self.number,
            "players": list(self.players),
            "profile": self.profile.name,
            "options": dict(self.profile.options),
            "stake_cents": self.stake_cents,
            "currency": self.currency,
            "place": self.place,
            "note": self.note,
            "started_at": _iso(self.started_at),
            "closed_at": _iso(self.closed_at),
            "closed": self.closed,
            "revision": self.revision,
            "first_dealer": self.first_dealer,
            "next_dealer": self.next_dealer,
            "first_speaker": self.first_speaker,
            "points": self.points,
        }


@dataclass(frozen=True)
class DealView:
    """A deal as stored: one revision's facts, its derived result and every seat's game points and role.

    Players are named as they are called now (a rename follows the player). `holder` is a seat's name,
    `monte` or `declarer`; `auction` is the calls in speaking order, each (seat, call word).
    """

    number: int
    revision: int
    dealer: str
    declarer: str | None
    partner: str | None
    contract: str | None
    aggravation: str | None
    called: str | None
    holder: str | None
    auction: tuple[tuple[str, str], ...]
    declarer_thirds: int | None
    tricks: int | None
    last_trick: str | None
    passed_before: int
    declarer_won: bool | None
    sweep: str | None
    multiplier: int
    amount: int
    explanation: str
    payouts: dict[str, int]
    roles: dict[str, str]
    recorded_at: datetime
    superseded_at: datetime | None = None
    reason: str | None = None
    voided: bool = False
    void_reason: str | None = None
    key: str | None = None
    monte_thirds: int | None = None

    @property
    def passed(self) -> bool:
        """Everyone passed."""
        return self.declarer is None

    @property
    def amended(self) -> bool:
        """The deal was corrected at least once."""
        return self.revision > 1

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values."""
        return {
            "number": self.number,
            "revision": self.revision,
            "dealer": self.dealer,
            "voided": self.voided,
            "void_reason": self.void_reason,
            "key": self.key,
            "declarer": self.declarer,
            "partner": self.partner,
            "contract": self.contract,
            "aggravation": self.aggravation,
            "called": self.called,
            "holder": self.holder,
            "auction": ",".join(f"{seat}:{call}" for seat, call in self.auction) or None,
            "declarer_thirds": self.declarer_thirds,
            "tricks": self.tricks,
            "last_trick": self.last_trick,
            "monte_thirds": self.monte_thirds,
            "passed_before": self.passed_before,
            "declarer_won": self.declarer_won,
            "sweep": self.sweep,
            "multiplier": self.multiplier,
            "amount": self.amount,
            "payouts": self.payouts,
            "explanation": self.explanation,
            "recorded_at": self.recorded_at.isoformat(),
            "reason": self.reason,
            "superseded_at": _iso(self.superseded_at),
        }


@dataclass(frozen=True)
class Recorded:
    """What a write did: the deal as now stored, its result (None for a void), the evening's totals after it.

    `evening_revision` is the evening's change counter after the write (give it to `undo` to guard it);
    `duplicate` is true when an idempotency key had stored this deal before and nothing was written.
    """

    evening: int
    profile: Profile
    deal: DealView
    result: DealResult | None
    totals: dict[str, int]
    evening_revision: int
    next_dealer: str
    duplicate: bool = False

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values."""
        return {
            "evening": self.evening,
            "evening_revision": self.evening_revision,
            "duplicate": self.duplicate,
            "deal": self.deal.to_dict(),
            "totals": self.totals,
            "next_dealer": self.next_dealer,
        }


@dataclass(frozen=True)
class Standings:
    """Totals over the deals that stand; money in cents of the evening's currency."""

    evening: int
    players: tuple[str, ...]
    points: dict[str, int]
    cents: dict[str, int]
    currency: str
    stake_cents: int
    running: list[tuple[int, dict[str, int]]]
    closed: bool
    revision: int

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values."""
        return {
            "evening": self.evening,
            "players": list(self.players),
            "points": self.points,
            "cents": self.cents,
            "currency": self.currency,
            "stake_cents": self.stake_cents,
            "closed": self.closed,
            "running": [{"deal": number, "totals": line} for number, line in self.running],
        }


def payments_dict(payments: list[Transfer], currency: str | None = None) -> list[dict[str, object]]:
    """Payments as plain values; with the currency, each with its amount written out."""
    return [
        {
            "payer": p.payer,
            "payee": p.payee,
            "cents": p.cents,
            **({"amount": plain_cents(p.cents, currency)} if currency else {}),
        }
        for p in payments
    ]


@dataclass(frozen=True)
class Settlement:
    """What the chosen evenings come to in money, and the fewest payments that settle it."""

    evenings: list[int]
    currency: str
    points: dict[str, int]
    cents: dict[str, int]
    payments: list[Transfer]
    rounding: dict[str, int] = field(default_factory=dict)
    pairs: list[Transfer] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values (money in cents)."""
        return {
            "evenings": self.evenings,
            "currency": self.currency,
            "points": self.points,
            "cents": self.cents,
            "payments": payments_dict(self.payments, self.currency),
            "rounding": self.rounding,
            "pairs": payments_dict(self.pairs),
        }


@dataclass(frozen=True)
class Tab:
    """What is still owed in one currency: balances after payments, per player and per pair."""

    currency: str
    balances: dict[str, int]
    pairs: list[Transfer]
    suggested: list[Transfer]

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values (money in cents)."""
        return {
            "currency": self.currency,
            "balances": self.balances,
            "pairs": payments_dict(self.pairs),
            "suggested": payments_dict(self.suggested),
        }


@dataclass(frozen=True)
class PaymentInfo:
    """Money handed from one player to another, as recorded; a voided payment stays listed but no longer counts.

    `owed_cents` is what the payer owed in all (in the payment's currency) just before a payment recorded now,
    so a front end can warn of paying more than that; `duplicate` is true when a key had stored it before.
    """

    id: int
    payer: str
    payee: str
    cents: int
    currency: str
    evening: int | None
    note: str | None
    paid_at: datetime
    key: str | None = None
    voided_at: datetime | None = None
    void_reason: str | None = None
    owed_cents: int | None = None
    duplicate: bool = False

    @property
    def voided(self) -> bool:
        """The payment no longer counts."""
        return self.voided_at is not None

    @property
    def overpaid_cents(self) -> int:
        """How much more than the payer owed this payment hands over (0 when not more, or not known)."""
        return max(0, self.cents - self.owed_cents) if self.owed_cents is not None else 0

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values (money in cents)."""
        return {
            "id": self.id,
            "payer": self.payer,
            "payee": self.payee,
            "cents": self.cents,
            "amount": plain_cents(self.cents, self.currency),
            "currency": self.currency,
            "evening": self.evening,
            "note": self.note,
            "paid_at": self.paid_at.isoformat(),
            "key": self.key,
            "voided": self.voided,
            "voided_at": _iso(self.voided_at),
            "void_reason": self.void_reason,
            "owed_cents": self.owed_cents,
            "duplicate": self.duplicate,
        }


@dataclass(frozen=True)
class ImportSummary:
    """What an import wrote: the new evenings and their deals, and what it skipped as already in the ledger.

    `skipped` are the ledger's evenings that already held one of the export's evenings.
    """

    evenings: tuple[int, ...] = ()
    deals: int = 0
    skipped: tuple[int, ...] = ()
    payments: int = 0
    payments_skipped: int = 0

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values."""
        return {
            "evenings": list(self.evenings),
            "deals": self.deals,
            "skipped": list(self.skipped),
            "payments": self.payments,
            "payments_skipped": self.payments_skipped,
        }
