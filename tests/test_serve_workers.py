"""Several `calabresella serve` processes over one ledger, as a tournament runs them: a deal written through one
reaches the phones and the leaderboard watching through another at once; writes sent to both with the same keys are
stored once each; wrong tokens alternated between them are slowed as one; and `serve --workers 2 --proxy` serves one
ledger from two processes, on PostgreSQL and on SQLite, believing forwarded headers from the named proxy only."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import signal
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import httpx
import pytest
from test_serve import _said, servers, serving
from test_web_support import BEARER, TOKEN, forget_wrong_tries, start

from ledger import Ledger

LIVE_WITHIN = 5.0
"""How long a change may take to reach a stream through the other process, at most, on a loaded test machine (the
target is 150 ms; `bench/club_bench.py` measures it)."""


@contextlib.contextmanager
def two_servers(db: str, *args: str) -> Iterator[tuple[str, str]]:
    """Two `serve` processes over the same ledger, each on its own port, started at once."""
    with servers(db, 2, *args) as [(first, _a), (second, _b)]:
        yield first, second


@pytest.fixture(scope="module")
def on_postgresql(new_pg_database: Callable[[], str]) -> Iterator[tuple[str, tuple[str, str]]]:
    """Two `serve` processes over one PostgreSQL ledger, for the module's tests there (each on an evening or event of
    its own): the ledger and the two base URLs."""
    db = new_pg_database()
    Ledger(db).close()
    with two_servers(db) as bases:
        yield db, bases


@contextlib.asynccontextmanager
async def stream(base: str, path: str, verify: bool | ssl.SSLContext = True) -> AsyncIterator[asyncio.Queue[int]]:
    """A server-sent event stream's ids, as they arrive (`verify`: the certificate to trust, for HTTPS)."""
    ids: asyncio.Queue[int] = asyncio.Queue()
    opened = asyncio.Event()

    async def read() -> None:
        async with (
            httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(10, read=None), verify=verify) as client,
            client.stream("GET", path) as response,
        ):
            opened.set()
            async for line in response.aiter_lines():
                if line.startswith("id: "):
                    ids.put_nowait(int(line[4:]))

    task = asyncio.create_task(read())
    await asyncio.wait_for(opened.wait(), 10)
    try:
        yield ids
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def until(ids: asyncio.Queue[int], wanted: int) -> int:
    """Wait for an id at least `wanted`; the one that came."""
    while (got := await asyncio.wait_for(ids.get(), LIVE_WITHIN)) < wanted:
        pass
    return got


def _event(db: str) -> tuple[int, int]:
    """A club night seated at one table: the event and the table's evening."""
    with Ledger(db) as ledger:
        ledger.club.start_event("Tournament", ["Anna", "Bruno", "Carla"])
        info = ledger.club.seat_round()
        assert info.current is not None
        return info.number, info.current.tables[0].evening


@pytest.mark.parametrize("db_kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_deal_through_one_process_reaches_a_phone_and_the_board_watching_through_the_other(
    db_kind: str, sqlite_url: str, request: pytest.FixtureRequest
) -> None:

    async def night(first: str, second: str) -> list[float]:
        took = []
        async with (
            stream(second, f"/evenings/{evening}/events") as phone,
            stream(second, f"/events/{event}/board/live") as board,
            httpx.AsyncClient(base_url=first) as client,
        ):
            await until(phone, 0)
            await until(board, 1)
            for n, line in enumerate(("anna solo 22", "bruno chiamo 3D@carla 17 last=opp", "carla solo 8"), start=1):
                began = time.monotonic()
                sent = await client.post(f"/api/evenings/{evening}/deals", json={"line": line}, headers=BEARER)
                assert sent.status_code == 201, sent.text
                assert await until(phone, sent.json()["evening_revision"]) >= n
                await until(board, n + 1)
                took.append(time.monotonic() - began)
        return took

    if db_kind == "sqlite":
        event, evening = _event(sqlite_url)
        with two_servers(sqlite_url) as (first, second):
            took = asyncio.run(night(first, second))
    else:
        db, (first, second) = request.getfixturevalue("on_postgresql")
        event, evening = _event(db)
        took = asyncio.run(night(first, second))
    assert len(took) == 3 and max(took) < LIVE_WITHIN


@pytest.mark.postgres
def test_writes_sent_to_both_processes_with_the_same_keys_are_stored_once_each(
    on_postgresql: tuple[str, tuple[str, str]],
) -> None:
    db, bases = on_postgresql
    evening = start(db)
    lines = ["anna solo 22", "bruno solo 8", "carla chiamo 3D@anna 17 last=opp", "pass"] * 10

    async def send(bases: tuple[str, str]) -> list[int]:
        async with httpx.AsyncClient(timeout=30) as client:

            async def both(n: int, line: str) -> list[int]:
                body = {"line": line, "key": f"deal-{n}"}
                answers = await asyncio.gather(
                    *(client.post(f"{base}/api/evenings/{evening}/deals", json=body, headers=BEARER) for base in bases)
                )
                assert {a.status_code for a in answers} <= {200, 201}, [a.text for a in answers]
                assert len({a.json()["deal"]["number"] for a in answers}) == 1
                return [a.json()["deal"]["number"] for a in answers][:1]

            numbers = []
            for n, line in enumerate(lines):
                numbers += await both(n, line)
            return numbers

    numbers = asyncio.run(send(bases))
    assert sorted(numbers) == list(range(1, len(lines) + 1))
    with Ledger(db) as ledger:
        _info, deals = ledger.deals(evening)
        assert [deal.number for deal in deals] == list(range(1, len(lines) + 1))


