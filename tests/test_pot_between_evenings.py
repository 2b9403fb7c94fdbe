"""RULES §8: a pot of passed deals still waiting when an evening closes stays on the table for the same players' next
evening (whatever options it changes), unless the table drops it when closing. Worked by hand in each test with
tretre (pot_carryover on): the declarer +2 and each opponent -1 per unit, the unit multiplied by one more than the
passed deals in a row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import as_document

from ledger import Ledger
from ledger.errors import LedgerError
from ledger.rules.build import DealInput
from ledger.values import Terms

ABC = ["Anna", "Bruno", "Carla"]


def test_a_waiting_pot_rides_on_the_first_played_deal_of_the_tables_next_evening(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("anna chiamo 20t", evening=first)  # +2 -1 -1: no pot
        ledger.record("pass", evening=first)
        ledger.record("pass", evening=first)
        closed = ledger.close_evening(first).evening
        assert closed.pot_out == 2
        second = ledger.start_evening(
            ["Carla", "Anna", "Bruno"], Terms(profile="tretre")
        )  # the same three, in a new order
        assert (second.pot_in, second.pot_from) == (2, first)
        # two passed deals carried in: the first played deal counts 1 + 2 = 3 times: Bruno +6, the others -3
        done = ledger.record("bruno chiamo 20t", evening=second.number)
        assert dict(done.deal.payouts) == {"Carla": -3, "Anna": -3, "Bruno": 6}
        assert done.deal.passed_before == 2
        # the pot is spent: the next deal counts once
        assert dict(ledger.record("anna chiamo 20t", evening=second.number).deal.payouts) == {
            "Carla": -1,
            "Anna": 2,
            "Bruno": -1,
        }
        # a third evening of the same table takes nothing: the pot went to the second
        assert ledger.start_evening(ABC, Terms(profile="tretre")).pot_in == 0


def test_a_pot_dropped_at_closing_or_a_different_table_takes_nothing(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        closed = ledger.close_evening(first, drop_pot=True).evening
        assert closed.pot_out == 0
        assert ledger.start_evening(ABC, Terms(profile="tretre")).pot_in == 0
        second = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=second)
        ledger.close_evening(second)
        # other players or another game: not the same table
        assert ledger.start_evening(["Anna", "Bruno", "Dario"], Terms(profile="tretre")).pot_in == 0
        assert ledger.start_evening(ABC, Terms(profile="pagat")).pot_in == 0
        assert ledger.start_evening(ABC, Terms(profile="tretre")).pot_in == 1


def test_the_tables_next_evening_takes_the_pot_whatever_options_it_changes(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        second = ledger.start_evening(ABC, Terms(profile="tretre", options=["game_to=21", "sweeps=on"]))
        assert (second.pot_in, second.pot_from) == (1, first)


def test_corrections_in_the_next_evening_count_the_pot_taken_in(sqlite_url: str) -> None:
    with Ledger(sqlite_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        second = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=second)
        ledger.record("anna chiamo 20t", evening=second)  # 1 carried in + 1 passed here: x3, Anna +6
        assert ledger.standings(second).points == {"Anna": 6, "Bruno": -3, "Carla": -3}
        ledger.void(1, reason="it was played", evening=second)  # only the pot carried in is left: x2, Anna +4
        assert ledger.standings(second).points == {"Anna": 4, "Bruno": -2, "Carla": -2}


def test_the_pot_goes_out_and_comes_back_with_an_export(sqlite_url: str, tmp_path: Path) -> None:
    with Ledger(sqlite_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        ledger.start_evening(ABC, Terms(profile="tretre"))
        exported = ledger.export()
    evenings = as_document(exported)["evenings"]
    assert [(e["pot_in"], e["pot_from"], e["pot_out"]) for e in evenings] == [(0, None, 1), (1, 1, 0)]
    (tmp_path / "pot.jsonl").write_text(exported, encoding="utf-8")
    with Ledger(str(tmp_path / "again.sqlite3")) as again:
        again.import_file(tmp_path / "pot.jsonl")
        assert again.export() == exported
        assert json.loads(again.export().splitlines()[2])["evening"]["pot_from"] == 1


def test_closing_and_starting_say_where_the_pot_goes(sqlite_url: str) -> None:
    from typer.testing import CliRunner

    from ledger.cli.main import app

    def run(*args: str) -> str:
        result = CliRunner().invoke(app, ["--db", sqlite_url, *args], env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        return result.stdout

    run("evening", "start", "--players", "Anna,Bruno,Carla", "-P", "tretre")
    run("record", "--passed")
    run("record", "--passed")
    assert "The pot of 2 passed deals goes to the same table's next evening." in run("evening", "close")
    started = run("evening", "start", "--players", "Anna,Bruno,Carla", "-P", "tretre")
    assert "The pot of 2 passed deals left waiting by evening 1 rides on the first played deal." in started


def test_a_voided_evenings_pot_rides_on_nothing(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        ledger.void_evening(first, reason="a practice evening")
        second = ledger.start_evening(ABC, Terms(profile="tretre"))
        assert (second.pot_in, second.pot_from) == (0, None)
        done = ledger.record("anna solo 22", evening=second.number)
        assert dict(done.deal.payouts) == {"Anna": 2, "Bruno": -1, "Carla": -1}


def test_the_next_evening_looks_past_a_voided_one_to_the_pot_waiting(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        second = ledger.start_evening(ABC, Terms(profile="tretre")).number  # takes the pot, then is voided whole
        ledger.void_evening(second, reason="started by mistake")
        third = ledger.start_evening(ABC, Terms(profile="tretre"))
        assert (third.pot_in, third.pot_from) == (1, first)
        # the void of the second evening can no longer be taken back: the pot would count twice
        with pytest.raises(LedgerError, match="pot it took from evening 1 went on to evening 3"):
            ledger.undo(evening=second)


def test_the_very_next_evening_takes_the_pot_even_without_pot_carryover(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        second = ledger.start_evening(ABC, Terms(profile="tretre", options=["pot_carryover=off"]))
        assert (second.pot_in, second.pot_from) == (1, first)
        ledger.record("pass", evening=second.number)  # its own passed deal carries nothing over
        done = ledger.record("bruno solo 22", evening=second.number)
        assert dict(done.deal.payouts) == {"Anna": -2, "Bruno": 4, "Carla": -2}  # x2: the pot taken in only
        ledger.close_evening(second.number)
        third = ledger.start_evening(ABC, Terms(profile="tretre"))
        assert third.pot_in == 0
        assert dict(ledger.record("bruno solo 22", evening=third.number).deal.payouts) == {
            "Anna": -1,
            "Bruno": 2,
            "Carla": -1,
        }


def test_a_pot_taken_in_and_never_played_goes_on_at_the_close(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        second = ledger.start_evening(ABC, Terms(profile="tretre", options=["pot_carryover=off"])).number
        ledger.record("pass", evening=second)
        closed = ledger.close_evening(second).evening
        assert closed.pot_out == 2  # the two taken in; its own passed deal carries nothing over
        third = ledger.start_evening(ABC, Terms(profile="tretre"))
        assert (third.pot_in, third.pot_from) == (2, second)
        assert dict(ledger.record("bruno solo 22", evening=third.number).deal.payouts) == {
            "Anna": -3,
            "Bruno": 6,
            "Carla": -3,
        }


def test_voiding_an_evening_whose_pot_a_later_one_took_is_refused(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        second = ledger.start_evening(ABC, Terms(profile="tretre")).number
        revision = ledger.evening(first).revision
        with pytest.raises(LedgerError, match=r"evening 1 cannot be voided: .* went on to evening 2"):
            ledger.void_evening(first, reason="a mistake")
        assert ledger.evening(first).revision == revision
        # once the later evening is voided itself, the earlier one may be voided and reopened again
        ledger.void_evening(second, reason="started by mistake")
        ledger.reopen_evening(first, reason="a deal was left out")
        assert ledger.evening(first).closed_at is None


def test_the_void_of_an_evening_whose_pot_no_longer_waits_cannot_be_taken_back(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        second = ledger.start_evening(ABC, Terms(profile="tretre")).number  # takes the pot of 1
        ledger.void_evening(second, reason="started by mistake")
        ledger.reopen_evening(first, reason="a deal was left out")  # the pot comes back to evening 1
        ledger.record("anna solo 22", evening=first)  # and rides on this deal
        revision = ledger.evening(second).revision
        with pytest.raises(LedgerError, match="the pot it took from evening 1 no longer waits as it did"):
            ledger.undo(evening=second)
        assert ledger.evening(second).revision == revision and ledger.evening(second).voided_at is not None


def test_taking_back_a_reopening_closes_the_evening_as_it_was(db_url: str) -> None:
    """A pot dropped at the close stays dropped when the reopening is taken back; one left waiting waits again."""
    with Ledger(db_url) as ledger:
        for drop, waiting in ((True, 0), (False, 1)):
            number = ledger.start_evening(ABC, Terms(profile="tretre")).number
            ledger.record("pass", evening=number)
            ledger.close_evening(number, drop_pot=drop)
            ledger.reopen_evening(number, reason="a look")
            assert ledger.undo(evening=number).taken_back.kind == "reopen"
            assert ledger.evening(number).pot_out == waiting


def test_a_reopening_keeps_its_pot_through_an_export(sqlite_url: str, tmp_path: Path) -> None:
    with Ledger(sqlite_url) as ledger:
        number = ledger.start_evening(ABC, Terms(profile="tretre")).number
        ledger.record("pass", evening=number)
        ledger.close_evening(number, drop_pot=True)
        ledger.reopen_evening(number, reason="a look")
        exported = ledger.export()
    assert as_document(exported)["evenings"][0]["reopened"][0]["pot_out"] == 0
    (tmp_path / "reopened.jsonl").write_text(exported, encoding="utf-8")
    with Ledger(str(tmp_path / "again.sqlite3")) as again:
        again.import_file(tmp_path / "reopened.jsonl")
        assert again.export() == exported
        again.undo(evening=1)
        assert again.evening(1).pot_out == 0


def test_a_passed_deal_amended_to_the_same_passed_deal_after_its_pot_moved_is_refused(tmp_path: Path) -> None:
    """The model test's find (200 sequences of 60 steps): deal 1 amended to passed moves the pot the later deals carry,
    which re-scores the played ones only; deal 2, passed, then "amended" to passed again was written as a revision of
    nothing but its pot count."""
    with Ledger(str(tmp_path / "ledger.sqlite3")) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(options={"pot_carryover": True}))
        ledger.record("anna solo 22")
        ledger.record("pass")
        ledger.amend(1, DealInput(passed=True), reason="misdeal")
        with pytest.raises(LedgerError, match="these are the facts it has already"):
            ledger.amend(2, DealInput(passed=True), reason="misdeal")
        assert [deal.revision for deal in ledger.deals(1)[1]] == [2, 1]
