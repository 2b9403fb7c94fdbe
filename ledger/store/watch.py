"""Changes other programs commit, found in the change log and published as notices.

A watcher keeps the id of the last change row it saw, and when woken reads the rows after it, publishing each that
its own program did not publish already (`Watcher.ours`). SQLite wakes it through `PRAGMA data_version`, which changes
whenever another connection commits; it is asked every `SQLITE_POLL_SECONDS` (a read of a counter in shared memory,
no disk). PostgreSQL wakes it through a notification on channel `calabresella`, which every transaction that
appended a change row sends at its commit (`ledger.store.changes.lock_log`); the notification carries nothing, the
rows say what changed.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable

from sqlalchemy import Engine

from ledger.notices import Notice
from ledger.store.changes import CHANNEL, last_id, newer
from ledger.store.engine import reading

SQLITE_POLL_SECONDS = 0.05
LISTEN_WAIT_SECONDS = 0.5
"""How long a PostgreSQL watcher waits for a notification before it looks whether it should stop."""
RETRY_SECONDS = 1.0
"""How long the watcher rests after the database failed it, before it tries again."""
log = logging.getLogger("calabresella")


class Watcher:
    """A thread that publishes the changes committed to the database by other programs (and any this program did not
    publish itself)."""

    def __init__(self, engine: Engine, publish: Callable[[Notice], None]) -> None:
        self.engine, self.publish = engine, publish
        self.ours: set[int] = set()
        """The change rows this program publishes itself: added before their commit, dropped once seen here."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ledger-watcher", daemon=True)
        with reading(engine).connect() as connection:
            self._seen = last_id(connection)
        """The last change row seen."""

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop watching (within `LISTEN_WAIT_SECONDS`)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(LISTEN_WAIT_SECONDS * 2)

    def _run(self) -> None:
        postgres = self.engine.dialect.name == "postgresql"
        while not self._stop.is_set():
            try:
                self._listen() if postgres else self._poll()
            except Exception as error:  # the database went away: say so once, rest, try again
                log.warning("ledger watcher: %s", str(error).splitlines()[0] if str(error) else type(error).__name__)
                self._stop.wait(RETRY_SECONDS)

    def _poll(self) -> None:
        database = self.engine.url.database or ""
        raw = sqlite3.connect(database, check_same_thread=False)
        try:
            version = raw.execute("PRAGMA data_version").fetchone()[0]
            self._catch_up()  # what was committed while nothing watched (the watcher failed and rested)
            while not self._stop.wait(SQLITE_POLL_SECONDS):
                now = raw.execute("PRAGMA data_version").fetchone()[0]
                if now != version:
                    version = now
                    self._catch_up()
        finally:
            raw.close()

    def _listen(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql")
        with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as raw:
            raw.execute(f"LISTEN {CHANNEL}")
            self._catch_up()  # what was committed while nothing listened
            while not self._stop.is_set():
                if any(raw.notifies(timeout=LISTEN_WAIT_SECONDS, stop_after=1)):
                    self._catch_up()

    def _catch_up(self) -> None:
        """Publish the change rows after the last one seen that this program did not publish itself."""
        with reading(self.engine).connect() as connection:
            rows = newer(connection, self._seen)
        for row_id, notice in rows:
            self._seen = row_id
            if row_id in self.ours:
                self.ours.discard(row_id)
            else:
                self.publish(notice)
