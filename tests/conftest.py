"""Shared fixtures: real SQLite files and a real PostgreSQL server started for the test session."""

from __future__ import annotations

import asyncio
import glob
import importlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from ledger.i18n import use_language

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CHROMIUM = next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(path).exists()),
    "/usr/bin/chromium",
)
"""Debian's Chromium for the browser tests: its headless shell where it is installed (the same Blink, without the
full browser's windowing; the browser tests take half the processor time), else the full browser."""
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
"""Compiled modules are kept (in `__pycache__`), even where the environment says not to write them: the suite starts
some two hundred Python processes, its workers and the commands it runs as a user does, and each would otherwise
compile the ledger, and a worker every test module, again (12 s of a worker's start, 0.15 s of each command's)."""
os.environ.pop("COLUMNS", None)
importlib.import_module("ledger.cli.render")
"""Each test sets the width it reads its output at: the command line's console is made here, where COLUMNS is unset,
so that it reads the width of each command run in-process (a console made where COLUMNS is set keeps that width for
the whole run, and a worker of a parallel run starts with COLUMNS=80)."""


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: one worker more than the processors this process may run on. A tenth of the workers' time goes in
    waiting for what their tests start (servers, browsers, commands, PostgreSQL); the one more worker runs tests
    meanwhile (`bench/README.md`, the suite). `PYTEST_XDIST_AUTO_NUM_WORKERS` still says how many, where set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1


def as_document(export: str) -> dict[str, Any]:
    """A JSON Lines export (version 3) read with the json module as one document shaped as version 2 was: the
    header's fields, then `evenings` and `payments` in the order of their lines (a player's renames, which version 2
    did not keep, left aside)."""
    lines = [json.loads(line) for line in export.split("\n") if line]
    header, rest = lines[0], lines[1:]
    assert header == {"format": "calabresella-ledger", "version": 3}, header
    assert all(len(line) == 1 and next(iter(line)) in ("evening", "payment", "rename") for line in rest), rest
    return {
        **header,
        "evenings": [line["evening"] for line in rest if "evening" in line],
        "payments": [line["payment"] for line in rest if "payment" in line],
    }


def as_lines(document: dict[str, Any]) -> str:
    """A version 2 document written as a version 3 export: the header, a line per evening, a line per payment."""
    lines = [{"format": "calabresella-ledger", "version": 3}]
    lines += [{"evening": evening} for evening in document.get("evenings") or ()]
    lines += [{"payment": payment} for payment in document.get("payments") or ()]
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


# The tests speak English unless one says otherwise, whatever the locale of the machine running them.
os.environ["CALABRESELLA_LANG"] = "en"


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A test that switched the language (an Italian command run in-process) leaves English behind."""
    yield
    use_language("en")


# Subprocess tests run the `calabresella` installed beside this interpreter (a venv need not be activated).
os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


def _pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its binaries as the `postgres` user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A throw-away PostgreSQL cluster on a free local port; yields its base URL (no database)."""
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("no PostgreSQL binaries (initdb, pg_ctl) on this machine")
    workdir = Path(tempfile.mkdtemp(prefix="calabresella-pg-"))
    data = workdir / "data"
    if os.geteuid() == 0:
        shutil.chown(workdir, "postgres", "postgres")
    user = "postgres" if os.geteuid() == 0 else os.environ.get("USER", "postgres")
    subprocess.run(
        _as_postgres([initdb, "-D", str(data), "-U", user, "-A", "trust", "--no-sync"]), check=True, capture_output=True
    )
    port = _free_port()
    options = f"-p {port} -k {workdir} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        _as_postgres([pg_ctl, "-D", str(data), "-o", options, "-l", str(workdir / "log"), "-w", "start"]),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://{user}@127.0.0.1:{port}"
    finally:
        subprocess.run(_as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "stop"]), capture_output=True)
        # A database copied per test leaves a cluster of a gigabyte or more, which takes seconds to delete: the
        # deleting goes on in the background while the run ends.
        subprocess.Popen(["rm", "-rf", str(workdir)], start_new_session=True)


def _create_database(server: str, template: str | None = None) -> str:
    """A new database on the test server, empty or copied from `template`; its URL."""
    from sqlalchemy import create_engine, text

    name = f"ledger_{uuid.uuid4().hex[:12]}"
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            copied = f' TEMPLATE "{template}"' if template else ""
            connection.execute(text(f'CREATE DATABASE "{name}"{copied}'))
    finally:
        admin.dispose()
    return f"{server}/{name}"


@pytest.fixture(scope="session")
def new_pg_database(pg_server: str) -> Callable[[], str]:
    """Makes a fresh, empty database on the test server and gives its URL (for a test that needs several)."""
    return lambda: _create_database(pg_server)


@pytest.fixture(scope="session")
def pg_template(pg_server: str) -> str:
    """The name of a database of the test server migrated once for the session, which fresh ledgers are copied
    from."""
    from ledger.store.engine import open_ledger

    url = _create_database(pg_server)
    open_ledger(url).dispose()
    return url.rsplit("/", 1)[1]


