"""One JSON shape per thing: for every resource both give, the command line's `--json` and the API print the same
value's JSON, compared parsed. A read is asked of the same ledger both ways; a write is made the same way on two copies
of one ledger, and the two answers differ only in their fresh times. A deal's words (its explanation, why it was
amended or voided) come in the reader's language both ways."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_support import calabresella
from conftest import copy_ledger, ready_to_copy
from test_web_support import BEARER, viewer

from ledger import Ledger
from ledger.values import Terms

PLAYERS = ("Anna", "Bruno", "Carla")
CLUB = "Anna,Bruno,Carla,Dario,Elena,Franco"
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00")
ITALIAN, ENGLISH = {"Accept-Language": "it"}, {"Accept-Language": "en"}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger with a closed evening (a deal amended, one voided, one passed), an open one (a deal taken back by
    undo, one voided by hand), a payment, a season, a club night with its first round seated and a deal played, and
    another club night."""
    db = tmp_path_factory.mktemp("made") / "ledger.sqlite3"
    with Ledger(str(db)) as ledger:
        ledger.start_evening(PLAYERS, Terms(stake="0.10", place="Bar Sport"))
        for line in ("bruno solo 22", "pass", "carla chiamo 3D@anna 17 last=opp", "anna solo 20"):
            ledger.record(line, evening=1)
        ledger.amend(1, "20", reason="recount", evening=1)
        ledger.void(4, reason="misdeal", evening=1)
        ledger.close_evening(1)
        ledger.start_evening(PLAYERS, Terms(stake="0.05"))
        for line in ("anna solo 25", "bruno solo 20", "carla solo 24"):
            ledger.record(line, evening=2)
        ledger.undo(evening=2)
        ledger.void(1, reason="carte date male", evening=2)
        ledger.paid("Bruno", "Anna", "0.20")
        ledger.club.start_season("Autumn")
        ledger.club.start_event("Friday", CLUB.split(","), Terms(stake="0.10"), season="Autumn")
        seated = ledger.club.seat_round(1, seed=7)
        ledger.record("pass", evening=seated.rounds[0].tables[0].evening)
        ledger.club.start_event("Sunday", CLUB.split(",")[:3], Terms())
    return ready_to_copy(db)


@pytest.fixture
def db(made: Path, tmp_path: Path) -> str:
    """A copy of the ledger for one test."""
    return str(copy_ledger(made, tmp_path))


@pytest.fixture
def api(db: str) -> Iterator[Any]:
    """The API of a server on the test's ledger."""
    with viewer(db) as phone:
        yield phone


def printed(db: str, *args: str) -> Any:
    """What `calabresella --db DB ARGS... --json` prints, parsed."""
    ran = calabresella("--db", db, *args, "--json", env={"COLUMNS": "200"})
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


