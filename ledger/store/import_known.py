"""What an import knows of the ledger it writes into: its evenings by start (an evening of the export already in is
skipped) and its deals' keys (a key already used is refused).

Each is read whole at the import's first transaction; at each transaction after, only the rows others added since
(those numbered after the last the import knows) are read, and the import adds its own as it queues them. On SQLite a
transaction holds the write lock, so the rows others add take the numbers after the import's. On PostgreSQL a row
added meanwhile may take a number below the import's and is left out: an evening started then is no evening of an
export, which started long before, and a key recorded then is refused by the database when the import writes it
too, in one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, Table, bindparam, select
from sqlmodel import Session

from ledger.clock import as_utc
from ledger.store.models import Deal, Evening

EVENINGS: Table = Evening.__table__  # type: ignore[attr-defined]
DEALS: Table = Deal.__table__  # type: ignore[attr-defined]


class Starts:
    """The ledger's evenings by start."""

    def __init__(self) -> None:
        self.evenings: dict[datetime, list[int]] = {}
        self.last = 0

    def of(self, session: Session) -> dict[datetime, list[int]]:
        """The evenings by start, as this transaction sees them."""
        if session.info.get(Starts) is not self:
            for number, started in _since(session, EVENINGS, self.last, EVENINGS.c.started_at):
                self.add(as_utc(started), number)
            session.info[Starts] = self
        return self.evenings

    def add(self, started: datetime, number: int) -> None:
        """Evening `number`, which started at `started`."""
        self.evenings.setdefault(started, []).append(number)
        self.last = max(self.last, number)


class Keys:
    """The keys of the ledger's deals, kept as their hashes (a million keys take some twenty megabytes), and the keys
    of the deals this transaction queued with their deals' numbers and evenings: a key whose hash is held is looked
    up among those, then in the ledger."""

    def __init__(self) -> None:
        self.hashes: set[int] = set()
        self.queued: dict[str, tuple[int, int]] = {}
        self.last = 0

    def read(self, session: Session) -> None:
        """Read the keys the ledger holds, or those others added since, once per transaction: before it queues deals
        (they take the numbers after the last the ledger holds)."""
        if session.info.get(Keys) is not self:
            self.queued.clear()  # committed: in the ledger now
            deals = DEALS.c
            for deal, key in _since(session, DEALS, self.last, deals.key, where=deals.key.is_not(None)):
                self.hashes.add(hash(key))
                self.last = max(self.last, deal)
            session.info[Keys] = self

    def holder(self, session: Session, key: str) -> tuple[int, int] | None:
        """The number and evening of the deal holding `key`, if one does."""
        if hash(key) not in self.hashes:
            return None
        if key in self.queued:
            return self.queued[key]
        found = session.connection().execute(_holding(), {"key": key}).first()
        return None if found is None else (found.number, found.evening_id)

    def add(self, evening: int, ids: Sequence[int], deals: list[dict[str, Any]]) -> None:
        """The deals of evening `evening` the import queues, with their ids."""
        for deal in deals:
            if deal.get("key"):
                self.hashes.add(hash(deal["key"]))
                self.queued[deal["key"]] = (deal["number"], evening)
        if ids:
            self.last = max(self.last, ids[-1])


@cache
def _holding() -> Any:
    """The number and evening of the deal with key `:key` (built once)."""
    deals = DEALS.c
    return select(deals.number, deals.evening_id).where(deals.key == bindparam("key"))


def _since(
    session: Session, table: Table, last: int, *columns: ColumnElement[Any], where: ColumnElement[bool] | None = None
) -> list[tuple[Any, ...]]:
    """The id and `columns` of the table's rows numbered after `last` (and meeting `where`), in order."""
    query = select(table.c.id, *columns).where(table.c.id > last).order_by(table.c.id)
    return [tuple(row) for row in session.execute(query if where is None else query.where(where))]
