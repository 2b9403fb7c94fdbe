"""A crowded club night on `calabresella serve`: 6 writers x 200 deals at once, with no phone watching and with 20,
on SQLite; per write p50/p95, how long the server stays busy after its last answer, and how long Ctrl-C takes.

With `--against REF` the same run is made on the code of that git commit too (extracted into a temporary folder
and run with this interpreter), so the two are measured side by side on the same machine at the same time.

    python bench/serve_burst_bench.py [--writers 6] [--deals 200] [--viewers 20] [--only-watched] [--against d9f158c]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import cpu_seconds, listening

from ledger import Ledger
from ledger.values import Terms

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-token-for-a-crowded-club-night-0123456789"
PLAYERS = ("Anna", "Bruno", "Carla")
LINES = ("bruno solo 22", "carla chiamo 3D@anna 17 last=opp", "pass", "anna solissimo dividete 8", "br so 7+1/3")
IDLE_CPU_SECONDS = 0.02
"""Less CPU than this in a quarter of a second: the server is idle."""
LONGEST_WAIT = 120.0
"""How long the bench waits for the server to go idle, or to stop, before giving up on it."""


@dataclass
class Run:
    """One server's numbers."""

    code: str
    viewers: int
    writes_ms: list[float]
    wall: float
    idle_after: float
    stop_after: float

    def row(self) -> str:
        q = statistics.quantiles(self.writes_ms, n=100)
        idle = f"{self.idle_after:7.2f} s" if self.idle_after < LONGEST_WAIT else f">{LONGEST_WAIT:.0f} s  "
        stop = f"{self.stop_after:6.2f} s" if self.stop_after < LONGEST_WAIT else f">{LONGEST_WAIT:.0f} s (killed)"
        return (
            f"{self.code:<10} {self.viewers:>7}   {statistics.median(self.writes_ms):7.1f} ms {q[94]:8.1f} ms "
            f"{max(self.writes_ms):8.1f} ms   {self.wall:6.1f} s   {idle}   {stop}"
        )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _extract(ref: str, into: Path) -> Path:
    """The package as it was at a git commit."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def _serve(db: str, port: int, code: Path | None) -> subprocess.Popen[bytes]:
    """`calabresella serve` from this checkout, or from the extracted code of another commit."""
    env = {**os.environ, "CALABRESELLA_TOKEN": TOKEN, "CALABRESELLA_LANG": "en"}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    command = [sys.executable, "-c", "from ledger.cli import run; run()", "--db", db, "serve", "--port", str(port)]
    # run from the ledger's folder: `python -c` looks for modules in the current folder first
    found = [sys.executable, "-c", "import ledger; print(ledger.__file__)"]
    imported = subprocess.run(found, env=env, cwd=Path(db).parent, capture_output=True, text=True).stdout
    assert Path(imported.strip()).is_relative_to(code or ROOT), f"serving {imported}"
    process = subprocess.Popen(
        command, env=env, cwd=Path(db).parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    if not listening(port, process):
        raise SystemExit("calabresella serve did not start")
    return process


async def _burst(
    base: str, process: subprocess.Popen[bytes], writers: int, deals: int, viewers: int
) -> tuple[list[float], float, float, float]:
    """Phones watching, then every writer posting its deals one after another, each on a new connection (a server
    that finishes its work for a write after answering can do so on a kept connection only before the next write);
    then, the phones still watching, how long until the server is idle, and how long Ctrl-C takes. Each write's
    time, the wall time of all writes, the seconds until idle and until stopped."""
    limits = httpx.Limits(max_connections=viewers + 4)
    once = httpx.Limits(max_keepalive_connections=0)  # each write on a connection of its own, as phones send them
    async with (
        httpx.AsyncClient(base_url=base, timeout=600, limits=limits) as client,
        httpx.AsyncClient(base_url=base, timeout=600, limits=once) as fresh,
    ):
        connected = [asyncio.Event() for _ in range(viewers)]

        async def watch(ready: asyncio.Event) -> None:
            async with client.stream("GET", "/evenings/1/events") as stream:
                ready.set()
                async for _ in stream.aiter_lines():
                    pass

        phones = [asyncio.create_task(watch(ready)) for ready in connected]
        await asyncio.gather(*(ready.wait() for ready in connected))
        times: list[float] = []

        async def writer(n: int) -> None:
            for d in range(deals):
                began = time.perf_counter()
                answer = await fresh.post(
                    "/api/evenings/1/deals",
                    json={"line": LINES[(n + d) % len(LINES)]},
                    headers={"Authorization": f"Bearer {TOKEN}"},
                )
                answer.raise_for_status()
                times.append((time.perf_counter() - began) * 1000)

        began = time.perf_counter()
        await asyncio.gather(*(writer(n) for n in range(writers)))
        wall = time.perf_counter() - began
        idle = await asyncio.to_thread(_until_idle, process.pid)
        stop = await asyncio.to_thread(_until_stopped, process)
        for phone in phones:
            phone.cancel()
        await asyncio.gather(*phones, return_exceptions=True)
    return times, wall, idle, stop


def _until_idle(pid: int) -> float:
    """Seconds until the process spends less than `IDLE_CPU_SECONDS` of CPU in a quarter of a second."""
    began, before = time.monotonic(), cpu_seconds(pid)
    while time.monotonic() - began < LONGEST_WAIT:
        time.sleep(0.25)
        now = cpu_seconds(pid)
        if now - before < IDLE_CPU_SECONDS:
            return time.monotonic() - began - 0.25
        before = now
    return LONGEST_WAIT


def _until_stopped(process: subprocess.Popen[bytes]) -> float:
    """Ctrl-C, and the seconds until the process is gone (killed past `LONGEST_WAIT`)."""
    began = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        process.wait(LONGEST_WAIT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return LONGEST_WAIT
    return time.monotonic() - began


def measure(label: str, code: Path | None, folder: Path, writers: int, deals: int, viewers: int) -> Run:
    db = str(folder / f"{label}-{viewers}.sqlite3")
    with Ledger(db) as ledger:
        ledger.start_evening(PLAYERS, Terms(stake="0.10"))
    port = _free_port()
    process = _serve(db, port, code)
    try:
        times, wall, idle, stop = asyncio.run(_burst(f"http://127.0.0.1:{port}", process, writers, deals, viewers))
    finally:
        if process.poll() is None:
            process.kill()
    with Ledger(db) as ledger:
        stored = len(ledger.deals(1)[1])
    assert stored == writers * deals, f"{label}: {stored} deals stored of {writers * deals}"
    return Run(label, viewers, times, wall, idle, stop)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=6)
    parser.add_argument("--deals", type=int, default=200, help="Deals per writer.")
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument("--only-watched", action="store_true", help="Leave out the run with no phone watching.")
    parser.add_argument("--against", default=None, help="A git commit to measure too, e.g. the code before a change.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="calabresella-burst-") as tmp:
        folder = Path(tmp)
        codes: list[tuple[str, Path | None]] = [("this", None)]
        if args.against:
            codes.append((args.against[:10], _extract(args.against, folder / "against")))
        runs = [
            measure(label, code, folder, args.writers, args.deals, viewers)
            for viewers in ((args.viewers,) if args.only_watched else (0, args.viewers))
            for label, code in codes
        ]
    print(f"{args.writers} writers x {args.deals} deals at once, SQLite, loopback; per write:")
    print("code       viewers       p50         p95          max      all writes   idle after   stopped after Ctrl-C")
    for run in runs:
        print(run.row())


if __name__ == "__main__":
    main()
