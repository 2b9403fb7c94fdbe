"""The list of evenings comes in pages, newest first, with a way to the older ones: `Ledger.evening_page`, the page
`/evenings?before=N`, `GET /api/evenings?before=N&limit=M` (the page and `next`, and a `Link` to it) and
`evening list --before N --limit M`, whose `--json` is the API's answer. The club nights' list too, each line read as
the list shows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import calabresella
from conftest import copy_ledger
from test_web_support import viewer

from ledger import Ledger
from ledger.errors import LedgerError
from ledger.values import PAGE, Terms

EVENINGS = 7


@pytest.fixture(scope="module")
def seven(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> str:
    """A ledger of seven evenings (the third voided, the last open), made once for the module's reads."""
    db = str(copy_ledger(sqlite_template, tmp_path_factory.mktemp("seven")))
    with Ledger(db) as ledger:
        for number in range(1, EVENINGS + 1):
            ledger.start_evening(("Anna", "Bruno", "Carla"), Terms(stake="0.10", place=f"Bar {number}"))
            ledger.record("bruno solo 22", evening=number)
            if number == 3:
                ledger.void_evening(number, reason="a test")
            elif number < EVENINGS:
                ledger.close_evening(number)
    return db


def test_a_page_of_evenings_and_where_the_older_ones_begin(seven: str) -> None:
    with Ledger(seven) as ledger:
        newest = ledger.evening_page(limit=3)
        assert [e.number for e in newest.evenings] == [7, 6, 5] and newest.next == 5
        older = ledger.evening_page(before=newest.next, limit=3)
        assert [e.number for e in older.evenings] == [4, 3, 2] and older.next == 2
        last = ledger.evening_page(before=older.next, limit=3)
        assert [e.number for e in last.evenings] == [1] and last.next is None
        assert ledger.evening_page(limit=7).next is None and ledger.evening_page(before=1).evenings == ()
        lines = [*newest.evenings, *older.evenings, *last.evenings]
        assert lines == list(ledger.evening_page().evenings)
        every = ledger.evenings()
        for line, whole in zip(lines, every, strict=True):
            assert {name: value for name, value in whole.to_dict().items() if name in line.to_dict()} == line.to_dict()
        assert [line.voided for line in lines] == [False] * 4 + [True, False, False] and lines[0].closed is False
        assert lines[1].rules == every[1].rules and lines[1].place == "Bar 6"


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ({"limit": 0}, "limit 0: a whole number from 1 to 500"),
        ({"limit": 501}, "limit 501: a whole number from 1 to 500"),
        ({"before": 0}, "before 0: a whole number, 1 or more"),
        ({"before": 2**31}, "before 2147483648: too large"),
    ],
)
def test_a_page_asked_for_wrong_is_one_line(seven: str, asked: dict[str, int], said: str) -> None:
    with Ledger(seven) as ledger, pytest.raises(LedgerError) as refused:
        ledger.evening_page(**asked)
    assert str(refused.value) == said


def test_the_list_page_links_to_the_older_evenings_and_back(seven: str) -> None:
    with viewer(seven) as phone:
        newest = phone.get("/evenings?limit=3").text
        assert [f'href="/evenings/{n}"' in newest for n in range(1, 8)] == [False] * 4 + [True] * 3
        assert 'href="/evenings?before=5&amp;limit=3"' in newest and "The newest evenings" not in newest
        older = phone.get("/evenings?before=5&limit=3").text
        assert [f'href="/evenings/{n}"' in older for n in range(1, 8)] == [False, True, True, True, False, False, False]
        assert 'href="/evenings?before=2&amp;limit=3"' in older and 'href="/evenings">The newest evenings' in older
        assert "Older evenings" not in phone.get("/evenings").text  # seven evenings: one page of fifty
        assert "No evenings before evening 1." in phone.get("/evenings?before=1").text
        refused = phone.get("/evenings?before=abc")
        assert refused.status_code == 422 and "before &#39;abc&#39;: a whole number, 1 or more" in refused.text


