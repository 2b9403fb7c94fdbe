"""`calabresella import` of a large export against a raw sqlite3 executemany of the same rows, in turns.

    python bench/import_bench.py [--deals 100000] [--repeat 3] [--records 10]

The export is the example evening repeated. Each turn runs the real command in a fresh process into a new
ledger (re-scoring every deal, committing in batches) and then the baseline, in a fresh process too: the
rows that import wrote, inserted into a new file of the same schema with one executemany per table and one
commit, WAL and synchronous=FULL as the ledger (only the inserts and the commit are timed). Prints each
time, the command's peak memory, and the median ratio.
Then, while one more import runs, times `--records` runs of `calabresella record` into an evening of the same ledger
(target: 2 s; `--records 0` leaves this out).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from workload import calabresella, options, spread, write_export  # noqa: E402


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


def record_during_import(source: Path, database: Path, records: int) -> list[float]:
    """Seconds each `record` took (a fresh process each, half a second apart) while an import into the same ledger
    was running."""
    cli = [calabresella(), "--db", str(database)]
    subprocess.run([*cli, "evening", "start", "--players", "Anna,Bruno,Carla"], check=True, capture_output=True)
    importing = subprocess.Popen([*cli, "import", str(source)], stdout=subprocess.DEVNULL)
    time.sleep(1)
    times = []
    for _ in range(records):
        if importing.poll() is not None:
            break
        start = time.perf_counter()
        subprocess.run(
            [*cli, "record", "--evening", "1", "--declarer", "Bruno", "--contract", "solo", "--thirds", "22"],
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - start)
        time.sleep(0.5)
    importing.wait()
    return times


def main() -> None:
    parser = options(__doc__, deals=100_000, repeat=3)
    parser.add_argument("--records", type=int, default=10, help="`record` runs timed during one more import.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        source = work / "export.jsonl"
        deals = write_export(source, args.deals)
        print(f"{deals:,} deals, {source.stat().st_size / 2**20:.1f} MiB of JSON Lines; {args.repeat} turns")
        ratios, peaks = [], []
        for turn in range(args.repeat):
            ours, peak = run_import(source, work / f"ledger{turn}.sqlite3")
            raw = float(
                subprocess.run(
                    [
                        sys.executable,
                        str(HERE / "workload.py"),
                        str(work / f"ledger{turn}.sqlite3"),
                        str(work / f"raw{turn}.sqlite3"),
                    ],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
            )
            ratios.append(ours / raw)
            peaks.append(peak)
            print(
                f"turn {turn + 1}: import {ours:6.2f} s ({deals / ours:,.0f} deals/s, peak {peak:.0f} MiB)   "
                f"raw executemany {raw:5.2f} s   ratio {ours / raw:4.1f}x",
                flush=True,
            )
            for name in (f"ledger{turn}.sqlite3", f"raw{turn}.sqlite3"):
                (work / name).unlink()
        print(f"median ratio {spread(ratios)} (target <= 3x), peak memory {max(peaks):.0f} MiB (target <= 200 MiB)")
        waits = record_during_import(source, work / "shared.sqlite3", args.records) if args.records else []
        if waits:
            print(
                f"record during the import: {', '.join(f'{t:.2f}' for t in waits)} s, median "
                f"{statistics.median(waits):.2f} s, at most {max(waits):.2f} s (target <= 2 s)"
            )


if __name__ == "__main__":
    main()
