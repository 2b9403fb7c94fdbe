"""A club night on `calabresella serve`: 10 tables x 3 phones, each phone recording its deals with its table's key,
while the screen at the bar follows the leaderboard (server-sent events) and 20 phones watch their tables' evenings.

Measured: the deal-to-leaderboard round trip, from a phone's POST to the moment the leaderboard's stream brings a
fragment that shows the deal (its table's "Deals" column has reached it), while the other 29 phones keep recording.
The night is played in waves (`--waves`); between two waves, with the server quiet, this process times the bare
`Ledger.record` of the same lines at the same tables of a club night of its own (another SQLite file, or another
PostgreSQL database), the work the round trip is built around; the first wave goes first, the second goes after its
baseline, and so on, alternating. Printed: p50/p95/max of each and their ratio.

    python bench/club_bench.py [--deals 30] [--waves 5] [--pause 2] [--pg postgresql+psycopg://user@127.0.0.1:5432]
    python bench/club_bench.py --tournament --workers 1,2 --pg postgresql+psycopg://user@127.0.0.1:5432

`--deals` is per phone; `--pause` is a phone's think time between its deals in seconds, on average (default 2: the
30 phones offer 15 deals a second; 0: each phone posts its next deal as soon as the last is answered, a saturated
server, where the round trip is mostly the queue; a real table records a deal every minute or two). `--pg` names a
PostgreSQL server the bench may create (and afterwards drop) two throw-away databases on: the same night is then
measured there too. `--tournament` plays a regional tournament instead: 30 tables x 3 phones, 100 phones watching
(`--tables`, `--viewers` set either), and `--workers 1,2` serves the same night with 1 and then 2 server processes in
the same run (PostgreSQL only, where several processes make sense; SQLite is measured with 1). Besides the
leaderboard, each deal's way to the phones watching its table is timed, from the POST to the revision in their
streams. Each night also prints the processor time a deal cost the server (its worker processes too), PostgreSQL's
processes serving it, and this bench (on Linux, from /proc): on a machine of few processors the three share them.
`--skip-sqlite` measures PostgreSQL only. `--language it` has every phone and the screen ask for Italian, the
language of the tables (default: English).

The test `tests/test_club_load.py` plays a smaller night (2 tables x 3 phones) through this module's driver and
checks every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import calabresella, cpu_seconds, listening

from ledger import Ledger

TOKEN = "bench-token-for-a-club-night-of-ten-tables-0123456789"
TABLES, PHONES, DEALS, VIEWERS = 10, 3, 30, 20
TOURNAMENT = (30, 100)
"""A regional tournament's tables and the phones watching them."""
LANGUAGE_NAMES = {"en": "English", "it": "Italian"}
"""The languages the phones may ask for (`--language`), as the report names them."""


def names(tables: int) -> tuple[str, ...]:
    """The players of a night of `tables` tables of three."""
    return tuple(f"P{n:02d}" for n in range(tables * 3))


NAMES = names(TABLES)
SEASON = "Autumn"
MIN_DEALS = 5
BUDGET_MS = 100.0
PAUSE = 2.0
"""A phone's think time between two deals, on average: 30 phones offer 15 deals a second (a real club night, a deal
a table every minute or two, offers a sixth of one), below what the server can take, so that the round trip is the
work of a deal and not the queue of a saturated server (`--pause 0` measures that)."""
LINES = (
    "{a} solo 22",
    "{b} chiamo 3D@{c} 17 last=opp",
    "{c} solissimo dividete 8",
    "pass",
    "{a} so 7+1/3",
    "{b} solissimo scegliete 35 tricks=12",
    "{c} chiamo 4t last=decl",
)
"""A table's deals, `{a}` `{b}` `{c}` its players in seat order; `pass` is left out where asked (it shows nothing on
the leaderboard, so it has no round trip to measure)."""
LONGEST_WAIT = 30.0
"""How long the leaderboard and the phones watching get to catch up after the last deal of a wave."""


