"""Insert many rows at once: ids reserved up front, rows queued and inserted with one executemany per table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy import JSON, Connection, Table, func, insert, select
from sqlmodel import Session

from ledger.store.models import UtcDateTime

QUEUED_ROWS = 10_000
"""The most rows a writer queues before inserting them."""


def new_ids(session: Session, table: Table, count: int) -> list[int]:
    """Ids for `count` new rows of the table: from its sequence on PostgreSQL; on SQLite the ones after the
    largest, which no one else can take (the transaction holds the write lock from its start), remembered in the
    session so the next call of the same transaction needs no query."""
    if not count:
        return []
    if session.get_bind().dialect.name == "postgresql":
        sequence = func.pg_get_serial_sequence(table.name, "id")
        numbers = select(func.nextval(sequence)).select_from(func.generate_series(1, count))
        return list(session.execute(numbers).scalars())
    largest = session.info.get(("largest id", table.name))  # see `taken`
    if largest is None:
        largest = session.execute(select(func.max(table.c.id))).scalar() or 0
    session.info[("largest id", table.name)] = largest + count
    return list(range(largest + 1, largest + count + 1))


def taken(session: Session, table: Table, number: int) -> None:
    """A row of the table written with id `number` outside the queue, in this transaction: `new_ids` gives none at
    or below it."""
    key = ("largest id", table.name)
    if key in session.info:
        session.info[key] = max(session.info[key], number)


class BulkWriter:
    """Rows queued table by table, then inserted parents first (`MetaData.sorted_tables`), each table's rows in
    one executemany."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.queued: dict[Table, dict[tuple[str, ...], list[tuple[Any, ...]]]] = {}
        self.waiting = 0

    def queue(self, table: Table, rows: list[dict[str, Any]]) -> None:
        """Rows as dicts (each with the same columns) to insert at the next `flush` (see `add`)."""
        if rows:
            columns = tuple(rows[0])
            self.add(
                table, columns, list(map(itemgetter(*columns), rows))
            )  # a tuple each: every row has an id and more

    def add(self, table: Table, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
        """Rows as tuples of the `columns`' values to insert at the next `flush`, at once when `QUEUED_ROWS` are
        waiting (so that the flush before a commit is short)."""
        if not rows:
            return
        self.queued.setdefault(table, {}).setdefault(columns, []).extend(rows)
        self.waiting += len(rows)
        if self.waiting >= QUEUED_ROWS:
            self.flush()

    def flush(self) -> None:
        """Insert every row queued."""
        if not self.queued:
            return
        connection = self.session.connection()
        shared: Shared = {}
        for table in next(iter(self.queued)).metadata.sorted_tables:
            for columns, rows in self.queued.get(table, {}).items():
                _insert(connection, table, columns, rows, shared)
        self.queued.clear()
        self.waiting = 0


Shared = dict[type, dict[int, Any]]
"""The values converted so far in one flush, by column type, then by the value's `id` (the rows queued keep each
value alive until the flush ends)."""


def _insert(
    connection: Connection, table: Table, columns: tuple[str, ...], rows: list[tuple[Any, ...]], shared: Shared
) -> None:
    """One executemany of the rows. With `?` placeholders (SQLite) the statement is written once and each value
    converted by its column type's own bind processor for the dialect (a time is written as a live write writes it),
    as Core would, without Core's work per row; a value that rows of the flush share converted once (an evening's
    options, in each of its revisions; an imported time, a deal's creation, its first revision's and its change's:
    `exported_time` gives one object for one text). Elsewhere Core's `insert` (on PostgreSQL it sends the rows in
    batches of many values)."""
    dialect = connection.dialect
    if dialect.paramstyle != "qmark":
        connection.execute(insert(table), [dict(zip(columns, row, strict=True)) for row in rows])
        return
    quote = dialect.identifier_preparer.quote
    sql = f"INSERT INTO {quote(table.name)} ({', '.join(map(quote, columns))}) VALUES ({', '.join('?' * len(columns))})"
    converting = []
    for place, name in enumerate(columns):
        kind = table.c[name].type
        processor = kind.dialect_impl(dialect).bind_processor(dialect)
        if processor is not None:
            shares = isinstance(kind, JSON | UtcDateTime)
            converting.append((place, processor, shared.setdefault(type(kind), {}) if shares else None))
    if converting:
        cells: list[Sequence[Any]] = list(zip(*rows, strict=True))  # column by column
        for place, convert, done in converting:
            cells[place] = _converted(cells[place], convert, done)
        rows = list(zip(*cells, strict=True))
    connection.exec_driver_sql(sql, rows)


def _converted(values: Sequence[Any], convert: Callable[[Any], Any], done: dict[int, Any] | None) -> list[Any]:
    """A column's values converted (None stays None); with `done`, the values converted before, by `id`, each value
    converted once."""
    if done is None:
        return [None if value is None else convert(value) for value in values]
    return [
        None if value is None else done.get(id(value)) or done.setdefault(id(value), convert(value)) for value in values
    ]


def writer_of(session: Session) -> BulkWriter:
    """The session's writer, made on first use."""
    writer = session.info.get("bulk writer")
    if writer is None:
        writer = session.info["bulk writer"] = BulkWriter(session)
    return writer
