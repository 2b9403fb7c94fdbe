"""A ledger the database refuses to write (a read-only file, a lock held elsewhere, a full disk): one line in the
reader's words, exit 2, nothing written."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError
from typer.testing import CliRunner

from ledger.cli.main import app
from ledger.i18n import speaking
from ledger.store.engine import refusal

runner = CliRunner()
ENV = {"CALABRESELLA_DB": None, "COLUMNS": "200"}
ITALIAN = {**ENV, "CALABRESELLA_LANG": "it"}


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
    assert result.stderr == f"Error: the ledger sqlite:///{read_only} is read-only: nothing was written\n"
    assert runner.invoke(app, ["--db", str(read_only), "deals"], env=ENV).exit_code == 0
    assert _deals(read_only) == 0


def test_a_read_only_ledger_is_refused_in_italian_words_only(read_only: Path) -> None:
    result = runner.invoke(app, ["--db", str(read_only), "record", "anna solo 20"], env=ITALIAN)
    assert result.exit_code == 2
    assert result.stderr == f"Errore: il registro sqlite:///{read_only} è in sola lettura: non è stato scritto nulla\n"
    assert _deals(read_only) == 0


def test_a_file_that_is_no_database_is_refused_in_italian_words_only(tmp_path: Path) -> None:
    (tmp_path / "Università").mkdir()
    junk = tmp_path / "Università" / "junk.sqlite3"  # named as written, the accent not escaped
    junk.write_bytes(bytes(range(256)) * 16)
    result = runner.invoke(app, ["--db", str(junk), "deals"], env=ITALIAN)
    assert result.exit_code == 2
    assert result.stderr == (
        f"Errore: sqlite:///{junk}: non si apre come database del registro: il file non è un database\n"
    )


def test_a_full_disk_is_named_and_the_database_s_own_text_kept_only_for_the_unknown(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'small.sqlite3'}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE filler (x TEXT)"))
    refused = []
    with engine.connect() as connection:
        connection.execute(text("PRAGMA max_page_count = 3"))  # the file may not grow: SQLite says the disk is full
        for statement in ("INSERT INTO filler VALUES (zeroblob(100000))", "INSERT INTO nowhere VALUES (1)"):
            with pytest.raises(DBAPIError) as raised:
                connection.execute(text(statement))
            refused.append(raised.value)
    engine.dispose()
    full, unknown = refused
    assert "database or disk is full" in str(full.orig) and "no such table: nowhere" in str(unknown.orig)
    with speaking("it"):
        assert (
            str(refusal(full, "x.sqlite3"))
            == "il registro x.sqlite3 non si può scrivere, forse il disco è pieno: non è stato scritto nulla"
        )
        assert str(refusal(unknown, "x.sqlite3")) == (
            "x.sqlite3: non si apre come database del registro (no such table: nowhere)"
        )
    with speaking("en"):
        assert (
            str(refusal(full, "x.sqlite3"))
            == "the ledger x.sqlite3 cannot be written, its disk may be full: nothing was written"
        )


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