def line_for(players: tuple[str, ...], phone: int, n: int, *, passes: bool = True) -> str:
    """The `n`-th deal phone `phone` records at a table seating `players`: each phone its own mix of declarers."""
    lines = LINES if passes else tuple(line for line in LINES if line != "pass")
    a, b, c = players[phone % 3 :] + players[: phone % 3]
    return lines[(n * 2 + phone) % len(lines)].format(a=a, b=b, c=c)


def key_for(evening: int, phone: int, n: int) -> str:
    """The idempotency key of a phone's `n`-th deal: a retry of it is stored at most once."""
    return f"club-e{evening}-p{phone}-d{n}"


@dataclass(frozen=True)
class Table:
    """A table of the round: its number, its evening, its link's key, its players in seat order."""

    number: int
    evening: int
    key: str
    players: tuple[str, ...]


@dataclass
class Answer:
    """One POST of a deal: which phone sent it, what, when, and what the server said."""

    table: Table
    phone: int
    n: int
    key: str
    line: str
    kind: str
    """`first`; `again` (sent once more after its answer, as after an answer lost on the way); `twin` (sent twice
    at once, as a phone retrying before the first answer came)."""
    began: float
    ended: float
    status: int
    body: dict[str, Any]

    @property
    def deal(self) -> int | None:
        return self.body["deal"]["number"] if self.status in (200, 201) else None


def parse_board(html: str) -> dict[str, tuple[int, int]]:
    """A leaderboard fragment's rows: each player's game points and deals played."""
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        name = re.search(r"<th>([^<]*)</th>", row)
        points = re.search(r'<td class="num big">([^<]*)</td>', row)
        if name and points:
            cells = re.findall(r'<td class="num">([^<]*)</td>', row)
            rows[name.group(1)] = (int(points.group(1).replace("\u2212", "-")), int(cells[1]))
    return rows


@dataclass
class Screen:
    """The screen at the bar: every leaderboard fragment its stream brought, with the time it had fully arrived."""

    times: list[float] = field(default_factory=list)
    boards: list[dict[str, tuple[int, int]]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def watch(self, client: httpx.AsyncClient, event: int, connected: asyncio.Event) -> None:
        async with client.stream("GET", f"/events/{event}/board/live") as response:
            response.raise_for_status()
            connected.set()
            data: list[str] = []
            async for line in response.aiter_lines():
                if line.startswith("data: "):
                    data.append(line[6:])
                elif not line and data:
                    self.boards.append(parse_board("\n".join(data)))
                    self.times.append(time.perf_counter())
                    data = []
                    self.arrived.set()
                    self.arrived = asyncio.Event()

    def played(self, table: Table, index: int = -1) -> int:
        """How many deals played at the table the fragment shows (its players' Deals, the same for each)."""
        return self.boards[index][table.players[0]][1] if self.boards else 0


@dataclass
class Viewer:
    """A phone watching its table's evening: the last revision its stream brought, how many, and when each
    arrived."""

    evening: int
    revision: int = -1
    events: int = 0
    arrivals: list[tuple[int, float]] = field(default_factory=list)

    async def watch(self, client: httpx.AsyncClient, connected: asyncio.Event) -> None:
        async with client.stream("GET", f"/evenings/{self.evening}/events") as response:
            response.raise_for_status()
            connected.set()
            async for line in response.aiter_lines():
                if line.startswith("id: "):
                    self.revision, self.events = int(line[4:]), self.events + 1
                    self.arrivals.append((self.revision, time.perf_counter()))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def serving(db: str, log: Path, workers: int = 1) -> Iterator[tuple[str, int]]:
    """`calabresella serve` (with `workers` processes) on a free loopback port over `db` (its output in `log`); its
    base URL and process id."""
    port = _free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [calabresella(), "--db", db, "serve", "--port", str(port), "--workers", str(workers)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "CALABRESELLA_TOKEN": TOKEN, "CALABRESELLA_LANG": "en"},
        )
        try:
            if not listening(port, process):
                raise RuntimeError(f"serve did not start: {log.read_text(errors='replace')}")
            yield f"http://127.0.0.1:{port}", process.pid
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def _cpu_seconds(pid: int) -> float:
    """`cpu_seconds`, 0 when the process is gone."""
    try:
        return cpu_seconds(pid)
    except OSError:
        return 0.0


