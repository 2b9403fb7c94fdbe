"""A command that only reads makes no ledger: a mistyped `--db` says there is none there (and which ledger file of
that folder was probably meant), and a first `standings` on a new machine says there is no ledger yet; nothing is
written either way. A command that records makes the ledger, as before."""

from __future__ import annotations

from pathlib import Path

from cli_support import Ran, calabresella

from ledger import Ledger


def run(*args: str, home: Path | None = None) -> Ran:
    env = {"CALABRESELLA_LANG": "en", "COLUMNS": "200"}
    if home is not None:
        env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"))
    return calabresella(*args, env=env)


def test_a_mistyped_ledger_is_named_and_nothing_is_made(tmp_path: Path) -> None:
    with Ledger(str(tmp_path / "ledger.sqlite3")) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"])
    before = sorted(p.name for p in tmp_path.iterdir())
    for command in (["standings"], ["deals"], ["evening", "list"], ["stats"], ["tab"], ["export"], ["paid", "--list"]):
        ran = run("--db", str(tmp_path / "ledgr.sqlite3"), *command)
        assert ran.returncode == 2, (command, ran.stderr)
        wrong, meant = tmp_path / "ledgr.sqlite3", tmp_path / "ledger.sqlite3"
        assert ran.stderr == f"Error: --db '{wrong}': no ledger there; did you mean {meant}?\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_reading_before_anything_is_recorded_says_how_to_start(tmp_path: Path) -> None:
    ran = run("standings", home=tmp_path)
    assert ran.returncode == 2
    assert ran.stderr.startswith("Error: no ledger at ") and ran.stderr.endswith(
        " yet: start one with: calabresella evening start --players Anna,Bruno,Carla\n"
    )
    assert not any(tmp_path.rglob("*.sqlite3")), "a read made a ledger"
    started = run("evening", "start", "--players", "Anna,Bruno,Carla", home=tmp_path)
    assert started.returncode == 0, started.stderr
    assert run("standings", home=tmp_path).returncode == 0
