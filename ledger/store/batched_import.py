"""An export imported from a file in batches, each a transaction of its own, so others can write in between.

The file is read line by line (JSON Lines), or whole (an older JSON document). A batch commits once it has run
`BATCH_SECONDS`; on SQLite the import then rests `PAUSE_SECONDS`, so a writer waiting for the lock takes its turn. An
evening already in the ledger is skipped, so an interrupted import resumes when run again. On an error nothing of
the offending evening (or line) is written, and the error says which evenings went in before it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

from sqlmodel import Session

from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.store.importing import Entry, read_export
from ledger.store.replay import Importer, stopped
from ledger.values import ImportSummary

BATCH_SECONDS = 0.5
"""An import commits at least this often, so a scorekeeper recording meanwhile waits a moment, not the import."""
PAUSE_SECONDS = 0.02
"""On SQLite an import rests this long between batches: several times a waiting writer's poll for the lock
(`LOCK_POLL_SECONDS`), so it takes the lock in between instead of being overtaken batch after batch."""
Transaction = Callable[[], AbstractContextManager[Session]]
"""A write transaction of the ledger (`Ledger.transaction`)."""
Progress = Callable[[int, int], None]
"""Told the bytes read and the deals imported so far, after each line."""


def import_file(path: Path, transaction: Transaction, progress: Progress | None = None) -> ImportSummary:
    """Replay the export at `path` in batches of `transaction`s (see the module); what it wrote and skipped."""
    try:
        stream = path.open("rb")
    except FileNotFoundError:
        raise LedgerError(_("{path}: no such file").format(path=path)) from None
    with stream:
        version, entries = read_export(stream, str(path))
        importer = Importer(version, str(path))
        kept = importer.summary()
        try:
            while _batch(importer, entries, transaction, stream.tell, progress):
                kept = importer.summary()
        except LedgerError as error:
            raise stopped(error, kept) from None
        return importer.summary()


def _batch(
    importer: Importer,
    entries: Iterator[Entry],
    transaction: Transaction,
    position: Callable[[], int],
    progress: Progress | None,
) -> bool:
    """Import entries in one transaction until it has run `BATCH_SECONDS`; whether any are left (then, on SQLite,
    after resting `PAUSE_SECONDS`)."""
    with transaction() as session:
        deadline, more = time.monotonic() + BATCH_SECONDS, False
        for entry in entries:
            importer.add(session, entry)
            if progress:
                progress(position(), importer.deals)
            if time.monotonic() > deadline:
                more = True
                break
        importer.flush(session)
        rests = session.get_bind().dialect.name == "sqlite"
    if more and rests:
        time.sleep(PAUSE_SECONDS)
    return more
