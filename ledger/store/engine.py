"""Where the ledger lives and how to open it: URL resolution, SQLite settings, migrations, transactions."""

from __future__ import annotations

import difflib
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DatabaseError,
    DataError,
    DBAPIError,
    IntegrityError,
    InterfaceError,
    NoSuchModuleError,
    OperationalError,
)
from sqlmodel import Session, SQLModel

from ledger.errors import DatabaseRefused, DatabaseUnavailable, FactError, LedgerError, NoOpenEvening
from ledger.i18n import _

ENV_VAR = "CALABRESELLA_DB"
BUSY_TIMEOUT_MS = 60_000
LOCK_POLL_SECONDS = 0.002
"""How often a SQLite writer waiting for the write lock tries again."""
READ_ONLY = "ledger_read_only"
MIGRATING = "ledger_migrating"
"""Set on the connection a migration runs on: on SQLite its transaction begins with foreign keys off."""
FILE_READ_ONLY = "ledger_file_read_only"
"""Set on the engine of a SQLite ledger whose file or folder cannot be written: it is opened read-only."""
MIGRATION_LOCK = 0x63616C61
"""The PostgreSQL advisory lock a migration holds: programs opening a new or old ledger at once take turns."""
MIGRATIONS = Path(__file__).with_name("migrations")
KNOWN = tuple(sorted(path.name[:4] for path in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py")))
HEAD = KNOWN[-1]


def _null(value: None) -> None:
    """None bound as NULL, by an adapter found among sqlite3's own: Python 3.11's sqlite3 otherwise looks for one the
    slow way for each None (a failed attribute lookup, whose error message is written and thrown away), about 1 µs a
    None; an import of a real export of 100,000 deals binds some two million (`bench/README.md`, note 32)."""
    return value


sqlite3.register_adapter(type(None), _null)

FULL_DISK = ("disk is full", "disk i/o error", "no space left")
"""How SQLite and PostgreSQL say that a write found no room, in lower case (SQLite says I/O error when a file may grow
no more)."""


def default_path() -> Path:
    """ledger.sqlite3 in the user data directory."""
    from platformdirs import user_data_path

    return user_data_path("calabresella", appauthor=False) / "ledger.sqlite3"


def resolve_url(given: str | None = None) -> str:
    """The ledger given (a URL or a path), else $CALABRESELLA_DB, else the default SQLite file."""
    target = given or os.environ.get(ENV_VAR) or str(default_path())
    if "://" in target:
        try:
            url = make_url(target)
        except ArgumentError:
            raise FactError(
                "db", target, _("not a database URL (sqlite:///FILE or postgresql+psycopg://...)")
            ) from None
        if url.get_backend_name() not in ("sqlite", "postgresql"):
            raise FactError("db", target, _("the ledger runs on SQLite or PostgreSQL (postgresql+psycopg://...)"))
        if url.get_backend_name() == "postgresql" and url.drivername == "postgresql":
            url = url.set(drivername="postgresql+psycopg")
        return url.render_as_string(hide_password=False)
    path = Path(target).expanduser()
    if path.is_dir():
        raise FactError(
            "db", target, _("a folder: give a file path such as {example}").format(example=path / "ledger.sqlite3")
        )
    return URL.create("sqlite", database=str(path.resolve())).render_as_string()  # '?', '#' and '%' escaped


def _check_there(url: str | URL) -> None:
    """An error when a SQLite ledger file is not there (a mistyped path reads nothing and makes nothing), naming a
    ledger file of that folder with a close name."""
    parsed = make_url(url)
    path = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if not path or path == ":memory:" or Path(path).exists():
        return
    here = Path(path)
    _check_folder(here)  # the folder is not there: that is the mistake to name
    near = [p.name for p in here.parent.glob("*.sqlite3")] if here.parent.is_dir() else []
    close = difflib.get_close_matches(here.name, near, n=1)
    if close:
        raise FactError("db", path, _("no ledger there; did you mean {name}?").format(name=str(here.parent / close[0])))
    raise NoOpenEvening(_("no ledger at {where} yet").format(where=path))


def new_file(given: str | None = None) -> Path | None:
    """The SQLite file the ledger given would be made in, when nothing is there yet; else None."""
    url = resolve_url(given)
    path = make_url(url).database if url.startswith("sqlite") else None
    if not path or path == ":memory:" or Path(path).exists():
        return None
    return Path(path)


def remove_ledger(path: Path) -> None:
    """Take away a SQLite ledger just made, with the files SQLite keeps beside it."""
    for made in (path, *(Path(f"{path}{suffix}") for suffix in ("-wal", "-shm", "-journal"))):
        made.unlink(missing_ok=True)


def _check_folder(path: Path) -> None:
    """A SQLite ledger's folder must exist (a typo writes nothing), but for the default ledger's, made with it."""
    if path.parent.is_dir() or path == default_path():
        return
    raise FactError("db", str(path), _("the folder {parent!r} does not exist").format(parent=str(path.parent)))


def _make_default_folder(engine: Engine) -> None:
    """Make the default ledger's folder, when the ledger is made there (on first use)."""
    path = Path(engine.url.database or "") if engine.url.get_backend_name() == "sqlite" else None
    if path is not None and not path.parent.is_dir() and path == default_path():
        path.parent.mkdir(parents=True, exist_ok=True)


def _sqlite_settings(engine: Engine) -> None:
    """synchronous=FULL, foreign keys, a busy timeout, and BEGIN IMMEDIATE for every transaction (polled for, see
    `_polled`); a migration's begins with foreign keys off.

    WAL is switched on by `open_ledger` once the file is known to be a ledger: it is a lasting change.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        options = connection.get_execution_options()
        if options.get(READ_ONLY):
            connection.exec_driver_sql("BEGIN")
            return
        if options.get(MIGRATING):  # a no-op inside a transaction: before it
            connection.exec_driver_sql("PRAGMA foreign_keys = OFF")
        connection.exec_driver_sql("PRAGMA busy_timeout = 0")
        try:
            _polled(lambda: connection.exec_driver_sql("BEGIN IMMEDIATE"))
        finally:
            connection.exec_driver_sql(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def _polled(run: Callable[[], object]) -> None:
    """Run a statement that needs SQLite's write lock, again every `LOCK_POLL_SECONDS` while the database is busy,
    until the busy timeout has passed (then its error is raised).

    SQLite's own busy handler sleeps longer and longer (up to 100 ms a try), so a writer waiting on it would miss
    the short gaps a long import leaves between its batches (`record` while an import runs waited up to 3 s so, under
    1 s polled); and switching to WAL does not wait at all. Polling takes the lock within milliseconds.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            run()
            return
        except (sqlite3.OperationalError, OperationalError) as error:
            cause = error.orig if isinstance(error, OperationalError) else error
            if getattr(cause, "sqlite_errorcode", None) != sqlite3.SQLITE_BUSY or time.monotonic() >= deadline:
                raise
        time.sleep(LOCK_POLL_SECONDS)


def reading(engine: Engine) -> Engine:
    """The same engine for long reads, each transaction one snapshot of the ledger: on SQLite a deferred BEGIN
    (a snapshot from the first read, and writers are never kept waiting), on PostgreSQL REPEATABLE READ (by
    default every statement would see the changes committed before it: a report could find a deal of a player
    its list of players, read first, did not have)."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(**{READ_ONLY: True}, isolation_level="REPEATABLE READ")
    return engine.execution_options(**{READ_ONLY: True})


def copy_sqlite(source: str, target: str) -> None:
    """A consistent copy of a SQLite database in use (the online backup API: WAL content included)."""
    reader, writer = sqlite3.connect(source), sqlite3.connect(target)
    try:
        with writer:
            reader.backup(writer)
    finally:
        reader.close()
        writer.close()


def read_only_uri(path: Path) -> str | None:
    """How to open a SQLite ledger whose file or folder cannot be written (a read-only disk, a shared copy), if it
    is one: SQLite in WAL mode would need to create its -shm file beside it, so it is opened `immutable` (nothing
    can change it), or `mode=ro` when an unfinished -wal file holds deals that are not in the file yet."""
    if not path.exists() or (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return None
    wal = Path(f"{path}-wal")
    how = "mode=ro" if wal.exists() and wal.stat().st_size else "immutable=1"
    return f"{path.resolve().as_uri()}?{how}"


def make_engine(url: str) -> Engine:
    """An engine for the URL, with the SQLite settings where it is SQLite (read-only where it cannot be written)."""
    try:
        if url.startswith("sqlite"):
            path = make_url(url).database
            if path and path != ":memory:":
                _check_folder(Path(path))
            uri = read_only_uri(Path(path)) if path and path != ":memory:" else None
            if uri is None:
                engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
            else:
                engine = create_engine(url, creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False))
                engine.update_execution_options(**{FILE_READ_ONLY: True})
            _sqlite_settings(engine)
            return engine
        return create_engine(url, pool_pre_ping=True)
    except NoSuchModuleError as error:
        raise FactError(
            "db", url, _("no driver for it ({error}); PostgreSQL needs psycopg installed").format(error=error)
        ) from None


def _schema_version(engine: Engine) -> str | None:
    """The migration the database is at (one query for a ledger); None when empty; an error when it is not a ledger."""
    try:
        with reading(engine).connect() as connection:
            return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except (DatabaseError, OperationalError):
        pass  # no ledger schema yet, or no database at all: look closer
    try:
        with engine.connect() as connection:
            tables = set(inspect(connection).get_table_names())
            if "alembic_version" in tables:
                return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except (DatabaseError, OperationalError) as error:
        raise refusal(error, where(engine)) from None
    if tables:
        raise LedgerError(
            _(
                "{database}: this database is not a Calabresella ledger (it has tables {tables} but no ledger schema)"
            ).format(database=engine.url.database, tables=", ".join(sorted(tables)[:5]))
        )
    return None


def refusal(error: DBAPIError, where: str) -> DatabaseRefused:
    """One line for what the database refused, in the reader's words: a read-only file, a lock another program held
    past the busy timeout, a full disk, a server that does not answer (each `DatabaseUnavailable`: it can pass), a
    file that is no database or is damaged, a server that refuses the user; the database's own text only for any
    other refusal, in parentheses at the end."""
    reason = (str(error.orig).strip().splitlines() or ["no answer"])[0]
    passing: tuple[tuple[tuple[str, ...], str], ...] = (
        (("readonly", "read-only"), _("the ledger {where} is read-only: nothing was written")),
        (
            ("database is locked", "lock timeout"),
            _("the ledger {where} is locked by another program: nothing was written; try again"),
        ),
        (FULL_DISK, _("the ledger {where} cannot be written, its disk may be full: nothing was written")),
        (
            ("connection refused", "could not connect", "server closed the connection", "terminating connection"),
            _("{where}: the database server does not answer; try again"),
        ),
    )
    lasting: tuple[tuple[tuple[str, ...], str], ...] = (
        (("file is not a database",), _("{where}: cannot open it as a ledger database: the file is not a database")),
        (
            ("malformed",),
            _("{where}: cannot open it as a ledger database: the file is damaged; go back to a backup copy"),
        ),
        (("unable to open database file",), _("{where}: cannot open the file: is its folder there, and writable?")),
        (("authentication failed",), _("{where}: cannot open it: the server refused the user or the password")),
        (("permission denied",), _("{where}: the database does not let this user do it: nothing was written")),
    )
    said = reason.lower()
    for needles, message in passing:
        if any(needle in said for needle in needles):
            return DatabaseUnavailable(message.format(where=where))
    for needles, message in lasting:
        if any(needle in said for needle in needles):
            return DatabaseRefused(message.format(where=where))
    if isinstance(error, IntegrityError | DataError):
        return DatabaseRefused(
            _("{where}: the database refused it ({reason}): nothing was written").format(where=where, reason=reason)
        )
    if isinstance(error, OperationalError | InterfaceError) and type(error.orig).__module__.startswith("psycopg"):
        return DatabaseUnavailable(_("{where}: the database server does not answer; try again").format(where=where))
    return DatabaseRefused(
        _("{where}: cannot open it as a ledger database ({reason})").format(where=where, reason=reason)
    )


def where(engine: Engine) -> str:
    """Where the ledger is, as a message names it: a SQLite ledger's URL with its path as written (an accent is not
    escaped), a server's URL without its password."""
    if engine.dialect.name == "sqlite" and engine.url.database:
        return f"sqlite:///{engine.url.database}"
    return engine.url.render_as_string(hide_password=True)


def _check_known(engine: Engine, version: str | None) -> None:
    if version is not None and version not in KNOWN:
        raise LedgerError(
            _(
                "{database}: written by a newer calabresella (schema {version}; this one knows up "
                "to {head}): upgrade calabresella-ledger"
            ).format(database=where(engine), version=version, head=HEAD)
        )


def _check_readable(engine: Engine, version: str | None) -> None:
    """A read-only ledger is read as it is: it must already be a ledger of this schema."""
    if version != HEAD:
        raise DatabaseRefused(
            _(
                "the ledger {where} is read-only and needs an upgrade (schema {version}, this calabresella writes "
                "{head}): make the file and its folder writable once"
            ).format(where=where(engine), version=version or "none", head=HEAD)
        )


def _enable_wal(engine: Engine) -> None:
    """Readers never block the writer, and the writer never blocks readers (SQLite only). The switch needs the file
    alone and SQLite does not wait for it: programs opening a new ledger at once poll for it (`_polled`)."""
    if engine.url.get_backend_name() != "sqlite":
        return
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        _polled(lambda: cursor.execute("PRAGMA journal_mode = WAL"))
    finally:
        raw.close()


def upgrade(engine: Engine) -> str | None:
    """Create the schema at the newest migration, or upgrade an older ledger's to it after backing up a SQLite file
    first. Returns the backup."""
    from alembic import command
    from alembic.config import Config

    _make_default_folder(engine)
    version = _schema_version(engine)
    _check_known(engine, version)
    if version == HEAD:
        return None
    backup = None
    if version is not None and engine.url.get_backend_name() == "sqlite" and engine.url.database:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        backup = f"{engine.url.database}.before-{HEAD}-{stamp}.bak"
        copy_sqlite(engine.url.database, backup)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        try:
            with connection.execution_options(**{MIGRATING: True}).begin():
                if not sqlite:  # SQLite's BEGIN IMMEDIATE already makes them take turns
                    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                config.attributes["connection"] = connection
                if inspect(connection).get_table_names():
                    command.upgrade(config, "head")
                else:  # a new ledger (and no other program made it meanwhile): built at the head in one step
                    _build(connection)
                    command.stamp(config, "head")
                if sqlite:
                    _check_foreign_keys(connection)
        finally:
            if sqlite:
                connection.invalidate()  # its foreign keys are off: it goes, and is not handed out again
    return backup


def _build(connection: Connection) -> None:
    """The tables of the models as the migrations leave them, and the ledger's identity (a test holds the two ways
    alike): a new ledger in one step, in about a quarter of the twenty migrations' time. Every table is loaded here
    only: a command loads the tables it uses."""
    import ledger.store.tables  # noqa: F401  (registers every table)
    from ledger.store.identity import give_identity
    from ledger.store.models import PARTIAL_INDEXES

    SQLModel.metadata.create_all(connection)
    give_identity(connection)
    for table in SQLModel.metadata.tables.values():
        for index in table.indexes:
            rows = PARTIAL_INDEXES.get(str(index.name))
            if rows is not None:
                columns = ", ".join(column.name for column in index.columns)
                connection.execute(text(f"DROP INDEX {index.name}"))
                connection.execute(text(f"CREATE INDEX {index.name} ON {table.name} ({columns}) WHERE {rows}"))


def _check_foreign_keys(connection: Connection) -> None:
    """On SQLite, a migration rebuilds tables with foreign keys off (see `_sqlite_settings`): they are checked whole
    afterwards."""
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise LedgerError(
            _("the upgrade left {n_broken} rows pointing at nothing; restore the backup copy").format(
                n_broken=len(broken)
            )
        )


def open_ledger(given: str | None = None, *, create: bool = True) -> Engine:
    """Open (creating or upgrading as needed) the ledger database given, or named by the environment; without
    `create`, a place that holds no ledger yet is an error and nothing is made there."""
    url = resolve_url(given)
    if not create:
        _check_there(url)
    engine = make_engine(url)
    try:
        if create:
            _make_default_folder(engine)
        version = _schema_version(engine)
        _check_known(engine, version)
        if version is None and not create:
            engine.dispose()
            raise NoOpenEvening(_("no ledger at {where} yet").format(where=where(engine)))
        if engine.get_execution_options().get(FILE_READ_ONLY):
            _check_readable(engine, version)
            return engine
        if version != HEAD:
            upgrade(engine)
        _enable_wal(engine)
    except DBAPIError as error:
        engine.dispose()
        raise refusal(error, where(engine)) from None
    return engine


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """A session whose work commits together or not at all (BEGIN IMMEDIATE on SQLite, unless `reading`); what the
    database refuses is one `DatabaseRefused` line."""
    with refusals(engine), Session(engine, expire_on_commit=False) as session, session.begin():
        yield session


@contextmanager
def refusals(engine: Engine) -> Iterator[None]:
    """What the database refuses inside (reports read it without a session), as one `DatabaseRefused` line."""
    try:
        yield
    except DBAPIError as error:
        folder = unwritable_folder(engine)
        if folder is not None and "readonly" in str(error.orig):
            raise DatabaseUnavailable(
                _("the ledger {where} cannot be written: its folder {folder} is read-only; nothing was written").format(
                    where=where(engine), folder=folder
                )
            ) from None
        raise refusal(error, where(engine)) from None


def unwritable_folder(engine: Engine) -> str | None:
    """The folder of a SQLite ledger that cannot be written because its folder cannot (SQLite writes its journal
    there), or None."""
    path = engine.url.database if engine.url.get_backend_name() == "sqlite" else None
    if not path or path == ":memory:" or os.access(Path(path).parent, os.W_OK):
        return None
    return str(Path(path).parent)


def writable_again(engine: Engine) -> bool:
    """Whether a SQLite ledger opened read-only can be written now (its file and folder became writable)."""
    if not read_only(engine) or not engine.url.database:
        return False
    return read_only_uri(Path(engine.url.database)) is None


def read_only(engine: Engine) -> bool:
    """Whether the ledger was opened read-only: its file or folder cannot be written."""
    return bool(engine.get_execution_options().get(FILE_READ_ONLY))


def schema_info(engine: Engine) -> dict[str, object]:
    """Where the ledger is and which migration it is at; a SQLite file that is not there is an error, as for every
    command that reads (nothing is made there)."""
    _check_there(engine.url)
    return {
        "url": engine.url.render_as_string(hide_password=True),
        "backend": engine.url.get_backend_name(),
        "revision": _schema_version(engine),
        "head": HEAD,
    }
