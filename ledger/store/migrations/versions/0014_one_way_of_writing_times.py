"""Every stored time written one way on SQLite: `YYYY-MM-DD HH:MM:SS.ffffff` in UTC, as a live write stores it.

Imports used to store some times with an offset and no fraction (`2026-11-14 20:30:00+00:00`); this rewrites those,
and any other time written another way, in place. PostgreSQL stores times as times, so nothing changes there.

Revision ID: 0014
Revises: 0013
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

WRITTEN = "%Y-%m-%d %H:%M:%S.%f"
ONE_WAY = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9][0-9][0-9][0-9]"
"""A time as SQLite's `DateTime` writes it (GLOB's pattern)."""


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    found = sa.inspect(bind)
    for table in found.get_table_names():
        for column in found.get_columns(table):
            if isinstance(column["type"], sa.DateTime):
                _rewrite(bind, table, column["name"])


def _rewrite(bind: sa.Connection, table: str, column: str) -> None:
    """The column's times written another way, written again one way: those with a `+00:00` offset by one statement,
    any other one by one (parsed as ISO 8601, a time without an offset being UTC)."""
    quoted = f'"{table}"."{column}"'
    bare = f"substr({quoted}, 1, length({quoted}) - 6)"
    bind.exec_driver_sql(
        f'UPDATE "{table}" SET "{column}" = CASE WHEN instr({quoted}, \'.\') > 0 THEN {bare} '
        f"ELSE {bare} || '.000000' END WHERE {quoted} LIKE '____-__-__ __:__:__%+00:00'"
    )
    others = bind.exec_driver_sql(
        f"SELECT rowid, {quoted} FROM \"{table}\" WHERE {quoted} IS NOT NULL AND {quoted} NOT GLOB '{ONE_WAY}'"
    ).all()
    for rowid, text in others:
        moment = datetime.fromisoformat(str(text))
        moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
        bind.exec_driver_sql(f'UPDATE "{table}" SET "{column}" = ? WHERE rowid = ?', (moment.strftime(WRITTEN), rowid))


def downgrade() -> None:
    """Nothing to take back: the times mean what they meant."""
