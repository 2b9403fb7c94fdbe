"""The live feed (server-sent events) and `calabresella serve`: one event per change, written once for every
phone; the server starts without pandas or matplotlib, holds one SQLite library and prints its two links."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import subprocess
import sys
from collections.abc import AsyncIterator

import pytest
from test_web_support import BEARER, TestClient, start, viewer

from ledger import Ledger
from ledger.cli.serve import links, print_links
from ledger.notices import Notice
from ledger.web.live import Channel, event, load_live


def _events(stream: str) -> list[tuple[str, str]]:
    """(id, data) of each `evening` event in a server-sent event stream."""
    found = re.findall(r"event: evening\nid: (\d+)\n((?:data: .*\n)+)\n", stream)
    return [(revision, "\n".join(line[6:] for line in data.splitlines())) for revision, data in found]


def _first_event(phone: TestClient, path: str, headers: dict[str, str] | None = None) -> tuple[str, str]:
    """(id, data) of the first `evening` event of a live stream, read as it comes; the stream is closed then."""
    said = ""
    with phone.stream("GET", path, headers=headers) as response:
        for text in response.iter_text():
            said += text
            if found := _events(said):
                return found[0]
    raise AssertionError(f"the stream ended with no event: {said!r}")


def test_a_phone_gets_the_evening_now_and_then_only_what_changed(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url, stream_seconds=1.0) as phone:  # time enough for a first read on a busy machine
        first = _first_event(phone, "/evenings/1/events")
        assert first[0] == "0" and "No deals yet." in first[1]
        assert _events(phone.get("/evenings/1/events", headers={"Last-Event-ID": "0"}).text) == []
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        revision, fragment = _first_event(phone, "/evenings/1/events?seen=0")
        page = phone.get("/evenings/1").text
    assert revision == "1" and "Bruno solo · 7+1/3 · won" in fragment
    assert fragment.strip() in page.replace("\r", "")


def test_a_deal_recorded_elsewhere_reaches_the_phones(db_url: str) -> None:
    start(db_url)
    with viewer(db_url, stream_seconds=10.0) as phone:  # each stream is read until its first event
        assert _first_event(phone, "/evenings/1/events")[0] == "0"
        with Ledger(db_url) as terminal:
            terminal.record("carla solo 20")
        assert _first_event(phone, "/evenings/1/events?seen=0")[0] == "1"


def test_a_server_starts_without_pandas_or_matplotlib_and_holds_one_sqlite_library(tmp_path: object) -> None:
    """In a process of its own: the server starts and serves an evening and its standings without loading pandas or
    matplotlib. Then it serves a report and a chart, and each file of code it has loaded is looked into: one holds
    SQLite. (SQLite's locks on a file belong to the program, and a copy of SQLite tracks only its own: a second copy
    in the server, as an Arrow driver brought one, dropped the locks of the server's open reads whenever it closed
    the ledger.)"""
    script = f"""
import json, os, sys, warnings
warnings.simplefilter("ignore")
from starlette.testclient import TestClient
import ledger.cli.main
from ledger import Ledger
from ledger.web.app import create_app
db = {str(tmp_path) + "/ledger.sqlite3"!r}
with Ledger(db) as ledger:
    ledger.start_evening(["Anna", "Bruno", "Carla"])
    for line in ("bruno solo 22", "carla chiamo 3D@anna 17", "pass"):
        ledger.record(line)
with TestClient(create_app(db, "Qx7-mZ2pL9vT4wR8nK3sB6yH", hosts=["testserver"])) as phone:
    assert phone.get("/evenings/1").status_code == 200
    assert phone.get("/api/evenings/1/standings").status_code == 200
    heavy = sorted(m for m in ("pandas", "matplotlib", "ledger.reports.charts") if m in sys.modules)
    pages = ("/evenings/1/report", "/evenings/1/charts", "/evenings/1/charts/money.png")
    assert [phone.get(page).status_code for page in pages] == [200] * len(pages)
