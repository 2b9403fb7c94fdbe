"""Helpers shared by the web tests: the app on the ledger under test, seen from the scorekeeper's phone
(holding a write session) or another player's, each a Starlette TestClient with the app's lifespan running."""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx2, which the package index does not have yet
    from starlette.testclient import TestClient

from ledger import Ledger
from ledger.server_store import ServerStore
from ledger.values import Terms
from ledger.web.access import Keys
from ledger.web.app import create_app
from ledger.web.throttle import Clock

TOKEN = "table-token-for-the-web-tests"
HOST = "testserver"
"""The host name the test client sends."""
PLAYERS = ("Anna", "Bruno", "Carla")
BEARER = {"Authorization": f"Bearer {TOKEN}"}


def identity(db: str) -> str:
    """The identity of the ledger at `db`."""
    with Ledger(db) as ledger:
        return ServerStore(ledger).identity()


def keys(db: str, token: str = TOKEN) -> Keys:
    """The keys of a server with `token` on the ledger at `db`: a server of another ledger takes none of them."""
    return Keys(token, identity(db))


def link(db: str, token: str = TOKEN) -> str:
    """The scorekeeper's link (its path and key) on a server with `token` on the ledger at `db`."""
    return f"/write?key={keys(db, token).link_key}"


class StoppedClock(Clock):
    """A clock for the throttle of wrong keys that stands still: it moves only when a test moves it or the throttle
    waits on it (at once)."""

    def __init__(self) -> None:
        self.seconds = time.time()

    def now(self) -> float:
        return self.seconds

    async def sleep(self, seconds: float) -> None:
        self.move(seconds)

    def move(self, seconds: float) -> None:
        self.seconds += seconds


def start(db: str, players: tuple[str, ...] = PLAYERS, **options: str) -> int:
    """Start an evening straight through the service; its number."""
    with Ledger(db) as ledger:
        return ledger.start_evening(players, Terms(stake="0.10", **options)).number


@contextmanager
def viewer(db: str, stream_seconds: float = 0.3, clock: Clock | None = None) -> Iterator[TestClient]:
    """A player's phone on the app: it opened the look-only link; each live stream it opens lasts `stream_seconds`.
    The app's throttle of wrong keys is timed by `clock`, by default one of its own that stands still."""
    app = create_app(db, TOKEN, hosts=(HOST,), stream_seconds=stream_seconds, clock=clock or StoppedClock())
    with TestClient(app, follow_redirects=False) as phone:
        yield phone


@contextmanager
def scorekeeper(db: str) -> Iterator[TestClient]:
    """The scorekeeper's phone: it opened the write link, so it holds a write session."""
    with viewer(db) as phone:
        assert phone.get(link(db)).status_code == 303
        yield phone


def csrf(browser: TestClient, path: str = "/evenings/1") -> str:
    """The CSRF token in the forms of a page."""
    found = re.search(r'name="csrf" value="([^"]*)"', browser.get(path).text)
    assert found, f"no form on {path}"
    return found.group(1)


def deal_count(db: str, evening: int = 1) -> int:
    """How many deals the evening has, read straight from the ledger."""
    with Ledger(db) as ledger:
        return len(ledger.deals(evening)[1])


def forget_wrong_tries(db: str) -> None:
    """Wipe the wrong tries the ledger keeps for the throttle (every test client comes from one address), as if the
    guesser had waited its wait out."""
    from sqlalchemy import text

    with Ledger(db) as ledger, ledger.engine.begin() as connection:
        connection.execute(text("DELETE FROM wrong_try"))
