"""Cold wall time of `calabresella record` next to a minimal Typer + SQLModel one-row insert, same run.

Usage: python bench/record_startup.py [--runs 20]
Each run is a fresh process; the median and the 90th percentile are printed for both, plus which heavy
modules `record` loaded (none of pandas, matplotlib, numpy, alembic, rich.progress, prompt_toolkit), and the
ratio of the medians.
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
sys.path.insert(0, str(HERE))
from workload import calabresella  # noqa: E402


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
    cli = calabresella()
    work = Path(tempfile.mkdtemp(prefix="calabresella-bench-"))
    ledger, baseline = str(work / "ledger.sqlite3"), str(work / "baseline.sqlite3")
    subprocess.run(
        [cli, "--db", ledger, "evening", "start", "--players", "Anna,Bruno,Carla"], check=True, capture_output=True
    )
    record = [cli, "--db", ledger, "record", "--declarer", "Bruno", "--contract", "solo", "--thirds", "22"]
    minimal = [sys.executable, str(HERE / "minimal_insert.py"), "--db", baseline]
    _time(record), _time(minimal)
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(_time(record))
        theirs.append(_time(minimal))
    ratio = statistics.median(ours) / statistics.median(theirs)
    probe = (
        "import sys; from ledger.cli.main import app; "
        f"app(['--db', {ledger!r}, 'record', '--passed'], standalone_mode=False); "
        "print(sorted(m for m in ('pandas', 'matplotlib', 'numpy', 'alembic', 'rich.progress', 'prompt_toolkit') "
        "if m in sys.modules))"
    )
    heavy = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    print(f"{runs} cold runs each")
    print(_summary("calabresella record", ours))
    print(_summary("minimal Typer+SQLModel insert", theirs))
    print(f"median ratio {ratio:.2f}x (target <= 1.1x)")
    print(f"heavy modules loaded by record: {heavy.strip().splitlines()[-1]}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
