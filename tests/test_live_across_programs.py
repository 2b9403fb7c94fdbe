"""A change written by another program reaches who watches: through the database itself (SQLite `PRAGMA
data_version`, PostgreSQL LISTEN/NOTIFY), `Ledger.subscribe` is told of a deal that a `calabresella record` in
another process committed, and a real `calabresella serve` pushes it to an evening page's event stream and to a
club leaderboard's. On a real SQLite file and on the real PostgreSQL server; every wait has a generous timeout."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator

import httpx
import pytest
from test_serve import serving

from ledger import Ledger
from ledger.notices import Notice

SIX = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco")
PATIENCE = 20.0
"""Seconds a change may take to arrive before the test fails (it takes well under one)."""


ANOTHER_PROGRAM = r"""
import contextlib, io, json, sys

import typer

from ledger.cli.main import app

command = typer.main.get_command(app)
answers = sys.stdout
for line in sys.stdin:
    said = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(said):
        code = command.main(json.loads(line), standalone_mode=False)
    print(json.dumps([code or 0, said.getvalue()]), file=answers, flush=True)
"""
"""Another program running `calabresella` commands, one per line of its input (the arguments as JSON), each as the
command line runs it (its own engine on the ledger); it answers each with its exit code and what it said on stderr.
One process for the module's commands: a process started per command would cost a second each."""


@pytest.fixture(scope="module")
def another_program() -> Iterator[Callable[..., None]]:
    """`calabresella --db DB ARGS` run by another program: a function of DB and ARGS."""
    process = subprocess.Popen(
        [sys.executable, "-c", ANOTHER_PROGRAM],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "CALABRESELLA_DB"},
    )
    assert process.stdin is not None and process.stdout is not None

    def run(db: str, *args: str) -> None:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(["--db", db, *args]) + "\n")
        process.stdin.flush()
        code, said = json.loads(process.stdout.readline() or '[null, "the other program stopped"]')
        assert code == 0, said

    try:
        yield run
    finally:
        process.stdin.close()
        process.wait(30)


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`calabresella serve` for the module's tests, over a ledger of their own on a real SQLite file and on the real
    PostgreSQL server (each test on an evening or event of its own): the ledger and the base URL."""
    if request.param == "sqlite":
        db = str(tmp_path_factory.mktemp("served") / "ledger.sqlite3")
    else:
        db = request.getfixturevalue("new_pg_database")()
    Ledger(db).close()
    with serving(db) as (base, _process):
        yield db, base


class Stream:
    """A server-sent event stream read in a thread: each event as (id, data) on a queue."""

    def __init__(self, url: str) -> None:
        self.events: queue.Queue[tuple[int, str]] = queue.Queue()
        self._client = httpx.Client(timeout=httpx.Timeout(PATIENCE * 3, connect=PATIENCE))
        self._thread = threading.Thread(target=self._read, args=(url,), daemon=True)
        self._thread.start()

    def _read(self, url: str) -> None:
        ident, data = None, []
        try:
            with self._client.stream("GET", url) as answer:
                for line in answer.iter_lines():
                    if line.startswith("id: "):
                        ident = int(line[4:])
                    elif line.startswith("data: "):
                        data.append(line[6:])
                    elif not line and ident is not None:
                        self.events.put((ident, "\n".join(data)))
                        ident, data = None, []
        except httpx.HTTPError:
            pass  # closed at the end of the test

    def next(self) -> tuple[int, str]:
        return self.events.get(timeout=PATIENCE)

    def close(self) -> None:
        self._client.close()


def test_a_subscriber_is_told_of_a_deal_another_program_recorded(
    db_url: str, another_program: Callable[..., None]
) -> None:
    with Ledger(db_url) as ledger:
        ledger.start_evening(SIX[:3])
        told: queue.Queue[Notice] = queue.Queue()
        stop = ledger.subscribe(told.put)
        try:
            another_program(db_url, "record", "bruno solo 22")
            another_program(db_url, "void", "1", "--reason", "misdeal")
            seen: list[tuple[int | None, int]] = []
            while (1, 2) not in seen:
                notice = told.get(timeout=PATIENCE)
                seen.append((notice.evening, notice.revision))
        finally:
            stop()
    assert (1, 1) in seen and seen.index((1, 1)) < seen.index((1, 2))


def test_another_programs_deal_reaches_an_evening_pages_stream(
    served: tuple[str, str], another_program: Callable[..., None]
) -> None:
    db, base = served
    with Ledger(db) as ledger:
        evening = ledger.start_evening(SIX[:3]).number
    stream = Stream(f"{base}/evenings/{evening}/events")
    try:
        assert stream.next()[0] == 0  # watching: the evening as it stands
        another_program(db, "record", "bruno solo 22", "-e", str(evening))
        ident, data = stream.next()
        while ident < 1:
            ident, data = stream.next()
        assert ident == 1 and "Bruno" in data
        another_program(db, "undo", "-e", str(evening))
        while ident < 2:
            ident, data = stream.next()
        assert ident == 2
    finally:
        stream.close()


def test_another_programs_deal_reaches_a_club_leaderboards_stream(
    served: tuple[str, str], another_program: Callable[..., None]
) -> None:
    db, base = served
    with Ledger(db) as ledger:
        event = ledger.club.start_event("Club night", SIX).number
        seated = ledger.club.seat_round(event, tables=[list(SIX[:3]), list(SIX[3:])]).current
    assert seated is not None
    stream = Stream(f"{base}/events/{event}/board/live")
    try:
        first, board = stream.next()
        assert "Anna" in board and "+4" not in board
        another_program(db, "record", "anna solo 22", "-e", str(seated.tables[0].evening))
        ident, later = stream.next()
        assert ident > first and later != board
        assert re.search(r"\+4\b", later), later  # Anna's solo counts on the board
    finally:
        stream.close()
