"""Back up a SQLite ledger while it is in use."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine

from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.store.engine import copy_sqlite


def backup_sqlite(engine: Engine, target: str) -> Path:
    """An online backup of a SQLite ledger into a new file (safe while others write)."""
    if engine.url.get_backend_name() != "sqlite" or not engine.url.database:
        raise LedgerError(_("backup copies a SQLite ledger; for PostgreSQL use pg_dump"))
    path = Path(target).expanduser().resolve()
    if path.exists():
        raise LedgerError(_("backup {target}: the file exists; give a new path").format(target=target))
    path.parent.mkdir(parents=True, exist_ok=True)
    copy_sqlite(engine.url.database, str(path))
    return path
