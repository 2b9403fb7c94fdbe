"""Where a club table's evening sits in its club night, and what the table's key may do there: read through the club's
tables by name, without their models, so that a scorekeeper's reads and writes never load the club's store."""

from __future__ import annotations

from datetime import timedelta
from functools import cache
from typing import Any

from sqlalchemy import bindparam, column, func
from sqlalchemy import select as sql_select
from sqlalchemy import table as sql_table
from sqlmodel import Session, col

from ledger.club.values import TablePlace
from ledger.i18n import _
from ledger.store.counting import STANDING
from ledger.store.deals import by_key
from ledger.store.models import Deal, UtcDateTime

_EVENTS = sql_table("club_event", column("id"), column("name"), column("round_deals"), column("round_minutes"))
_ROUNDS = sql_table(
    "club_round",
    column("id"),
    column("event_id"),
    column("number"),
    column("started_at", UtcDateTime()),
    column("ended_at", UtcDateTime()),
)
_TABLES = sql_table("club_table", column("round_id"), column("number"), column("evening_id"))


def table_place(session: Session, evening: int) -> TablePlace | None:
    """Where evening `evening` belongs when it is a club table (None for an evening of its own), with its deals not
    voided (`STANDING`): one statement."""
    row = session.connection().execute(_place_query(), {"evening": evening}).first()
    if row is None:
        return None
    event, name, number, table, deals, round_deals, minutes, started, ended = row
    ends = started + timedelta(minutes=minutes) if minutes else None
    return TablePlace(event, name, number, table, int(deals), round_deals, ends, ended is not None)


@cache
def _place_query() -> Any:
    evening: Any = bindparam("evening")
    deals = sql_select(func.count()).where(col(Deal.evening_id) == evening, STANDING).scalar_subquery()
    return (
        sql_select(
            _EVENTS.c.id,
            _EVENTS.c.name,
            _ROUNDS.c.number,
            _TABLES.c.number,
            deals,
            _EVENTS.c.round_deals,
            _EVENTS.c.round_minutes,
            _ROUNDS.c.started_at,
            _ROUNDS.c.ended_at,
        )
        .select_from(_TABLES)
        .join(_ROUNDS, _ROUNDS.c.id == _TABLES.c.round_id)
        .join(_EVENTS, _EVENTS.c.id == _ROUNDS.c.event_id)
        .where(_TABLES.c.evening_id == evening)
    )


def refusal_for(session: Session, evening: int, table: int, *, new_deal: str | None = None) -> str | None:
    """Why the key of club table `table` (its evening) may not change evening `evening`, or None when it may: it
    writes to its own table's evening only, and only while the table's round is open (closing the event ends it) and
    the round's deals are not all played there (a new deal, `new_deal` its idempotency key or "", may still be a
    retry of one stored, which writes nothing)."""
    if table != evening:
        return _("this key writes to one table only (evening {number}): nothing was written").format(number=table)
    place = table_place(session, evening)
    if place is None:
        return None
    if place.round_over:
        return _("round {round} has ended: nothing was written; ask the organiser").format(round=place.round)
    full = place.round_deals is not None and place.deals >= place.round_deals
    if full and not (new_deal and by_key(session, new_deal)):
        return _(
            "round {round} is over at this table: its {count} deals are played; nothing was written; ask the organiser"
        ).format(round=place.round, count=place.round_deals)
    return None
