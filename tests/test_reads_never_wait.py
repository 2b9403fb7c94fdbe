"""A read is one snapshot and never waits for a writer: while another program holds the write lock (SQLite) or an
evening's row (PostgreSQL) in the middle of a write, every read answers at once; and under concurrent writers on
PostgreSQL, what one read returns agrees with itself; and the statistics' read leaves this program's own open read
held."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from test_web_support import viewer

from ledger import Ledger
from ledger.store.engine import resolve_url
from ledger.values import Terms

PATIENCE = 60.0
"""How long a read is waited for while the writer holds on: one still waiting then waits for the writer (it would
wait for ever, the writer letting go only after the reads). No read takes this long beside no writer, however busy
the machine."""
WRITE_SEEN = 1.0
"""How long a write begun beside the writer is given: one that ends meanwhile did not wait for it."""
READS: dict[str, Callable[[Ledger], Any]] = {
    "standings": lambda ledger: ledger.standings(1),
    "deals": lambda ledger: ledger.deals(1),
    "evening": lambda ledger: ledger.evening(1),
    "evenings": lambda ledger: ledger.evenings(),
    "players": lambda ledger: ledger.players(),
    "deal history": lambda ledger: ledger.deal(1, 1).revisions,
    "settle": lambda ledger: ledger.settle(evening=1),
    "tab": lambda ledger: ledger.tab(),
    "payments": lambda ledger: ledger.payments(),
    "stats": lambda ledger: ledger.stats(evening=1),
}


@contextmanager
def writer_in_the_middle(db: str) -> Iterator[None]:
    """Another program halfway through a write: it holds the write lock (SQLite) or evening 1's row (PostgreSQL),
    having changed the evening, and commits nothing until the block ends."""
    engine = create_engine(resolve_url(db), isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            connection.exec_driver_sql("BEGIN")
            connection.execute(text("SELECT id FROM evening WHERE id = 1 FOR UPDATE"))
        connection.execute(text("UPDATE evening SET revision = revision + 1 WHERE id = 1"))
        try:
            yield
        finally:
            connection.exec_driver_sql("ROLLBACK")
    engine.dispose()


def done_while_held(read: Callable[[], object]) -> bool:
    """Whether `read` ended while the writer still holds on (waited for up to `PATIENCE`)."""
    done = threading.Event()
    worker = threading.Thread(target=lambda: (read(), done.set()), daemon=True)
    worker.start()
    return done.wait(PATIENCE)


@pytest.fixture
def played(db_url: str) -> str:
    """A ledger with an evening of a few deals, one amended, and a payment."""
    with Ledger(db_url) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(stake="0.10"))
        for line in ("bruno solo 22", "carla chiamo 3D@anna 17 last=opp", "pass", "anna solo 8"):
            ledger.record(line)
        ledger.amend(1, "20", reason="recount")
        ledger.paid("Bruno", "Anna", "0.20")
    return db_url


def test_every_read_answers_while_another_program_is_writing_and_a_write_waits(played: str) -> None:
    """Every read answers at once beside the writer, and a write started meanwhile does wait (so the reads were
    measured beside a real writer)."""
    with Ledger(played) as ledger:
        for read in READS.values():
            read(ledger)  # connections opened and statements compiled before the clock runs
        with writer_in_the_middle(played):
            answered = {name: done_while_held(lambda read=read: read(ledger)) for name, read in READS.items()}  # type: ignore[misc]
            writing = threading.Thread(target=lambda: ledger.record("pass", evening=1), daemon=True)
            writing.start()
            writing.join(WRITE_SEEN)
            waited = writing.is_alive()  # (a slow machine may keep it alive regardless: then this shows nothing)
        writing.join(PATIENCE)
        assert ledger.evening(1).revision == 6, "the writer's change was rolled back, then the write went through"
    waiting = [name for name, done in answered.items() if not done]
    assert not waiting, f"reads waited for the writer: {waiting}"
    assert waited, "a write went through while another program held the lock"


def test_the_statistics_read_leaves_a_read_this_program_holds_protected(sqlite_url: str) -> None:
    """SQLite's locks on a file belong to the program, not to a connection, and its library keeps track of them for
    the whole program. The statistics read a SQLite ledger through the program's one SQLite library: a second copy
    (an Arrow driver's did) opening and closing the file dropped the locks of reads this program held, and another
    program could then empty the -wal file under them (and the web server died of a bus error, once)."""
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(stake="0.10"))
        ledger.record("bruno solo 22")
        held = sqlite3.connect(sqlite_url, isolation_level=None)
        held.execute("BEGIN")
        before = held.execute("SELECT count(*) FROM deal").fetchone()
        ledger.record("anna solo 8")
        assert ledger.stats(evening=1)
        emptying = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=0.2); "
                "print(*c.execute('PRAGMA wal_checkpoint(TRUNCATE)').fetchone())",
                sqlite_url,
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        busy = emptying.stdout.split()[0]
        assert held.execute("SELECT count(*) FROM deal").fetchone() == before == (1,)
        held.close()
    assert busy == "1", f"another program emptied the -wal file under this program's read: {emptying.stdout}"


def test_the_evening_page_answers_while_another_program_is_writing(played: str) -> None:
    with viewer(played) as phone:
        assert phone.get("/evenings/1").status_code == 200
        with writer_in_the_middle(played):
            pages: list[int] = []
            answered = done_while_held(lambda: pages.append(phone.get("/evenings/1").status_code))
    assert answered and pages == [200]


@pytest.mark.postgres
def test_reads_under_concurrent_writers_agree_with_themselves(pg_url: str) -> None:
    """Four writers record and correct deals while readers look: every deal read has its payouts, and every
    evening's totals equal the sum of the deals read with them."""
    with Ledger(pg_url) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(stake="0.10"))
        ledger.record("bruno solo 22")
    stop = threading.Event()
    problems: list[str] = []
    reads = [0]

    def write(seat: str) -> None:
        try:
            with Ledger(pg_url) as ledger:
                for index in range(10):
                    done = ledger.record(f"{seat} solo {6 + (index * 7) % 24}t", evening=1)
                    if index % 5 == 4:  # a third more than recorded: a real correction
                        ledger.amend(done.deal.number, f"{6 + (index * 7 + 1) % 24}t", reason="recount", evening=1)
        except Exception as error:  # a writer's failure fails the test, not only its thread
            problems.append(f"{seat}: {error!r}")

    def look() -> None:
        with Ledger(pg_url) as ledger:
            while not stop.is_set():
                info, views = ledger.deals(1)
                empty = [view.number for view in views if not view.payouts]
                if empty:
                    problems.append(f"deals without payouts: {empty}")
                summed = {name: sum(view.payouts[name] for view in views if not view.voided) for name in info.players}
                if summed != dict(info.points):
                    problems.append(f"evening totals {dict(info.points)} but its deals sum to {summed}")
                standings = ledger.standings(1)
                last = dict(standings.running[-1][1]) if standings.running else {}
                if last != dict(standings.points):
                    problems.append(f"standings {dict(standings.points)} but the running totals end at {last}")
                reads[0] += 1

    writers = [threading.Thread(target=write, args=(seat,)) for seat in ("anna", "bruno", "carla", "anna")]
    readers = [threading.Thread(target=look) for _ in range(3)]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    for thread in readers:
        thread.join()
    assert reads[0] >= 3, "the readers never read beside the writers"
    assert not problems, f"{len(problems)} of {reads[0]} reads disagreed with themselves, e.g. {problems[:3]}"
