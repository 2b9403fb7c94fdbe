"""Every page, API answer and command reads what it shows, and no more: on a ledger of 1,000 evenings each runs the
same statements, fetches the same rows and makes SQLite do the same work (its virtual machine's steps, which count
every row it walks through) as on a ledger of 60 evenings holding the same evenings shown. A read of the whole history
(every evening, every deal) would do at least sixteen times the work.

The two ledgers hold a history of small closed evenings made fast (one recorded, then copied in SQL), then the same
evenings recorded as a scorekeeper records them: a closed evening of thirty deals, a club night of two tables, and an
open evening. `tab` sums the whole history in the database, so its work grows with it; what it fetches does not."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from cli_support import calabresella
from conftest import copy_ledger
from sqlalchemy import Engine, event
from sqlalchemy.engine.cursor import CursorFetchStrategy
from sqlalchemy.pool import Pool
from test_web_support import viewer

from ledger import Ledger
from ledger.values import Terms

SMALL, LARGE = 60, 1000
"""The evenings of the two ledgers' histories (the small one's more than a page of the list of evenings)."""
LINES = ("{1} solo 22", "{2} chiamo 3D@{0} 17 last=opp", "pass", "{0} solissimo dividete 8", "{0} solo 8")
"""Deals at a table of three, `{0}` to `{2}` standing for its players."""
TABLES = (("Anna", "Bruno", "Carla"), ("Dario", "Elena", "Fabio"))
STEP = 1
"""SQLite's steps are counted one by one (counted by hundreds, what each statement leaves over a hundred is lost)."""


@dataclass
class Reads:
    """What a read cost: the statements run, the rows fetched, SQLite's steps, and the transactions it read in."""

    statements: list[str] = field(default_factory=list)
    rows: int = 0
    steps: int = 0
    snapshots: int = 0


@contextmanager
def measured(monkeypatch: pytest.MonkeyPatch) -> Iterator[Reads]:
    """What every SQLite connection taken from a pool while the block runs reads (a command's own ledger too)."""
    reads, hooked = Reads(), []

    def step() -> int:
        reads.steps += STEP
        return 0

    def traced(statement: str) -> None:
        if statement.split(None, 1)[0].upper() in ("SELECT", "WITH", "INSERT", "UPDATE", "DELETE"):
            reads.statements.append(statement)

    def checkout(connection: Any, *_: object) -> None:
        if isinstance(connection, sqlite3.Connection):
            connection.set_progress_handler(step, STEP)
            connection.set_trace_callback(traced)
            hooked.append(connection)

    def counting(name: str) -> None:
        fetch = getattr(CursorFetchStrategy, name)

        def fetched(self: Any, *args: Any, **kwargs: Any) -> Any:
            rows = fetch(self, *args, **kwargs)
            reads.rows += len(rows) if isinstance(rows, list) else rows is not None
            return rows

        monkeypatch.setattr(CursorFetchStrategy, name, fetched)

    def began(*_: object) -> None:
        reads.snapshots += 1

    for name in ("fetchone", "fetchmany", "fetchall"):
        counting(name)
    event.listen(Pool, "checkout", checkout)
    event.listen(Engine, "begin", began)
    try:
        yield reads
    finally:
        event.remove(Engine, "begin", began)
        event.remove(Pool, "checkout", checkout)
        monkeypatch.undo()
        for connection in hooked:
            with suppress(sqlite3.ProgrammingError):  # a command's connections are closed already
                connection.set_progress_handler(None, STEP)
                connection.set_trace_callback(None)


def copied(path: Path, copies: int) -> None:
    """Evening 1 (its seats, deals, revisions, payouts, changes and payments) copied `copies` times, in SQL."""
    offsets = {
        "evening": ("id", None),
        "seat": ("id", "evening_id"),
        "deal": ("id", "evening_id"),
        "deal_revision": ("id", None),
        "payout": ("id", None),
        "evening_change": ("id", "evening_id"),
        "payment": ("id", "evening_id"),
    }
    linked = {"deal_revision": ("deal_id", "deal"), "payout": ("revision_id", "deal_revision")}
    with sqlite3.connect(path) as connection:
        most = {table: connection.execute(f"SELECT max(id) FROM {table}").fetchone()[0] for table in offsets}
        for table, (key, evening) in offsets.items():
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            shifted = {key: f"{key} + k * {most[table]}"}
            if evening:
                shifted[evening] = f"{evening} + k"
            if table in linked:
                column, parent = linked[table]
                shifted[column] = f"{column} + k * {most[parent]}"
            chosen = "evening_id = 1" if evening else "1"
            selected = ", ".join(shifted.get(column, column) for column in columns)
            connection.execute(
                f"WITH RECURSIVE copies(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM copies WHERE k < {copies}) "
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {selected} FROM {table}, copies WHERE {chosen}"
            )


@dataclass(frozen=True)
class History:
    """A ledger and the numbers of what its pages show."""

    db: str
    closed: int
    event: int
    open: int


def history(path: Path, evenings: int) -> History:
    """A ledger of `evenings` small evenings, then the evenings shown."""
    with Ledger(str(path)) as ledger:
        first = ledger.start_evening(TABLES[0], Terms(stake="0.10")).number
        for line in LINES[:3]:
            ledger.record(line.format(*TABLES[0]), evening=first)
        ledger.close_evening(first)
        ledger.paid("Bruno", "Anna", "0.40", evening=first)
    copied(path, evenings - 1)
    with Ledger(str(path)) as ledger:
        closed = ledger.start_evening(TABLES[0], Terms(stake="0.10")).number
        for index in range(30):
            ledger.record(LINES[index % len(LINES)].format(*TABLES[0]), evening=closed)
        ledger.void(3, reason="misdeal", evening=closed)
        ledger.close_evening(closed)
        event = ledger.club.start_event("Club night", TABLES[0] + TABLES[1]).number
        seated = ledger.club.seat_round(event, tables=TABLES).current
        assert seated is not None
        for table in seated.tables:
            for line in LINES[:4]:
                ledger.record(line.format(*table.players), evening=table.evening)
        opened = ledger.start_evening(TABLES[1], Terms(stake="0.10")).number
        for index in range(8):
            ledger.record(LINES[index % len(LINES)].format(*TABLES[1]), evening=opened)
    return History(str(path), closed, event, opened)


