"""Standings of an evening: game points and money per player, and the running totals deal by deal."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from ledger.store.deals import running_totals, totals
from ledger.store.evenings import Table


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

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values."""
        return {
            "evening": self.evening, "players": list(self.players), "points": self.points, "cents": self.cents,
            "currency": self.currency, "stake_cents": self.stake_cents, "closed": self.closed,
            "running": [{"deal": number, "totals": line} for number, line in self.running],
        }


def standings(session: Session, table: Table) -> Standings:
    """The evening's standings."""
    points = totals(session, table)
    stake = table.evening.stake_cents
    return Standings(
        evening=table.number, players=table.players, points=points,
        cents={name: value * stake for name, value in points.items()}, currency=table.evening.currency,
        stake_cents=stake, running=running_totals(session, table), closed=table.evening.closed_at is not None,
    )
