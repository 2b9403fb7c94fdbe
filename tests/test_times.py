"""Times: every time the ledger reads back is an aware UTC time, written in JSON as ISO 8601 ending `+00:00`, on
SQLite (which keeps no offset) as on PostgreSQL (here answering in India's time, +05:30, so a time read back in
UTC proves the conversion); times shown on a terminal or a page stay in local time."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from cli_support import calabresella
from conftest import as_document
from sqlalchemy import create_engine, make_url, text
from test_web_support import BEARER, start, viewer

from ledger import Ledger
from ledger.values import Terms

STAMPS = {
    "since",
    "started",
    "started_at",
    "closed_at",
    "created_at",
    "recorded_at",
    "superseded_at",
    "paid_at",
    "voided_at",
}
"""Every key under which a value's `to_dict()`, a `--json` output or an export writes a time."""
INDIA = "Asia/Kolkata"
INDIA_OFFSET = timedelta(hours=5, minutes=30)
PLAYERS = ("Anna", "Bruno", "Carla")


def answer_in_india_time(url: str) -> None:
    """New sessions of this PostgreSQL database answer in India's time zone, not in UTC."""
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"ALTER DATABASE \"{make_url(url).database}\" SET timezone TO '{INDIA}'"))
    admin.dispose()


@pytest.fixture
def far_db(db_url: str) -> str:
    """The ledger under test; on PostgreSQL its sessions answer in India's time zone."""
    if db_url.startswith("postgresql"):
        answer_in_india_time(db_url)
    return db_url


@pytest.fixture
def india_local_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process's local time is India's while the test runs."""
    monkeypatch.setenv("TZ", INDIA)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def stamps(value: Any, key: str = "") -> list[tuple[str, Any]]:
    """Every (key, value) of a JSON value whose key names a time, however deep."""
    found = [(key, value)] if key in STAMPS else []
    if isinstance(value, dict):
        found += [pair for name, item in value.items() for pair in stamps(item, name)]
    elif isinstance(value, list):
        found += [pair for item in value for pair in stamps(item, key if key in STAMPS else "")]
    return found


def assert_utc_and_recent(written: list[tuple[str, Any]], expected: set[str]) -> None:
    """Each time written ends in `+00:00` and is this minute's (not hours off); every expected key holds one."""
    now = datetime.now(UTC)
    for key, value in written:
        if value is None:
            continue
        assert isinstance(value, str) and value.endswith("+00:00"), (key, value)
        assert abs(datetime.fromisoformat(value) - now) < timedelta(minutes=1), (key, value, now)
    assert {key for key, value in written if value is not None} == expected


def assert_aware_utc(value: Any) -> None:
    """Every time field of a value (and of the values it holds) is aware and in UTC."""
    assert is_dataclass(value)
    for field in fields(value):
        item = getattr(value, field.name)
        if isinstance(item, datetime):
            assert item.utcoffset() == timedelta(0) and item.tzinfo is not None, (type(value).__name__, field.name)
        elif is_dataclass(item):
            assert_aware_utc(item)


def evening_with_history(db: str) -> None:
    """An evening with a deal amended, a deal voided, a payment voided, closed; its payment stays listed."""
    with Ledger(db) as ledger:
        ledger.start_evening(PLAYERS, Terms(stake="0.10"))
        ledger.record("bruno solo 22")
        ledger.record("anna solo 20")
        ledger.amend(1, "20", reason="recount")
        ledger.void(2, reason="misdeal")
        ledger.paid("Anna", "Bruno", "0.20")
        ledger.paid("Carla", "Bruno", "0.10")
        ledger.void_payment(2, reason="twice")
        ledger.close_evening(1)


@pytest.mark.postgres
def test_postgresql_answers_the_ledger_in_india_time(pg_url: str) -> None:
    answer_in_india_time(pg_url)
    start(pg_url)
    engine = create_engine(pg_url)
    with engine.connect() as connection:
        started = connection.execute(text("SELECT started_at FROM evening")).scalar_one()
    engine.dispose()
    assert started.utcoffset() == INDIA_OFFSET


