"""One way out of a write: every change someone may watch is one row of the change log, and each subscriber is told
of it exactly once, as that row names it (its kind, the evening and revision, the club event), whoever wrote it: this
ledger, another ledger in the same process, another program. On a real SQLite file and on the real PostgreSQL server.
On PostgreSQL a change logged before another but committed after it is told all the same."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from ledger import Ledger
from ledger.notices import Notice
from ledger.store.changes import note
from ledger.store.engine import make_engine, resolve_url, transaction
from ledger.store.evenings import get_seating
from ledger.values import Writer

PATIENCE = 20.0
QUIET = 1.0
"""Seconds to go on listening after the last notice expected, for any that should not come."""
SIX = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco")
Told = tuple[str, int | None, int, int | None]


def told(notices: queue.Queue[Notice], count: int) -> list[Told]:
    """The first `count` notices, and any that come within `QUIET` seconds after them: (kind, evening, revision,
    event)."""
    seen: list[Told] = []
    deadline = None
    while deadline is None or time.monotonic() < deadline:
        try:
            notice = notices.get(timeout=PATIENCE if deadline is None else max(deadline - time.monotonic(), 0.01))
        except queue.Empty:
            break
        seen.append((notice.kind, notice.evening, notice.revision, notice.event))
        if len(seen) >= count and deadline is None:
            deadline = time.monotonic() + QUIET
    return seen


def every_kind_of_write(ledger: Ledger) -> list[Told]:
    """Every kind of change, written through `ledger`; what each subscriber must be told, in order."""
    expected: list[Told] = []

    def write(action: Callable[[], object], *changes: Told) -> None:
        action()
        expected.extend(changes)

    write(lambda: ledger.start_evening(SIX[:3]), *[("player", None, 0, None)] * 3, ("start", 1, 0, None))
    write(lambda: ledger.record("anna solo 22"), ("record", 1, 1, None))
    write(lambda: ledger.amend(1, "20", reason="recount"), ("amend", 1, 2, None))
    write(lambda: ledger.void(1, reason="misdeal"), ("void", 1, 3, None))
    write(lambda: ledger.undo(), ("undo", 1, 4, None))
    write(lambda: ledger.close_evening(1), ("close", 1, 5, None))
    write(lambda: ledger.reopen_evening(1, reason="a deal left out"), ("reopen", 1, 6, None))
    write(lambda: ledger.void_evening(1, reason="the demo"), ("void_evening", 1, 7, None))
    write(lambda: ledger.add_players(["Dario"]), ("player", None, 0, None))
    write(lambda: ledger.rename_player("Dario", "Dora"), ("player", None, 0, None))
    write(lambda: ledger.paid("Bruno", "Anna", "1"), ("payment", None, 0, None))
    write(lambda: ledger.void_payment(1, reason="twice"), ("payment", None, 0, None))
    write(lambda: ledger.club.start_season("Autunno"), ("season", None, 0, None))
    six = ("Anna", "Bruno", "Carla", "Dora", "Elena", "Franco")
    write(lambda: ledger.club.start_event("Club", six), *[("player", None, 0, None)] * 2, ("event", None, 0, 1))
    tables = [list(six[:3]), list(six[3:])]
    write(
        lambda: ledger.club.seat_round(1, tables=tables), ("start", 2, 0, 1), ("start", 3, 0, 1), ("round", None, 0, 1)
    )
    write(lambda: ledger.record("anna solo 22", evening=2), ("record", 2, 1, 1))
    write(lambda: ledger.club.end_round(1), ("close", 2, 2, 1), ("close", 3, 1, 1), ("round", None, 0, 1))
    write(lambda: ledger.club.close_event(1), ("event", None, 0, 1))
    return expected


def test_each_change_is_told_once_to_this_ledger_and_to_another(db_url: str) -> None:
    with Ledger(db_url) as writer, Ledger(db_url) as screen:
        own: queue.Queue[Notice] = queue.Queue()
        other: queue.Queue[Notice] = queue.Queue()
        stops = [writer.subscribe(own.put), screen.subscribe(other.put)]
        try:
            expected = every_kind_of_write(writer)
            mine, theirs = told(own, len(expected)), told(other, len(expected))
        finally:
            for stop in stops:
                stop()
    assert mine == expected
    assert theirs == expected


def test_a_change_another_program_commits_is_told_once(db_url: str) -> None:
    command = Path(sys.executable).with_name("calabresella")
    with Ledger(db_url) as ledger:
        ledger.start_evening(SIX[:3])
        notices: queue.Queue[Notice] = queue.Queue()
        stop = ledger.subscribe(notices.put)
        try:
            for args in (
                ["record", "bruno solo 22"],
                ["void", "1", "--reason", "misdeal"],
                ["paid", "Anna", "Bruno", "1"],
            ):
                subprocess.run([str(command), "--db", db_url, *args], check=True, capture_output=True, timeout=60)
            seen = told(notices, 3)
        finally:
            stop()
    assert seen == [("record", 1, 1, None), ("void", 1, 2, None), ("payment", None, 0, None)]


@pytest.mark.postgres
def test_a_change_logged_before_another_and_committed_after_it_is_told(pg_url: str) -> None:
    """Table 1's close is logged first and commits last: the record of table 2 waits for it (the change log's rows
    commit in the order of their ids), and a watcher reading the rows after the last it saw misses neither."""
    with Ledger(pg_url) as scorekeeper, Ledger(pg_url) as screen:
        scorekeeper.start_evening(SIX[:3])
        scorekeeper.start_evening(SIX[3:])
        notices: queue.Queue[Notice] = queue.Queue()
        stop = screen.subscribe(notices.put)
        engine = make_engine(resolve_url(pg_url))
        try:
            with transaction(engine) as slow:  # table 1's close, slow to commit
                table = get_seating(slow, 1, locking=True)
                note(slow, table.evening, "close", Writer("terminal"))
                second = threading.Thread(target=lambda: scorekeeper.record("dario solo 22", evening=2))
                second.start()
                second.join(0.5)
                assert second.is_alive()  # waiting for the close to commit
            second.join(PATIENCE)
            seen = told(notices, 2)
        finally:
            stop()
            engine.dispose()
    assert seen == [("close", 1, 1, None), ("record", 2, 1, None)]
