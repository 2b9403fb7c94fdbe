"""The count as made at the table (aces, figures, last trick) wherever thirds are accepted."""

from __future__ import annotations

import pytest
from said import raises_said
from typer.testing import CliRunner

from ledger.cli.main import app
from ledger.rules.build import DealInput, build_facts
from ledger.rules.contracts import Side
from ledger.rules.count import parse_count
from ledger.rules.profiles import make_profile
from ledger.rules.quick import parse_answer, parse_quick_line

ABC = ("Anna", "Bruno", "Carla")
PAGAT = make_profile()
runner = CliRunner()


@pytest.mark.parametrize(
    ("text", "thirds", "last"),
    [
        ("2a+10f+last", 19, True),
        ("2a10f+u", 19, True),
        ("2 assi + 10 figure + ultima", 19, True),
        ("2A+10F", 16, False),
        ("10f2a", 16, False),
        ("4a20f+u", 35, True),
        ("0a0f", 0, False),
        ("u", 3, True),
        ("3 aces + 5 figures", 14, False),
    ],
)
def test_a_count_gives_thirds_and_who_took_the_last_trick(text: str, thirds: int, last: bool) -> None:
    count = parse_count(text)
    assert count.thirds == thirds
    assert count.last_trick is (Side.DECLARER if last else Side.OPPONENTS)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5a", "5 aces, but the deck has 4"),
        ("21f", "21 figures, but the deck has 20"),
        ("2a+3a", "the aces are written once"),
        ("u+u", "the last trick is written once"),
        ("2x", "write aces, figures and the last trick"),
        ("", "write aces"),
    ],
)
def test_a_count_beyond_the_deck_is_refused(text: str, message: str) -> None:
    with raises_said(message):
        parse_count(text)


@pytest.mark.parametrize("line", ["bruno solo 2a10f+u", "bruno solo c=2a+10f+last", "bruno solo count=2a10f+u"])
def test_the_quick_line_takes_a_count(line: str) -> None:
    typed = parse_quick_line(line, ABC, PAGAT).deal
    facts = build_facts(typed, PAGAT, ABC, "Carla")
    assert (facts.thirds, facts.last_trick) == (19, Side.DECLARER)


def test_play_points_question_takes_a_count() -> None:
    assert parse_answer("thirds", "2a10f+u", ABC, PAGAT) == DealInput(count="2a10f+u")


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (DealInput(declarer="Bruno", contract="solo", count="2a10f", thirds=16), "thirds and count both say it"),
        (
            DealInput(declarer="Bruno", contract="solo", count="2a10f", last_trick="declarer"),
            "the count lacks the last trick, but the last trick went to the declarer",
        ),
        (DealInput(declarer="Bruno", contract="solo", count="5a"), "5 aces, but the deck has 4"),
    ],
)
def test_a_count_that_contradicts_the_deal_is_refused(typed: DealInput, message: str) -> None:
    with raises_said(message):
        build_facts(typed, PAGAT, ABC, "Carla")


def test_score_shows_the_thirds_a_count_gives() -> None:
    result = runner.invoke(
        app,
        ["score", "--players", "Anna,Bruno,Carla", "-d", "Bruno", "-c", "solo", "--count", "2a+10f+last"],
        env={"COLUMNS": "120"},
    )
    assert result.exit_code == 0, result.output
    assert "count 2a+10f+last: 2 aces x 3 + 10 figures + last trick 3 = 19 thirds" in result.output
    assert "Bruno solo: 19 thirds (6+1/3), won" in result.output


def test_amend_with_a_count_replaces_the_thirds_and_the_last_trick(tmp_path: object) -> None:
    db = str(tmp_path) + "/ledger.sqlite3"  # type: ignore[operator]
    for args in (
        ["evening", "start", "--players", "Anna,Bruno,Carla"],
        ["record", "bruno solo 4 last=decl"],
        ["amend", "1", "--count", "2a10f", "-r", "recount"],
    ):
        result = runner.invoke(app, ["--db", db, *args], env={"COLUMNS": "120"})
        assert result.exit_code == 0, result.output
    assert "Bruno solo: 16 thirds (5+1/3), lost" in result.output