def _processes() -> list[tuple[int, int, str]]:
    """Every process on this machine as (pid, parent pid, command line), from /proc (empty elsewhere)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            parent = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            found.append((int(entry.name), parent, (entry / "cmdline").read_bytes().decode(errors="replace")))
        except (OSError, IndexError, ValueError):
            continue
    return found


def cpu_used(server: int, database: str) -> dict[int, float]:
    """Processor seconds used so far by each process of the server `server` (its worker processes too) and of
    PostgreSQL's serving `database`, by process id; the server's own under id 0."""
    processes = _processes()
    tree, grew = {server}, True
    while grew:
        more = {pid for pid, parent, _line in processes if parent in tree} - tree
        tree, grew = tree | more, bool(more)
    backends = {pid: _cpu_seconds(pid) for pid, _parent, line in processes if f" {database} " in line}
    return {0: sum(map(_cpu_seconds, tree)), **backends}


def _spent(before: dict[int, float], after: dict[int, float]) -> tuple[float, float]:
    """What the server and its PostgreSQL backends used between two `cpu_used` readings."""
    backends = sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items() if pid)
    return after[0] - before[0], backends


def _checked(answer: httpx.Response, status: int) -> Any:
    if answer.status_code != status:
        raise RuntimeError(f"{answer.request.method} {answer.request.url.path}: {answer.status_code} {answer.text}")
    return answer.json()


async def set_up(client: httpx.AsyncClient, tables: int = TABLES, deals: int = DEALS) -> tuple[int, list[Table]]:
    """A season, a club night of the players of `tables` tables in it, its first round seated (of the deals every
    phone records): the event's number and its tables."""
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    _checked(await client.post("/api/seasons", json={"name": SEASON, "min_deals": MIN_DEALS}, headers=bearer), 201)
    body = {"name": "Club night", "players": list(names(tables)), "round_deals": PHONES * deals, "season": SEASON}
    event = _checked(await client.post("/api/events", json=body, headers=bearer), 201)["event"]
    seated = _checked(await client.post(f"/api/events/{event}/rounds", json={"seed": 1}, headers=bearer), 201)
    players = {t["table"]: tuple(t["players"]) for t in seated["rounds"][-1]["tables"]}
    links = _checked(await client.get(f"/api/events/{event}/links", headers=bearer), 200)
    return event, [Table(link["table"], link["evening"], link["key"], players[link["table"]]) for link in links]


async def record(
    client: httpx.AsyncClient,
    tables: list[Table],
    deals: range,
    answers: list[Answer],
    *,
    passes: bool = True,
    pause: float = 0.0,
    again_every: int = 7,
    twin_every: int = 10,
) -> None:
    """Every phone of every table records its deals `deals` at once, each with its table's key and its own
    idempotency keys: every `again_every`-th deal is sent once more after its answer, every `twin_every`-th twice at
    once (0: never); with a `pause`, each phone thinks a while (0 to twice the pause, at random) before each deal.
    Every answer goes into `answers`; nothing here raises on a refusal."""

    async def post(table: Table, phone: int, n: int, line: str, kind: str) -> Answer:
        key = key_for(table.evening, phone, n)
        began = time.perf_counter()
        try:
            sent = await client.post(
                f"/api/evenings/{table.evening}/deals",
                json={"line": line, "key": key},
                headers={"Authorization": f"Bearer {table.key}"},
            )
            status, body = sent.status_code, sent.json() if sent.content else {}
        except (httpx.HTTPError, ValueError) as error:
            status, body = 0, {"error": repr(error)}
        answer = Answer(table, phone, n, key, line, kind, began, time.perf_counter(), status, body)
        answers.append(answer)
        return answer

    async def phone(table: Table, number: int) -> None:
        think = random.Random(table.number * PHONES + number)
        for n in deals:
            if pause:
                await asyncio.sleep(think.uniform(0, 2 * pause))
            line = line_for(table.players, number, n, passes=passes)
            if twin_every and n % twin_every == twin_every // 2:
                await asyncio.gather(*(post(table, number, n, line, "twin") for _ in range(2)))
            else:
                await post(table, number, n, line, "first")
                if again_every and n % again_every == again_every // 2:
                    await post(table, number, n, line, "again")

    await asyncio.gather(*(phone(table, number) for table in tables for number in range(PHONES)))


