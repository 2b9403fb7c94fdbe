"""Changes other programs commit, found through the database itself and published as notices.

SQLite: `PRAGMA data_version` on a connection of the watcher's own changes whenever another connection commits;
it is asked every `SQLITE_POLL_SECONDS` (a read of a counter in shared memory, no disk); the watcher then reads the
change log rows it has not seen and publishes a notice for each; with none (a payment, a club round), one notice that
names nothing. PostgreSQL: every write transaction sends a notification on channel `calabresella` (delivered at
commit) that carries what changed (an evening and its revision), or nothing when the write cannot name it; the
watcher LISTENs on a connection of its own and publishes each as it comes, with no read. A notification that names
the watcher (a deal its own ledger recorded and told of itself) is no news.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import uuid
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, text

from ledger.notices import Notice
from ledger.store.changes import last_id, newer
from ledger.store.engine import reading

CHANNEL = "calabresella"
SQLITE_POLL_SECONDS = 0.05
LISTEN_WAIT_SECONDS = 0.5
"""How long a PostgreSQL watcher waits for a notification before it looks whether it should stop."""
RETRY_SECONDS = 1.0
"""How long the watcher rests after the database failed it, before it tries again."""
log = logging.getLogger("calabresella")


def notify(connection: Any, notice: Notice | None = None, *, told: str | None = None) -> None:
    """In a PostgreSQL write transaction: tell the watchers of every program, when it commits, what changed (`notice`;
    None: something they must look at again); `told`: the name of the watcher whose subscribers the writer tells
    itself, which need not look."""
    said = {"told": told or "", **({"evening": notice.evening, "revision": notice.revision} if notice else {})}
    connection.execute(text(f"SELECT pg_notify('{CHANNEL}', :said)"), {"said": json.dumps(said)})


def heard(payload: str) -> tuple[str, Notice]:
    """What a notification says: the watcher it names (or ""), and the notice (one that names nothing when the
    payload names no evening or is not the ledger's)."""
    try:
        said = json.loads(payload)
        evening = said.get("evening")
        named = Notice() if evening is None else Notice(evening=int(evening), revision=int(said.get("revision", -1)))
        return str(said.get("told", "")), named
    except (ValueError, TypeError, AttributeError):
        return "", Notice()


class Watcher:
    """A thread that publishes the changes committed to the database, by this program or another."""

    def __init__(self, engine: Engine, publish: Callable[[Notice], None]) -> None:
        self.engine, self.publish = engine, publish
        self.name = uuid.uuid4().hex
        """This watcher among all those of every program on the database (a process id may repeat on another host)."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ledger-watcher", daemon=True)
        self._seen = 0
        """The last change log row published (SQLite)."""
        if engine.dialect.name != "postgresql":
            with reading(engine).connect() as connection:
                self._seen = last_id(connection)

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
            self.publish(Notice())  # what was committed while no one listened: every watcher looks again
            while not self._stop.is_set():
                for notification in raw.notifies(timeout=LISTEN_WAIT_SECONDS, stop_after=1):
                    told, notice = heard(notification.payload)
                    if told != self.name:
                        self.publish(notice)

    def _catch_up(self) -> None:
        """Publish the change log rows not seen yet; with none, one notice that names nothing."""
        with reading(self.engine).connect() as connection:
            rows = newer(connection, self._seen)
        for row_id, evening, revision, event in rows:
            self._seen = row_id
            self.publish(Notice(evening=evening, revision=revision, event=event))
        if not rows:
            self.publish(Notice())
