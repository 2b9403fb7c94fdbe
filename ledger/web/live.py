"""The evening as it stands, pushed to every phone watching it (server-sent events).

A write made through this server refreshes its evening at once; a watch task also looks every second at
the evenings someone is watching, so a deal recorded from the terminal shows up too. The fragment is
read once per change and rendered once per language, whatever the number of phones.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from starlette.concurrency import run_in_threadpool

from ledger.errors import LedgerError
from ledger.frozen import freeze
from ledger.i18n import LANGUAGES, speaking
from ledger.service import Ledger
from ledger.values import DealView, EveningInfo, Recorded, Standings

LAST_DEALS = 6
"""How many of the latest deals the evening page shows."""


@dataclass(frozen=True)
class Live:
    """What the evening page shows: the evening, its standings and its latest deals with the totals after each."""

    evening: EveningInfo
    standings: Standings
    deals: Sequence[DealView]

    def __post_init__(self) -> None:
        freeze(self, "deals")

    @property
    def last_deals(self) -> list[tuple[DealView, Mapping[str, int] | None]]:
        """The latest deals, newest first, each with the running totals after it (None for a voided deal)."""
        after = dict(self.standings.running)
        return [(deal, after.get(deal.number)) for deal in reversed(self.deals[-LAST_DEALS:])]

    def then(self, done: Recorded, evening: EveningInfo) -> Live:
        """This evening after one more deal, with the totals the ledger reported after it."""
        running = [*self.standings.running, (done.deal.number, done.totals)]
        standings = replace(self.standings, points=done.totals, cents=evening.cents, running=running)
        return Live(evening, standings, [*self.deals, done.deal])


def load_live(ledger: Ledger, evening: int | None) -> Live:
    """Read the evening's page data (blocking: call it in the threadpool)."""
    info, deals = ledger.deals(evening)
    return Live(info, ledger.standings(info.number), deals)


@dataclass
class Feed:
    """One evening's latest revision and its fragment in each language; `changed` is set (and replaced) at each
    change."""

    revision: int = -1
    html: dict[str, str] = field(default_factory=dict)
    live: Live | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    viewers: int = 0


class Feeds:
    """Every watched evening's feed; `render` turns the evening's data into the fragment the phones show."""

    def __init__(self, ledger: Ledger, render: Callable[[Live], str], poll_seconds: float = 1.0) -> None:
        self.ledger = ledger
        self.render = render
        self.poll_seconds = poll_seconds
        self.feeds: dict[int, Feed] = {}

    def publish(self, feed: Feed, live: Live) -> None:
        """Render the evening once in each language and wake every phone watching it."""
        feed.revision, feed.live = live.evening.revision, live
        feed.html = {code: self._render_in(code, live) for code in LANGUAGES}
        feed.changed.set()
        feed.changed = asyncio.Event()

    async def refresh(self, evening: int) -> Feed:
        """Read the evening again and, if its revision moved, publish it."""
        feed = self.feeds.setdefault(evening, Feed())
        async with feed.lock:
            live = await run_in_threadpool(load_live, self.ledger, evening)
            if live.evening.revision != feed.revision:
                self.publish(feed, live)
        return feed

    async def recorded(self, done: Recorded) -> None:
        """After a new deal written here: when nothing else changed since the feed's last look, only the deal and
        the evening's head are new (no reading of every deal); otherwise the whole evening is read again."""
        feed = self.feeds.get(done.evening)
        if feed is not None and feed.live is not None and not done.duplicate:
            async with feed.lock:
                if feed.revision == done.evening_revision - 1:
                    evening = await run_in_threadpool(self.ledger.evening, done.evening)
                    if evening.revision == done.evening_revision:
                        self.publish(feed, feed.live.then(done, evening))
                        return
        await self.refresh(done.evening)

    def _render_in(self, code: str, live: Live) -> str:
        with speaking(code):
            return self.render(live)

    async def stream(self, evening: int, seen: int, lifetime: float, code: str) -> AsyncIterator[str]:
        """Server-sent events: the fragment in language `code` at each revision after `seen`, for `lifetime`
        seconds (then the browser reconnects, saying the last revision it got)."""
        feed = self.feeds.get(evening) or await self.refresh(evening)
        feed.viewers += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + lifetime
        try:
            yield "retry: 1000\n\n"
            while (left := deadline - loop.time()) > 0:
                if feed.revision > seen:
                    seen = feed.revision
                    yield event(feed.revision, feed.html[code])
                    continue
                changed = feed.changed
                try:
                    await asyncio.wait_for(changed.wait(), min(left, 15.0))
                except TimeoutError:
                    yield ": still here\n\n"
        finally:
            feed.viewers -= 1

    async def watch(self) -> None:
        """Forever: look at the revision of every evening someone watches, for changes made by another process."""
        while True:
            await asyncio.sleep(self.poll_seconds)
            for number, feed in list(self.feeds.items()):
                if feed.viewers and not feed.lock.locked():
                    with contextlib.suppress(LedgerError):
                        info = await run_in_threadpool(self.ledger.evening, number)
                        if info.revision != feed.revision:
                            await self.refresh(number)


def event(revision: int, html: str) -> str:
    """One server-sent event named `evening`, its id the revision, its data the fragment's lines."""
    data = "".join(f"data: {line}\n" for line in html.splitlines() or [""])
    return f"event: evening\nid: {revision}\n{data}\n"