holding = None
if os.path.exists("/proc/self/maps"):
    maps = [line.split(maxsplit=5) for line in open("/proc/self/maps")]
    loaded = {{row[5].strip() for row in maps if len(row) == 6 and "x" in row[1] and row[5].startswith("/")}}
    holding = sorted(path for path in loaded if b"SQLite format 3\\x00" in open(path, "rb").read())
print(json.dumps([heavy, holding]))
"""
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    heavy, holding = json.loads(ran.stdout)
    assert heavy == []
    assert holding is None or len(holding) == 1, holding


def test_the_links_carry_the_link_key_only_for_writing(capsys: pytest.CaptureFixture[str]) -> None:
    write, look = links("127.0.0.1", 8123, "k3y")
    assert (write, look) == ("http://127.0.0.1:8123/write?key=k3y", "http://127.0.0.1:8123/")
    lan_write, _ = links("0.0.0.0", 8000, "k3y")
    assert lan_write.endswith(":8000/write?key=k3y") and "0.0.0.0" not in lan_write
    print_links(write, look, qr=True)
    printed = capsys.readouterr().out
    assert write in printed and look in printed
    assert printed.count("Scorekeeper (can write)") == 1 and ("█" in printed or "▀" in printed)


def _channel(db: str) -> tuple[Ledger, Channel]:
    ledger = Ledger(db)
    return ledger, Channel(ledger, {"evening": lambda live: f"revision {live.evening.revision}", "event": str})


EVENING = ("evening", 1)


def test_a_change_nobody_watches_reads_nothing(sqlite_url: str) -> None:
    start(sqlite_url)

    async def burst() -> int:
        ledger, channel = _channel(sqlite_url)
        for n in range(50):
            channel.told(Notice("record", evening=1, revision=n + 1))
        channel.told(Notice("player"))
        await asyncio.sleep(0.2)
        ledger.close()
        return channel.reads

    assert asyncio.run(burst()) == 0


def test_a_burst_of_changes_makes_one_read_and_one_more_for_those_during_it(sqlite_url: str) -> None:
    start(sqlite_url)

    async def burst() -> tuple[int, int, str]:
        ledger, channel = _channel(sqlite_url)
        stream = channel.stream(EVENING, -1, 5.0, "en")
        assert await anext(stream) == "retry: 1000\n\n"
        first = await anext(stream)  # the first read, for the phone that connected
        reads_then = channel.reads
        for n in range(100):
            ledger.record("pass")
            channel.told(Notice("record", evening=1, revision=n + 1))
            if n == 50:
                await asyncio.sleep(0)  # the read starts here; the changes after it queue one more
        while channel.watched[EVENING].reading is not None:
            await asyncio.sleep(0.01)
        await stream.aclose()
        ledger.close()
        return reads_then, channel.reads, first

    reads_then, reads, first = asyncio.run(burst())
    assert reads_then == 1 and "revision 0" in first
    assert reads == 3  # 100 changes: the one read that started at the 51st, and one more for the 49 after it


def test_a_read_begun_before_a_change_is_never_shown_after_it(sqlite_url: str) -> None:
    start(sqlite_url)

    async def record_and_read() -> tuple[str, list[int]]:
        ledger, channel = _channel(sqlite_url)
        stream = channel.stream(EVENING, -1, 5.0, "en")
        await anext(stream)
        await anext(stream)  # revision 0, the channel's own read for the phone that connected
        older = load_live(ledger, 1)  # a read begun before the deal, ending after it
        ledger.record("bruno solo 22")
        channel.told(Notice("record", evening=1, revision=1))
        shown = await anext(stream)
        watched = channel.watched[EVENING]
        published = [watched.version]
        for late in (older, load_live(ledger, 1)):  # older, then nothing new: neither is published
            channel.publish(EVENING, watched, late)
            published.append(watched.version)
        await stream.aclose()
        ledger.close()
        return shown, published

    shown, published = asyncio.run(record_and_read())
    assert shown == event(1, "revision 1")
    assert len(set(published)) == 1


def test_a_change_elsewhere_reaches_a_board_whose_table_it_is_and_no_other(sqlite_url: str) -> None:
    with Ledger(sqlite_url) as ledger:
        ledger.club.start_event("Night", ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"])
        info = ledger.club.seat_round(tables=[["Anna", "Bruno", "Carla"], ["Dario", "Elena", "Franco"]])
        assert info.current is not None
        first, second = (table.evening for table in info.current.tables)
        ledger.start_evening(["Gina", "Ivo", "Lia"])

    async def watch() -> tuple[int, int, int]:
        ledger, channel = _channel(sqlite_url)
        stream = channel.stream(("event", 1), -1, 5.0, "en")
        await anext(stream)
        await anext(stream)
        ledger.record("anna solo 22", evening=first)
        channel.told(Notice("record", evening=first, revision=1, event=1))
        await anext(stream)
        after_table = channel.reads
        channel.told(Notice("record", evening=3, revision=1))  # the evening of its own: not the board's
        await asyncio.sleep(0.2)
        after_other = channel.reads
        ledger.record("dario solo 22", evening=second)
        channel.told(Notice("record", evening=second, revision=1, event=1))
        await anext(stream)
        await stream.aclose()
        ledger.close()
        return after_table, after_other, channel.reads

    after_table, after_other, last = asyncio.run(watch())
    assert after_other == after_table and last == after_table + 1


def test_a_board_shows_each_deal_a_new_name_and_a_new_round_as_the_event_then_stands(db_url: str) -> None:
    """Deals are read by the board's tables and leaderboard alone, from the board shown; a rename or a new round by
    the whole event. Each board sent is the event as read whole at that moment."""
    with Ledger(db_url) as ledger:
        ledger.club.start_event("Night", ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"])
        info = ledger.club.seat_round(tables=[["Anna", "Bruno", "Carla"], ["Dario", "Elena", "Franco"]])
        assert info.current is not None
        first, second = (table.evening for table in info.current.tables)

    async def watch() -> list[tuple[str, bool]]:
        nonlocal ledger
        ledger, channel = _channel(db_url)
        stream = channel.stream(("event", 1), -1, 5.0, "en")
        await anext(stream)
        await anext(stream)
        sent = []
        for change, notice in (
            (lambda: ledger.record("anna solo 22", evening=first), Notice("record", first, 1, 1)),
            (lambda: ledger.record("dario solo 14", evening=second), Notice("record", second, 1, 1)),
            (lambda: ledger.rename_player("Anna", "Annalisa"), Notice("player")),
            (lambda: ledger.record("bruno solo 8", evening=first), Notice("record", first, 2, 1)),
            (lambda: ledger.rename_player("Bruno", "Bruna"), Notice("player")),
            (lambda: ledger.record("elena solo 7+1/3", evening=second), Notice("record", second, 2, 1)),
            (
                lambda: ledger.club.seat_round(tables=[["Annalisa", "Dario", "Franco"], ["Bruna", "Carla", "Elena"]]),
                Notice("round", event=1),
            ),
        ):
            change()
            channel.told(notice)
            board = await anext(stream)
            sent.append((board, channel.watched[("event", 1)].shown == ledger.club.event(1)))
        await stream.aclose()
        ledger.close()
        return sent

    sent = asyncio.run(watch())
    assert all(whole for _board, whole in sent)
    assert "'Anna'" in sent[1][0] and "Annalisa" not in sent[1][0]
    assert all("Annalisa" in board and "'Anna'" not in board for board, _whole in sent[2:])
    assert "'Bruno'" in sent[3][0] and all("Bruna" in board for board, _whole in sent[4:])
    assert "RoundInfo(number=2" in sent[-1][0] and "RoundInfo(number=2" not in sent[-2][0]


def test_the_live_part_reads_the_same_statements_on_a_long_evening_and_its_totals_are_right(sqlite_url: str) -> None:
    from sqlalchemy import event as sql_event

    start(sqlite_url)
    with Ledger(sqlite_url) as ledger:
        statements: list[str] = []
        sql_event.listen(ledger.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
        counts = []
        for deals in (8, 100):
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


ENDED_SECONDS = 60.0
"""How long the test of stopping waits for the streams to end before it fails (they end at once; a stream that stop
did not end would go on for its lifetime, 300 s)."""


def test_stopping_ends_every_stream_at_once(sqlite_url: str) -> None:
    """Twenty streams wait for the evening's next change; stop wakes them all, and each ends there, without waiting
    for a change, a keep-alive or the end of its lifetime."""
    start(sqlite_url)

    async def watch_then_stop() -> set[asyncio.Task[None]]:
        ledger, channel = _channel(sqlite_url)
        streams = [channel.stream(EVENING, -1, 300.0, "en") for _ in range(20)]
        for stream in streams:
            assert (await anext(stream)).startswith("retry:")
            assert (await anext(stream)).startswith("event: evening")  # the evening as it is: now the next change

        async def drain(stream: AsyncIterator[str]) -> None:
            async for said in stream:
                raise AssertionError(f"a stream went on after stop: {said!r}")

        draining = {asyncio.create_task(drain(stream)) for stream in streams}
        await asyncio.sleep(0)  # each drain runs to its wait for the next change
        assert not any(task.done() for task in draining)
        await channel.stop()
        ended, going_on = await asyncio.wait(draining, timeout=ENDED_SECONDS)
        for task in ended:
            task.result()
        ledger.close()
        return going_on

    assert not asyncio.run(watch_then_stop())


def test_a_drawing_that_fails_is_one_line_and_ends_every_stream_of_what_it_draws(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The read of the live feed is `test_serve_edges`'s (a damaged deal); here the drawing fails, once for the three
    phones watching, and the next phone's stream reads and draws afresh."""
    start(sqlite_url)
    caplog.set_level(logging.ERROR, logger="calabresella.web")
    drawings = iter([KeyError("the fragment"), "the evening"])

    def draw(live: object) -> str:
        drawing = next(drawings)
        if isinstance(drawing, Exception):
            raise drawing
        return drawing

    async def watch() -> tuple[list[list[str]], list[str]]:
        ledger = Ledger(sqlite_url)
        channel = Channel(ledger, {"evening": draw, "event": str})

        async def collect(stream: AsyncIterator[str], most: int) -> list[str]:
            """What the stream sends, until it ends or has sent `most` chunks."""
            got: list[str] = []
            async for chunk in stream:
                got.append(chunk)
                if len(got) == most:
                    break
            return got

        ended = await asyncio.wait_for(
            asyncio.gather(*(collect(channel.stream(EVENING, -1, 300.0, "en"), 3) for _ in range(3))), 5
        )
        again = await asyncio.wait_for(collect(channel.stream(EVENING, -1, 300.0, "en"), 2), 5)
        await channel.stop()
        ledger.close()
        return ended, again

    ended, again = asyncio.run(watch())
    assert ended == [["retry: 1000\n\n"]] * 3 and again == ["retry: 1000\n\n", event(0, "the evening")]
    assert [record.getMessage() for record in caplog.records] == [
        "the live feed of evening 1 failed (KeyError: 'the fragment'): its streams end, and reconnect"
    ]


