"""The live feed (server-sent events) and `calabresella serve`: one event per change, written once for every
phone; the server starts without pandas or matplotlib and prints its two links."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator

import pytest
from test_web_support import BEARER, start, viewer

from ledger import Ledger
from ledger.cli.serve import links, print_links
from ledger.web.live import Feeds, event, load_live


def _events(stream: str) -> list[tuple[str, str]]:
    """(id, data) of each `evening` event in a server-sent event stream."""
    found = re.findall(r"event: evening\nid: (\d+)\n((?:data: .*\n)+)\n", stream)
    return [(revision, "\n".join(line[6:] for line in data.splitlines())) for revision, data in found]


def test_a_phone_gets_the_evening_now_and_then_only_what_changed(db_url: str) -> None:
    start(db_url)
    with viewer(db_url, stream_seconds=1.0) as phone:  # time enough for a first read on a busy machine
        first = _events(phone.get("/evenings/1/events").text)
        assert [revision for revision, _ in first] == ["0"] and "No deals yet." in first[0][1]
        assert _events(phone.get("/evenings/1/events", headers={"Last-Event-ID": "0"}).text) == []
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        [(revision, fragment)] = _events(phone.get("/evenings/1/events?seen=0").text)
        page = phone.get("/evenings/1").text
    assert revision == "1" and "Bruno solo · 7+1/3 · won" in fragment
    assert fragment.strip() in page.replace("\r", "")


def test_a_deal_recorded_elsewhere_reaches_the_phones(db_url: str) -> None:
    from ledger import Ledger

    start(db_url)
    with viewer(db_url) as phone:
        assert _events(phone.get("/evenings/1/events").text)[0][0] == "0"
        with Ledger(db_url) as terminal:
            terminal.record("carla solo 20")
        assert [r for r, _ in _events(phone.get("/evenings/1/events?seen=0").text)] == ["1"]


def test_starting_the_server_loads_neither_pandas_nor_matplotlib(tmp_path: object) -> None:
    script = f"""
import sys, warnings
warnings.simplefilter("ignore")
from starlette.testclient import TestClient
import ledger.cli.main
from ledger import Ledger
from ledger.web.app import create_app
db = {str(tmp_path) + "/ledger.sqlite3"!r}
Ledger(db).start_evening(["Anna", "Bruno", "Carla"])
with TestClient(create_app(db, "t" * 32, hosts=["testserver"])) as phone:
    assert phone.get("/evenings/1").status_code == 200
    assert phone.get("/api/evenings/1/standings").status_code == 200
