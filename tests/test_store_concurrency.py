"""Several processes recording into one ledger at once lose nothing and never see "database is locked".

Each worker is a separate Python process recording deals with a distinct key each, against the same SQLite file
or the same PostgreSQL database: either through the real `record` command (the Typer app in a loop, a fresh
engine per command as on the command line) or through the library (`open_ledger` once, one transaction a deal).
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from ledger.recording import record as record_deal
from ledger.rules.build import DealInput
from ledger.store.deals import list_deals, totals
from ledger.store.engine import BUSY_TIMEOUT_MS, open_ledger, reading, transaction
from ledger.store.evenings import get_seating, start_evening

DEALS_PER_WORKER = 10

WORKER = r"""
import sys
import time
from pathlib import Path

db, tag, count, go, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]), sys.argv[5]
ready = Path(sys.argv[6])
if mode == "cli":
    import typer

    from ledger.cli.main import app

    command = typer.main.get_command(app)
else:
    from ledger.rules.build import DealInput
    from ledger.recording import record as record_deal
    from ledger.store.engine import BUSY_TIMEOUT_MS, open_ledger, transaction
    from ledger.store.evenings import get_seating

    engine = open_ledger(db)
ready.touch()
deadline = time.monotonic() + 30
while not go.exists():
    if time.monotonic() > deadline:
        sys.exit("never told to start")
    time.sleep(0.005)
for i in range(count):
    key = f"{tag}-{i}"
    facts = {"passed": True} if i % 2 else {"declarer": "Anna", "contract": "solo", "thirds": 22}
    if mode == "cli":
        args = ["--db", db, "record", "--key", key, "--json"]
        args += ["--passed"] if i % 2 else ["--declarer", "Anna", "--contract", "solo", "--thirds", "22"]
        code = command.main(args, standalone_mode=False)
        if code not in (None, 0):
            sys.exit(f"{key}: exit code {code}")
    else:
        with transaction(engine) as session:
            record_deal(session, get_seating(session, open_only=True), DealInput(**facts), key=key)
"""


def run_workers(db: str, workers: list[tuple[str, str]], tmp_path: Path) -> list[tuple[int, str]]:
    """Start one process per (mode, key prefix), all beginning at the same moment; their exit codes and stderr.

    The mode is "cli" or "library"; worker `wN` records deals keyed `wN-0` .. `wN-9`.
    """
    script = tmp_path / "worker.py"
    script.write_text(WORKER, encoding="utf-8")
    go = tmp_path / "go"
    ready = [tmp_path / f"ready-{n}" for n in range(len(workers))]
    processes = [
        subprocess.Popen(
            [sys.executable, str(script), db, tag, str(DEALS_PER_WORKER), str(go), mode, str(flag)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for (mode, tag), flag in zip(workers, ready, strict=True)
    ]
    deadline = time.monotonic() + 60
    while not all(flag.exists() for flag in ready) and time.monotonic() < deadline:
        time.sleep(0.01)  # each worker says when its imports are done; then all start at once
    go.touch()
    results = []
    for process in processes:
        try:
            _, err = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate()
        results.append((process.returncode, err))
    return results


def check_ledger(db: str, workers: int) -> None:
    """Every deal of every worker is there once, numbered 1..N without gaps, and the totals add up."""
    expected = workers * DEALS_PER_WORKER
    engine = open_ledger(db)
    try:
        with transaction(engine) as session:
            table = get_seating(session)
            views = list_deals(session, table)
            points = totals(session, table)
            revision = table.evening.revision
        with engine.connect() as connection:
            assert connection.execute(text("SELECT COUNT(*) FROM deal")).scalar_one() == expected
            assert connection.execute(text("SELECT COUNT(*) FROM deal_revision")).scalar_one() == expected
    finally:
        engine.dispose()
    assert sorted(v.number for v in views) == list(range(1, expected + 1))
    assert sorted(v.key or "" for v in views) == sorted(
        f"w{n}-{i}" for n in range(workers) for i in range(DEALS_PER_WORKER)
    )
    assert revision == expected
    # half of each worker's deals are Anna's won solo (+4/-2/-2), half are passed
    solos = workers * DEALS_PER_WORKER // 2
    assert points == {"Anna": 4 * solos, "Bruno": -2 * solos, "Carla": -2 * solos}
    # the dealer rotation holds across the processes: each deal is dealt by the seat after the previous one
    ordered = sorted(views, key=lambda v: v.number)
    seats = ("Anna", "Bruno", "Carla")
    assert [v.dealer for v in ordered] == [seats[(n + 2) % 3] for n in range(expected)]


def start(db: str) -> None:
    """An evening Anna, Bruno, Carla (Carla deals first)."""
    engine = open_ledger(db)
    try:
        with transaction(engine) as session:
            start_evening(session, ("Anna", "Bruno", "Carla"))
    finally:
        engine.dispose()


def test_processes_record_into_one_sqlite_file(sqlite_url: str, tmp_path: Path) -> None:
    """Two writers with their own keys, one through the command line; a third retries the first one's keys."""
    db = sqlite_url
    start(db)
    results = run_workers(db, [("cli", "w0"), ("library", "w1"), ("library", "w0")], tmp_path)
    for code, err in results:
        assert "locked" not in err.lower()
        assert code == 0, err
        assert "Traceback" not in err
    check_ledger(db, 2)
    engine = open_ledger(db)
    try:
        with transaction(engine) as session:
            table = get_seating(session)
            stored = {v.key: v.number for v in list_deals(session, table)}
            again = record_deal(session, table, DealInput(passed=True), key="w0-7")
        assert again.duplicate and again.deal.number == stored["w0-7"]
    finally:
        engine.dispose()