async def caught_up(screen: Screen, tables: list[Table], played: dict[int, int], seconds: float = LONGEST_WAIT) -> bool:
    """Wait (at most `seconds`) until the leaderboard shows `played[evening]` deals played at every table."""
    deadline = time.monotonic() + seconds
    while not all(screen.played(t) >= played.get(t.evening, 0) for t in tables):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(screen.arrived.wait(), left)
    return True


async def viewers_caught_up(viewers: list[Viewer], answers: list[Answer], seconds: float = LONGEST_WAIT) -> bool:
    """Wait (at most `seconds`) until every phone watching has the last revision of its evening the answers
    report."""
    last: dict[int, int] = {}
    for a in answers:
        if a.status in (200, 201):
            last[a.table.evening] = max(last.get(a.table.evening, 0), a.body["evening_revision"])
    deadline = time.monotonic() + seconds
    while any(v.revision < last.get(v.evening, 0) for v in viewers) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return all(v.revision >= last.get(v.evening, 0) for v in viewers)


def played_so_far(answers: list[Answer]) -> dict[int, int]:
    """Per evening, how many deals stored (not passed) the answers report."""
    stored = {(a.table.evening, a.deal): a for a in answers if a.deal is not None}
    counts: dict[int, int] = {}
    for (evening, _n), answer in stored.items():
        counts[evening] = counts.get(evening, 0) + (answer.body["deal"]["declarer"] is not None)
    return counts


def round_trips(answers: list[Answer], screen: Screen) -> list[tuple[float, float]]:
    """For each deal stored that was played (not passed), milliseconds from its first POST, and from that POST's
    answer, to the first leaderboard fragment that shows it: its table's Deals column at least the number of deals
    played there up to it."""
    firsts: dict[tuple[int, int], Answer] = {}
    for answer in sorted(answers, key=lambda a: a.began):
        if answer.deal is not None and answer.kind != "again":
            firsts.setdefault((answer.table.evening, answer.deal), answer)
    out = []
    for evening in {e for e, _n in firsts}:
        mine = sorted((n, a) for (e, n), a in firsts.items() if e == evening)
        table = mine[0][1].table
        shown = [board[table.players[0]][1] if board else 0 for board in screen.boards]
        upto = 0
        for _n, answer in mine:
            if answer.body["deal"]["declarer"] is None:
                continue
            upto += 1
            index = max(bisect.bisect_left(shown, upto), bisect.bisect_left(screen.times, answer.began))
            if index < len(shown):
                shown_at = screen.times[index]
                out.append(((shown_at - answer.began) * 1000, max(0.0, shown_at - answer.ended) * 1000))
    return out


