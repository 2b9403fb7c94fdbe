"""Large exports for the benchmarks: the example evening repeated, each copy starting a day later."""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "three_friends.json"
TABLES = ("player", "evening", "seat", "deal", "deal_revision", "payout")
"""The tables an import writes, in the order their rows can be inserted."""


def write_export(path: Path, deals: int) -> int:
    """An export (JSON Lines) of at least `deals` deals (whole evenings), a line each; its number of deals."""
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    evening = data["evenings"][0]
    per_evening = len(evening["deals"])
    count = -(-deals // per_evening)
    start = datetime(2020, 1, 1, 20, tzinfo=UTC)
    with path.open("w", encoding="utf-8") as out:
        out.write('{"format": "calabresella-ledger", "version": 3}\n')
        for number in range(1, count + 1):
            copy_ = {
                **copy.deepcopy(evening),
                "number": number,
                "started_at": (start + timedelta(days=number)).isoformat(),
                "closed_at": None,
            }
            for deal in copy_["deals"]:
                deal["key"] = None
            out.write(json.dumps({"evening": copy_}, ensure_ascii=False) + "\n")
    return count * per_evening


def rows_of(database: Path) -> dict[str, tuple[list[str], list[tuple[object, ...]]]]:
    """Every row an import wrote, table by table: the columns and the rows."""
    with sqlite3.connect(database) as connection:
        out = {}
        for table in TABLES:
            cursor = connection.execute(f"SELECT * FROM {table}")
            out[table] = ([c[0] for c in cursor.description], cursor.fetchall())
        return out


def raw_insert(schema_from: Path, target: Path, rows: dict[str, tuple[list[str], list[tuple[object, ...]]]]) -> None:
    """The baseline: a new file with the ledger's schema and settings, then one executemany per table, one commit."""
    with sqlite3.connect(schema_from) as source:
        statements = [
            sql
            for (sql,) in source.execute(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
            )
        ]
    connection = sqlite3.connect(target, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = FULL")
    connection.execute("PRAGMA foreign_keys = ON")
    for sql in statements:
        connection.execute(sql)
    connection.execute("BEGIN IMMEDIATE")
    for table, (columns, values) in rows.items():
        marks = ", ".join("?" * len(columns))
        connection.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", values)
    connection.execute("COMMIT")
    connection.close()


def turns(doc: str | None, deals: int, repeat: int) -> argparse.Namespace:
    """The options of a benchmark that times a ledger of `--deals` deals against its baseline `--repeat` times."""
    return options(doc, deals, repeat).parse_args()


def options(doc: str | None, deals: int, repeat: int) -> argparse.ArgumentParser:
    """The parser of `turns`, for a benchmark that takes more options."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--repeat", type=int, default=repeat)
    return parser


def spread(ratios: list[float]) -> str:
    """`2.4x (2.0-3.0x)`: the median ratio and the range of the turns."""
    return f"{statistics.median(ratios):.1f}x ({min(ratios):.1f}-{max(ratios):.1f}x)"


def calabresella() -> str:
    """The `calabresella` installed beside this interpreter, else the one on the PATH."""
    beside = Path(sys.executable).parent / "calabresella"
    return str(beside) if beside.exists() else shutil.which("calabresella") or "calabresella"


def listening(port: int, process: subprocess.Popen[Any], seconds: float = 30.0) -> bool:
    """Whether `process` comes to listen on loopback `port` within `seconds` (False: it stopped, or took longer)."""
    deadline = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def timed_raw_insert(ledger: Path, target: Path) -> float:
    """Seconds for `raw_insert` of the rows of `ledger` (read beforehand, not timed) into `target`."""
    rows = rows_of(ledger)
    start = time.perf_counter()
    raw_insert(ledger, target, rows)
    return time.perf_counter() - start


if __name__ == "__main__":
    print(timed_raw_insert(Path(sys.argv[1]), Path(sys.argv[2])))


def cpu_seconds(pid: int) -> float:
    """The processor time process `pid` has used so far, user and system, from /proc (Linux); OSError when it is
    gone."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