def answered(phone: Any, path: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> Any:
    """The API's answer to a GET (or, with a body, a POST with the server's token), parsed."""
    if body is None:
        response = phone.get(f"/api{path}", headers=headers)
    else:
        response = phone.post(f"/api{path}", json=body, headers={**BEARER, **(headers or {})})
    assert response.status_code in (200, 201), response.text
    return response.json()


def fresh_times_aside(value: Any) -> Any:
    """The JSON with every time written `TIME`: two writes made alike differ in their times only."""
    if isinstance(value, dict):
        return {key: fresh_times_aside(item) for key, item in value.items()}
    if isinstance(value, list):
        return [fresh_times_aside(item) for item in value]
    return "TIME" if isinstance(value, str) and TIME.fullmatch(value) else value


READS = {
    "an evening": (("evening", "show", "1"), "/evenings/1"),
    "an open evening": (("evening", "show", "2"), "/evenings/2"),
    "the evenings": (("evening", "list"), "/evenings"),
    "a page of the evenings": (("evening", "list", "--before", "2", "--limit", "1"), "/evenings?before=2&limit=1"),
    "standings of a closed evening": (("standings", "-e", "1"), "/evenings/1/standings"),
    "standings of an open evening": (("standings", "-e", "2"), "/evenings/2/standings"),
    "an evening's deals": (("deals", "-e", "1"), "/evenings/1/deals"),
    "deals amended, voided and undone": (("deals", "-e", "2"), "/evenings/2/deals"),
    "a deal and its revisions": (("deal", "show", "1", "-e", "1"), "/evenings/1/deals/1"),
    "a deal taken back": (("deal", "show", "3", "-e", "2"), "/evenings/2/deals/3"),
    "the settlement": (("settle", "-e", "1"), "/evenings/1/settlement"),
    "an event": (("event", "show", "1"), "/events/1"),
    "the events": (("event", "list"), "/events"),
    "a page of the events": (("event", "list", "--before", "3", "--limit", "1"), "/events?before=3&limit=1"),
    "a season": (("season", "show", "Autumn"), "/seasons/Autumn"),
}


@pytest.mark.parametrize("name", list(READS))
def test_a_read_prints_what_the_api_answers(name: str, db: str, api: Any) -> None:
    command, path = READS[name]
    assert printed(db, *command) == answered(api, path)


@pytest.mark.parametrize("name", ["a deal and its revisions", "deals amended, voided and undone", "a deal taken back"])
def test_a_deal_says_its_words_in_the_readers_language_both_ways(name: str, db: str, api: Any) -> None:
    command, path = READS[name]
    italian, english = printed(db, "--lang", "it", *command), printed(db, "--lang", "en", *command)
    assert italian == answered(api, path, headers=ITALIAN)
    assert english == answered(api, path, headers=ENGLISH) != italian
    deals = italian.get("deals") or italian["revisions"]
    assert all("avversario" in deal["explanation"] for deal in deals)


def test_a_deal_taken_back_says_so_in_words(db: str, api: Any) -> None:
    taken = printed(db, "--lang", "it", "deal", "show", "3", "-e", "2")["revisions"][0]
    assert (taken["voided"], taken["void_cause"], taken["void_reason"]) == (True, "undo", "ritirata")


def test_a_deals_change_log_is_the_apis_for_that_deal(db: str, api: Any) -> None:
    shown = printed(db, "deal", "show", "1", "-e", "1")
    assert [change["kind"] for change in shown["changes"]] == ["record", "amend"]
    assert shown["changes"] == answered(api, "/evenings/1/changes?deal=1")["changes"]


WRITES = {
    "recording a deal": (("record", "bruno solo 22", "-e", "2"), "/evenings/2/deals", {"line": "bruno solo 22"}),
    "amending it": (
        ("amend", "2", "-t", "25", "-r", "recount", "-e", "2"),
        "/evenings/2/deals/2/amend",
        {"thirds": 25, "reason": "recount"},
    ),
    "voiding it": (("void", "2", "-r", "misdeal", "-e", "2"), "/evenings/2/deals/2/void", {"reason": "misdeal"}),
    "undoing": (("undo", "-e", "2", "--revision", "5"), "/evenings/2/undo", {"seen_revision": 5}),
    "closing an evening": (("evening", "close", "2"), "/evenings/2/close", {}),
    "voiding an evening": (("evening", "void", "2", "-r", "the demo"), "/evenings/2/void", {"reason": "the demo"}),
    "reopening an evening": (
        ("evening", "reopen", "1", "-r", "left out"),
        "/evenings/1/reopen",
        {"reason": "left out"},
    ),
    "starting an evening": (
        ("evening", "start", "--players", "Anna,Bruno,Carla,Dario", "--stake", "0.10", "--place", "Bar Sport"),
        "/evenings",
        {"players": ["Anna", "Bruno", "Carla", "Dario"], "stake": "0.10", "place": "Bar Sport"},
    ),
    "starting an event": (
        ("event", "start", "Saturday", "--players", CLUB, "--deals", "4", "--season", "Autumn"),
        "/events",
        {"name": "Saturday", "players": CLUB.split(","), "round_deals": 4, "season": "Autumn"},
    ),
    "seating a round": (("event", "seat", "1", "--seed", "3"), "/events/1/rounds", {"seed": 3}),
    "ending a round": (("event", "round", "1", "--end"), "/events/1/rounds/end", {}),
    "closing an event": (("event", "close", "1"), "/events/1/close", {}),
    "starting a season": (
        ("season", "start", "Winter", "--min-deals", "5"),
        "/seasons",
        {"name": "Winter", "min_deals": 5},
    ),
}


@pytest.mark.parametrize("name", list(WRITES))
def test_a_write_prints_what_the_api_answers(name: str, made: Path, tmp_path: Path) -> None:
    command, path, body = WRITES[name]
    by_command, by_api = (str(copy_ledger(made, tmp_path, f"{side}.sqlite3")) for side in ("command", "api"))
    written = printed(by_command, *command)
    with viewer(by_api) as phone:
        assert fresh_times_aside(written) == fresh_times_aside(answered(phone, path, body))
