"""The server's lane: writes, and the reads for the phones and screens watching, take turns in the order they came;
a page someone opens still reads beside them; a retry that stored nothing tells nobody."""

from __future__ import annotations

import asyncio
import threading
import time

from starlette.concurrency import run_in_threadpool
from test_web_support import BEARER, start, viewer

from ledger import Ledger
from ledger.web.live import Feeds
from ledger.web.turns import Turns


def test_calls_take_turns_one_at_a_time_in_the_order_they_came() -> None:
    running, most, order = [0], [0], []

    def call(n: int) -> int:
        running[0] += 1
        most[0] = max(most[0], running[0])
        time.sleep(0.002)
        order.append(n)
        running[0] -= 1
        return n * n

    async def many() -> list[int]:
        turns = Turns()
        return await asyncio.gather(*(turns.run(call, n) for n in range(20)))

    assert asyncio.run(many()) == [n * n for n in range(20)]
    assert most == [1] and order == list(range(20))


def test_a_watchers_read_waits_for_the_write_in_turn_and_a_page_read_does_not(sqlite_url: str) -> None:
    start(sqlite_url)
    writing, done = threading.Event(), threading.Event()

    def write(ledger: Ledger) -> None:
        writing.set()
        done.wait(5)
        ledger.record("bruno solo 22")

    async def night() -> tuple[bool, int, int]:
        with Ledger(sqlite_url) as ledger:
            feeds = Feeds(ledger, lambda live: "")
            writer = asyncio.create_task(feeds.turns.run(write, ledger))
            await asyncio.to_thread(writing.wait, 5)
            watching = asyncio.create_task(feeds._read(ledger.evening, 1))
            page = await asyncio.wait_for(run_in_threadpool(ledger.evening, 1), 5)  # no wait for the write
            await asyncio.sleep(0.2)
            waited = not watching.done()
            done.set()
            await writer
            read = await watching
            assert read is not None
            return waited, page.revision, read.revision

    waited, page_revision, watched_revision = asyncio.run(night())
    assert waited and page_revision == 0 and watched_revision == 1  # the watchers read what the write did


def test_a_retry_that_stored_nothing_tells_nobody(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        told: list[int] = []
        phone.app.state.feeds.listeners.append(told.append)  # type: ignore[attr-defined]
        deal = {"line": "bruno solo 22", "key": "phone-1-deal-1"}
        answers = [phone.post("/api/evenings/1/deals", json=deal, headers=BEARER) for _ in range(3)]
        assert [a.status_code for a in answers] == [201, 200, 200]
        assert [a.json()["duplicate"] for a in answers] == [False, True, True]
        assert told == [1]
