"""Where a ledger lives, for the front ends that make, describe or upgrade one without opening it as a `Ledger`: the
database a URL or a path names (default as `Ledger` finds it: `$CALABRESELLA_DB`, else the user data folder)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.exc import DBAPIError

from ledger.store.engine import (
    ENV_VAR,
    make_engine,
    new_file,
    refusal,
    remove_ledger,
    resolve_url,
    schema_info,
    upgrade,
    where,
)


def ledger_environment(db: str | None = None) -> dict[str, str]:
    """The environment that names the ledger `db` names to another program, such as a server's worker processes."""
    return {ENV_VAR: resolve_url(db)}


def new_ledger_file(db: str | None = None) -> Path | None:
    """The SQLite file a ledger made at `db` would be, when nothing is there yet; else None."""
    return new_file(db)


def remove_ledger_file(path: Path) -> None:
    """Take away a SQLite ledger just made at `path`, with the files SQLite keeps beside it."""
    remove_ledger(path)


def database_info(db: str | None = None) -> dict[str, object]:
    """Where the ledger at `db` is and which schema revision it has, without upgrading it."""
    engine = make_engine(resolve_url(db))
    try:
        return schema_info(engine)
    finally:
        engine.dispose()


def upgrade_database(db: str | None = None) -> str | None:
    """Create the schema at `db` or bring it to the newest revision; the backup copy made first (SQLite), if any."""
    engine = make_engine(resolve_url(db))
    try:
        return upgrade(engine)
    except DBAPIError as error:
        raise refusal(error, where(engine)) from None
    finally:
        engine.dispose()
