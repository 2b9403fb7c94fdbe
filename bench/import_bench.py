"""`calabresella import` of a large export against a raw sqlite3 executemany of the same rows, in turns.

    python bench/import_bench.py [--deals 100000] [--repeat 3]

The export is the example evening repeated. Each turn runs the real command in a fresh process into a new
ledger (re-scoring every deal, committing in batches) and then the baseline: the rows that import wrote,
inserted into a new file of the same schema with one executemany per table and one commit, WAL and
synchronous=FULL as the ledger. Prints each time, the command's peak memory, and the median ratio.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import calabresella, raw_insert, rows_of, write_export


def run_import(source: Path, database: Path) -> tuple[float, float]:
    """Wall seconds and peak memory (MiB) of `calabresella import` in a fresh process."""
    command = [calabresella(), "--db", str(database), "import", str(source)]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        sys.exit(f"import failed with status {status}")
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        source = work / "export.json"
        deals = write_export(source, args.deals)
        print(f"{deals:,} deals, {source.stat().st_size / 2**20:.1f} MiB of JSON; {args.repeat} turns")
        ratios, peaks = [], []
        for turn in range(args.repeat):
            ours, peak = run_import(source, work / f"ledger{turn}.sqlite3")
            rows = rows_of(work / f"ledger{turn}.sqlite3")
            start = time.perf_counter()
            raw_insert(work / f"ledger{turn}.sqlite3", work / f"raw{turn}.sqlite3", rows)
            raw = time.perf_counter() - start
            ratios.append(ours / raw)
            peaks.append(peak)
            print(f"turn {turn + 1}: import {ours:6.2f} s ({deals / ours:,.0f} deals/s, peak {peak:.0f} MiB)   "
                  f"raw executemany {raw:5.2f} s   ratio {ours / raw:4.1f}x", flush=True)
            del rows  # the next command's peak memory is its own, not a copy of this process's
            for name in (f"ledger{turn}.sqlite3", f"raw{turn}.sqlite3"):
                (work / name).unlink()
        print(f"median ratio {statistics.median(ratios):.1f}x (target <= 3x), peak memory {max(peaks):.0f} MiB "
              "(target <= 200 MiB)")


if __name__ == "__main__":
    main()
