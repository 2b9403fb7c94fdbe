"""Who watches the ledger is told of each change: `Ledger` publishes a `Notice` for every change row its writes
append, once they commit, and its watcher (`ledger.store.watch`) publishes those that other programs append to the
same database."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger("calabresella")


@dataclass(frozen=True)
class Notice:
    """One change, as its row of the change log names it: its `kind` (an evening's: `start`, `record`, `amend`, `void`,
    `undo`, `close`, `reopen`, `void_evening`, with the `evening` and the `revision` it is at now; or `player`,
    `payment`, `season`, `event`, `round`), and the club `event` it touched (an evening's when it is a club table)."""

    kind: str
    evening: int | None = None
    revision: int = 0
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