def test_a_writer_waits_for_a_lock_another_program_holds_and_keeps_its_busy_timeout(sqlite_url: str) -> None:
    """The ledger polls for SQLite's write lock itself; it writes once the lock is free, then waits as before."""
    db = Path(sqlite_url)
    start(str(db))
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    engine = open_ledger(str(db))
    outcome: list[object] = []

    def record() -> None:
        try:
            with transaction(engine) as session:
                outcome.append(record_deal(session, get_seating(session), DealInput(passed=True)).deal.number)
        except Exception as error:  # reported by the assertion below
            outcome.append(error)

    writer = threading.Thread(target=record)
    try:
        writer.start()
        writer.join(0.3)
        assert writer.is_alive() and not outcome
        other.execute("ROLLBACK")
        writer.join(30)
        assert outcome == [1]
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == BUSY_TIMEOUT_MS
    finally:
        other.close()
        writer.join(30)
        engine.dispose()


@pytest.mark.postgres
def test_two_processes_record_into_one_postgresql_database(pg_url: str, tmp_path: Path) -> None:
    start(pg_url)
    results = run_workers(pg_url, [("library", "w0"), ("library", "w1")], tmp_path)
    for code, err in results:
        assert "locked" not in err.lower() and "deadlock" not in err.lower()
        assert code == 0, err
        assert "Traceback" not in err
    check_ledger(pg_url, 2)


def test_a_long_read_sees_one_snapshot_while_a_writer_commits(db_url: str) -> None:
    engine = open_ledger(db_url)
    try:
        with transaction(engine) as session:
            start_evening(session, ("Anna", "Bruno", "Carla"))
        with reading(engine).connect() as reader, reader.begin():
            players = reader.execute(text("SELECT count(*) FROM player")).scalar_one()
            with transaction(engine) as session:
                start_evening(session, ("Dario", "Elena", "Fabio"))
                record_deal(session, get_seating(session), DealInput(declarer="Dario", contract="solo", thirds=22))
            assert reader.execute(text("SELECT count(*) FROM player")).scalar_one() == players == 3
            assert reader.execute(text("SELECT count(*) FROM deal")).scalar_one() == 0
        with reading(engine).connect() as reader, reader.begin():
            assert reader.execute(text("SELECT count(*) FROM player")).scalar_one() == 6
    finally:
        engine.dispose()
