"""A ledger whose file and folder are read-only (a read-only disk, a copy handed round) opens for the reading
commands, and a write is refused in one line. Root writes through file permissions, so the folder is a read-only
bind mount here, which root cannot write either."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cli_support import Ran, calabresella
from typer.testing import CliRunner

from ledger import Ledger
from ledger.cli.main import app
from ledger.values import Terms


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """(a writable folder, the same folder mounted read-only)."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("a read-only bind mount needs root")
    source, target = tmp_path / "source", tmp_path / "read-only"
    source.mkdir()
    target.mkdir()
    if not _mount("--bind", str(source), str(target)):
        pytest.skip("this machine does not allow bind mounts")
    try:
        if not _mount("-o", "remount,bind,ro", str(target)):
            pytest.skip("this machine does not allow read-only remounts")
        yield source, target
    finally:
        subprocess.run(["umount", str(target)], capture_output=True)


def _run(*args: str, input: str | None = None) -> Ran:
    return calabresella(*args, input=input)


def test_the_reading_commands_read_a_read_only_ledger_and_a_write_is_one_line(read_only: tuple[Path, Path]) -> None:
    source, target = read_only
    with Ledger(str(source / "ledger.sqlite3")) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(stake="0.10"))
        ledger.record("bruno solo 22")
    files = sorted(p.name for p in source.iterdir())
    db = str(target / "ledger.sqlite3")
    with pytest.raises(OSError):
        (target / "probe").touch()
    standings = _run("--db", db, "standings", "--json")
    assert standings.returncode == 0, standings.stderr
    assert '"Bruno": 4' in standings.stdout
    for command in (["deals"], ["evening", "list"], ["stats"], ["export", "--format", "csv"], ["settle"]):
        ran = _run("--db", db, *command)
        assert ran.returncode == 0 and "Bruno" in ran.stdout, (command, ran.stderr)
    record = _run("--db", db, "record", "anna solo 20")
    assert record.returncode == 2 and "Traceback" not in record.stderr
    assert record.stderr.strip().splitlines() == [
        f"Error: the ledger sqlite:///{db} cannot be written: its folder {target} is read-only; nothing was written"
    ]
    play = _run("--db", db, "play", input="anna solo 20\n")
    assert play.returncode == 2 and play.stdout == ""
    assert play.stderr == f"Error: nothing can be recorded in this ledger: its folder {target} is read-only\n"
    assert sorted(p.name for p in source.iterdir()) == files


def test_deals_still_in_the_write_ahead_log_are_read_too(read_only: tuple[Path, Path]) -> None:
    """A program that stopped without closing the ledger leaves its last deals in the -wal file beside it."""
    source, target = read_only
    left = f"""
import os
from ledger import Ledger
ledger = Ledger({str(source / "ledger.sqlite3")!r})
ledger.start_evening(["Anna", "Bruno", "Carla"])
ledger.record("bruno solo 22")
os._exit(0)
"""
    subprocess.run([sys.executable, "-c", left], check=True, timeout=60)
    assert (source / "ledger.sqlite3-wal").stat().st_size > 0
    ran = _run("--db", str(target / "ledger.sqlite3"), "standings", "--json")
    assert ran.returncode == 0, ran.stderr
    assert '"Bruno": 4' in ran.stdout


def test_an_export_into_a_read_only_folder_is_one_line(read_only: tuple[Path, Path], tmp_path: Path) -> None:
    source, target = read_only
    db = tmp_path / "ledger.sqlite3"
    with Ledger(str(db)) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"])
    out = target / "ledger.jsonl"
    done = CliRunner().invoke(app, ["--db", str(db), "export", "--out", str(out)], env={"COLUMNS": "200"})
    assert done.exit_code == 2, done.stderr
    assert done.stderr == f"Error: --out '{out}': cannot write it (Read-only file system)\n"
    assert not any(source.iterdir())


def test_a_server_started_on_a_read_only_ledger_records_once_its_folder_is_writable(
    read_only: tuple[Path, Path],
) -> None:
    source, target = read_only
    with Ledger(str(source / "ledger.sqlite3")) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"])
    sys.path.insert(0, str(Path(__file__).parent))
    from test_serve import serving
    from test_web_support import BEARER

    with serving(str(target / "ledger.sqlite3")) as (base, _process), httpx.Client(base_url=base) as client:
        refused = client.post("/api/evenings/1/deals", json={"line": "anna solo 22"}, headers=BEARER)
        assert refused.status_code == 503
        assert _mount("-o", "remount,bind,rw", str(target))
        deadline = time.monotonic() + 10
        while (
            sent := client.post("/api/evenings/1/deals", json={"line": "anna solo 22"}, headers=BEARER)
        ).status_code != 201:
            assert sent.status_code == 503 and time.monotonic() < deadline, sent.text
            time.sleep(0.5)
        assert client.get("/api/evenings/1").json()["revision"] == 1
    with Ledger(str(source / "ledger.sqlite3")) as ledger:
        assert [deal.declarer for deal in ledger.deals(1)[1]] == ["Anna"]
