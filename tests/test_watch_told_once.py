"""On PostgreSQL a ledger tells its subscribers of its own deals once: its watcher does not look again at what the
ledger told itself, while every other ledger on the same database (in this process or another) is still told, of
every change, in whatever order the writes commit."""

from __future__ import annotations

import queue
import time

import pytest
from sqlalchemy import create_engine, text

from ledger import Ledger
from ledger.notices import Notice
from ledger.store.watch import notify

pytestmark = pytest.mark.postgres
PATIENCE = 20.0
QUIET = 1.5
"""Seconds to go on listening after the last notice expected, for any that should not come."""


def _gathered(told: queue.Queue[Notice], until: tuple[int, int]) -> list[tuple[int | None, int]]:
    """The notices' (evening, revision), up to `until` and for `QUIET` seconds after it."""
    seen: list[tuple[int | None, int]] = []
    while until not in seen:
        notice = told.get(timeout=PATIENCE)
        seen.append((notice.evening, notice.revision))
    deadline = time.monotonic() + QUIET
    while (left := deadline - time.monotonic()) > 0:
        try:
            notice = told.get(timeout=left)
        except queue.Empty:
            break
        seen.append((notice.evening, notice.revision))
    return seen


def test_own_deals_are_told_once_and_other_ledgers_are_told_too(pg_url: str) -> None:
    with Ledger(pg_url) as scorekeeper, Ledger(pg_url) as screen:
        scorekeeper.start_evening(("Anna", "Bruno", "Carla"))
        own: queue.Queue[Notice] = queue.Queue()
        other: queue.Queue[Notice] = queue.Queue()
        stops = [scorekeeper.subscribe(own.put), screen.subscribe(other.put)]
        try:
            for line in ("anna solo 22", "bruno solo 7+1/3", "carla solo 21"):
                scorekeeper.record(line)
            mine, theirs = _gathered(own, (1, 3)), _gathered(other, (1, 3))
        finally:
            for stop in stops:
                stop()
    assert [mine.count((1, revision)) for revision in (1, 2, 3)] == [1, 1, 1]
    assert {(1, 1), (1, 2), (1, 3)} <= set(theirs)


def test_a_change_that_commits_after_a_newer_one_is_told_all_the_same(pg_url: str) -> None:
    """Two tables write at once: the first's change is logged before the second's but commits after it. Every
    other ledger is told of both (a watcher that read the log past the newest row it had seen would miss the first)."""
    with Ledger(pg_url) as scorekeeper, Ledger(pg_url) as screen:
        scorekeeper.start_evening(("Anna", "Bruno", "Carla"))
        scorekeeper.start_evening(("Dora", "Elio", "Fede"))
        other: queue.Queue[Notice] = queue.Queue()
        stop = screen.subscribe(other.put)
        engine = create_engine(pg_url)
        try:
            with engine.begin() as slow:  # table 1's write, slow to commit
                slow.execute(text("UPDATE evening SET revision = revision + 1 WHERE id = 1"))
                slow.execute(
                    text(
                        "INSERT INTO evening_change (evening_id, revision, at, kind, source)"
                        " VALUES (1, 1, now(), 'close', 'cli')"
                    )
                )
                scorekeeper.record("dora solo 22", evening=2)  # logged after table 1's, committed before it
                notify(slow, Notice(evening=1, revision=1))
            theirs = _gathered(other, (1, 1))
        finally:
            stop()
            engine.dispose()
    assert {(1, 1), (2, 1)} <= set(theirs)
