"""RULES §8: a pot of passed deals still waiting when an evening closes stays on the table for the same players' next
evening (whatever options it changes), unless the table drops it when closing. Worked by hand in each test with
tretre (pot_carryover on): the declarer +2 and each opponent -1 per unit, the unit multiplied by one more than the
passed deals in a row."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import as_document

from ledger import Ledger

ABC = ["Anna", "Bruno", "Carla"]


def test_a_waiting_pot_rides_on_the_first_played_deal_of_the_tables_next_evening(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, profile="tretre").number
        ledger.record("anna chiamo 20t", evening=first)  # +2 -1 -1: no pot
        ledger.record("pass", evening=first)
        ledger.record("pass", evening=first)
        closed, _ = ledger.close_evening(first)
        assert closed.pot_out == 2
        second = ledger.start_evening(["Carla", "Anna", "Bruno"], profile="tretre")  # the same three, in a new order
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
        assert ledger.start_evening(ABC, profile="tretre").pot_in == 0


def test_a_pot_dropped_at_closing_or_a_different_table_takes_nothing(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, profile="tretre").number
        ledger.record("pass", evening=first)
        closed, _ = ledger.close_evening(first, drop_pot=True)
        assert closed.pot_out == 0
        assert ledger.start_evening(ABC, profile="tretre").pot_in == 0
        second = ledger.start_evening(ABC, profile="tretre").number
        ledger.record("pass", evening=second)
        ledger.close_evening(second)
        # other players or another game: not the same table
        assert ledger.start_evening(["Anna", "Bruno", "Dario"], profile="tretre").pot_in == 0
        assert ledger.start_evening(ABC, profile="pagat").pot_in == 0
        assert ledger.start_evening(ABC, profile="tretre").pot_in == 1


def test_the_tables_next_evening_takes_the_pot_whatever_options_it_changes(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        first = ledger.start_evening(ABC, profile="tretre").number
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        second = ledger.start_evening(ABC, profile="tretre", options=["game_to=21", "sweeps=on"])
        assert (second.pot_in, second.pot_from) == (1, first)


def test_corrections_in_the_next_evening_count_the_pot_taken_in(sqlite_url: str) -> None:
    with Ledger(sqlite_url) as ledger:
        first = ledger.start_evening(ABC, profile="tretre").number
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        second = ledger.start_evening(ABC, profile="tretre").number
        ledger.record("pass", evening=second)
        ledger.record("anna chiamo 20t", evening=second)  # 1 carried in + 1 passed here: x3, Anna +6
        assert ledger.standings(second).points == {"Anna": 6, "Bruno": -3, "Carla": -3}
        ledger.void(1, reason="it was played", evening=second)  # only the pot carried in is left: x2, Anna +4
        assert ledger.standings(second).points == {"Anna": 4, "Bruno": -2, "Carla": -2}


def test_the_pot_goes_out_and_comes_back_with_an_export(sqlite_url: str, tmp_path: Path) -> None:
    with Ledger(sqlite_url) as ledger:
        first = ledger.start_evening(ABC, profile="tretre").number
        ledger.record("pass", evening=first)
        ledger.close_evening(first)
        ledger.start_evening(ABC, profile="tretre")
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
