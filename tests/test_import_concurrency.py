"""A scorekeeper recording while a large import runs waits for one batch of the import, not for all of it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from cli_support import calabresella
from sqlalchemy import text

from ledger.store.engine import open_ledger

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from workload import calabresella as installed
from workload import write_export

DEALS = 20_000
"""Enough for several batches (some five here) whatever the machine: they are cut by time. The scorekeeper records
after the first, and waits for the second at most: the later ones must be still to come, on a machine twice as fast
too."""


def deals_in(db: Path) -> int:
    """The deals in the file, read straight from it: at once, so that on a busy machine the scorekeeper records as soon
    as the import's first batch is in, with its later batches still to come (they are cut by time: there are as
    many)."""
    connection = sqlite3.connect(db)
    try:
        return connection.execute("SELECT COUNT(*) FROM deal").fetchone()[0]
    finally:
        connection.close()


def deals_written_after_evening_one(db: Path) -> int:
    """How many deals were written after the one recorded into evening 1 (the evening the import did not bring)."""
    engine = open_ledger(str(db))
    try:
        with engine.connect() as connection:
            return connection.execute(
                text("SELECT COUNT(*) FROM deal WHERE id > (SELECT MAX(id) FROM deal WHERE evening_id = 1)")
            ).scalar_one()
    finally:
        engine.dispose()


def test_record_during_an_import_is_not_kept_waiting(tmp_path: Path) -> None:
    db, source = tmp_path / "ledger.sqlite3", tmp_path / "big.json"
    total = write_export(source, DEALS)
    assert calabresella("--db", str(db), "evening", "start", "--players", "Anna,Bruno,Carla").returncode == 0
    importing = subprocess.Popen(
        [installed(), "--db", str(db), "import", str(source)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        while deals_in(db) == 0:
            assert importing.poll() is None, importing.communicate()[1].decode()
            time.sleep(0.01)
        start = time.perf_counter()
        record = calabresella(
            "--db", str(db), "record", "--evening", "1", "--declarer", "Bruno", "--contract", "solo", "--thirds", "22"
        )
        waited = time.perf_counter() - start
    finally:
        out, err = importing.communicate(timeout=600)
    after = deals_written_after_evening_one(db)
    print(f"record during the import took {waited:.2f} s; the import wrote {after:,} deals after it")
    assert record.returncode == 0, record.stderr
    assert importing.returncode == 0, err
    assert after > 0, "the deal went in only once the import was done"
    assert deals_in(db) == total + 1
    assert out.decode().startswith(f"imported {total // 30:,} evenings ({total:,} deals)")
