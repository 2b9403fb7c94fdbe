"""A ledger the database refuses to write (a read-only file, a lock held elsewhere): one line, exit 2, nothing
written."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.cli.main import app

runner = CliRunner()
ENV = {"CALABRESELLA_DB": None, "COLUMNS": "200"}


@pytest.fixture
def ledger_file(tmp_path: Path) -> Path:
    """A ledger with an open evening of Anna, Bruno, Carla."""
    db = tmp_path / "ledger.sqlite3"
    started = runner.invoke(app, ["--db", str(db), "evening", "start", "--players", "Anna,Bruno,Carla"], env=ENV)
    assert started.exit_code == 0
    return db


def _deals(db: Path) -> int:
    connection = sqlite3.connect(db)
    try:
        return connection.execute("SELECT count(*) FROM deal").fetchone()[0]
    finally:
        connection.close()


@pytest.fixture
def read_only(ledger_file: Path) -> Iterator[Path]:
    """The ledger file made read-only: immutable for root (who ignores permissions), else without write bits."""
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(ledger_file)], capture_output=True).returncode:
            pytest.skip("cannot make a file read-only for root here (no chattr)")
        yield ledger_file
        subprocess.run(["chattr", "-i", str(ledger_file)], check=True)
    else:
        ledger_file.chmod(0o444)
        yield ledger_file
        ledger_file.chmod(0o644)


def test_a_read_only_ledger_is_one_line_and_reads_still_work(read_only: Path) -> None:
    result = runner.invoke(app, ["--db", str(read_only), "record", "anna solo 20"], env=ENV)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"Error: the ledger sqlite:///{read_only} is read-only")
    assert runner.invoke(app, ["--db", str(read_only), "deals"], env=ENV).exit_code == 0
    assert _deals(read_only) == 0


def test_a_lock_held_by_another_program_says_so(ledger_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ledger.store.engine.BUSY_TIMEOUT_MS", 50)
    other = sqlite3.connect(ledger_file, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        result = runner.invoke(app, ["--db", str(ledger_file), "record", "anna solo 20"], env=ENV)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: the ledger sqlite:///{ledger_file} is locked by another program: nothing was written; try again\n"
    )
    assert _deals(ledger_file) == 0
