"""`calabresella export` of a large ledger against a raw read of the same tables and `json.dump`, in turns.

    python bench/export_bench.py [--deals 10000] [--repeat 5]

The ledger is the example evening repeated, imported once. Each turn runs the real command in a fresh process
(`export --out`, start-up included), the library's `Ledger.export_to` in this process, and the baseline in this
process: four queries (evenings with their seats, deals, revisions, payouts) and one `json.dump` of their rows
into a file. Prints each time and the median ratios.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import calabresella, spread, turns, write_export

from ledger import Ledger

QUERIES = {
    "evenings": "SELECT e.*, group_concat(s.player_id) AS seats FROM evening e JOIN seat s ON s.evening_id = e.id "
    "GROUP BY e.id ORDER BY e.id",
    "deals": "SELECT * FROM deal ORDER BY evening_id, number",
    "revisions": "SELECT * FROM deal_revision ORDER BY deal_id, revision",
    "payouts": "SELECT * FROM payout ORDER BY revision_id, position",
}


def raw_export(database: Path, target: Path) -> None:
    """The baseline: every row of the four queries, dumped as JSON."""
    with sqlite3.connect(database) as connection:
        data = {name: connection.execute(sql).fetchall() for name, sql in QUERIES.items()}
    with target.open("w", encoding="utf-8") as out:
        json.dump(data, out, ensure_ascii=False)


def timed(action: object) -> float:
    start = time.perf_counter()
    action()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    args = turns(__doc__, deals=10_000, repeat=5)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        source, database = work / "source.jsonl", work / "ledger.sqlite3"
        deals = write_export(source, args.deals)
        subprocess.run(
            [calabresella(), "--db", str(database), "import", str(source)], check=True, stdout=subprocess.DEVNULL
        )
        print(f"{deals:,} deals; {args.repeat} turns")
        command = [calabresella(), "--db", str(database), "export", "--out", str(work / "out.json")]
        ratios, library_ratios = [], []
        with Ledger(str(database)) as ledger:
            for turn in range(args.repeat):
                ours = timed(lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL))
                library = timed(lambda: library_export(ledger, work / "library.json"))
                raw = timed(lambda: raw_export(database, work / "raw.json"))
                ratios.append(ours / raw)
                library_ratios.append(library / raw)
                print(
                    f"turn {turn + 1}: export command {ours:5.2f} s   Ledger.export_to {library:5.2f} s   "
                    f"raw 4 queries + json.dump {raw:5.2f} s   ratios {ours / raw:4.1f}x, {library / raw:4.1f}x",
                    flush=True,
                )
        print(f"median ratio: command {spread(ratios)}, library {spread(library_ratios)} (target <= 3x)")


def library_export(ledger: Ledger, target: Path) -> None:
    with target.open("w", encoding="utf-8") as out:
        ledger.export_to(out)


if __name__ == "__main__":
    main()