def test_the_api_answers_a_page_and_the_next(seven: str) -> None:
    with viewer(seven) as phone:
        first = phone.get("/api/evenings?limit=4")
        assert [e["evening"] for e in first.json()["evenings"]] == [7, 6, 5, 4] and first.json()["next"] == 4
        assert first.headers["link"] == '</api/evenings?before=4&limit=4>; rel="next"'
        rest = phone.get("/api/evenings?before=4&limit=4")
        assert [e["evening"] for e in rest.json()["evenings"]] == [3, 2, 1] and rest.json()["next"] is None
        assert (
            "link" not in rest.headers and rest.json()["evenings"][0]["voided"] and rest.json()["evenings"][1]["closed"]
        )
        assert set(rest.json()["evenings"][1]) == {
            "evening",
            "players",
            "profile",
            "options",
            "stake_cents",
            "currency",
            "place",
            "started_at",
            "closed_at",
            "closed",
            "revision",
            "voided",
            "voided_at",
            "void_reason",
        }
        assert len(phone.get("/api/evenings").json()["evenings"]) == EVENINGS
        for query, said in (
            ("limit=x1", "limit 'x1': a whole number, 1 or more"),
            ("limit=900", "limit 900: a whole number from 1 to 500"),
        ):
            refused = phone.get(f"/api/evenings?{query}")
            assert (refused.status_code, refused.json()["error"]) == (422, said)


def test_evening_list_pages_and_prints_the_api_s_answer(seven: str) -> None:
    listed = calabresella("--db", seven, "evening", "list", "--limit", "4", env={"COLUMNS": "200"})
    assert listed.returncode == 0 and "Older evenings: calabresella evening list --before 4 --limit 4" in listed.stdout
    assert "Bar 4" in listed.stdout and "Bar 3" not in listed.stdout
    older = calabresella("--db", seven, "evening", "list", "--before", "4", env={"COLUMNS": "200"})
    assert "Bar 3" in older.stdout and "Bar 4" not in older.stdout and "Older evenings" not in older.stdout
    as_json = calabresella("--db", seven, "evening", "list", "--before", "6", "--limit", "2", "--json")
    with viewer(seven) as phone:
        assert json.loads(as_json.stdout) == phone.get("/api/evenings?before=6&limit=2").json()
    assert json.loads(as_json.stdout)["next"] == 4
    assert "No evenings before evening 1." in calabresella("--db", seven, "evening", "list", "--before", "1").stdout
    refused = calabresella("--db", seven, "evening", "list", "--limit", "0")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--limit" in refused.stderr
    assert PAGE == 50


def test_the_club_nights_come_in_pages_as_the_list_shows_them(db_url: str) -> None:
    """On both databases, as the evenings of the tables they seat."""
    players = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")
    with Ledger(db_url) as ledger:
        ledger.club.start_season("Autumn")
        for number in range(1, 4):
            ledger.club.start_event(f"Night {number}", players[: 2 + number], season="Autumn" if number == 2 else None)
        ledger.club.seat_round(3, seed=1)
        ledger.club.close_event(1)
        newest = ledger.club.event_page(limit=2)
        assert [(e.number, e.players, e.rounds, e.closed) for e in newest.events] == [
            (3, 5, 1, False),
            (2, 4, 0, False),
        ]
        assert newest.next == 2 and newest.events[1].season == "Autumn"
        last = ledger.club.event_page(before=2, limit=2)
        assert [(e.name, e.closed, e.season) for e in last.events] == [("Night 1", True, None)] and last.next is None
        tables = ledger.evening_page(limit=1)  # the round's one table of four, Fabio left out
        assert [(e.number, e.players) for e in tables.evenings] == [(1, ledger.evening(1).players)] and not tables.next
        assert ledger.evening_page(before=1).evenings == () and len(tables.evenings[0].players) == 4
    with viewer(db_url) as phone:
        page = phone.get("/events?limit=2").text
        assert "Night 3" in page and "5 players · 1 round" in page and "Night 1" not in page
        assert 'href="/events?before=2&amp;limit=2">Older club nights' in page
        older = phone.get("/events?before=2&limit=2").text
        assert "Night 1" in older and "Night 2" not in older and 'href="/events">The newest club nights' in older
        answer = phone.get("/api/events?limit=1")
        assert [e["event"] for e in answer.json()["events"]] == [3] and answer.json()["next"] == 3
        assert answer.headers["link"] == '</api/events?before=3&limit=1>; rel="next"'
        refused = phone.get("/api/events?before=-1")
        assert (refused.status_code, refused.json()["error"]) == (422, "before '-1': a whole number, 1 or more")
