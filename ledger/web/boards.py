"""A club night's leaderboard, pushed live to the screen at the bar and to every phone watching the event.

A deal recorded through this server at any of the event's tables marks the event changed at once; a watch task
also looks every second at each watched event's stamp (one statement), so a deal recorded from elsewhere shows up
too. As with the evenings' feeds, an event nobody watches is never read, a watched one has at most one read running
and one queued, and the leaderboard is drawn once per language watched, whatever the number of screens.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from ledger.club.values import EventInfo
from ledger.service import Ledger
from ledger.web.live import KEEP_ALIVE_SECONDS, Feeds, drawn, event


@dataclass
class Board:
    """One watched event: its stamp, its evenings, the leaderboard in each language; `changed` is set (and
    replaced) at each change."""

    viewers: int = 0
    stamp: tuple[int, ...] = ()
    event: EventInfo | None = None
    evenings: frozenset[int] = frozenset()
    version: int = 0
    html: dict[str, str] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    stale: bool = False
    reading: asyncio.Task[None] | None = None


class Boards:
    """Every watched event's leaderboard; `render` draws it from the event as it stands."""

    def __init__(self, ledger: Ledger, feeds: Feeds, render: Callable[[EventInfo], str], poll_seconds: float) -> None:
        self.ledger = ledger
        self.feeds = feeds
        self.render = render
        self.poll_seconds = poll_seconds
        self.boards: dict[int, Board] = {}
        self.reads = 0

    def evening_changed(self, evening: int) -> None:
        """A write at a table: the event whose table it is, if watched, is read again."""
        for number, board in self.boards.items():
            if evening in board.evenings:
                self.changed(number)

    def changed(self, number: int) -> None:
        """The event changed: one read for its screens, however many changes come while it runs."""
        board = self.boards.get(number)
        if board is None or self.feeds.stopping:
            return
        board.stale = True
        if board.reading is None:
            board.reading = asyncio.create_task(self._catch_up(number, board))

    async def _catch_up(self, number: int, board: Board) -> None:
        try:
            while board.stale and board.viewers and not self.feeds.stopping:
                board.stale = False
                info = await self.feeds._read(self.ledger.event, number)
                if info is None:
                    return
                self.reads += 1
                if info.stamp != board.stamp:
                    self.publish(board, info)
        finally:
            board.reading = None

    def publish(self, board: Board, info: EventInfo) -> None:
        """Keep the event as it stands and wake every screen watching it; each language is drawn once, when the first
        screen in that language needs it."""
        board.stamp, board.event = info.stamp, info
        board.evenings = frozenset(table.evening for played in info.rounds for table in played.tables)
        board.version += 1
        board.html = {}
        board.changed.set()
        board.changed = asyncio.Event()

    async def stream(self, number: int, lifetime: float, code: str) -> AsyncIterator[str]:
        """Server-sent events: the leaderboard in language `code` now and at each change, for `lifetime` seconds."""
        board = self.boards.setdefault(number, Board())
        board.viewers += 1
        if not board.stamp:
            self.changed(number)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + lifetime
        try:
            yield "retry: 1000\n\n"
            sent = 0
            while (left := deadline - loop.time()) > 0 and not self.feeds.stopping:
                if board.version != sent:
                    sent = board.version
                    yield event(board.version, drawn(board.html, code, self.render, board.event))
                    continue
                try:
                    await asyncio.wait_for(board.changed.wait(), min(left, KEEP_ALIVE_SECONDS))
                except TimeoutError:
                    yield ": still here\n\n"
        finally:
            board.viewers -= 1
            if not board.viewers and self.boards.get(number) is board:
                del self.boards[number]

    async def watch(self) -> None:
        """Until the server stops: look at each watched event's stamp, for changes made elsewhere."""
        while not self.feeds.stopping:
            await asyncio.sleep(self.poll_seconds)
            for number, board in list(self.boards.items()):
                if board.reading is None:
                    stamp = await self.feeds._read(self.ledger.event_stamp, number)
                    if stamp is not None and stamp != board.stamp:
                        self.changed(number)

    async def stop(self) -> None:
        """End every stream now."""
        for board in self.boards.values():
            board.changed.set()
            if board.reading is not None:
                board.reading.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await board.reading
