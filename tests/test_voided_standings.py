"""The standings of a voided evening say so in words, on a line of their own, before its figures and again after them,
with the reason given when it was voided, in the reader's language and in piped output (no colour); their JSON carries
`voided` and `void_reason`, as the API answers them. The standings of an evening that counts say nothing of the kind."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_support import calabresella
from conftest import copy_ledger, ready_to_copy
from test_web_support import viewer

from ledger import Ledger
from ledger.values import Terms

PLAYERS = ("Anna", "Bruno", "Carla")
ESCAPE = "\x1b["
PLAIN = {"COLUMNS": "120", "NO_COLOR": None, "FORCE_COLOR": None, "TERM": "dumb"}
SAID = {
    "en": "Evening {number} voided ({reason}): it counts nowhere.",
    "it": "Serata {number} annullata ({reason}): non conta da nessuna parte.",
}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real SQLite ledger: evening 1 closed and voided as the demo, evening 2 open and counting, evening 3 voided
    with brackets in its reason."""
    db = tmp_path_factory.mktemp("voided") / "ledger.sqlite3"
    with Ledger(str(db)) as ledger:
        for number in (1, 2, 3):
            ledger.start_evening(PLAYERS, Terms(stake="0.10"))
            for line in ("bruno solo 22", "anna solo 20"):
                ledger.record(line, evening=number)
        ledger.close_evening(1)
    for number, reason in ((1, "the demo"), (3, "[rosso] a test")):
        ran = calabresella("--db", str(db), "evening", "void", str(number), "--reason", reason)
        assert ran.returncode == 0, ran.stderr
    return ready_to_copy(db)


@pytest.fixture
def db(made: Path, tmp_path: Path) -> str:
    return str(copy_ledger(made, tmp_path))


def shown(db: str, *args: str, language: str = "en") -> list[str]:
    """The lines `calabresella --lang LANGUAGE --db DB standings ARGS...` prints, piped."""
    ran = calabresella("--lang", language, "--db", db, "standings", *args, env=PLAIN)
    assert ran.returncode == 0, ran.stderr
    assert ESCAPE not in ran.stdout, "piped output has no colour: the words alone must say it"
    return ran.stdout.splitlines()


@pytest.mark.parametrize("language", list(SAID))
def test_a_voided_evenings_standings_say_it_first_and_last(db: str, language: str) -> None:
    lines = shown(db, "-e", "1", language=language)
    said = SAID[language].format(number=1, reason="the demo")
    assert lines[0] == said
    assert lines[-1] == said
    assert lines.count(said) == 2
    assert any("+4" in line for line in lines), "its own figures are still shown"


@pytest.mark.parametrize("language", list(SAID))
def test_the_reason_is_shown_as_typed(db: str, language: str) -> None:
    lines = shown(db, "-e", "3", language=language)
    assert lines[0] == SAID[language].format(number=3, reason="[rosso] a test")


@pytest.mark.parametrize("language", list(SAID))
def test_an_evening_that_counts_says_nothing_of_the_kind(db: str, language: str) -> None:
    text = "\n".join(shown(db, "-e", "2", language=language))
    assert "voided" not in text
    assert "annullata" not in text


def printed(db: str, *args: str) -> Any:
    ran = calabresella("--db", db, *args, "--json", env={"COLUMNS": "200"})
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


@pytest.fixture
def api(db: str) -> Iterator[Any]:
    with viewer(db) as phone:
        yield phone


@pytest.mark.parametrize(("number", "reason"), [(1, "the demo"), (2, None), (3, "[rosso] a test")])
def test_the_json_says_whether_it_is_voided_as_the_api_does(db: str, api: Any, number: int, reason: str | None) -> None:
    cli = printed(db, "standings", "-e", str(number))
    response = api.get(f"/api/evenings/{number}/standings")
    assert response.status_code == 200, response.text
    assert cli == response.json()
    assert cli["voided"] is (reason is not None)
    assert cli["void_reason"] == reason
    assert (cli["voided_at"] is None) is (reason is None)
    assert cli["settlement"] is None, "evening 2 is open, 1 and 3 are voided: none is settled"


@pytest.mark.parametrize("language", list(SAID))
def test_voiding_says_the_same_words(db: str, language: str) -> None:
    ran = calabresella("--lang", language, "--db", db, "evening", "void", "2", "--reason", "[x] wrong table", env=PLAIN)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [SAID[language].format(number=2, reason="[x] wrong table")]
    assert shown(db, "-e", "2", language=language)[0] == ran.stdout.splitlines()[0]
