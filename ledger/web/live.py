"""What people watch, pushed to them as it changes (server-sent events): an evening's page on the phones, a club
night's leaderboard on the screens. One channel serves both.

The ledger tells the channel of every change committed, by this server or by any program writing to the same
database (`Ledger.subscribe`). Work stays bounded whatever the number of writes: what nobody watches is never read;
a watched evening or event has at most one read running and one more queued behind it, however many changes come
meanwhile; an evening's read takes its head and its last deals only, as quick on the thousandth deal as on the
first; a leaderboard's read after deals takes its tables and figures only, from the board shown. What is shown is
drawn once per language watched, whatever the number of phones and screens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from ledger.club.values import EventInfo
from ledger.errors import LedgerError
from ledger.i18n import _, speaking
from ledger.notices import Notice
from ledger.service import Ledger
from ledger.summary import undo_names
from ledger.values import LiveEvening
from ledger.web.outage import Outage

LAST_DEALS = 6
"""How many of the latest deals the evening page shows."""
KEEP_ALIVE_SECONDS = 15.0
"""A quiet stream sends an `alive` event this often, so proxies and phones keep it open, and a page that hears
nothing for two of them knows the connection stalled."""
ALIVE = "event: alive\ndata:\n\n"
"""The keep-alive: an event with empty data (a comment would never reach the page's script)."""
T = TypeVar("T")
log = logging.getLogger("calabresella.web")


Live = LiveEvening
"""What the evening page shows (`Ledger.live`)."""


def load_live(ledger: Ledger, evening: int | None) -> Live:
    """Read the evening's page data in one snapshot (blocking: call it in a worker thread, in its turn)."""
    return ledger.live(LAST_DEALS, evening)


def undo_label(live: Live) -> str | None:
    """What the undo button says it takes back (`Undo: deal 17, Anna solo 6+2/3`), in the language in use."""
    if live.undo is None:
        return None
    return _("Undo: {what}").format(what=undo_names(*live.undo))


WHOLE = {"player", "event", "round"}
"""Changes after which a watched event is read whole, not only its tables' deals."""
Topic = tuple[str, int]
"""What is watched: `("evening", N)` or `("event", N)`."""


@dataclass
class Watched:
    """One watched evening or event: what was last read of it and its stamp, the drawing in each language a watcher
    asked for; `changed` is set (and replaced) at each change; `stale` asks for one more read, `reading` is the read
    under way."""

    viewers: int = 0
    shown: Any = None
    stamp: object = None
    version: int = 0
    """Counts what was published."""
    ident: int = -1
    """The event id the watchers get: an evening's revision, an event's version."""
    html: dict[str, str] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    stale: bool = False
    whole: bool = True
    """An event's next read reads it whole: more than its tables' deals changed (a round seated or ended, a player
    renamed), or it was never read."""
    reading: asyncio.Task[None] | None = None
    broken: bool = False
    """It could not be read or drawn: its streams end (each browser asks again in a second, for a fresh read)."""


class Channel:
    """Every watched evening and event, kept as the ledger tells of changes; `render` draws an evening's live part
    (`Live`) or an event's leaderboard (`EventInfo`)."""

    def __init__(self, ledger: Ledger, render: dict[str, Callable[[Any], str]], outage: Outage | None = None) -> None:
        self.ledger = ledger
        self.render = render
        self.watched: dict[Topic, Watched] = {}
        self.stopping = False
        self.outage = outage or Outage()
        """Where the ledger's failures to answer are told, with the requests'."""
        self.reads = 0
        """How many times an evening or event was read for its watchers."""
        self._stop_listening: Callable[[], None] | None = None

    def listen(self) -> None:
        """Be told of the ledger's changes (call inside the server's event loop)."""
        loop = asyncio.get_running_loop()

        def hand_on(notice: Notice) -> None:
            loop.call_soon_threadsafe(self.told, notice)

        self._stop_listening = self.ledger.subscribe(hand_on)

    def told(self, notice: Notice) -> None:
        """A change: what it touches, if watched, is read again (a leaderboard when one of its tables changed or a
        player was renamed: then whole)."""
        for topic, watched in list(self.watched.items()):
            if self._touches(topic, watched, notice):
                watched.whole = watched.whole or notice.kind in WHOLE
                self.changed(topic)

    def _touches(self, topic: Topic, watched: Watched, notice: Notice) -> bool:
        kind, number = topic
        if notice.kind == "player":
            return True  # a name shown may have changed
        if kind == "event":
            return notice.event == number or watched.shown is None or notice.evening in _tables(watched.shown)
        if notice.evening == number:
            return True
        shown = watched.shown if isinstance(watched.shown, Live) else None
        if notice.kind in ("round", "event"):  # a club table's round may have ended (its evening closed before)
            return shown is not None and shown.place is not None and shown.place.event == notice.event
        started = notice.kind == "start"  # a table may play on in a new evening
        return started and shown is not None and shown.evening.closed

    def changed(self, topic: Topic) -> None:
        """One read for the watchers, however many changes come while it runs."""
        watched = self.watched.get(topic)
        if watched is None or self.stopping:
            return
        watched.stale = True
        if watched.reading is None:
            watched.reading = asyncio.create_task(self._catch_up(topic, watched))

    async def _catch_up(self, topic: Topic, watched: Watched) -> None:
        """Read until no change came during the last read; publish what moved. A read that fails otherwise than by
        the ledger not answering (a damaged row, a fault of the code) ends the watchers' streams."""
        try:
            while watched.stale and watched.viewers and not self.stopping:
                whole, watched.stale, watched.whole = watched.whole, False, False
                shown = await self._read(topic, None if whole else watched.shown)
                if shown is None:
                    watched.whole = watched.whole or whole
                    return  # the next change tells again once the ledger answers
                self.reads += 1
                self.publish(topic, watched, shown)
        except Exception as error:
            self._broke(topic, watched, error)
        finally:
            watched.reading = None

    def _broke(self, topic: Topic, watched: Watched, error: Exception) -> None:
        """What is watched could not be read or drawn: one line in the log, no traceback, and its streams end; the
        next stream of it starts afresh."""
        kind, number = topic
        what = (_("evening {number}") if kind == "evening" else _("club night {number}")).format(number=number)
        said = f"{type(error).__name__}: {(str(error).splitlines() or [''])[0]}"
        log.error(
            _("the live feed of {what} failed ({error}): its streams end, and reconnect").format(what=what, error=said)
        )
        watched.broken = True
        watched.changed.set()
        if self.watched.get(topic) is watched:
            del self.watched[topic]

    async def _read(self, topic: Topic, shown: Any = None) -> Any:
        """The evening or event as it stands, read in its turn with the ledger's writes (an event `shown` before,
        when only its tables' deals changed since, by its tables and leaderboard alone); None when the ledger cannot
        answer (told to the outage)."""
        kind, number = topic
        read: Callable[..., Any] = (
            (lambda: load_live(self.ledger, number)) if kind == "evening" else self._event(number, shown)
        )
        try:
            found = await run_in_threadpool(self.ledger.in_turn, read)
        except LedgerError as error:
            self.outage.failed(error, refused=False, writing=False)
            return None
        self.outage.answered(writing=False)
        return found

    def _event(self, number: int, shown: EventInfo | None) -> Callable[[], EventInfo]:
        return lambda: (shown and self.ledger.club.event_after_deals(shown)) or self.ledger.club.event(number)

    def publish(self, topic: Topic, watched: Watched, shown: Any) -> None:
        """Keep what was read and wake every watcher, when it moved (a later revision; for a closed evening, news of
        where its table plays on; for a club table, news of its round; for an event, anything shown); each language is
        drawn once, when first needed."""
        if isinstance(shown, Live):
            stamp: object = (shown.evening.revision, shown.next_evening, shown.place)
            if watched.stamp is not None and shown.evening.revision < watched.ident:
                return  # a read begun before a newer one was published
            ident = shown.evening.revision
        else:
            stamp, ident = shown, watched.version + 1  # a name may change, not its stamp
        if stamp == watched.stamp:
            return
        watched.shown, watched.stamp, watched.ident = shown, stamp, ident
        watched.version += 1
        watched.html = {}
        watched.changed.set()
        watched.changed = asyncio.Event()

    async def stream(self, topic: Topic, seen: int, lifetime: float, code: str) -> AsyncIterator[str]:
        """Server-sent events: what is watched, drawn in language `code`, at each change after `seen` (the event id
        the page came with, or -1), for `lifetime` seconds, until the server stops, or until what is watched cannot
        be read or drawn (then the browser reconnects, saying the last id it got)."""
        watched = self.watched.setdefault(topic, Watched())
        watched.viewers += 1
        if watched.stamp is None:
            self.changed(topic)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + lifetime
        try:
            yield "retry: 1000\n\n"
            sent = -1  # the version this watcher shows, once known
            while (left := deadline - loop.time()) > 0 and not self.stopping and not watched.broken:
                if watched.stamp is not None and watched.version != sent:
                    fresh = watched.ident > seen or sent >= 0  # the page came with id `seen` drawn
                    seen, sent = max(seen, watched.ident), watched.version
                    if fresh:
                        try:
                            html = drawn(watched.html, code, self.render[topic[0]], watched.shown)
                        except Exception as error:
                            self._broke(topic, watched, error)
                            return
                        yield event(watched.ident, html)
                    continue
                try:
                    await asyncio.wait_for(watched.changed.wait(), min(left, KEEP_ALIVE_SECONDS))
                except TimeoutError:
                    yield ALIVE
        finally:
            watched.viewers -= 1
            if not watched.viewers and self.watched.get(topic) is watched:
                del self.watched[topic]

    async def stop(self) -> None:
        """End every stream and drop the reads queued: the server stops now, whatever was pending."""
        self.stopping = True
        if self._stop_listening is not None:
            self._stop_listening()
        reading = [watched.reading for watched in self.watched.values() if watched.reading is not None]
        for watched in self.watched.values():
            watched.changed.set()
        for task in reading:
            task.cancel()
        for task in reading:
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _tables(info: EventInfo) -> set[int]:
    """The evenings an event's tables keep."""
    return {table.evening for played in info.rounds for table in played.tables}


def drawn(html: dict[str, str], code: str, render: Callable[[T], str], shown: T | None) -> str:
    """`shown` drawn by `render` in language `code`, once: kept in `html` for every later phone in that language."""
    if code not in html and shown is not None:
        with speaking(code):
            html[code] = render(shown)
    return html.get(code, "")


def event(ident: int, html: str) -> str:
    """One server-sent event (named `evening`, the pages' scripts listen for it, a leaderboard's alike), its id
    `ident`, its data the fragment's lines."""
    data = "".join(f"data: {line}\n" for line in html.splitlines() or [""])
    return f"event: evening\nid: {ident}\n{data}\n"
