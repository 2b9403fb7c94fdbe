"""First use: the README's first command keeps the demo apart from the user's own evenings, an evening recorded by
mistake can be voided whole (it stays in the log and counts nowhere), and the demo never ends in a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cli_support import Ran, calabresella
from test_web_support import BEARER, start, viewer

from ledger import Ledger
from ledger.values import Terms


def run(*args: str, home: Path, cwd: Path | None = None) -> Ran:
    env = {
        "CALABRESELLA_LANG": "en",
        "COLUMNS": "200",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
    }
    return calabresella(*args, env=env, cwd=cwd)


def test_the_readme_demo_leaves_the_default_ledger_untouched(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    demo = run("demo", home=home, cwd=work)
    assert demo.returncode == 0, demo.stderr
    assert f"in sqlite:///{work / 'calabresella-demo' / 'demo.sqlite3'}" in demo.stdout
    listed = run("evening", "list", "--json", home=home, cwd=work)
    assert listed.returncode == 0 and json.loads(listed.stdout) == {"evenings": [], "next": None}
    assert not list((home / ".local").rglob("*.sqlite3")), "the demo wrote into the default ledger"
    again = run("demo", home=home, cwd=work)  # the demo's own ledger already holds it: recorded once
    assert "is already evening 1 of this ledger" in again.stdout


def test_the_demo_in_a_folder_it_cannot_make_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    ran = run("demo", "--out", str(blocker / "demo"), home=tmp_path)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert ran.stderr.count("\n") == 1 and ran.stderr.startswith(
        f"Error: --out {blocker / 'demo'}: cannot write into it"
    )


def test_an_evening_voided_whole_stays_in_the_log_and_counts_nowhere(
    sqlite_url: str, sqlite_template: Path, tmp_path: Path
) -> None:
    db = sqlite_url
    with Ledger(db) as ledger:
        real = ledger.start_evening(["Paolo", "Sandro", "Ugo"], Terms(stake="0.10")).number
        ledger.record("paolo solo 22t", evening=real)  # Paolo +4, the others -2
        ledger.close_evening(real)
        mistake = ledger.start_evening(["Paolo", "Sandro", "Ugo"], Terms(stake="0.10")).number
        ledger.record("sandro solo 33t", evening=mistake)  # Sandro +12 by stramazzo: must count nowhere
    ran = run("--db", db, "evening", "void", str(mistake), "--reason", "a test", home=tmp_path)
    assert ran.returncode == 0 and "Evening 2 voided (a test): it counts nowhere." in ran.stdout
    with Ledger(db) as ledger:
        assert [e.voided_at is not None for e in ledger.evenings()] == [True, False]
        (tab,) = ledger.tab()
        assert dict(tab.balances) == {"Paolo": 40, "Sandro": -20, "Ugo": -20}
        assert list(ledger.settle().evenings) == [real]
        players = {row["player"]: row["deals"] for row in ledger.stats().table("players").rows}
        assert players == {"Paolo": 1, "Sandro": 1, "Ugo": 1}
        assert ledger.standings(mistake).points == {"Paolo": -6, "Sandro": 12, "Ugo": -6}  # still in the log
        exported = ledger.export()
    listed = run("--db", db, "evening", "list", home=tmp_path).stdout
    assert "void: a test" in listed
    refused = run("--db", db, "record", "-e", str(mistake), "paolo solo 22t", home=tmp_path)
    assert refused.returncode == 2 and "is voided (a test): it counts nowhere" in refused.stderr
    settle = run("--db", db, "settle", "-e", str(mistake), home=tmp_path)
    assert settle.returncode == 2 and "--evening 2: voided (a test): it counts nowhere" in settle.stderr
    assert run("--db", db, "evening", "void", "1", home=tmp_path).stderr == (
        "Error: void evening 1: why? e.g. 'the demo, not a real evening' (--reason TEXT)\n"
    )
    (tmp_path / "x.jsonl").write_text(exported, encoding="utf-8")
    shutil.copyfile(sqlite_template, tmp_path / "again.sqlite3")
    with Ledger(str(tmp_path / "again.sqlite3")) as again:
        again.import_file(tmp_path / "x.jsonl")
        assert again.export() == exported


def test_an_evening_is_voided_through_the_api(db_url: str) -> None:
    start(db_url)
    with viewer(db_url) as phone:
        refused = phone.post("/api/evenings/1/void", json={}, headers=BEARER)
        assert refused.status_code == 422 and refused.json()["missing"] == "reason"
        done = phone.post("/api/evenings/1/void", json={"reason": "by mistake"}, headers=BEARER)
        assert done.status_code == 200 and done.json()["voided"] and done.json()["void_reason"] == "by mistake"
        assert phone.post("/api/evenings/1/void", json={"reason": "again"}).status_code == 401
