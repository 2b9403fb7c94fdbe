"""The evening as it stands, pushed to every phone watching it (server-sent events).

A write made through this server marks its evening changed; a watch task also looks every second at the
evenings someone is watching, so a deal recorded from the terminal shows up too. Work stays bounded whatever
the number of writes: an evening nobody watches is never read for the feed; a watched one has at most one read
running and one more queued behind it, however many writes come meanwhile; and a read takes the evening's head
and its last deals only, as quick on the thousandth deal as on the first. The fragment is drawn once per
language watched, whatever the number of phones.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from ledger.club.values import TablePlace
from ledger.errors import LedgerError, NoOpenEvening
from ledger.frozen import freeze
from ledger.i18n import _, speaking
from ledger.rules.games import Game
from ledger.service import Ledger
from ledger.values import DealView, EveningInfo
from ledger.web.turns import Turns

LAST_DEALS = 6
"""How many of the latest deals the evening page shows."""
KEEP_ALIVE_SECONDS = 15.0
"""A quiet stream sends a comment this often, so proxies and phones keep it open."""
log = logging.getLogger("calabresella.web")
T = TypeVar("T")


@dataclass(frozen=True)
class Live:
    """What the evening page shows: the evening (with its totals) and its latest deals, oldest first."""

    evening: EveningInfo
    deals: Sequence[DealView]
    games: Sequence[Game] = ()
    """With a game to N points: the evening's games, the last perhaps going on."""
    next_evening: int | None = None
    """For a closed evening: the open evening where the same table plays on, if there is one."""
    place: TablePlace | None = None
    """For a club table: its event, round and table, and how far it is in the round."""

    def __post_init__(self) -> None:
        freeze(self, "deals", "games")

    @property
    def last_deals(self) -> list[tuple[DealView, dict[str, int] | None]]:
        """The latest deals, newest first, each with the running totals after it (None for a voided deal): the
        totals now, less what each later deal that stands paid."""
        after, shown = dict(self.evening.points), []
        for deal in reversed(self.deals):
            shown.append((deal, None if deal.voided else after))
            if not deal.voided:
                after = {name: points - deal.payouts.get(name, 0) for name, points in after.items()}
        return shown


def load_live(ledger: Ledger, evening: int | None) -> Live:
    """Read the evening's page data (blocking: call it in a worker thread, in its turn); the games only where the
    evening plays games to N points."""
    info, deals = ledger.last_deals(LAST_DEALS, evening)
    games = ledger.standings(info.number).games if info.profile.game_to else ()
    return Live(
        info, deals, games, _next_evening(ledger, info) if info.closed else None, ledger.table_place(info.number)
    )


def _next_evening(ledger: Ledger, info: EveningInfo) -> int | None:
    """The newest open evening after this one with the same players: where the table plays on."""
    table = set(info.players)
    later = (e for e in ledger.evenings() if e.number > info.number and not e.closed and set(e.players) == table)
    return next((e.number for e in later), None)


