"""A deal's round trip through `calabresella serve` on SQLite, with phones watching, against the bare record.

Starts the real server on a loopback port, connects VIEWERS phones to the evening's live feed (server-sent
events), then times each deal from the scorekeeper's POST to the moment the last phone has the new standings.
Alternating with it, in this process: `Ledger.record` of the same line on a ledger file of its own, the
work the round trip is built around.

    python bench/web_bench.py [--deals 200] [--viewers 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import calabresella

from ledger import Ledger

PLAYERS = ("Anna", "Bruno", "Carla")
LINES = (
    "bruno solo 22",
    "carla chiamo 3D@anna 17 last=opp",
    "pass",
    "anna solissimo dividete 8",
    "br so 7+1/3",
    "anna solissimo scegliete 35 tricks=12",
    "bruno chiamo 4t last=decl",
)
TOKEN = "bench-token-for-the-round-trip-0123456789"
BUDGET_MS = 50.0


class Phones:
    """When each watching phone received each revision of the evening."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.arrivals: dict[int, list[float]] = {}
        self.complete: dict[int, asyncio.Event] = {}

    def expect(self, revision: int) -> asyncio.Event:
        return self.complete.setdefault(revision, asyncio.Event())

    def received(self, revision: int) -> None:
        times = self.arrivals.setdefault(revision, [])
        times.append(time.perf_counter())
        if len(times) == self.count:
            self.expect(revision).set()

    async def watch(self, client: httpx.AsyncClient, url: str, connected: asyncio.Event) -> None:
        """One phone's event stream: note the time each `evening` event has fully arrived."""
        async with client.stream("GET", url) as response:
            connected.set()
            revision = None
            async for line in response.aiter_lines():
                if line.startswith("id: "):
                    revision = int(line[4:])
                elif not line and revision is not None:
                    self.received(revision)
                    revision = None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_listening(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("calabresella serve did not start")


def _ms(values: list[float]) -> str:
    q = statistics.quantiles(values, n=100)
    return f"p50 {statistics.median(values):6.2f} ms   p95 {q[94]:6.2f} ms   max {max(values):6.2f} ms"


async def run(deals: int, viewers: int, folder: Path) -> None:
    served, bare = str(folder / "served.sqlite3"), str(folder / "bare.sqlite3")
    for db in (served, bare):
        with Ledger(db) as ledger:
            ledger.start_evening(PLAYERS, stake="0.10")
    port = _free_port()
    server = subprocess.Popen(
        [calabresella(), "--db", served, "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        env={**os.environ, "CALABRESELLA_TOKEN": TOKEN},
    )
    try:
        _wait_listening(port, server)
        base = f"http://127.0.0.1:{port}"
        phones = Phones(viewers)
        limits = httpx.Limits(max_connections=viewers + 4)
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
            connected = [asyncio.Event() for _ in range(viewers)]
            watching = [asyncio.create_task(phones.watch(client, "/evenings/1/events?seen=0", c)) for c in connected]
            await asyncio.gather(*(c.wait() for c in connected))
            await asyncio.sleep(0.3)
            round_trips, post_only, records = [], [], []
            with Ledger(bare) as ledger:
                for n in range(deals):
                    line = LINES[n % len(LINES)]
                    order = (0, 1) if n % 2 == 0 else (1, 0)
                    for which in order:
                        if which == 0:
                            arrived = phones.expect(n + 1)
                            start = time.perf_counter()
                            answer = await client.post(
                                "/api/evenings/1/deals",
                                json={"line": line},
                                headers={"Authorization": f"Bearer {TOKEN}"},
                            )
                            posted = time.perf_counter()
                            answer.raise_for_status()
                            await asyncio.wait_for(arrived.wait(), 5)
                            round_trips.append((phones.arrivals[n + 1][-1] - start) * 1000)
                            post_only.append((posted - start) * 1000)
                        else:
                            start = time.perf_counter()
                            ledger.record(line)
                            records.append((time.perf_counter() - start) * 1000)
            for task in watching:
                task.cancel()
            await asyncio.gather(*watching, return_exceptions=True)
    finally:
        server.terminate()
        server.wait(10)

    p95 = statistics.quantiles(round_trips, n=100)[94]
    base95 = statistics.quantiles(records, n=100)[94]
    print(f"{deals} deals, {viewers} phones watching over server-sent events, SQLite, loopback")
    print(f"  round trip (POST to the last phone updated)  {_ms(round_trips)}")
    print(f"  POST answered                               {_ms(post_only)}")
    print(f"  baseline: Ledger.record in this process     {_ms(records)}")
    print(
        f"  round trip p95 / baseline p95 = {p95 / base95:.1f}x;  budget p95 <= {BUDGET_MS:.0f} ms: "
        f"{'met' if p95 <= BUDGET_MS else 'MISSED'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument("--dir", default=None, help="Where the two ledger files go (default: the temp folder).")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="calabresella-web-bench-", dir=args.dir) as folder:
        asyncio.run(run(args.deals, args.viewers, Path(folder)))


if __name__ == "__main__":
    main()
