"""Cold wall time of `calabresella record` next to a minimal Typer + SQLModel one-row insert, same run.

Usage: python bench/record_startup.py [--runs 20]
Each run is a fresh process; the median and the 90th percentile are printed for both, plus which heavy
modules `record` loaded (pandas and matplotlib must not be among them).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _time(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def _summary(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"{label:<34} median {statistics.median(ordered) * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    cli = shutil.which("calabresella")
    if cli is None:
        sys.exit("calabresella is not installed: pip install -e .")
    work = Path(tempfile.mkdtemp(prefix="calabresella-bench-"))
    ledger, baseline = str(work / "ledger.sqlite3"), str(work / "baseline.sqlite3")
    subprocess.run([cli, "--db", ledger, "evening", "start", "--players", "Anna,Bruno,Carla"], check=True,
                   capture_output=True)
    record = [cli, "--db", ledger, "record", "--declarer", "Bruno", "--contract", "solo", "--thirds", "22"]
    minimal = [sys.executable, str(HERE / "minimal_insert.py"), "--db", baseline]
    _time(record), _time(minimal)
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(_time(record))
        theirs.append(_time(minimal))
    probe = ("import sys; from ledger.cli.main import app; "
             f"app(['--db', {ledger!r}, 'record', '--passed'], standalone_mode=False); "
             "print(sorted(m for m in ('pandas', 'matplotlib', 'numpy') if m in sys.modules))")
    heavy = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    print(f"{runs} cold runs each")
    print(_summary("calabresella record", ours))
    print(_summary("minimal Typer+SQLModel insert", theirs))
    print(f"heavy modules loaded by record: {heavy.strip().splitlines()[-1]}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