def to_phones(answers: list[Answer], viewers: list[Viewer]) -> list[float]:
    """For each deal stored and each phone watching its table, milliseconds from the deal's first POST to the
    moment that phone's stream brought the evening at the deal's revision or later."""
    firsts: dict[tuple[int, int], Answer] = {}
    for answer in sorted(answers, key=lambda a: a.began):
        if answer.deal is not None and answer.kind != "again":
            firsts.setdefault((answer.table.evening, answer.deal), answer)
    out = []
    for viewer in viewers:
        revisions = [revision for revision, _at in viewer.arrivals]
        for (evening, _n), answer in firsts.items():
            if evening != viewer.evening:
                continue
            index = bisect.bisect_left(revisions, answer.body["evening_revision"])
            if index < len(revisions):
                out.append((viewer.arrivals[index][1] - answer.began) * 1000)
    return out


@dataclass
class Night:
    """What a club night brought: every answer, the leaderboard's fragments, the watching phones."""

    event: int
    tables: list[Table]
    answers: list[Answer]
    screen: Screen
    viewers: list[Viewer]
    waves: list[float]
    """Each wave's wall time, in seconds."""
    bare_ms: list[float]


async def club_night(
    base: str,
    *,
    deals: int = DEALS,
    waves: int = 1,
    passes: bool = True,
    pause: float = 0.0,
    viewers: int = VIEWERS,
    bare: str | None = None,
    settle: float = LONGEST_WAIT,
    tables: int = TABLES,
    language: str = "en",
) -> Night:
    """The night on the server at `base`, in `waves`; with `bare`, a ledger to time `Ledger.record` on between
    the waves (its own club night, the same lines at the same tables); every phone and the screen ask for
    `language`."""
    # an idle connection is dropped here before the server drops it (uvicorn: after 5 s): else a POST may go out on a
    # connection the server is closing at that moment, and get no answer (httpx.ReadError)
    limits = httpx.Limits(
        max_connections=tables * PHONES * 2 + 8, max_keepalive_connections=tables * PHONES * 2, keepalive_expiry=2.0
    )
    watching = httpx.Limits(max_connections=viewers + 4)
    spoken = {"Accept-Language": language}  # every phone and the screen at the bar speak it
    async with (
        httpx.AsyncClient(base_url=base, timeout=30, limits=limits, headers=spoken) as client,
        httpx.AsyncClient(
            base_url=base, timeout=httpx.Timeout(30, read=None), limits=watching, headers=spoken
        ) as streams,
    ):
        event, seated = await set_up(client, tables, deals)
        screen = Screen()
        watchers = [Viewer(seated[i % len(seated)].evening) for i in range(viewers)]
        connected = [asyncio.Event() for _ in range(viewers + 1)]
        tasks = [asyncio.create_task(screen.watch(streams, event, connected[0]))]
        tasks += [asyncio.create_task(v.watch(streams, c)) for v, c in zip(watchers, connected[1:], strict=True)]
        try:
            await asyncio.wait_for(asyncio.gather(*(c.wait() for c in connected)), 30)
            while not screen.boards:  # the leaderboard as it stands, before the first deal
                await asyncio.wait_for(screen.arrived.wait(), 30)
            answers: list[Answer] = []
            walls: list[float] = []
            bare_ms: list[float] = []
            ledger = bare_tables = None
            if bare is not None:
                ledger = Ledger(bare)
                bare_tables = _bare_night(ledger, tables, deals)
            try:
                cuts = [deals * w // waves for w in range(waves + 1)]
                for w in range(waves):
                    chunk = range(cuts[w], cuts[w + 1])
                    turns = ("served", "bare") if w % 2 == 0 else ("bare", "served")
                    for turn in turns:
                        if turn == "bare":
                            if ledger is not None and bare_tables is not None:
                                bare_ms += _bare_record(ledger, bare_tables, chunk, passes)
                            continue
                        began = time.perf_counter()
                        await record(client, seated, chunk, answers, passes=passes, pause=pause)
                        walls.append(time.perf_counter() - began)
                        # the phones watching too, before the baseline's records hold this loop up: else what
                        # reaches them meanwhile is timed when the baseline ends
                        await caught_up(screen, seated, played_so_far(answers), settle)
                        await viewers_caught_up(watchers, answers, settle)
            finally:
                if ledger is not None:
                    ledger.close()
            return Night(event, seated, answers, screen, watchers, walls, bare_ms)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


def _bare_night(ledger: Ledger, tables: int, deals: int) -> list[Table]:
    """The same night straight through the service: a season, the event, round 1 seated."""
    ledger.club.start_season(SEASON, min_deals=MIN_DEALS)
    ledger.club.start_event("Club night", names(tables), season=SEASON, round_deals=PHONES * deals)
    info = ledger.club.seat_round(seed=1)
    assert info.current is not None
    return [Table(t.number, t.evening, "", t.players) for t in info.current.tables]


def _bare_record(ledger: Ledger, tables: list[Table], deals: range, passes: bool) -> list[float]:
    """`Ledger.record` of the wave's deals, table after table in turn: milliseconds each."""
    times = []
    for n in deals:
        for phone in range(PHONES):
            for table in tables:
                line = line_for(table.players, phone, n, passes=passes)
                began = time.perf_counter()
                ledger.record(line, evening=table.evening, key=key_for(table.evening, phone, n))
                times.append((time.perf_counter() - began) * 1000)
    return times


def _ms(values: list[float]) -> str:
    q = statistics.quantiles(values, n=100) if len(values) > 1 else values * 99
    return f"p50 {statistics.median(values):7.2f} ms   p95 {q[94]:7.2f} ms   max {max(values):7.2f} ms"


def report(
    backend: str, night: Night, deals: int, pause: float, used: tuple[float, float, float] | None = None
) -> None:
    """Print the night's figures; `used`: processor seconds of the server, of PostgreSQL and of this process."""
    firsts = [a for a in night.answers if a.kind != "again"]
    refused = [a for a in night.answers if a.status not in (200, 201)]
    pairs = round_trips(night.answers, night.screen)
    trips, after = [total for total, _after in pairs], [later for _total, later in pairs]
    stored = {(a.table.evening, a.deal) for a in night.answers if a.deal}
    played = sum(played_so_far(night.answers).values())
    posts = [(a.ended - a.began) * 1000 for a in firsts]
    wall = sum(night.waves)
    print(
        f"{backend}: {len(night.tables)} tables x {PHONES} phones x {deals} deals ({len(night.answers)} POSTs, "
        "retries included), "
        f"{len(night.viewers)} phones + 1 leaderboard watching, {len(night.waves)} waves, pause {pause:g} s, loopback"
    )
    print(
        f"  deals stored {len(stored)}, played {played}, refused {len(refused)}; "
        f"{len(stored) / wall:.1f} deals/s over {wall:.1f} s"
    )
    fragments = len(night.screen.boards)
    print(f"  leaderboard fragments received {fragments} ({fragments / max(1, len(stored)):.2f} a deal)")
    print(f"  POST answered                          {_ms(posts)}")
    if trips:
        print(f"  deal -> leaderboard ({len(trips):4d} deals)      {_ms(trips)}")
        print(f"    of which after the POST's answer     {_ms(after)}")
    reached = to_phones(night.answers, night.viewers)
    if reached:
        print(f"  deal -> phones watching ({len(reached):5d})    {_ms(reached)}")
    if used:
        per = 1000 / max(1, len(stored))
        print(
            f"  processor time a deal: server {used[0] * per:.1f} ms, PostgreSQL {used[1] * per:.1f} ms, "
            f"this bench (phones, streams, baseline) {used[2] * per:.1f} ms; {os.cpu_count()} processors"
        )
    if night.bare_ms:
        print(f"  baseline: Ledger.record, same process  {_ms(night.bare_ms)}")
    if trips and night.bare_ms:
        p95, base95 = statistics.quantiles(trips, n=100)[94], statistics.quantiles(night.bare_ms, n=100)[94]
        p50, base50 = statistics.median(trips), statistics.median(night.bare_ms)
        verdict = "met" if p95 <= BUDGET_MS else "MISSED"
        print(
            f"  round trip / baseline: p50 {p50 / base50:.1f}x, p95 {p95 / base95:.1f}x;  "
            f"budget p95 <= {BUDGET_MS:.0f} ms: {verdict}"
        )


@contextlib.contextmanager
def _pg_databases(server: str, count: int) -> Iterator[list[str]]:
    """`count` throw-away databases on the PostgreSQL server at `server`, dropped afterwards."""
    from sqlalchemy import create_engine, make_url, text

    url = make_url(server)
    admin = create_engine(url.set(database=url.database or "postgres"), isolation_level="AUTOCOMMIT")
    names = [f"calabresella_club_bench_{uuid.uuid4().hex[:10]}" for _ in range(count)]
    try:
        with admin.connect() as connection:
            for name in names:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield [url.set(database=name).render_as_string(hide_password=False) for name in names]
    finally:
        with admin.connect() as connection:
            for name in names:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def measure(backend: str, served: str, bare: str, folder: Path, args: argparse.Namespace, workers: int = 1) -> None:
    with Ledger(bare):
        pass  # the schema made before the clock runs
    with serving(served, folder / f"{backend}-{workers}-serve.log", workers) as (base, pid):
        database = served.rpartition("/")[2] if backend == "PostgreSQL" else "-"
        before, client = cpu_used(pid, database), time.process_time()
        night = asyncio.run(
            club_night(
                base,
                deals=args.deals,
                waves=args.waves,
                passes=False,
                pause=args.pause,
                bare=bare,
                tables=args.tables,
                viewers=args.viewers,
                language=args.language,
            )
        )
        after, client = cpu_used(pid, database), time.process_time() - client
    used = (*_spent(before, after), client)
    processes = f"{workers} server process{'es' if workers > 1 else ''}"
    report(f"{backend}, {processes}, in {LANGUAGE_NAMES[args.language]}", night, args.deals, args.pause, used)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=DEALS, help="Deals per phone.")
    parser.add_argument("--waves", type=int, default=5, help="Waves of the night, alternating with the baseline.")
    parser.add_argument("--pause", type=float, default=PAUSE, help="A phone's think time between deals, seconds.")
    parser.add_argument("--pg", default=None, help="A PostgreSQL server's URL: the night is measured there too.")
    parser.add_argument("--tournament", action="store_true", help="30 tables x 3 phones, 100 phones watching.")
    parser.add_argument("--tables", type=int, default=None, help="Tables of three (default 10; 30 a tournament).")
    parser.add_argument("--viewers", type=int, default=None, help="Phones watching (default 20; 100 a tournament).")
    parser.add_argument("--skip-sqlite", action="store_true", help="With --pg: measure PostgreSQL only.")
    parser.add_argument("--workers", default="1", help="Server processes on PostgreSQL, e.g. 1,2: each in turn.")
    parser.add_argument(
        "--language", choices=sorted(LANGUAGE_NAMES), default="en", help="The language every phone and screen asks for."
    )
    args = parser.parse_args()
    tables, viewers = TOURNAMENT if args.tournament else (TABLES, VIEWERS)
    args.tables, args.viewers = args.tables or tables, args.viewers or viewers
    counts = [int(count) for count in args.workers.split(",")]
    with tempfile.TemporaryDirectory(prefix="calabresella-club-bench-") as tmp:
        folder = Path(tmp)
        if not (args.skip_sqlite and args.pg):
            measure("SQLite", str(folder / "served.sqlite3"), str(folder / "bare.sqlite3"), folder, args)
        for workers in counts if args.pg else ():
            with _pg_databases(args.pg, 2) as (served, bare):
                measure("PostgreSQL", served, bare, folder, args, workers)


if __name__ == "__main__":
    main()
