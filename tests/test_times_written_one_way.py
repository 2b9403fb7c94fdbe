"""Every time a SQLite ledger stores is written one way, whatever wrote it (a live start, an import of any export
version), so that every read of the history (statistics, charts, the report) reads a ledger holding an imported
evening beside a live one; a ledger stored before is rewritten so by its upgrade."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from alembic import command
from alembic.config import Config
from cli_support import calabresella
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.strategies import datetimes
from sqlalchemy import DateTime
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect

from ledger import Ledger
from ledger.store.engine import MIGRATIONS, make_engine, resolve_url
from ledger.store.models import UtcDateTime

ONE_WAY = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}")
DATA = Path(__file__).with_name("data")
EXAMPLES = Path(__file__).parent.parent / "examples"


def stored_times(path: Path) -> list[tuple[str, str, str]]:
    """Every time stored in the SQLite file: (table, column, text)."""
    found = []
    with sqlite3.connect(path) as connection:
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            for column in connection.execute(f'PRAGMA table_info("{table}")'):
                if column[2].upper().startswith(("DATETIME", "TIMESTAMP")):
                    rows = connection.execute(f'SELECT "{column[1]}" FROM "{table}" WHERE "{column[1]}" IS NOT NULL')
                    found += [(table, column[1], str(value)) for (value,) in rows]
    return found


def test_imported_and_live_times_are_written_alike_and_read_together(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite3"
    with Ledger(str(db)) as ledger:
        ledger.import_file(EXAMPLES / "three_friends.json")
        ledger.import_file(DATA / "three_friends_v1.json")
        ledger.start_evening(["Anna", "Bruno", "Carla"])
        ledger.record("anna solo 22")
        ledger.paid("Bruno", "Anna", "0.20")
    times = stored_times(db)
    assert len({table for table, _, _ in times}) >= 6
    assert [t for t in times if not ONE_WAY.fullmatch(t[2])] == []
    for command_line in (
        ["stats"],
        ["stats", "--json"],
        ["stats", "--csv", str(tmp_path / "stats")],
        ["chart", "running", "--out", str(tmp_path / "r.png")],
        ["report", "--out", str(tmp_path / "r.html")],
    ):
        result = calabresella("--db", str(db), *command_line, cwd=tmp_path)
        assert result.returncode == 0, (command_line, result.stderr)


def test_an_upgrade_rewrites_the_times_an_import_wrote_another_way(tmp_path: Path) -> None:
    db = tmp_path / "older.sqlite3"
    older = make_engine(resolve_url(str(db)))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with older.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0013")
    older.dispose()
    with sqlite3.connect(db) as connection:
        connection.execute(
            "INSERT INTO player (id, name, key, created_at) VALUES (1, 'Anna', 'anna', '2026-11-14 20:30:00+00:00')"
        )
        connection.execute(
            "INSERT INTO player (id, name, key, created_at) VALUES (2, 'Bruno', 'bruno', '2026-11-14 20:30:01.5+00:00')"
        )
        connection.execute(
            "INSERT INTO player (id, name, key, created_at) VALUES (3, 'Carla', 'carla', '2026-11-14T21:30:00+01:00')"
        )
        connection.execute(
            "INSERT INTO player (id, name, key, created_at) VALUES (4, 'Dario', 'dario', '2026-11-14 20:30:02.000001')"
        )
    with Ledger(str(db)) as ledger:
        assert [p.created_at.isoformat() for p in ledger.players()] == [
            "2026-11-14T20:30:00+00:00",
            "2026-11-14T20:30:01.500000+00:00",
            "2026-11-14T20:30:00+00:00",
            "2026-11-14T20:30:02.000001+00:00",
        ]
    assert [text for _, _, text in stored_times(db)] == [
        "2026-11-14 20:30:00.000000",
        "2026-11-14 20:30:01.500000",
        "2026-11-14 20:30:00.000000",
        "2026-11-14 20:30:02.000001",
    ]


@given(
    moment=datetimes(min_value=datetime(1900, 1, 2), max_value=datetime(9999, 12, 30)),
    offset=st.none() | st.integers(min_value=-14 * 60, max_value=14 * 60),
)
def test_a_time_is_stored_as_sqlalchemys_own_sqlite_datetime_writes_it(moment: datetime, offset: int | None) -> None:
    sqlite = sqlite_dialect()
    given_time = moment if offset is None else moment.replace(tzinfo=timezone(timedelta(minutes=offset)))
    in_utc = given_time if offset is None else given_time.astimezone(UTC).replace(tzinfo=None)
    theirs = DateTime().dialect_impl(sqlite).bind_processor(sqlite)
    ours = UtcDateTime().dialect_impl(sqlite).bind_processor(sqlite)
    assert theirs is not None and ours is not None
    assert ours(given_time) == theirs(in_utc)
    assert ONE_WAY.fullmatch(ours(given_time))
    assert ours(None) is None
