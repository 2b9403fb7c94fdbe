"""`calabresella import` of a real export against a raw sqlite3 executemany of the same rows, in turns.

    python bench/import_bench.py [--deals 100000] [--repeat 3] [--records 10] [--export PATH]
                                 [--before OLDER/.venv/bin/calabresella]

The export is the ledger's own: a ledger holding a club's history of about `--deals` deals (`club_history` in
workload.py: many evenings of every game, deals amended, voided and taken back, evenings reopened and voided, keys,
payments, renames, a club night in a season), written by `Ledger.export_to`. With `--export PATH` it is kept there,
and a later run reuses it (the ledger is built again when the file is missing). Each turn runs the real command in a
fresh process into a new ledger (every revision re-scored and checked, committing in batches), then the baseline, in
a fresh process too: the rows that import wrote, inserted into a new file of the same schema with one executemany
per table and one commit, WAL and synchronous=FULL as the ledger (only the inserts and the commit are timed). Prints
each time, the command's processor time and peak memory, and the median ratio. With `--before`, each turn also
imports the same export with an older checkout's command, right after this one's.
Then, while one more import runs, times `--records` runs of `calabresella record` into an evening of the same ledger
(target: 2 s; `--records 0` leaves this out).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from workload import calabresella, club_history, options, spread  # noqa: E402

from ledger import Ledger  # noqa: E402

TARGET_SECONDS = 15.0
"""The budget of an import of 100,000 deals (README.md)."""


def real_export(path: Path, deals: int, work: Path) -> None:
    """The export of a ledger holding a club's history of about `deals` deals, written at `path`."""
    ledger = work / "history.sqlite3"
    club_history(ledger, deals)
    with Ledger(str(ledger)) as history, path.open("w", encoding="utf-8") as out:
        history.export_to(out)


def described(path: Path) -> tuple[int, str]:
    """How many deals the export holds, and what it holds, counted line by line."""
    lines: Counter[str] = Counter()
    deals = revisions = changes = voided = 0
    with path.open(encoding="utf-8") as source:
        next(source)
        for line in source:
            kind, item = next(iter(json.loads(line).items()))
            lines[kind] += 1
            if kind == "evening":
                deals += len(item["deals"])
                revisions += sum(len(deal["revisions"]) for deal in item["deals"])
                voided += sum(1 for deal in item["deals"] if deal["voided_at"])
                changes += len(item["changes"])
    return deals, (
        f"{deals:,} deals ({revisions:,} revisions, {voided:,} voided) in {lines['evening']:,} evenings, "
        f"{changes:,} changes logged, {lines['payment']:,} payments, {lines['rename']} renames, "
        f"{lines['season']} seasons, {lines['event']} club nights; {path.stat().st_size / 2**20:.1f} MiB of JSON Lines"
    )


def run_import(source: Path, database: Path, program: str) -> tuple[float, float, float]:
    """Wall seconds, processor seconds and peak memory (MiB) of `import` by the command `program` in a fresh
    process."""
    command = [program, "--db", str(database), "import", str(source)]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        sys.exit(f"import failed with status {status}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def raw_seconds(ledger: Path, target: Path) -> float:
    """Seconds of the baseline: the rows of `ledger` inserted raw into `target`, in a fresh process."""
    ran = subprocess.run(
        [sys.executable, str(HERE / "workload.py"), str(ledger), str(target)],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(ran.stdout)


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
    parser.add_argument("--export", type=Path, help="Keep the export here, and reuse it when it is there already.")
    parser.add_argument("--before", help="An older checkout's calabresella, to import the same export in turns.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        source = args.export or work / "export.jsonl"
        if not source.exists():
            start = time.perf_counter()
            real_export(source, args.deals, work)
            print(f"a club's history built and exported in {time.perf_counter() - start:.0f} s")
        deals, holding = described(source)
        print(f"{holding}; {args.repeat} turns", flush=True)
        ratios, peaks, seconds, older = [], [], [], []
        for turn in range(args.repeat):
            ours, processor, peak = run_import(source, work / f"ledger{turn}.sqlite3", calabresella())
            if args.before:
                before, before_processor, _ = run_import(source, work / f"before{turn}.sqlite3", args.before)
                older.append(before / ours)
                print(f"turn {turn + 1}: the code before {before:6.2f} s ({before_processor:.2f} s of processor)")
            raw = raw_seconds(work / f"ledger{turn}.sqlite3", work / f"raw{turn}.sqlite3")
            ratios.append(ours / raw)
            peaks.append(peak)
            seconds.append(ours)
            print(
                f"turn {turn + 1}: import {ours:6.2f} s ({processor:.2f} s of processor, {deals / ours:,.0f} deals/s, "
                f"peak {peak:.0f} MiB)   raw executemany {raw:5.2f} s   ratio {ours / raw:4.1f}x",
                flush=True,
            )
            for name in (f"ledger{turn}.sqlite3", f"raw{turn}.sqlite3", f"before{turn}.sqlite3"):
                for path in work.glob(f"{name}*"):
                    path.unlink()
        scaled = statistics.median(seconds) * 100_000 / deals
        print(
            f"median ratio {spread(ratios)}; median import {statistics.median(seconds):.2f} s, {scaled:.1f} s per "
            f"100,000 deals (target <= {TARGET_SECONDS:.0f} s); peak memory {max(peaks):.0f} MiB (target <= 200 MiB)"
        )
        if older:
            print(f"the code before took {spread(older)} this code's time")
        waits = record_during_import(source, work / "shared.sqlite3", args.records) if args.records else []
        if waits:
            print(
                f"record during the import: {', '.join(f'{t:.2f}' for t in waits)} s, median "
                f"{statistics.median(waits):.2f} s, at most {max(waits):.2f} s (target <= 2 s)"
            )


if __name__ == "__main__":
    main()