@pytest.fixture(scope="session")
def new_pg_ledger(pg_server: str, pg_template: str) -> Callable[[], str]:
    """Makes a fresh ledger (no evening, no player) in a database of its own on the test server, copied from the
    migrated template, and gives its URL (for a test that needs several)."""
    return lambda: _create_database(pg_server, pg_template)


def _emptied(url: str) -> bool:
    """Make the ledger at `url` a new one again: every row deleted, the numbering restarted, the database's own
    settings reset, a new identity. False when it cannot be: a lock still held, a table added or gone."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.pool import NullPool
    from sqlmodel import SQLModel

    import ledger.store.tables  # noqa: F401  (registers every table)
    from ledger.store.engine import HEAD
    from ledger.store.identity import give_identity

    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(text("SET LOCAL lock_timeout = '2s'"))
            tables = connection.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).scalars()
            if set(tables) != {*SQLModel.metadata.tables, "alembic_version"}:
                return False
            for table in reversed(SQLModel.metadata.sorted_tables):
                connection.execute(table.delete())
            connection.execute(text("UPDATE alembic_version SET version_num = :head"), {"head": HEAD})
            give_identity(connection)
            connection.execute(
                text(
                    "SELECT setval(format('%I', sequencename)::regclass, 1, false) FROM pg_sequences"
                    " WHERE schemaname = 'public'"
                )
            )
            connection.execute(text(f'ALTER DATABASE "{make_url(url).database}" RESET ALL'))
        return True
    except DBAPIError:
        return False
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def _pg_ledgers_done() -> list[str]:
    """The databases of this process's tests that are done with their ledger (`pg_url`)."""
    return []


@pytest.fixture
def pg_url(new_pg_ledger: Callable[[], str], _pg_ledgers_done: list[str]) -> Iterator[str]:
    """A fresh ledger (no evening, no player) in a database of its own on the test server: the database of a test
    done before, emptied (12 ms; a copy of the template takes the server 0.34 s), else a new copy."""
    url = None
    while url is None and _pg_ledgers_done:
        done = _pg_ledgers_done.pop()
        url = done if _emptied(done) else None
    url = url or new_pg_ledger()
    yield url
    _pg_ledgers_done.append(url)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite ledger migrated once for the session, which fresh ledgers are copied from."""
    from ledger.store.engine import open_ledger

    path = tmp_path_factory.mktemp("template") / "ledger.sqlite3"
    open_ledger(str(path)).dispose()  # the last connection closed folds the WAL file back in: one file to copy
    assert not Path(f"{path}-wal").exists()
    return path


def ready_to_copy(path: Path) -> Path:
    """A SQLite ledger built once (for a module, say) with its write-ahead log folded into the file, so that copying
    the file copies it all."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    return path


def copy_ledger(source: Path, folder: Path, name: str = "ledger.sqlite3") -> Path:
    """A copy of a SQLite ledger (`ready_to_copy`) for one test, in `folder`."""
    path = folder / name
    shutil.copyfile(source, path)
    return path


@pytest.fixture
def sqlite_url(tmp_path: Path, sqlite_template: Path) -> str:
    """The path of a fresh SQLite ledger (no evening, no player)."""
    return str(copy_ledger(sqlite_template, tmp_path))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    """The same test on a fresh ledger in a real SQLite file and in a real PostgreSQL database."""
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where no ledger is yet, on each backend: a path for a new SQLite file, an empty PostgreSQL database (for the
    tests of the migrations and of a ledger's making)."""
    if request.param == "sqlite":
        return str(tmp_path / "ledger.sqlite3")
    return request.getfixturevalue("new_pg_database")()


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    """A fresh ledger on the backend under test (SQLite and PostgreSQL); disposed at the end."""
    from ledger.store.engine import open_ledger

    opened = open_ledger(db_url)
    try:
        yield opened
    finally:
        opened.dispose()


@pytest.fixture(scope="session")
def _chromium_of_this_process() -> Iterator[tuple[Any, asyncio.AbstractEventLoop]]:
    """Debian's Chromium, headless, driven by Playwright, launched once for the test process; and Playwright's event
    loop. Playwright marks that loop as the thread's running one between its calls, which would stop any other test
    from calling `asyncio.run`: the mark is lifted here, and set only while a browser test runs (see `chromium`)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    driver = sync_api.sync_playwright().start()
    sandbox = ["--no-sandbox"] if os.geteuid() == 0 else []
    quiet = ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
    browser = driver.chromium.launch(executable_path=CHROMIUM, args=[*sandbox, *quiet])
    loop = asyncio.get_running_loop()
    asyncio.events._set_running_loop(None)
    yield browser, loop
    asyncio.events._set_running_loop(loop)
    browser.close()
    driver.stop()


@pytest.fixture
def chromium(_chromium_of_this_process: tuple[Any, asyncio.AbstractEventLoop]) -> Iterator[Any]:
    """The test process's Chromium for one test, which opens its pages each in a new context
    (`chromium.new_context(...).new_page()`: cookies and storage of its own); every context is closed after it."""
    browser, loop = _chromium_of_this_process
    asyncio.events._set_running_loop(loop)
    try:
        yield browser
        for context in browser.contexts:
            context.close()
    finally:
        asyncio.events._set_running_loop(None)