def test_every_value_the_ledger_returns_holds_utc_times(far_db: str) -> None:
    evening_with_history(far_db)
    with Ledger(far_db) as ledger:
        info, deals = ledger.deals(1)
        values = [
            *ledger.players(),
            *ledger.evenings(),
            info,
            *deals,
            *ledger.deal(1, evening=1).revisions,
            *ledger.deal(2, evening=1).revisions,
            *ledger.payments(),
        ]
    for value in values:
        assert_aware_utc(value)
    written = [pair for value in values for pair in stamps(value.to_dict())]
    expected = {"since", "started_at", "closed_at", "recorded_at", "superseded_at", "paid_at", "voided_at"}
    assert_utc_and_recent(written, expected)


def test_a_write_returns_utc_times(far_db: str) -> None:
    start(far_db)
    with Ledger(far_db) as ledger:
        recorded = ledger.record("bruno solo 22")
        amended = ledger.amend(1, "20", reason="recount")
        paid = ledger.paid("Anna", "Bruno", "0.20")
        voided = ledger.void_payment(1, reason="twice")
    for value in (recorded, amended, paid, voided):
        assert_aware_utc(value)
    written = [pair for value in (recorded, amended, paid, voided) for pair in stamps(value.to_dict())]
    assert_utc_and_recent(written, {"recorded_at", "paid_at", "voided_at"})


def test_an_export_writes_utc_times(far_db: str) -> None:
    evening_with_history(far_db)
    with Ledger(far_db) as ledger:
        exported = as_document(ledger.export())
    expected = {"started_at", "closed_at", "created_at", "recorded_at", "superseded_at", "paid_at", "voided_at"}
    assert_utc_and_recent(stamps(exported), expected)


def _json(db: str, *args: str) -> Any:
    """`calabresella --db DB ARGS --json`, its output parsed."""
    done = calabresella("--db", db, *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.usefixtures("india_local_time")
def test_every_time_the_command_line_writes_as_json_is_utc(far_db: str) -> None:
    evening_with_history(far_db)
    outputs = [
        _json(far_db, "players", "list"),
        _json(far_db, "evening", "list"),
        _json(far_db, "evening", "show", "-e", "1"),
        _json(far_db, "deals", "-e", "1"),
        _json(far_db, "deal", "show", "1", "-e", "1"),
        _json(far_db, "paid", "--list"),
    ]
    written = [pair for output in outputs for pair in stamps(output)]
    expected = {"since", "started_at", "closed_at", "recorded_at", "superseded_at", "paid_at", "voided_at"}
    assert_utc_and_recent(written, expected)


def test_every_time_the_web_api_writes_is_utc(far_db: str) -> None:
    start(far_db)
    with viewer(far_db) as phone:
        posted = [
            phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER).json(),
            phone.post("/api/evenings/1/deals", json={"line": "anna solo 20"}, headers=BEARER).json(),
            phone.post("/api/evenings/1/deals/1/amend", json={"line": "20", "reason": "x"}, headers=BEARER).json(),
            phone.post("/api/evenings/1/deals/2/void", json={"reason": "misdeal"}, headers=BEARER).json(),
            phone.post("/api/evenings/1/close", headers=BEARER).json(),
        ]
        read = [phone.get(f"/api/evenings{path}").json() for path in ("", "/1", "/1/deals", "/1/deals/1", "/1/deals/2")]
    written = [pair for body in posted + read for pair in stamps(body)]
    assert_utc_and_recent(written, {"started_at", "closed_at", "recorded_at", "superseded_at"})


@pytest.mark.usefixtures("india_local_time")
def test_the_terminal_shows_times_in_local_time(far_db: str) -> None:
    start(far_db)
    started = datetime.fromisoformat(_json(far_db, "evening", "show")["started_at"])
    listed = calabresella("--db", far_db, "evening", "list", env={"COLUMNS": "200"})
    assert listed.returncode == 0, listed.stderr
    shown = listed.stdout
    assert started.astimezone(ZoneInfo(INDIA)).strftime("%Y-%m-%d %H:%M") in shown
    assert started.strftime("%Y-%m-%d %H:%M") not in shown


@pytest.mark.usefixtures("india_local_time")
def test_the_pages_show_times_in_local_time(far_db: str) -> None:
    start(far_db)
    with Ledger(far_db) as ledger:
        started = ledger.evening(1).started_at
    with viewer(far_db) as phone:
        page = phone.get("/evenings").text
    assert started.astimezone(ZoneInfo(INDIA)).strftime("%Y-%m-%d %H:%M") in page
    assert started.strftime("%Y-%m-%d %H:%M") not in page
