"""Per-deal latency inside `calabresella play` on SQLite, against the bare commit it is built around.

Drives the real command, in a pseudo-terminal (prompt_toolkit drawing every prompt) and through a pipe
(plain lines), and times each deal from the line sent to the totals shown (the `Next deal:` line printed
right after the totals table). For comparison, in this process with the same engine settings (WAL,
synchronous=FULL, BEGIN IMMEDIATE): the library's work for one deal in one transaction, and a bare
commit of a one-row insert.

    python bench/play_bench.py [--deals 500] [--mode pty|pipe|both]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
from sqlalchemy import text

from ledger.rules.quick import parse_quick_line
from ledger.rules.seats import seat_after
from ledger.store.deals import record_deal
from ledger.store.engine import make_engine, open_ledger, resolve_url, transaction
from ledger.store.evenings import get_table, start_evening

PLAYERS = ("Anna", "Bruno", "Carla")
LINES = ("bruno solo 22", "carla chiamo 3D@anna 17 last=opp", "pass", "anna solissimo dividete 8", "br so 7+1/3",
         "anna solissimo scegliete 35 tricks=12", "bruno chiamo 4t last=decl")
DONE = "Next deal:"
PROMPT, SHOWN = "\x1b[?2004h", "\x1b[?25h"
ENV = {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}


def command() -> list[str]:
    """The installed `calabresella` beside this interpreter."""
    return [shutil.which("calabresella") or "calabresella"]


def new_ledger(path: Path) -> None:
    """A ledger with one open evening of three players."""
    engine = open_ledger(str(path))
    with transaction(engine) as session:
        start_evening(session, PLAYERS, stake="0.10")
    engine.dispose()


def in_terminal(db: Path, deals: int) -> list[float]:
    """Seconds per deal through a pseudo-terminal; each line is sent once the prompt is drawn."""
    program, *prefix = command()
    child = pexpect.spawn(program, [*prefix, "--db", str(db), "play", "--no-history"], encoding="utf-8",
                          timeout=60, dimensions=(50, 160), env=ENV)
    child.delaybeforesend = None
    times = []
    child.expect_exact(PROMPT)
    child.expect_exact(SHOWN)
    for number in range(deals):
        start = time.perf_counter()
        child.sendline(LINES[number % len(LINES)])
        child.expect_exact(DONE)
        times.append(time.perf_counter() - start)
        child.expect_exact(PROMPT)
        child.expect_exact(SHOWN)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    return times


def through_pipe(db: Path, deals: int) -> list[float]:
    """Seconds per deal with plain lines on stdin and stdout."""
    process = subprocess.Popen([*command(), "--db", str(db), "play"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               env=ENV, bufsize=0)
    assert process.stdin is not None and process.stdout is not None
    output, times = b"", []
    done = DONE.encode()
    while done not in output:
        output += os.read(process.stdout.fileno(), 65536)
    for number in range(deals):
        output = b""
        start = time.perf_counter()
        process.stdin.write(LINES[number % len(LINES)].encode() + b"\n")
        while done not in output:
            output += os.read(process.stdout.fileno(), 65536)
        times.append(time.perf_counter() - start)
    process.stdin.close()
    process.wait(timeout=60)
    return times


def library_deals(db: Path, deals: int) -> list[float]:
    """Seconds per deal for play's work in this process: parse, then one transaction (table, record, next dealer)."""
    engine = open_ledger(str(db))
    times = []
    with transaction(engine) as session:
        profile = get_table(session, 1).profile
    for number in range(deals):
        start = time.perf_counter()
        typed = parse_quick_line(LINES[number % len(LINES)], PLAYERS, profile).deal
        with transaction(engine) as session:
            table = get_table(session, 1)
            seat_after(table.players, record_deal(session, table, typed).deal.dealer)
        times.append(time.perf_counter() - start)
    engine.dispose()
    return times


def bare_commits(db: Path, commits: int) -> list[float]:
    """Seconds per transaction that inserts one row and commits, with the ledger's SQLite settings."""
    engine = make_engine(resolve_url(str(db)))
    with transaction(engine) as session:
        session.execute(text("CREATE TABLE bench (id INTEGER PRIMARY KEY, at REAL)"))
    times = []
    for _ in range(commits):
        start = time.perf_counter()
        with transaction(engine) as session:
            session.execute(text("INSERT INTO bench (at) VALUES (:at)"), {"at": start})
        times.append(time.perf_counter() - start)
    engine.dispose()
    return times


def report(name: str, times: list[float]) -> str:
    """One line: p50, p95, max, and the mean of the first and last hundred, in milliseconds."""
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    first, last = statistics.mean(t * 1000 for t in times[:100]), statistics.mean(t * 1000 for t in times[-100:])
    return (f"{name:<34} n={len(ms):<4} p50 {statistics.median(ms):7.2f}  p95 {p95:7.2f}  max {ms[-1]:7.2f}  "
            f"first100 {first:7.2f}  last100 {last:7.2f}")


def main() -> None:
    """Run the chosen measurements in a temporary folder and print one line each (milliseconds)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--mode", choices=("pty", "pipe", "both"), default="both")
    args = parser.parse_args()
    runs: list[tuple[str, Callable[[Path, int], list[float]]]] = []
    if args.mode in ("pty", "both"):
        runs.append(("play in a pseudo-terminal", in_terminal))
    if args.mode in ("pipe", "both"):
        runs.append(("play through a pipe", through_pipe))
    runs += [("same work in-process (library)", library_deals), ("bare commit (1-row insert)", bare_commits)]
    with tempfile.TemporaryDirectory() as folder:
        print(f"SQLite in {folder}, {args.deals} deals each, times in ms")
        for index, (name, run) in enumerate(runs):
            db = Path(folder) / f"run{index}.sqlite3"
            if run is not bare_commits:
                new_ledger(db)
            print(report(name, run(db, args.deals)), flush=True)


if __name__ == "__main__":
    main()
