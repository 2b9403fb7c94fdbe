"""Cold start of `calabresella record`, `standings` and `--help` next to `python -c "import typer, sqlmodel"`, in one
run.

Usage: python bench/record_startup.py [--runs 15] [--warm-up 1] [--against COMMIT] [--commands record,standings,--help]
                                     [--compiled]
Each run is a fresh process with its modules compiled beforehand, the commands taking turns (the baseline, then
each command of this checkout and, with `--against`, of that commit's code). Printed for each: the median and the
90th percentile of its wall time and of its CPU time (user + system, which other load on the machine sways less),
the ratios of the medians to the baseline's, and the heavy modules it imported (read from `-X importtime`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = (
    "pandas",
    "matplotlib",
    "numpy",
    "psycopg",
    "sqlalchemy.dialects.postgresql",
    "starlette",
    "uvicorn",
    "jinja2",
    "alembic",
    "ledger.reports",
    "ledger.store.club",
    "ledger.store.club_models",
    "prompt_toolkit",
    "rich.progress",
)
"""Modules no command of the table needs: reports, other databases, the web, the club store, the shell."""
COMMANDS = {
    "record": ["record", "--declarer", "Bruno", "--contract", "solo", "--thirds", "22"],
    "standings": ["standings"],
    "--help": ["--help"],
}
BASELINE = [sys.executable, "-c", "import typer, sqlmodel"]


def _environment(folder: Path, compiled: bool) -> dict[str, str]:
    """Every process of the run compiles each module once, into a cache of the run's own, as an installed program
    does (into `__pycache__`), whatever PYTHONDONTWRITEBYTECODE says; when `compiled`, it reads the bytecode compiled
    before the run instead (a quick run, whose first process compiles nothing)."""
    env = {**os.environ, "CALABRESELLA_LANG": "en", "COLUMNS": "100"}
    if not compiled:
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


class Code:
    """One version of the command line: this checkout's, or a commit's extracted into a folder, with its ledger."""

    def __init__(self, label: str, folder: Path, code: Path | None, compiled: bool) -> None:
        self.label = label
        self.env = _environment(folder, compiled)
        if code is not None:
            self.env["PYTHONPATH"] = str(code)
        self.ledger = str(folder / f"{label}.sqlite3")
        self.cwd = folder  # `python -c` looks for modules in the current folder first: not in this checkout's
        self.run(["evening", "start", "--players", "Anna,Bruno,Carla"])

    def command(self, args: list[str], *options: str) -> list[str]:
        return [sys.executable, *options, "-c", "from ledger.cli import run; run()", "--db", self.ledger, *args]

    def run(self, args: list[str]) -> None:
        subprocess.run(self.command(args), check=True, capture_output=True, env=self.env, cwd=self.cwd)

    def heavy(self, args: list[str]) -> list[str]:
        """The heavy modules the command imports."""
        ran = subprocess.run(
            self.command(args, "-X", "importtime"), capture_output=True, text=True, env=self.env, cwd=self.cwd
        )
        imported = {line.rpartition("|")[2].strip() for line in ran.stderr.splitlines() if line.startswith("import")}
        return [name for name in HEAVY if name in imported]


def _timed(command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0, f"{command} exited {process.returncode}"
    return wall, usage.ru_utime + usage.ru_stime


def _extract(ref: str, into: Path) -> Path:
    """The package as it was at a git commit."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    return f"{statistics.median(ordered) * 1000:6.0f} {ordered[int(0.9 * (len(ordered) - 1))] * 1000:6.0f}"


def _measure(
    turns: dict[str, tuple[list[str], dict[str, str], Path]], runs: int, warm_up: int
) -> dict[str, list[float]]:
    """Each turn's wall and CPU seconds, `runs` times, the turns taking turns; the first `warm_up` rounds, which warm
    the disk cache and compile the modules, are not counted."""
    spent: dict[str, list[float]] = {f"{label} {kind}": [] for label in turns for kind in ("wall", "cpu")}
    for round_ in range(warm_up + runs):
        for label, (command, env, cwd) in turns.items():
            wall, cpu = _timed(command, env, cwd)
            if round_ >= warm_up:
                spent[f"{label} wall"].append(wall)
                spent[f"{label} cpu"].append(cpu)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--warm-up", type=int, default=1, help="Rounds run first and not counted.")
    parser.add_argument("--against", default=None, help="A git commit to measure too, e.g. the code before a change.")
    parser.add_argument(
        "--commands", default=",".join(COMMANDS), help=f"The commands to measure, of {', '.join(COMMANDS)}."
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="Read the bytecode compiled before the run instead of compiling into a cache of the run's own.",
    )
    args = parser.parse_args()
    commands = {name: COMMANDS[name] for name in args.commands.split(",")}
    with tempfile.TemporaryDirectory(prefix="calabresella-startup-") as tmp:
        folder = Path(tmp)
        codes = [Code("this", folder, None, args.compiled)]
        if args.against:
            codes.append(Code(args.against[:10], folder, _extract(args.against, folder / "against"), args.compiled))
        base = "import typer, sqlmodel"
        turns = {base: (BASELINE, _environment(folder, args.compiled), folder)}
        for code in codes:
            for name, command in commands.items():
                turns[f"{code.label} {name}"] = (code.command(command), code.env, code.cwd)
        spent = _measure(turns, args.runs, args.warm_up)
        print(f"{args.runs} cold runs each, in turns; ms: median p90")
        print(f"{'':<24} {'wall':>13} {'cpu':>13}   ratio wall    cpu   heavy modules imported")
        for label in turns:
            heavy = ""
            for code in codes:
                if label.startswith(code.label + " "):
                    heavy = ", ".join(code.heavy(COMMANDS[label.removeprefix(code.label + " ")])) or "none"
            ratios = " ".join(
                f"{statistics.median(spent[f'{label} {kind}']) / statistics.median(spent[f'{base} {kind}']):5.2f}x"
                for kind in ("wall", "cpu")
            )
            print(f"{label:<24} {_ms(spent[f'{label} wall'])} {_ms(spent[f'{label} cpu'])}   {ratios}   {heavy}")


if __name__ == "__main__":
    main()
