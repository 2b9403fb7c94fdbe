"""Insert many rows at once: ids reserved up front, rows queued and inserted with one executemany per table."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from sqlalchemy import Connection, Table, func, insert, select
from sqlmodel import Session

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
    largest = session.info.get(("largest id", table.name))
    if largest is None:
        largest = session.execute(select(func.max(table.c.id))).scalar() or 0
    session.info[("largest id", table.name)] = largest + count
    return list(range(largest + 1, largest + count + 1))


class BulkWriter:
    """Rows queued table by table, then inserted parents first (`MetaData.sorted_tables`), each table's rows in
    one executemany of SQLAlchemy Core's `insert`."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.queued: dict[Table, list[dict[str, Any]]] = {}
        self.waiting = 0

    def queue(self, table: Table, rows: list[dict[str, Any]]) -> None:
        """Rows (each with the same columns) to insert at the next `flush`, at once when `QUEUED_ROWS` are waiting
        (so that the flush before a commit is short)."""
        if not rows:
            return
        self.queued.setdefault(table, []).extend(rows)
        self.waiting += len(rows)
        if self.waiting >= QUEUED_ROWS:
            self.flush()

    def flush(self) -> None:
        """Insert every row queued."""
        if not self.queued:
            return
        connection = self.session.connection()
        for table in next(iter(self.queued)).metadata.sorted_tables:
            if table in self.queued:
                _insert(connection, table, self.queued[table])
        self.queued.clear()
        self.waiting = 0


def _insert(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """One executemany of the rows. With `?` placeholders (SQLite) the statement is written once and each value
    converted by its column type's own bind processor for the dialect (a time is written as a live write writes it),
    as Core would, without Core's work per row; elsewhere Core's
    `insert` (on PostgreSQL it sends the rows in batches of many values)."""
    dialect = connection.dialect
    if dialect.paramstyle != "qmark":
        connection.execute(insert(table), rows)
        return
    columns = list(rows[0])
    quote = dialect.identifier_preparer.quote
    sql = f"INSERT INTO {quote(table.name)} ({', '.join(map(quote, columns))}) VALUES ({', '.join('?' * len(columns))})"
    values = itemgetter(*columns)  # a tuple: every table has an id and more
    processors = [table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in columns]
    converting = [(place, convert) for place, convert in enumerate(processors) if convert is not None]
    converted = [values(row) for row in rows]
    if converting:
        for index, row in enumerate(converted):
            cells = list(row)
            for place, convert in converting:
                if cells[place] is not None:
                    cells[place] = convert(cells[place])
            converted[index] = tuple(cells)
    connection.exec_driver_sql(sql, converted)


def writer_of(session: Session) -> BulkWriter:
    """The session's writer, made on first use."""
    writer = session.info.get("bulk writer")
    if writer is None:
        writer = session.info["bulk writer"] = BulkWriter(session)
    return writer
