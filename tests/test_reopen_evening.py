"""A closed evening can be reopened with a reason, from the command line, the API and the phone: it takes deals again,
the close it undid stays in the log (and in an export), and a pot of passed deals is never counted twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import Ran, calabresella
from test_web_support import BEARER, csrf, scorekeeper, start, viewer

from ledger import Ledger
from ledger.errors import LedgerError
from ledger.store.engine import open_ledger, transaction
from ledger.store.models import EveningReopen
from ledger.values import Terms


def run(db: Path, *args: str) -> Ran:
    return calabresella(*args, env={"CALABRESELLA_LANG": "en", "COLUMNS": "200", "CALABRESELLA_DB": str(db)})


def test_close_reopen_record_on_the_command_line(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    for args in (("evening", "start", "--players", "Marco,Luca,Giulia"), ("record", "luca solo 7+1/3")):
        assert run(db, *args).returncode == 0
    assert run(db, "evening", "close").returncode == 0
    unexplained = run(db, "evening", "reopen", "1")
    assert unexplained.returncode == 2 and unexplained.stderr == (
        "Error: reopen evening 1: why? e.g. 'a deal was left out' (--reason TEXT)\n"
    )
    reopened = run(db, "evening", "reopen", "1", "--reason", "a deal was left out")
    assert reopened.returncode == 0 and reopened.stdout.startswith("Evening 1 is open again (a deal was left out)")
    assert run(db, "record", "giulia solo 8").returncode == 0
    again = run(db, "evening", "reopen", "1", "--reason", "twice")
    assert again.returncode == 2 and again.stderr == "Error: evening 1 is open already\n"
    standings = json.loads(run(db, "standings", "--json").stdout)
    assert standings["points"] == {"Marco": -4, "Luca": 2, "Giulia": 2} and standings["closed"] is False
    with transaction(open_ledger(str(db))) as session:
        (log,) = session.exec(EveningReopen.__table__.select()).all()  # type: ignore[attr-defined]
    assert log.reason == "a deal was left out" and log.closed_at <= log.reopened_at


def test_reopen_through_the_api(db_url: str) -> None:
    start(db_url)
    with viewer(db_url) as phone:
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        phone.post("/api/evenings/1/close", headers=BEARER)
        assert phone.post("/api/evenings/1/reopen", json={}, headers=BEARER).json()["missing"] == "reason"
        opened = phone.post("/api/evenings/1/reopen", json={"reason": "left out"}, headers=BEARER)
        assert opened.status_code == 200 and opened.json()["closed_at"] is None
        assert phone.post("/api/evenings/1/deals", json={"line": "anna solo 22"}, headers=BEARER).status_code == 201


def test_a_voided_evening_and_a_pot_gone_on_stay_closed(tmp_path: Path) -> None:
    with Ledger(str(tmp_path / "l.sqlite3")) as ledger:
        voided = ledger.start_evening(["Anna", "Bruno", "Carla"]).number
        ledger.void_evening(voided, reason="the demo")
        with pytest.raises(LedgerError, match="was voided whole \\(the demo\\): it cannot be reopened"):
            ledger.reopen_evening(voided, reason="x")
        first = ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        assert ledger.close_evening(first).evening.pot_out == 1
        waiting = ledger.reopen_evening(first, reason="one more deal")  # its pot comes back: nobody took it
        assert waiting.pot_out == 0
        ledger.close_evening(first)
        second = ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(profile="tretre"))
        assert (second.pot_in, second.pot_from) == (1, first)
        with pytest.raises(LedgerError, match=f"pot of its passed deals went on to evening {second.number}"):
            ledger.reopen_evening(first, reason="again")
        assert ledger.evening(first).closed


def test_the_reopenings_go_through_an_export(tmp_path: Path) -> None:
    with Ledger(str(tmp_path / "a.sqlite3")) as ledger:
        number = ledger.start_evening(["Anna", "Bruno", "Carla"]).number
        ledger.record("anna solo 22t", evening=number)
        ledger.close_evening(number)
        ledger.reopen_evening(number, reason="a deal was left out")
        ledger.close_evening(number)
        exported = ledger.export()
    evening = json.loads(exported.splitlines()[1])["evening"]  # the header, then an evening a line
    assert [r["reason"] for r in evening["reopened"]] == ["a deal was left out"]
    target = tmp_path / "export.jsonl"
    target.write_text(exported, encoding="utf-8")
    with Ledger(str(tmp_path / "b.sqlite3")) as copy:
        copy.import_file(target)
        assert copy.export() == exported


def test_reopen_on_the_phone_needs_the_form_token(db_url: str) -> None:
    start(db_url)
    with Ledger(db_url) as ledger:
        ledger.close_evening(1)
    with scorekeeper(db_url) as phone:
        token = csrf(phone, "/evenings/1/settle")
        assert phone.post("/evenings/1/reopen", data={"reason": "left out"}).status_code == 403
        assert (
            phone.post("/evenings/1/reopen", data={"reason": "left out", "csrf": "0" * len(token)}).status_code == 403
        )
        with Ledger(db_url) as ledger:
            assert ledger.evening(1).closed
        assert phone.post("/evenings/1/reopen", data={"reason": "left out", "csrf": token}).status_code == 303
    with Ledger(db_url) as ledger:
        assert not ledger.evening(1).closed
