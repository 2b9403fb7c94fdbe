"""Standings of an evening: game points and money per player, and the running totals deal by deal."""

from __future__ import annotations

from sqlmodel import Session

from ledger.store.deals import list_deals, running_totals, totals
from ledger.store.evenings import Seating
from ledger.values import Standings, evening_games


def standings(session: Session, table: Seating) -> Standings:
    """The evening's standings."""
    points = totals(session, table)
    stake = table.evening.stake_cents
    deals = list_deals(session, table)
    game_to = table.profile.game_to
    return Standings(
        evening=table.number,
        players=table.players,
        points=points,
        cents={name: value * stake for name, value in points.items()},
        currency=table.evening.currency,
        stake_cents=stake,
        running=running_totals(table, deals),
        closed=table.evening.closed_at is not None,
        voided_at=table.evening.voided_at,
        void_reason=table.evening.void_reason,
        revision=table.evening.revision,
        game_to=game_to,
        games=evening_games(deals, game_to),
    )