@pytest.fixture(scope="module")
def histories(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> tuple[History, History]:
    """The ledger of `SMALL` evenings and the one of `LARGE`, made once for the module's reads (which write nothing)."""
    folder = tmp_path_factory.mktemp("histories")
    made = []
    for evenings in (SMALL, LARGE):
        path = copy_ledger(sqlite_template, folder, f"{evenings}.sqlite3")
        made.append(history(path, evenings))
    return made[0], made[1]


Read = Callable[[History, ExitStack], Any]
"""A read of a ledger's history (what it needs kept open, such as a phone, kept by the stack)."""


def page(address: str) -> Read:
    """A page or an API answer, `{closed}`, `{open}` and `{event}` standing for the numbers of what it shows."""

    def read(made: History, kept: ExitStack) -> Any:
        phone = kept.enter_context(viewer(made.db))
        return lambda: phone.get(address.format(closed=made.closed, open=made.open, event=made.event))

    return read


def method(call: Callable[[Ledger, History], Any]) -> Read:
    def read(made: History, kept: ExitStack) -> Any:
        ledger = kept.enter_context(Ledger(made.db))
        return lambda: call(ledger, made)

    return read


def command(*args: str) -> Read:
    """A command, `{closed}` standing for the number of the closed evening."""

    def read(made: History, kept: ExitStack) -> Any:
        given = [arg.format(closed=made.closed) for arg in args]
        return lambda: calabresella("--db", made.db, *given, env={"COLUMNS": "200"})

    return read


READS: dict[str, Read] = {
    "the home page, to the open evening": page("/"),
    "an open evening's page": page("/evenings/{open}"),
    "a closed evening's page": page("/evenings/{closed}"),
    "the first evening's page": page("/evenings/1"),
    "its settlement": page("/evenings/{closed}/settle"),
    "its settlement, API": page("/api/evenings/{closed}/settlement"),
    "the list of evenings": page("/evenings"),
    "the older evenings": page("/evenings?before={closed}"),
    "GET /api/evenings": page("/api/evenings"),
    "GET /api/evenings?before=N&limit=20": page("/api/evenings?before={closed}&limit=20"),
    "the list of club nights": page("/events"),
    "GET /api/events": page("/api/events"),
    "a club night's board": page("/events/{event}/board"),
    "Ledger.standings of a closed evening": method(lambda ledger, made: ledger.standings(made.closed)),
    "Ledger.settle(evening=N)": method(lambda ledger, made: ledger.settle(evening=made.closed)),
    "Ledger.settle() of the latest evening": method(lambda ledger, made: ledger.settle()),
    "chart running without --evening": method(lambda ledger, made: ledger.chart("running")),
    "standings --evening N, closed": command("standings", "--evening", "{closed}"),
    "settle": command("settle"),
    "evening list": command("evening", "list"),
    "evening list --json": command("evening", "list", "--json"),
    "tab --pairs": command("tab", "--pairs"),
}
PAGES = {name for name, read in READS.items() if read.__qualname__.startswith("page.")}
"""The pages and API answers: each reads in one snapshot of the ledger."""
WHOLE_HISTORY = {"tab --pairs"}
"""What sums every evening in the database: what it fetches stays the same, the database's work does not."""


@pytest.mark.parametrize("name", list(READS))
def test_a_read_costs_as_much_on_1000_evenings_as_on_60(
    name: str, histories: tuple[History, History], monkeypatch: pytest.MonkeyPatch
) -> None:
    costs = []
    for made in histories:
        with ExitStack() as kept:
            read = READS[name](made, kept)
            read()  # a first read warms what a program keeps (its statements built, a page's templates)
            with measured(monkeypatch) as reads:
                answer = read()
            assert getattr(answer, "status_code", 200) in (200, 303) and getattr(answer, "returncode", 0) == 0, answer
            costs.append(reads)
    small, large = costs
    assert len(large.statements) == len(small.statements), (small.statements, large.statements)
    assert large.rows == small.rows, name
    if name in PAGES:
        assert large.snapshots == 1, (name, large.snapshots)
    if name not in WHOLE_HISTORY:
        assert large.steps <= small.steps * 1.2 + 200, (name, small.steps, large.steps)


def test_the_running_chart_without_an_evening_draws_the_latest_evening_played(sqlite_url: str) -> None:
    """The same image as with `--evening` of the latest evening with a deal that counts, its frames all that is read."""
    with Ledger(sqlite_url) as ledger:
        for deals in (3, 4, 2, 0):
            number = ledger.start_evening(TABLES[0], Terms(stake="0.10")).number
            for line in LINES[:deals]:
                ledger.record(line.format(*TABLES[0]), evening=number)
            if deals:
                ledger.close_evening(number)
        ledger.void_evening(3, reason="a test")
        assert ledger.chart("running") == ledger.chart("running", evening=2) != ledger.chart("running", evening=1)
        assert ledger.chart("running", fmt="svg") == ledger.chart("running", evening=2, fmt="svg")