@dataclass
class Feed:
    """One watched evening: its latest revision and fragment in each language; `changed` is set (and replaced) at
    each change; `stale` asks for one more read, `reading` is the read under way."""

    viewers: int = 0
    revision: int = -1
    follows: int | None = None
    """The evening the table went on to, as last published."""
    version: int = 0
    """Counts what was published: a closed evening's fragment changes without a new revision when its table
    plays on in a new evening."""
    live: Live | None = None
    html: dict[str, str] = field(default_factory=dict)
    """The fragment in each language a phone watching has asked for."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    stale: bool = False
    reading: asyncio.Task[None] | None = None


class Feeds:
    """Every watched evening's feed; `render` turns the evening's data into the fragment the phones show."""

    def __init__(self, ledger: Ledger, render: Callable[[Live], str], poll_seconds: float = 1.0) -> None:
        self.ledger = ledger
        self.turns = Turns()
        """The lane the reads for the watchers take turns in with the server's writes."""
        self.render = render
        self.poll_seconds = poll_seconds
        self.feeds: dict[int, Feed] = {}
        self.stopping = False
        self.trouble: str | None = None
        """The ledger's last failure to answer, while it lasts."""
        self.reads = 0
        """How many times an evening was read for its watchers."""
        self.listeners: list[Callable[[int], None]] = []
        """Told of every evening changed through this server (a club night's leaderboard follows its tables)."""

    def changed(self, evening: int) -> None:
        """The evening changed: its watchers get one read (nothing is read when nobody watches); while that read
        runs, any number of further changes queue one more."""
        for listener in self.listeners:
            listener(evening)
        feed = self.feeds.get(evening)
        if feed is None or self.stopping:
            return
        feed.stale = True
        if feed.reading is None:
            feed.reading = asyncio.create_task(self._catch_up(evening, feed))

    def read(self, live: Live) -> None:
        """The evening changed, and the writer read it afterwards: its watchers get that read, without one of
        their own (a read under way, begun before, publishes nothing older)."""
        for listener in self.listeners:
            listener(live.evening.number)
        feed = self.feeds.get(live.evening.number)
        if feed is not None and not self.stopping and self._newer(feed, live):
            self.publish(feed, live)

    @staticmethod
    def _newer(feed: Feed, live: Live) -> bool:
        """Whether `live` is past what the feed published: a later revision, or, for a closed evening, news of
        where its table plays on."""
        revision = live.evening.revision
        return revision > feed.revision or (revision == feed.revision and live.next_evening != feed.follows)

    def started(self) -> None:
        """An evening started: every watched evening is read again, so that the watchers of a closed one learn
        where their table plays on."""
        for evening in list(self.feeds):
            self.changed(evening)

    async def _catch_up(self, evening: int, feed: Feed) -> None:
        """Read the evening until no change came during the last read; publish what moved."""
        try:
            while feed.stale and feed.viewers and not self.stopping:
                feed.stale = False
                live = await self._read(load_live, self.ledger, evening)
                if live is None:
                    return  # the watch task tries again once the ledger answers
                self.reads += 1
                if self._newer(feed, live):
                    self.publish(feed, live)
        finally:
            feed.reading = None

    async def _read(self, read: Callable[..., T], *args: object) -> T | None:
        """A read in its turn with the writes; None, and one line in the log for the first of a run of failures, when
        the ledger cannot answer."""
        try:
            found = await self.turns.run(read, *args)
        except LedgerError as error:
            if str(error) != self.trouble:
                log.warning(_("live feed: %s"), error)
            self.trouble = str(error)
            return None
        if self.trouble is not None:
            log.warning(_("live feed: the ledger answers again"))
            self.trouble = None
        return found

    def publish(self, feed: Feed, live: Live) -> None:
        """Keep the evening as read and wake every phone watching it; each language is drawn once, when the first
        phone in that language needs it."""
        feed.revision, feed.follows, feed.live = live.evening.revision, live.next_evening, live
        feed.version += 1
        feed.html = {}
        feed.changed.set()
        feed.changed = asyncio.Event()

    async def stream(self, evening: int, seen: int, lifetime: float, code: str) -> AsyncIterator[str]:
        """Server-sent events: the fragment in language `code` at each revision after `seen`, for `lifetime`
        seconds or until the server stops (then the browser reconnects, saying the last revision it got)."""
        feed = self.feeds.setdefault(evening, Feed())
        feed.viewers += 1
        if feed.revision < 0:
            self.changed(evening)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + lifetime
        try:
            yield "retry: 1000\n\n"
            sent = -1  # the version of the fragment this phone shows, once known
            while (left := deadline - loop.time()) > 0 and not self.stopping:
                if feed.revision >= 0 and feed.version != sent:
                    fresh = feed.revision > seen or sent >= 0  # the page came with the revision `seen` drawn
                    seen, sent = max(seen, feed.revision), feed.version
                    if fresh:
                        yield event(feed.revision, drawn(feed.html, code, self.render, feed.live))
                    continue
                try:
                    await asyncio.wait_for(feed.changed.wait(), min(left, KEEP_ALIVE_SECONDS))
                except TimeoutError:
                    yield ": still here\n\n"
        finally:
            feed.viewers -= 1
            if not feed.viewers and self.feeds.get(evening) is feed:
                del self.feeds[evening]

    async def watch(self) -> None:
        """Until stopped: look at the revision of every evening someone watches, for changes made elsewhere."""
        newest = await self._read(_newest_open, self.ledger)
        while not self.stopping:
            await asyncio.sleep(self.poll_seconds)
            if self.feeds and (opened := await self._read(_newest_open, self.ledger)) != newest:
                newest = opened
                self.started()
                continue
            for number, feed in list(self.feeds.items()):
                if feed.reading is None:
                    info = await self._read(self.ledger.evening, number)
                    if info is not None and info.revision != feed.revision:
                        self.changed(number)

    async def stop(self) -> None:
        """End every stream and drop the reads queued: the server stops now, whatever was pending."""
        self.stopping = True
        reading = [feed.reading for feed in self.feeds.values() if feed.reading is not None]
        for feed in self.feeds.values():
            feed.changed.set()
        for task in reading:
            task.cancel()
        for task in reading:
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _newest_open(ledger: Ledger) -> int | None:
    """The number of the most recent open evening, if any."""
    try:
        return ledger.evening().number
    except NoOpenEvening:
        return None


def drawn(html: dict[str, str], code: str, render: Callable[[T], str], shown: T | None) -> str:
    """`shown` drawn by `render` in language `code`, once: kept in `html` for every later phone in that language."""
    if code not in html and shown is not None:
        with speaking(code):
            html[code] = render(shown)
    return html.get(code, "")


def event(revision: int, html: str) -> str:
    """One server-sent event named `evening`, its id the revision, its data the fragment's lines."""
    data = "".join(f"data: {line}\n" for line in html.splitlines() or [""])
    return f"event: evening\nid: {revision}\n{data}\n"
