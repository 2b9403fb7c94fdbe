"""Names are never mathematics: a player named `$\\frac{a}{$` (any `$...$`) is drawn as typed in every chart and in
the report, through the command line (in process) and the phone's report and charts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_web_support import start, viewer
from typer.testing import CliRunner

from ledger import Ledger
from ledger.cli.main import app

HOSTILE = ("$\\frac{a}{$", "Bruno", "$x^2$ Carla")
LINES = ("bruno solo 22", "bruno solo 12", "pass")


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def ledger(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The hostile names' evening, on each backend, made once for the module's tests (which only read it)."""
    if request.param == "sqlite":
        url = str(tmp_path_factory.mktemp("literal") / "ledger.sqlite3")
        shutil.copyfile(request.getfixturevalue("sqlite_template"), url)
    else:
        url = request.getfixturevalue("new_pg_database")()
    start(url, HOSTILE)
    with Ledger(url) as book:
        for line in LINES:
            book.record(line)
    return url


@pytest.mark.parametrize("kind", ["running", "money", "contracts", "thirds", "pairings"])
def test_the_chart_command_draws_a_dollar_name_as_typed(ledger: str, kind: str, tmp_path: Path) -> None:
    out = tmp_path / f"{kind}.svg"
    result = CliRunner().invoke(app, ["--db", ledger, "chart", kind, "--evening", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    if kind in ("running", "money", "pairings"):
        assert "$\\frac{a}{$" in svg and "$x^2$ Carla" in svg


def test_the_report_command_writes_a_dollar_name_as_typed(ledger: str, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(app, ["--db", ledger, "report", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "$\\frac{a}{$" in out.read_text(encoding="utf-8")


def test_the_phones_report_and_charts_answer_with_a_dollar_name(ledger: str) -> None:
    with viewer(ledger) as phone:
        report, page = phone.get("/evenings/1/report"), phone.get("/evenings/1/charts")
        assert report.status_code == 200 and "$\\frac{a}{$" in report.text
        assert page.status_code == 200 and "$\\frac{a}{$" in page.text
        for kind in ("running", "money", "pairings"):
            image = phone.get(f"/evenings/1/charts/{kind}.png")
            assert image.status_code == 200 and image.headers["content-type"] == "image/png"