print(sorted(m for m in ("pandas", "matplotlib", "reports.charts") if m in sys.modules))
"""
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "[]"


def test_the_links_carry_the_link_key_only_for_writing(capsys: pytest.CaptureFixture[str]) -> None:
    write, look = links("127.0.0.1", 8123, "k3y")
    assert (write, look) == ("http://127.0.0.1:8123/write?key=k3y", "http://127.0.0.1:8123/")
    lan_write, _ = links("0.0.0.0", 8000, "k3y")
    assert lan_write.endswith(":8000/write?key=k3y") and "0.0.0.0" not in lan_write
    print_links(write, look, qr=True)
    printed = capsys.readouterr().out
    assert write in printed and look in printed
    assert printed.count("Scorekeeper (can write)") == 1 and ("█" in printed or "▀" in printed)


def _feeds(db: str) -> tuple[Ledger, Feeds]:
    ledger = Ledger(db)
    return ledger, Feeds(ledger, lambda live: f"revision {live.evening.revision}")


def test_a_change_nobody_watches_reads_nothing(sqlite_url: str) -> None:
    start(sqlite_url)

    async def burst() -> int:
        ledger, feeds = _feeds(sqlite_url)
        for _ in range(50):
            feeds.changed(1)
        await asyncio.sleep(0.2)
        ledger.close()
        return feeds.reads

    assert asyncio.run(burst()) == 0


def test_a_burst_of_changes_makes_one_read_and_one_more_for_those_during_it(sqlite_url: str) -> None:
    start(sqlite_url)

    async def burst() -> tuple[int, int, str]:
        ledger, feeds = _feeds(sqlite_url)
        stream = feeds.stream(1, -1, 5.0, "en")
        assert await anext(stream) == "retry: 1000\n\n"
        first = await anext(stream)  # the first read, for the phone that connected
        reads_then = feeds.reads
        for n in range(100):
            ledger.record("pass")
            feeds.changed(1)
            if n == 50:
                await asyncio.sleep(0)  # the read starts here; the changes after it queue one more
        while feeds.feeds[1].reading is not None:
            await asyncio.sleep(0.01)
        await stream.aclose()
        ledger.close()
        return reads_then, feeds.reads, first

    reads_then, reads, first = asyncio.run(burst())
    assert reads_then == 1 and "revision 0" in first
    assert reads == 3  # 100 changes: the one read that started at the 51st, and one more for the 49 after it


def test_the_recording_pages_read_reaches_the_phones_without_a_read_of_their_own_and_an_older_one_is_not_shown(
    sqlite_url: str,
) -> None:
    start(sqlite_url)

    async def record_and_read() -> tuple[int, str, list[int]]:
        ledger, feeds = _feeds(sqlite_url)
        stream = feeds.stream(1, -1, 5.0, "en")
        await anext(stream)
        await anext(stream)  # revision 0, the feed's own read for the phone that connected
        reads, older = feeds.reads, load_live(ledger, 1)  # a read begun before the deal, ending after it
        ledger.record("bruno solo 22")
        feeds.read(load_live(ledger, 1))  # what the page that recorded the deal read for itself
        shown = await anext(stream)
        published = [feeds.feeds[1].version]
        for late in (older, load_live(ledger, 1)):  # older, then nothing new: neither is published
            feeds.read(late)
            published.append(feeds.feeds[1].version)
        await stream.aclose()
        ledger.close()
        return feeds.reads - reads, shown, published

    extra_reads, shown, published = asyncio.run(record_and_read())
    assert extra_reads == 0 and shown == event(1, "revision 1")
    assert len(set(published)) == 1


def test_the_live_part_reads_the_same_statements_on_a_long_evening_and_its_totals_are_right(sqlite_url: str) -> None:
    from sqlalchemy import event as sql_event

    start(sqlite_url)
    with Ledger(sqlite_url) as ledger:
        statements: list[str] = []
        sql_event.listen(ledger.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
        counts = []
        for deals in (8, 300):
            for n in range(deals - len(ledger.deals(1)[1])):
                ledger.record(("bruno solo 22", "carla chiamo 3D@anna 17 last=opp", "anna solo 15")[n % 3])
            ledger.amend(deals - 2, "20", reason="recount")
            ledger.void(deals - 4, reason="misdeal")
            statements.clear()
            live = load_live(ledger, 1)
            counts.append(len(statements))
            running = dict(ledger.standings(1).running)
            assert [deal.number for deal in live.deals] == list(range(deals - 5, deals + 1))
            for deal, after in live.last_deals:
                assert after == running.get(deal.number), deal.number
            assert live.last_deals[4] == (live.deals[1], None)  # the voided one
    assert counts[0] == counts[1]


def test_stopping_ends_every_stream_at_once(sqlite_url: str) -> None:
    start(sqlite_url)

    async def watch_then_stop() -> float:
        ledger, feeds = _feeds(sqlite_url)
        streams = [feeds.stream(1, -1, 300.0, "en") for _ in range(20)]
        for stream in streams:
            await anext(stream)

        async def drain(stream: AsyncIterator[str]) -> None:
            async for _ in stream:
                pass

        draining = [asyncio.create_task(drain(stream)) for stream in streams]
        await asyncio.sleep(0.2)
        began = time.monotonic()
        await feeds.stop()
        await asyncio.wait_for(asyncio.gather(*draining), 2)
        ledger.close()
        return time.monotonic() - began

    assert asyncio.run(watch_then_stop()) < 0.5
