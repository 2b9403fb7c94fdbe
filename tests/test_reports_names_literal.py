"""Names are never mathematics: a player named `$\\frac{a}{$` (any `$...$`) is drawn as typed in every chart and in
the report, through the command line (in process: the report and its charts, a chart) and the phone's report and
charts."""

from __future__ import annotations

import base64
import re
import shutil
import xml.etree.ElementTree as ET
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


@pytest.fixture(scope="module")
def report(ledger: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The report the command writes, its charts drawn into it: once for the tests that read it."""
    out = tmp_path_factory.mktemp("report") / "report.html"
    result = CliRunner().invoke(app, ["--db", ledger, "report", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_the_report_command_writes_a_dollar_name_as_typed(report: str) -> None:
    assert "$\\frac{a}{$" in report


@pytest.mark.parametrize("kind", ["running", "money", "contracts", "thirds", "pairings"])
def test_every_chart_of_the_report_draws_a_dollar_name_as_typed(report: str, kind: str) -> None:
    drawn = re.search(f'<figure id="chart-{kind}">.*?src="data:image/svg\\+xml;base64,([^"]+)"', report)
    assert drawn, f"no {kind} chart in the report"
    svg = base64.b64decode(drawn.group(1)).decode("utf-8")
    assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"
    if kind in ("running", "money", "pairings"):
        assert "$\\frac{a}{$" in svg and "$x^2$ Carla" in svg


def test_the_chart_command_draws_a_dollar_name_as_typed(ledger: str, tmp_path: Path) -> None:
    out = tmp_path / "running.svg"
    result = CliRunner().invoke(app, ["--db", ledger, "chart", "running", "--evening", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert "$\\frac{a}{$" in svg and "$x^2$ Carla" in svg


def test_the_phones_report_and_charts_answer_with_a_dollar_name(ledger: str) -> None:
    with viewer(ledger) as phone:
        report, page = phone.get("/evenings/1/report"), phone.get("/evenings/1/charts")
        assert report.status_code == 200 and "$\\frac{a}{$" in report.text
        assert page.status_code == 200 and "$\\frac{a}{$" in page.text
        for kind in ("running", "money", "pairings"):
            image = phone.get(f"/evenings/1/charts/{kind}.png")
            assert image.status_code == 200 and image.headers["content-type"] == "image/png"
