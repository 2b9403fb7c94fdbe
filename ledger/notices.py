"""Who watches the ledger is told of each change: `Ledger` publishes a `Notice` after every write it commits, and
its watcher (`ledger.store.watch`) publishes those that other programs commit to the same database."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger("calabresella")


@dataclass(frozen=True)
class Notice:
    """A change: evening `evening` is at `revision` now (a club table's evening names its `event`), or club event
    `event` changed (a round seated or ended, the event closed). With neither, something changed that the notice
    cannot name (another program wrote): a watcher looks again at what it shows."""

    evening: int | None = None
    revision: int = -1
    event: int | None = None


Subscriber = Callable[[Notice], None]


class Notices:
    """The subscribers, told of each notice in the thread that publishes it (a writer's, or the watcher's)."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._guard = threading.Lock()

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Tell `subscriber` of every notice from now on; what it returns stops that."""
        with self._guard:
            self._subscribers.append(subscriber)
        return lambda: self._drop(subscriber)

    def _drop(self, subscriber: Subscriber) -> None:
        with self._guard:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

    def publish(self, notice: Notice) -> None:
        """Tell every subscriber; one that fails is logged and the others are told all the same."""
        with self._guard:
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            try:
                subscriber(notice)
            except Exception:  # a watcher's failure must not undo or hide a committed write
                log.exception("a subscriber failed on %s", notice)
