"""Standings of an evening: game points and money per player, and the running totals deal by deal."""

from __future__ import annotations

from sqlmodel import Session

from ledger.rules.games import games
from ledger.store.deals import list_deals, running_totals, totals
from ledger.store.evenings import Seating
from ledger.values import Standings


def standings(session: Session, table: Seating) -> Standings:
    """The evening's standings."""
    points = totals(session, table)
    stake = table.evening.stake_cents
    deals = list_deals(session, table)
    game_to = table.profile.game_to
    finished, current = (
        games(((d.number, d.payouts, d.declarer) for d in deals if not d.voided), game_to) if game_to else ((), None)
    )
    return Standings(
        evening=table.number,
        players=table.players,
        points=points,
        cents={name: value * stake for name, value in points.items()},
        currency=table.evening.currency,
        stake_cents=stake,
        running=running_totals(table, deals),
        closed=table.evening.closed_at is not None,
        revision=table.evening.revision,
        game_to=game_to,
        games=(*finished, *((current,) if current else ())),
    )
