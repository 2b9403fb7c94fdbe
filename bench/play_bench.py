"""Per-deal latency inside `calabresella play` on SQLite, against the bare commit it is built around.

Drives the real command, in a pseudo-terminal (prompt_toolkit drawing every prompt) and through a pipe
(plain lines), and times each deal from the line sent to the totals shown (the `Next deal:` line printed
right after the totals table). The baseline, taken in turns with the deals through the pipe: in this
process, a one-row insert committed on a ledger opened as the ledger opens it (WAL, synchronous=FULL,
BEGIN IMMEDIATE, foreign keys). Then, in turns with bare commits in the same way, the same deals parsed and
recorded through `Ledger.record` in this process: the part of a deal that writes it, without the pipe and
the drawing.

    python bench/play_bench.py [--deals 500] [--mode pty|pipe|both]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pexpect
from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import calabresella

from ledger import Ledger
from ledger.rules.quick import parse_quick_line
from ledger.store.engine import open_ledger, transaction
from ledger.store.evenings import start_evening
from ledger.values import Terms

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
DONE = "Next deal:"
PROMPT, SHOWN = "\x1b[?2004h", "\x1b[?25h"
ENV = {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}


def command() -> list[str]:
    """The installed `calabresella` beside this interpreter."""
    return [calabresella()]


def new_ledger(path: Path) -> None:
    """A ledger with one open evening of three players."""
    engine = open_ledger(str(path))
    with transaction(engine) as session:
        start_evening(session, PLAYERS, Terms(stake="0.10"))
    engine.dispose()


def in_terminal(db: Path, deals: int) -> list[float]:
    """Seconds per deal through a pseudo-terminal; each line is sent once the prompt is drawn."""
    program, *prefix = command()
    child = pexpect.spawn(
        program,
        [*prefix, "--db", str(db), "play", "--no-history"],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 160),
        env=ENV,
    )
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


class Piped:
    """`calabresella play` with plain lines on stdin and stdout, one deal at a time."""

    def __init__(self, db: Path) -> None:
        self.process = subprocess.Popen(
            [*command(), "--db", str(db), "play"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENV, bufsize=0
        )
        self._until_done()

    def _until_done(self) -> None:
        assert self.process.stdout is not None
        output, done = b"", DONE.encode()
        while done not in output:
            output += os.read(self.process.stdout.fileno(), 65536)

    def deal(self, line: str) -> float:
        """Seconds from the line sent to the totals shown."""
        assert self.process.stdin is not None
        start = time.perf_counter()
        self.process.stdin.write(line.encode() + b"\n")
        self._until_done()
        return time.perf_counter() - start

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


class BareCommit:
    """A one-row insert committed on a ledger opened with the ledger's own connection settings (WAL included)."""

    def __init__(self, db: Path) -> None:
        self.engine = open_ledger(str(db))
        with transaction(self.engine) as session:
            session.execute(text("CREATE TABLE bench (id INTEGER PRIMARY KEY, at REAL)"))

    def commit(self) -> float:
        start = time.perf_counter()
        with transaction(self.engine) as session:
            session.execute(text("INSERT INTO bench (at) VALUES (:at)"), {"at": start})
        return time.perf_counter() - start

    def close(self) -> None:
        self.engine.dispose()


class InProcess:
    """What `play` does for a deal minus reading the line and drawing the answer: parse it, then `Ledger.record`."""

    def __init__(self, db: Path) -> None:
        new_ledger(db)
        self.ledger = Ledger(str(db))
        self.profile = self.ledger.evening(1).profile

    def deal(self, line: str) -> float:
        start = time.perf_counter()
        quick = parse_quick_line(line, PLAYERS, self.profile)
        self.ledger.record(quick.deal, evening=1, dealer=quick.dealer)
        return time.perf_counter() - start

    def close(self) -> None:
        self.ledger.close()


def in_turns(subject: Piped | InProcess, bare: BareCommit, deals: int) -> tuple[list[float], list[float]]:
    """A deal, then a bare commit, in turns; each closed at the end."""
    done, committed = [], []
    for number in range(deals):
        done.append(subject.deal(LINES[number % len(LINES)]))
        committed.append(bare.commit())
    subject.close()
    bare.close()
    return done, committed


def report(name: str, times: list[float]) -> str:
    """One line: p50, p95, max, and the mean of the first and last hundred, in milliseconds."""
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    first, last = statistics.mean(t * 1000 for t in times[:100]), statistics.mean(t * 1000 for t in times[-100:])
    return (
        f"{name:<38} n={len(ms):<4} p50 {statistics.median(ms):7.2f}  p95 {p95:7.2f}  max {ms[-1]:7.2f}  "
        f"first100 {first:7.2f}  last100 {last:7.2f}"
    )


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    """Run the chosen measurements in a temporary folder and print one line each (milliseconds)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--mode", choices=("pty", "pipe", "both"), default="both")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print(f"SQLite in {folder}, {args.deals} deals each, times in ms")
        if args.mode in ("pty", "both"):
            new_ledger(folder / "pty.sqlite3")
            print(report("play in a pseudo-terminal", in_terminal(folder / "pty.sqlite3", args.deals)), flush=True)
        if args.mode in ("pipe", "both"):
            new_ledger(folder / "piped.sqlite3")
            for name, subject, bare in (
                ("play through a pipe", Piped(folder / "piped.sqlite3"), BareCommit(folder / "bare1.sqlite3")),
                (
                    "the deal in-process (Ledger.record)",
                    InProcess(folder / "library.sqlite3"),
                    BareCommit(folder / "bare2.sqlite3"),
                ),
            ):
                done, committed = in_turns(subject, bare, args.deals)
                print(report(name, done))
                print(report("  bare WAL commit (1-row insert)", committed))
                print(f"  p95 ratio: {p95(done) / p95(committed):.1f}x (target for play <= 2x)", flush=True)


if __name__ == "__main__":
    main()
