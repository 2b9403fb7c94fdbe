"""A voided evening says so wherever it is shown whole: on its page (for a viewer and for the scorekeeper, in the live
part each change swaps in), at the top of its report, and before its deals in `calabresella deals`, piped too, with
the same sentence as its standings, in the reader's language; the reason as typed, escaped in HTML. An evening that
counts says nothing of the kind."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from cli_support import calabresella
from conftest import copy_ledger, ready_to_copy
from test_web_support import TestClient, scorekeeper, viewer

from ledger import Ledger
from ledger.values import Terms

PLAYERS = ("Anna", "Bruno", "Carla")
REASON = "<b>x</b> [rosso] the demo"
ESCAPE = "\x1b["
PLAIN = {"COLUMNS": "120", "NO_COLOR": None, "FORCE_COLOR": None, "TERM": "dumb"}
SAID = {
    "en": "Evening {number} voided ({reason}): it counts nowhere.",
    "it": "Serata {number} annullata ({reason}): non conta da nessuna parte.",
}
BROWSER = {"en": "en", "it": "it-IT,it;q=0.9"}
VOIDED, COUNTS, EMPTY = 1, 2, 3


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real SQLite ledger: evening 1 with two deals, closed and voided with markup in its reason; evening 2 with two
    deals, open and counting; evening 3 with no deal, voided."""
    db = tmp_path_factory.mktemp("voided-shown") / "ledger.sqlite3"
    with Ledger(str(db)) as ledger:
        for number in (VOIDED, COUNTS, EMPTY):
            ledger.start_evening(PLAYERS, Terms(stake="0.10"))
            if number != EMPTY:
                for line in ("bruno solo 22", "anna solo 20"):
                    ledger.record(line, evening=number)
        ledger.close_evening(VOIDED)
        ledger.void_evening(VOIDED, reason=REASON)
        ledger.void_evening(EMPTY, reason=REASON)
    return ready_to_copy(db)


@pytest.fixture
def db(made: Path, tmp_path: Path) -> str:
    return str(copy_ledger(made, tmp_path))


def said(language: str, number: int = VOIDED) -> str:
    return SAID[language].format(number=number, reason=REASON)


def in_html(language: str, number: int = VOIDED) -> str:
    """The sentence as a page carries it: the reason's markup escaped."""
    return SAID[language].format(number=number, reason=html.escape(REASON))


def nothing_voided(text: str) -> None:
    assert "voided (" not in text and "annullata (" not in text
    assert "counts nowhere" not in text and "non conta da nessuna parte" not in text
    assert 'class="evening-voided"' not in text


# The evening page


def page(phone: TestClient, number: int, language: str) -> str:
    answer = phone.get(f"/evenings/{number}", headers={"Accept-Language": BROWSER[language]})
    assert answer.status_code == 200, answer.text
    return answer.text


def first_event(phone: TestClient, number: int, language: str) -> str:
    """The live part the first event of the evening's stream carries: what the page swaps in."""
    shown = ""
    with phone.stream("GET", f"/evenings/{number}/events", headers={"Accept-Language": BROWSER[language]}) as answer:
        for text in answer.iter_text():
            shown += text
            if found := re.search(r"event: evening\nid: \d+\n((?:data: .*\n)+)\n", shown):
                return "\n".join(line[6:] for line in found.group(1).splitlines())
    raise AssertionError(f"the stream ended with no event: {shown!r}")


@pytest.mark.parametrize("language", list(SAID))
def test_a_voided_evenings_page_says_it_under_its_heading(db: str, language: str) -> None:
    with viewer(db, stream_seconds=5.0) as phone:
        text, live = page(phone, VOIDED, language), first_event(phone, VOIDED, language)
    assert text.count(in_html(language)) == 1
    assert REASON not in text, "the reason's markup is shown, not read"
    heading, line, turn = text.index("<h1>"), text.index(in_html(language)), text.index('class="turn"')
    assert heading < line < turn, "under the heading, before the rest of the evening"
    assert in_html(language) in live, "the live part says it too: a phone watching when it is voided is told"


@pytest.mark.parametrize("language", list(SAID))
def test_the_scorekeeper_is_told_as_well(db: str, language: str) -> None:
    with scorekeeper(db) as phone:
        text = page(phone, VOIDED, language)
    assert text.count(in_html(language)) == 1
    assert REASON not in text


@pytest.mark.parametrize("language", list(SAID))
def test_an_evening_that_counts_has_a_page_that_says_nothing_of_the_kind(db: str, language: str) -> None:
    with viewer(db) as phone:
        nothing_voided(page(phone, COUNTS, language))


# The report


def report(db: str, number: int, language: str, tmp_path: Path) -> str:
    out = tmp_path / f"evening-{number}-{language}.html"
    ran = calabresella("--lang", language, "--db", db, "report", "-e", str(number), "--out", str(out))
    assert ran.returncode == 0, ran.stderr
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("language", list(SAID))
def test_a_voided_evenings_report_says_it_at_the_top(db: str, language: str, tmp_path: Path) -> None:
    text = report(db, VOIDED, language, tmp_path)
    assert text.count(in_html(language)) == 1
    assert REASON not in text
    assert text.index("</h1>") < text.index(in_html(language)) < text.index('class="meta"')


@pytest.mark.parametrize("language", list(SAID))
def test_the_report_of_an_evening_that_counts_says_nothing_of_the_kind(db: str, language: str, tmp_path: Path) -> None:
    nothing_voided(report(db, COUNTS, language, tmp_path))


@pytest.mark.parametrize("language", list(SAID))
def test_a_voided_evenings_report_names_no_winner_and_settles_nothing(db: str, language: str, tmp_path: Path) -> None:
    """Its standings stay, as what was played; a winner and payments would say it counts."""
    voided, counts = report(db, VOIDED, language, tmp_path), report(db, COUNTS, language, tmp_path)
    for marker in ('class="winner-line"', 'id="settlement"', 'class="badge"', '<tr class="winner">'):
        assert marker not in voided and marker in counts
    assert 'id="standings"' in voided


# `calabresella deals`


def deals(db: str, number: int, language: str) -> list[str]:
    """The lines `calabresella --lang LANGUAGE --db DB deals -e NUMBER` prints, piped."""
    ran = calabresella("--lang", language, "--db", db, "deals", "-e", str(number), env=PLAIN)
    assert ran.returncode == 0, ran.stderr
    assert ESCAPE not in ran.stdout, "piped output has no colour: the words alone must say it"
    return ran.stdout.splitlines()


@pytest.mark.parametrize("language", list(SAID))
def test_a_voided_evenings_deals_say_it_first(db: str, language: str) -> None:
    lines = deals(db, VOIDED, language)
    assert lines[0] == said(language)
    assert lines.count(said(language)) == 1
    assert any("Anna solo" in line for line in lines[1:]), "its deals follow"


@pytest.mark.parametrize("language", list(SAID))
def test_a_voided_evening_without_deals_says_it_too(db: str, language: str) -> None:
    assert deals(db, EMPTY, language)[0] == said(language, EMPTY)


@pytest.mark.parametrize("language", list(SAID))
def test_the_deals_of_an_evening_that_counts_say_nothing_of_the_kind(db: str, language: str) -> None:
    lines = deals(db, COUNTS, language)
    nothing_voided("\n".join(lines))
    assert any("Anna solo" in line for line in lines)
