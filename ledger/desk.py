"""The ledger's one way in and out, under each of its desks (`Ledger`, and its `Club`): the database, the lane this
program's writes take on SQLite, the write transaction that publishes the changes it appended once it commits, the
snapshot a read takes, and the watcher that tells of other programs' changes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Self, TypeVar

from sqlalchemy import Engine
from sqlmodel import Session

from ledger.errors import Forbidden
from ledger.i18n import _
from ledger.notices import Notice, Notices
from ledger.store.changes import appended
from ledger.store.engine import open_ledger, read_only, reading, transaction, unwritable_folder, writable_again
from ledger.store.evenings import Seating, get_seating
from ledger.store.places import refusal_for
from ledger.store.watch import Watcher
from ledger.values import Writer

T = TypeVar("T")


class Desk:
    """The ledger at a database URL or SQLite path (default: `$CALABRESELLA_DB`, else the user data folder).

    Opening creates or upgrades the schema. Use it as a context manager, or call `close()`. A write waits for another
    program's write to finish; a read is one snapshot of the ledger and never waits.
    """

    def __init__(self, db: str | None = None, *, create: bool = True, source: str = "library") -> None:
        """Without `create`, a place that holds no ledger yet is an error and nothing is made there (for reading).
        `source` says in the change log where this program's changes come from (`terminal`, `play`, …), unless a
        write names its own `Writer`."""
        self.engine: Engine = open_ledger(db, create=create)
        self._db = db
        self.writer = Writer(source)
        self._writing: AbstractContextManager[object] = (
            threading.RLock() if self.engine.dialect.name == "sqlite" else nullcontext()
        )
        """On SQLite, this program's writes take turns here, in one lane, rather than polling the database's write lock
        together (the holder then runs without them competing for the interpreter); other programs still wait on the
        database. Watchers' reads take their turn here too (`in_turn`). On PostgreSQL there is no lane: reads never
        wait for writes, and writes to different evenings go side by side (each evening's row lock orders those to the
        same one)."""
        self.notices = Notices()
        self._watcher: Watcher | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop watching for changes and release the database connections."""
        if self._watcher is not None:
            self._watcher.stop()
        self.engine.dispose()

    def subscribe(self, subscriber: Callable[[Notice], None]) -> Callable[[], None]:
        """Tell `subscriber` of every change committed from now on, once, by this program or by another one writing
        to the same database (in the writer's thread or the watcher's: hand it on to your own); returns how to
        stop."""
        if self._watcher is None:
            self._watcher = Watcher(self.engine, self.notices.publish)
            self._watcher.start()
        return self.notices.subscribe(subscriber)

    def in_turn(self, call: Callable[..., T], *args: object) -> T:
        """`call(*args)` in its turn with this program's writes (on SQLite): a watcher's read, which then sees what
        the writes before it did and never slows one down by running beside it."""
        with self._writing:
            return call(*args)

    @property
    def unwritable(self) -> str | None:
        """Why nothing can be recorded in this ledger (its file or folder is read-only), or None when it can be."""
        if not read_only(self.engine):
            return None
        folder = unwritable_folder(self.engine)
        if folder:
            return _("its folder {folder} is read-only").format(folder=folder)
        return _("its file is read-only")

    @property
    def file(self) -> Path | None:
        """The SQLite file the ledger lives in, or None for a ledger on a database server."""
        url = self.engine.url
        return Path(url.database) if url.get_backend_name() == "sqlite" and url.database else None

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A write transaction, the one way out of every write: it takes this program's lane and the database's write
        lock (waiting for another writer to finish); once it commits, each change row it appended is published to
        this ledger's subscribers as a notice (other programs' watchers read them from the change log)."""
        self._writable_again()
        watcher, told = self._watcher, []
        with self._writing:
            try:
                with transaction(self.engine) as session:
                    yield session
                    told = appended(session)
                    if watcher is not None:
                        watcher.ours.update(row for row, _ in told)
            except BaseException:
                if watcher is not None:
                    watcher.ours.difference_update(row for row, _ in told)
                raise
        for _row, notice in told:
            self.notices.publish(notice)

    @contextmanager
    def snapshot(self) -> Iterator[Session]:
        """A read transaction: one snapshot of the ledger, which never waits for a writer."""
        self._writable_again()
        with transaction(reading(self.engine)) as session:
            yield session

    def on_table(
        self,
        evening: int | None,
        action: Callable[[Session, Seating], T],
        *,
        open_only: bool = False,
        by: Writer | None = None,
        new_deal: str | None = None,
    ) -> T:
        """Run a write on the evening's seats in one transaction, if `by` may write there (`new_deal`: it records a
        new deal, with that key or "")."""
        with self.transaction() as session:
            table = get_seating(session, evening, open_only=open_only, locking=True)
            refused = refusal(session, table.number, by or self.writer, new_deal=new_deal)
            if refused:
                raise Forbidden(refused)
            return action(session, table)

    def reading_table(
        self, evening: int | None, action: Callable[[Session, Seating], T], *, open_only: bool = False
    ) -> T:
        """Run a read on the evening's seats in one snapshot."""
        with self.snapshot() as session:
            return action(session, get_seating(session, evening, open_only=open_only))

    def organiser(self, by: Writer | None) -> Writer:
        """The writer, when it may write beyond one evening (start evenings, seat rounds): not a club table's key."""
        writer = by or self.writer
        if writer.table is not None:
            raise Forbidden(
                _("this key writes to one table only (evening {number}): nothing was written").format(
                    number=writer.table
                )
            )
        return writer

    def _writable_again(self) -> None:
        """A SQLite ledger opened read-only whose file and folder can be written now is opened again for writing (a
        server started on a read-only disk carries on by itself once it is writable); its watcher starts afresh."""
        if not writable_again(self.engine):
            return
        with self._writing:
            if not writable_again(self.engine):
                return  # another thread opened it again meanwhile
            before, self.engine = self.engine, open_ledger(self._db)
            if self._watcher is not None:
                self._watcher.stop()
                self._watcher = Watcher(self.engine, self.notices.publish)
                self._watcher.start()
            before.dispose()


def refusal(session: Session, evening: int, by: Writer, *, new_deal: str | None = None) -> str | None:
    """Why `by` may not change evening `evening`, or None when it may: only a club table's key is ever refused."""
    return None if by.table is None else refusal_for(session, evening, by.table, new_deal=new_deal)