def test_a_club_tables_page_is_told_when_its_round_ends_after_its_evening_closed(sqlite_url: str) -> None:
    """A table that closed its evening before the organiser ended the round: the round's end changes no revision of
    it, yet its page is told (it then offers no undo of the close). Before, nothing was read or sent."""
    with Ledger(sqlite_url) as ledger:
        ledger.club.start_event("Night", ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"])
        info = ledger.club.seat_round(tables=[["Anna", "Bruno", "Carla"], ["Dario", "Elena", "Franco"]])
        assert info.current is not None
        table = info.current.tables[0].evening
        ledger.close_evening(table)

    async def watch() -> tuple[str, bool, str]:
        ledger = Ledger(sqlite_url)
        drawn = {"evening": lambda live: f"round over: {live.place.round_over}", "event": str}
        channel = Channel(ledger, drawn)
        stream = channel.stream(("evening", table), -1, 5.0, "en")
        await anext(stream)
        before = await anext(stream)
        ledger.club.end_round(1)
        channel.told(Notice("round", event=1))
        reading = channel.watched[("evening", table)].reading is not None
        after = await anext(stream)
        await stream.aclose()
        ledger.close()
        return before, reading, after

    before, reading, after = asyncio.run(watch())
    assert "round over: False" in before and reading and "round over: True" in after
