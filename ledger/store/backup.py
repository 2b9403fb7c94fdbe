"""Back up a SQLite ledger while it is in use: a consistent copy into a new file, whole or not at all."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy import Engine

from ledger.errors import LedgerError, system_reason
from ledger.i18n import _
from ledger.store.engine import copy_sqlite


def backup_sqlite(engine: Engine, target: str) -> Path:
    """An online backup of a SQLite ledger into a new file in an existing folder (safe while others write).

    The copy is written beside the target under a temporary name and renamed once whole, so a failure (a full
    disk, a folder it cannot write) leaves no file behind."""
    if engine.url.get_backend_name() != "sqlite" or not engine.url.database:
        raise LedgerError(_("backup copies a SQLite ledger; for PostgreSQL use pg_dump"))
    path = Path(target).expanduser().resolve()
    if path.exists():
        raise LedgerError(_("backup {target}: the file exists; give a new path").format(target=target))
    if not path.parent.is_dir():
        raise LedgerError(
            _("backup {target}: the folder {folder} does not exist; create it first").format(
                target=target, folder=path.parent
            )
        )
    partial: Path | None = None
    try:
        name = path.with_name(f".{path.name}.{os.getpid()}.part")
        os.close(os.open(name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))  # a new file, as the umask allows
        partial = name
        copy_sqlite(engine.url.database, str(name))
        partial.rename(path)
    except (sqlite3.Error, OSError) as error:
        reason = system_reason(error)
        raise LedgerError(
            _("backup {target}: cannot write it ({reason}); nothing was written").format(target=target, reason=reason)
        ) from None
    finally:
        if partial is not None:  # gone once renamed; its rollback journal too, once the copy ended
            for leftover in (partial, partial.with_name(partial.name + "-journal")):
                leftover.unlink(missing_ok=True)
    return path
