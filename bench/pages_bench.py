"""The pages of a club's history on `calabresella serve`, warm, on a long history and on a ten times longer one,
each against an open evening's page in the same run; then the commands of the history against `standings` of the
open evening.

A history of EVENINGS evenings of about 40 deals (2,500 and 25,000 by default: some 100,000 and 1,000,000 deals) is
written as `bench/stats_bench.py` writes it (deals drawn and scored by the rules engine, bulk-inserted); then, through
`Ledger`, the evenings a club looks at: a closed evening of 40 deals, a club night of two tables and an open evening.
The real server is started on each ledger and every page is asked for REPEAT times, the pages taking turns and the open
evening's page asked in each turn, its median the baseline of the same run; a page whose cost does not grow with the
history stays near 1x at both sizes. With `--commands N`, each command of the history runs N times in a fresh process,
in turns with `standings` of the open evening (with `--command NAME`, only the commands named).

    python bench/pages_bench.py [--evenings 2500,25000] [--repeat 20] [--commands 3] [--command settle ...]
                                [--dir FOLDER]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stats_bench import DEALS_PER_EVENING, PLAYERS, generate
from workload import calabresella, listening

from ledger import Ledger
from ledger.store.engine import open_ledger
from ledger.values import Terms

TOKEN = "bench-token-for-the-pages-0123456789"
LINES = ("{1} solo 22", "{2} chiamo 3D@{0} 17 last=opp", "pass", "{0} solissimo dividete 8", "{0} solo 8")
"""Deals at a table of three, `{0}` to `{2}` standing for its players."""
BASELINE = "an open evening's page"
PAGES = {
    BASELINE: "/evenings/{open}",
    "a closed evening's page": "/evenings/{closed}",
    "the first evening's page": "/evenings/1",
    "a closed evening's settlement": "/evenings/{closed}/settle",
    "the list of evenings": "/evenings",
    "the older evenings": "/evenings?before={middle}",
    "GET /api/evenings": "/api/evenings",
    "the list of club nights": "/events",
    "a club night's board": "/events/{event}/board",
}
"""Each page timed, `{open}`, `{closed}`, `{middle}` and `{event}` standing for the numbers of what it shows."""
COMMAND_BASELINE = "standings of the open evening"
COMMANDS = {
    COMMAND_BASELINE: ("standings", "--evening", "{open}"),
    "standings of a closed evening": ("standings", "--evening", "{closed}"),
    "settle": ("settle",),
    "chart running": ("chart", "running", "--out", "{folder}/running.png"),
    "chart running --evening N": ("chart", "running", "--evening", "{open}", "--out", "{folder}/open.png"),
    "evening list": ("evening", "list"),
    "tab --pairs": ("tab", "--pairs"),
}


def history(path: Path, evenings: int) -> dict[str, object]:
    """A ledger of about `evenings` evenings of the past, then the evenings shown; the numbers the pages name."""
    if not path.exists():
        started = time.perf_counter()
        engine = open_ledger(str(path))
        generate(engine, evenings * DEALS_PER_EVENING, seed=7)
        engine.dispose()
        with Ledger(str(path)) as ledger:
            table, club = PLAYERS[:3], PLAYERS[3:9]
            closed = ledger.start_evening(table, Terms(stake="0.10")).number
            for index in range(40):
                ledger.record(LINES[index % len(LINES)].format(*table), evening=closed)
            ledger.close_evening(closed)
            event = ledger.club.start_event("Club night", club, Terms(stake="0.10")).number
            seated = ledger.club.seat_round(event, tables=(club[:3], club[3:])).current
            assert seated is not None
            for each in seated.tables:
                for line in LINES[:4]:
                    ledger.record(line.format(*each.players), evening=each.evening)
            opened = ledger.start_evening(table, Terms(stake="0.10")).number
            for index in range(20):
                ledger.record(LINES[index % len(LINES)].format(*table), evening=opened)
        print(f"  made {path.name} in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    with Ledger(str(path)) as ledger:
        opened = ledger.evening().number
        event = ledger.club.event().number
        deals = ledger.engine.connect().exec_driver_sql("SELECT count(*) FROM deal").scalar()
    return {"open": opened, "closed": opened - 3, "middle": opened // 2, "event": event, "deals": deals}


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def pages(path: Path, numbers: dict[str, object], repeat: int) -> dict[str, float]:
    """The median milliseconds of each page on `calabresella serve` of the ledger, asked for in turns."""
    port = _free_port()
    server = subprocess.Popen(
        [calabresella(), "--db", str(path), "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        env={**os.environ, "CALABRESELLA_TOKEN": TOKEN},
    )
    times: dict[str, list[float]] = {name: [] for name in PAGES}
    try:
        if not listening(port, server):
            raise SystemExit("calabresella serve did not start")
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:

            def ask(name: str) -> float:
                return timed(lambda: client.get(PAGES[name].format(**numbers)).raise_for_status())

            for name in PAGES:  # warm: the server's statements built, its templates compiled, the file in memory
                ask(name)
                ask(name)
            names = list(PAGES)
            for turn in range(repeat):
                for name in names[turn % len(names) :] + names[: turn % len(names)]:
                    times[name].append(ask(name))
                    if name != BASELINE:
                        times[BASELINE].append(ask(BASELINE))
    finally:
        server.terminate()
        server.wait(10)
    return {name: statistics.median(values) for name, values in times.items()}


def commands(path: Path, numbers: dict[str, object], repeat: int, folder: Path, named: list[str]) -> dict[str, float]:
    """The median milliseconds of each command `named` (all when none is), each run in turns with the baseline
    command."""
    times: dict[str, list[float]] = {
        name: [] for name in COMMANDS if name == COMMAND_BASELINE or name in named or not named
    }

    def run(name: str) -> float:
        args = [arg.format(folder=folder, **numbers) for arg in COMMANDS[name]]
        command = [calabresella(), "--db", str(path), *args]
        return timed(lambda: subprocess.run(command, check=True, capture_output=True))

    for _ in range(repeat):
        for name in list(times):
            if name != COMMAND_BASELINE:
                times[name].append(run(name))
                times[COMMAND_BASELINE].append(run(COMMAND_BASELINE))
    return {name: statistics.median(values) for name, values in times.items() if values}


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def report(what: str, figures: dict[str, float], baseline: str, size: str) -> None:
    base = figures[baseline]
    print(f"{what} at {size}: {baseline} {base:.1f} ms")
    for name, ms in figures.items():
        if name != baseline:
            print(f"  {name:<32} {ms:8.1f} ms   {ms / base:5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--evenings", default="2500,25000", help="the sizes of the histories, in evenings")
    parser.add_argument("--repeat", type=int, default=20, help="turns of the pages (0: leave them out)")
    parser.add_argument("--commands", type=int, default=3, help="turns of the commands (0: leave them out)")
    parser.add_argument(
        "--command",
        action="append",
        default=[],
        choices=[name for name in COMMANDS if name != COMMAND_BASELINE],
        help="a command of the history to time, by its name (repeat it for more; default: every one)",
    )
    parser.add_argument("--dir", type=Path, help="where the ledgers are made, and kept for later runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="calabresella-pages-bench-") as temporary:
        folder = args.dir or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        for evenings in (int(size) for size in args.evenings.split(",")):
            path = folder / f"history-{evenings}.sqlite3"
            numbers = history(path, evenings)
            size = f"{numbers['open']:,} evenings ({numbers['deals']:,} deals)"
            if args.repeat:
                report("pages", pages(path, numbers, args.repeat), BASELINE, size)
            if args.commands:
                report(
                    "commands",
                    commands(path, numbers, args.commands, Path(temporary), args.command),
                    COMMAND_BASELINE,
                    size,
                )


if __name__ == "__main__":
    main()