def _guessing(bases: list[str], seconds: float) -> list[int]:
    """Wrong tokens for `seconds`, one at a time, taking turns between the servers; the status of each."""
    codes: list[int] = []
    deadline = time.monotonic() + seconds
    with httpx.Client(timeout=30) as client:
        for base in itertools.cycle(bases):
            if time.monotonic() > deadline:
                return codes
            headers = {"Authorization": "Bearer 0000"}
            codes.append(
                client.post(f"{base}/api/evenings/1/deals", json={"line": "pass"}, headers=headers).status_code
            )
    return codes


@pytest.mark.postgres
def test_wrong_tokens_alternated_between_the_processes_are_slowed_as_one(
    on_postgresql: tuple[str, tuple[str, str]],
) -> None:
    """Each try comes within the wait the one before set (each is answered after half a second), in the other
    process: only the first is a first try (403), the others are refused (429) and double the wait, as in one
    process. Were the tries counted in each process apart, the second process's first try would be 403 too."""
    db, bases = on_postgresql
    start(db)
    try:
        codes = _guessing(list(bases), 1.5)
    finally:
        forget_wrong_tries(db)  # the module's other tests write from the same address
    assert len(codes) >= 3 and codes.count(403) == 1 and codes.count(429) == len(codes) - 1, codes


async def _tries(base: str, count: int, source: str, forwarded: Callable[[int], str]) -> list[int]:
    """`count` wrong tokens sent at once from the loopback address `source`, try n naming `forwarded(n)` in its
    X-Forwarded-For; the status of each."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:

        async def one(n: int) -> int:
            headers = {"Authorization": "Bearer 0000", "X-Forwarded-For": forwarded(n)}
            return (await client.post("/api/evenings/1/deals", json={"line": "pass"}, headers=headers)).status_code

        return list(await asyncio.gather(*(one(n) for n in range(1, count + 1))))


async def _at_once(*sending: Awaitable[list[int]]) -> list[list[int]]:
    return list(await asyncio.gather(*sending))


@pytest.mark.parametrize("db_kind", ["sqlite", "postgres"])
def test_serve_with_two_workers_behind_a_proxy_serves_one_ledger_live_and_believes_the_proxy_only(
    db_kind: str, sqlite_url: str, request: pytest.FixtureRequest
) -> None:
    """`serve --workers 2 --proxy 127.0.0.1`, as a tournament behind a reverse proxy runs it: one ledger served live
    by both processes; forwarded headers believed from the named proxy only, and shown escaped. With no `--proxy` a
    forwarded address is not believed: `test_serve`'s guessing forges one on every try. The probe: an X-Forwarded-For
    of ESC [2J ESC [31m cleared the scorekeeper's screen and turned it red."""
    db = sqlite_url if db_kind == "sqlite" else request.getfixturevalue("pg_url")
    start(db)

    async def deals(base: str) -> int:
        once = httpx.Limits(max_keepalive_connections=0)  # each deal on a connection of its own
        async with (
            stream(base, "/evenings/1/events") as phone,
            httpx.AsyncClient(base_url=base) as client,
            httpx.AsyncClient(base_url=base, limits=once) as fresh,
        ):
            await until(phone, 0)
            revision = 0
            for n in range(12):  # the kernel hands the connections to either worker
                sent = await fresh.post(
                    "/api/evenings/1/deals", json={"line": "anna solo 22", "key": f"k{n}"}, headers=BEARER
                )
                assert sent.status_code == 201, sent.text
                revision = sent.json()["evening_revision"]
            assert (await client.get("/api/evenings/1")).json()["revision"] == revision
            return await until(phone, revision)

    with serving(db, "--workers", "2", "--proxy", "127.0.0.1") as (base, process):
        assert asyncio.run(deals(base)) == 12
        # At once: four tries, each from a new address if the header is believed (then each is checked and answered
        # 403); four from 127.0.0.2, a client that is not the proxy, whose headers are not believed (its tries are
        # one address's); and three with a forwarded address that would clear the screen.
        unbelieved, codes, _escaped = asyncio.run(
            _at_once(
                _tries(base, 4, "127.0.0.2", lambda n: f"198.51.100.{n}"),
                _tries(base, 4, "127.0.0.1", lambda n: f"203.0.113.{n}"),
                _tries(base, 3, "127.0.0.1", lambda _n: "\x1b[2J\x1b[31m6.6.6.6"),
            )
        )
        assert unbelieved.count(403) <= 2
        process.send_signal(signal.SIGINT)
        process.wait(10)
        printed = _said(process)
    assert "Traceback" not in printed and TOKEN not in printed
    assert codes == [403] * 4 and "refused a wrong API token from 203.0.113." in printed
    assert "198.51.100." not in printed and "refused a wrong API token from 127.0.0.2 " in printed
    assert "\x1b" not in printed
    escaped = [line for line in printed.splitlines() if "6.6.6.6" in line]
    assert escaped and all("refused a wrong API token from \\x1b[2J\\x1b[31m6.6.6.6" in line for line in escaped), (
        printed
    )
