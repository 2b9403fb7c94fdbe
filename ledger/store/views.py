"""The ledger's rows as the values it answers with: an evening with its totals and who deals next, a line of a list of
evenings, the change undo would take back, a player."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from sqlmodel import Session

from ledger.rules.facts import DealFacts
from ledger.rules.seats import seat_after
from ledger.store.changes import last_undoable, view
from ledger.store.deals import deal_history, evenings_totals, next_dealers, totals
from ledger.store.evenings import Seating
from ledger.values import ChangeView, DealView, EveningInfo, EveningLine, PlayerInfo


def evening_info(session: Session, table: Seating, read: Sequence[DealView] = ()) -> EveningInfo:
    """An evening as a value, with its totals and who deals and speaks next: the seat after the dealer of the last
    deal that stands, taken from `read` (the evening's last deals, oldest first, read in the same snapshot) when one
    of them stands, as one mostly does."""
    standing = [deal for deal in read if not deal.voided]
    if not standing:
        return evening_infos(session, [table])[0]
    return _info(table, seat_after(table.players, standing[-1].dealer), totals(session, table))


def evening_infos(session: Session, tables: list[Seating]) -> list[EveningInfo]:
    """Evenings as values, with their totals and who deals and speaks next: a fixed number of statements."""
    points, dealers = evenings_totals(session, tables), next_dealers(session, tables)
    return [_info(table, dealers[table.number], points[table.number]) for table in tables]


def evening_line(table: Seating) -> EveningLine:
    """An evening as a list shows it."""
    e = table.evening
    return EveningLine(
        number=table.number,
        players=table.players,
        profile=table.profile,
        stake_cents=e.stake_cents,
        currency=e.currency,
        place=e.place,
        started_at=e.started_at,
        closed_at=e.closed_at,
        revision=e.revision,
        voided_at=e.voided_at,
        void_reason=e.void_reason,
    )


def _info(table: Seating, dealer: str, points: dict[str, int]) -> EveningInfo:
    e, line = table.evening, evening_line(table)
    return EveningInfo(
        **{each.name: getattr(line, each.name) for each in fields(line)},
        note=e.note,
        first_dealer=table.names[e.first_dealer_id],
        next_dealer=dealer,
        first_speaker=DealFacts(players=table.players, dealer=dealer).active(table.profile)[0],
        points=points,
        pot_in=e.pot_in,
        pot_from=e.pot_from,
        pot_out=e.pot_out,
    )


def last_change(
    session: Session, table: Seating, read: Sequence[DealView] = ()
) -> tuple[ChangeView, DealView | None] | None:
    """The change undo would take back now, with the deal it touched as it stands (taken from the deals `read` in
    the same snapshot when it is one of them, as it mostly is: the last deal)."""
    found = last_undoable(session, table.number)
    if found is None:
        return None
    if found.deal is None:
        return view(found), None
    known = next((deal for deal in read if deal.number == found.deal), None)
    return view(found), known or deal_history(session, table, found.deal)[-1]


def player_info(row: Any) -> PlayerInfo:
    """A player as a value."""
    return PlayerInfo(id=row.id, name=row.name, created_at=row.created_at)
