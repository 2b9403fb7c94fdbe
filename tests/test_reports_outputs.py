"""Charts, the evening report and the reporting commands, on a real SQLite ledger.

Evening 1 (pagat, 0.10 EUR) seats Anna, a player called `<script>alert(1)</script>` (Bruno) and Carla:
  1 Bruno solo 22: +4 to Bruno, -2 each; 2 Carla chiamo 3D held by Anna, 17: Carla -2, +1 each;
  3 voided ("<b>misdeal</b>"); 4 Anna solissimo dividete 24: Anna +16, -8 each.
Totals: Anna +15, Bruno -3, Carla -12; settlement: Carla pays Anna 1.20 EUR, Bruno pays Anna 0.30 EUR.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from ledger.cli.app import new_app
from ledger.cli.reporting import register
from ledger.errors import LedgerError
from ledger.recording import record as record_deal
from ledger.recording import void as void_deal
from ledger.reports import charts
from ledger.reports.filters import Filters
from ledger.reports.frames import Frames, load_frames
from ledger.rules.build import DealInput
from ledger.store.engine import open_ledger, transaction
from ledger.store.evenings import start_evening
from ledger.values import Terms

BRUNO = "<script>alert(1)</script>"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> str:
    path = str(tmp_path_factory.mktemp("outputs") / "t.sqlite3")
    shutil.copyfile(sqlite_template, path)
    engine = open_ledger(path)
    with transaction(engine) as s:
        table = start_evening(
            s, ("Anna", BRUNO, "Carla"), Terms(stake="0.10", place="Bar <i>Sport</i>"), note="R&D night"
        )
        record_deal(s, table, DealInput(declarer=BRUNO, contract="solo", thirds=22))
        record_deal(s, table, DealInput(declarer="Carla", contract="chiamo", called="3D", holder="Anna", thirds=17))
        record_deal(s, table, DealInput(declarer="Anna", contract="solo", thirds=30, last_trick="declarer"))
        void_deal(s, table, 3, "<b>misdeal</b>")
        record_deal(s, table, DealInput(declarer="Anna", contract="solissimo", aggravation="dividete", thirds=24))
    engine.dispose()
    return path


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    """The real root app once `register` is wired into it; until then an app of our own."""
    from ledger.cli.main import app as root

    if any((c.name or c.callback.__name__) == "stats" for c in root.registered_commands if c.callback):
        return root
    own = new_app("calabresella", "Reports under test.")
    register(own)
    return own


@pytest.fixture(scope="module")
def frames(ledger: str) -> Frames:
    """The frames of the whole ledger, read once for the charts drawn from them."""
    engine = open_ledger(ledger)
    try:
        return load_frames(engine, Filters())
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def report_file(app: typer.Typer, ledger: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The evening's report as the command writes it: drawn once for every test that reads it."""
    page_file = tmp_path_factory.mktemp("report") / "evening.html"
    code, out, _ = _run(app, ledger, "report", "--evening", "1", "--out", str(page_file))
    assert code == 0 and out == f"Wrote {page_file}\n"
    return page_file


@pytest.fixture(scope="module")
def page(report_file: Path) -> str:
    """The report's HTML."""
    return report_file.read_text(encoding="utf-8")


def _run(app: typer.Typer, ledger: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"CALABRESELLA_DB": ledger, "COLUMNS": "160"})
    return result.exit_code, result.stdout, result.stderr


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_MAGIC and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("kind", list(charts.KINDS))
def test_every_chart_as_png_and_svg(frames: Frames, kind: str) -> None:
    png = charts.chart_image(kind, frames, "png")
    assert _png_size(png) == (960, 720)
    svg = charts.chart_image(kind, frames, "svg").decode()
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert texts.strip(), "titles and labels are kept as text"
    if kind in ("running", "money", "pairings"):  # the long name cut as every chart cuts it, escaped all the same
        assert "Anna" in texts and charts.short_names((BRUNO,))[BRUNO] in texts and "Carla" in texts


def test_player_colours_follow_name_order() -> None:
    colours = charts.player_colours(("Anna", "Bruno", "Carla"))
    assert colours == charts.player_colours(("Anna", "Bruno", "Carla"))
    assert len(set(colours.values())) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("chart", "pie", "--out", "x.png"),
            "chart 'pie': allowed are running, money, contracts, thirds, pairings",
        ),
        (
            ("chart", "runing"),
            "chart 'runing': allowed are running, money, contracts, thirds, pairings (did you mean running?)",
        ),
        (("chart", "running", "--out", "x.jpg"), "--out 'x.jpg': the file name must end in .png or .svg"),
        (("chart", "running", "--evening", "7", "--out", "x.png"), "evening 7 does not exist (evenings are 1 to 1)"),
        (("report", "--out", "x.pdf"), "--out 'x.pdf': the report is an HTML page"),
        (("stats", "--player", "Zoe"), "unknown player 'Zoe'"),
        (("stats", "--since", "yesterday"), "--since 'yesterday': a date as YYYY-MM-DD"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(
    app: typer.Typer, ledger: str, args: tuple[str, ...], message: str
) -> None:
    code, _, err = _run(app, ledger, *args)
    assert code == 2
    assert err.strip().splitlines() == [f"Error: {err.strip().removeprefix('Error: ')}"]
    assert message in err


def test_chart_on_an_empty_ledger_is_an_error(sqlite_url: str) -> None:
    engine = open_ledger(sqlite_url)
    frames = load_frames(engine)
    engine.dispose()
    with pytest.raises(LedgerError, match="chart thirds: no played deals match all deals"):
        charts.chart_image("thirds", frames, "png")


def test_stats_command_tables_json_and_csv(app: typer.Typer, ledger: str, tmp_path: Path) -> None:
    code, out, _ = _run(app, ledger, "stats")
    assert code == 0
    for title in ("Summary", "Players", "Money", "Contracts and aggravations", "Declarer rating (Elo)"):
        assert title in out
    code, out, _ = _run(app, ledger, "stats", "--json", "--csv", str(tmp_path / "s.csv"))
    data = json.loads(out)
    assert data["summary"] == [{"evenings": 1, "players": 3, "deals": 3, "played": 3, "passed": 0, "passed_rate": 0.0}]
    assert {row["player"]: row["points"] for row in data["players"]} == {"Anna": 15, BRUNO: -3, "Carla": -12}
    csv = (tmp_path / "s.csv").read_text().splitlines()
    assert csv[0].startswith("table,")
    assert sum(line.startswith("players,") for line in csv) == 3


def test_stats_help_explains_the_rating(app: typer.Typer, ledger: str) -> None:
    _, out, _ = _run(app, ledger, "stats", "--help")
    assert "1500" in out and "400" in out and "K = 24" in out


def test_report_escapes_user_text_and_strikes_voided_deals(page: str) -> None:
    assert BRUNO not in page and "<b>misdeal</b>" not in page and "<i>Sport</i>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "voided: &lt;b&gt;misdeal&lt;/b&gt;" in page and 'class="voided"' in page
    assert "R&amp;D night" in page
    assert "1.20 EUR" in page and "0.30 EUR" in page


def test_report_embeds_every_chart(page: str) -> None:
    assert page.count("data:image/svg+xml;base64,") == len(charts.KINDS)
    for kind in charts.KINDS:
        assert f'<figure id="chart-{kind}">' in page


def test_report_shows_the_called_card_its_holder_and_the_winner(page: str) -> None:
    assert '<td data-label="called card">3D, held by Anna</td>' in page
    assert "Winner: <strong>Anna</strong> (+15 game points)" in page
    assert '<tr class="winner"><td data-label="player">Anna<span class="badge">winner</span></td>' in page
    assert page.count('class="winner"') == 1


SHOTS = Path("/tmp/shots")
IMAGES_DECODED = "Array.from(document.images).map(i => i.complete && i.naturalWidth > 0)"
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize("width", [1280, 390])
def test_report_in_headless_chromium(chromium: Any, report_file: Path, tmp_path: Path, width: int) -> None:
    shot = tmp_path / f"report-{width}.png"
    page = chromium.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(report_file.as_uri())
    page.wait_for_load_state("load")
    decoded = page.evaluate(IMAGES_DECODED)
    overflow = page.evaluate(OVERFLOW)
    cards = page.evaluate("getComputedStyle(document.querySelector('table.deals tr')).display")
    dom = page.content()
    page.screenshot(path=str(shot), full_page=True)
    SHOTS.mkdir(exist_ok=True)
    shutil.copy(shot, SHOTS / shot.name)
    assert decoded == [True] * len(charts.KINDS)
    assert overflow == 0, "nothing scrolls sideways"
    assert cards == ("block" if width < 500 else "table-row")
    assert dom.count("<table") == 4
    for section in ('id="seats"', 'id="standings"', 'id="settlement"', 'id="deals"', 'id="charts"'):
        assert section in dom
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom
    assert "<script>" not in dom


def test_chart_command_writes_the_file(app: typer.Typer, ledger: str, tmp_path: Path) -> None:
    out = tmp_path / "running.png"
    code, stdout, _ = _run(app, ledger, "chart", "running", "--out", str(out))
    assert code == 0 and stdout.strip() == f"Wrote {out}"
    assert _png_size(out.read_bytes()) == (960, 720)


def test_reporting_module_imports_nothing_heavy() -> None:
    probe = (
        "import sys, ledger.cli.reporting; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'pandas', 'matplotlib', 'reports', 'numpy'}))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_money_chart_keeps_currencies_apart(sqlite_url: str) -> None:
    engine = open_ledger(sqlite_url)
    with transaction(engine) as session:
        euros = start_evening(session, ("Anna", "Bruno", "Carla"), Terms(stake="0.10", currency="EUR"))
        record_deal(session, euros, DealInput(declarer="Bruno", contract="solo", thirds=22))
    with transaction(engine) as session:
        francs = start_evening(session, ("Anna", "Bruno", "Carla"), Terms(stake="0.50", currency="CHF"))
        record_deal(session, francs, DealInput(declarer="Anna", contract="solo", thirds=22))
    svg = charts.image_bytes(charts.draw("money", load_frames(engine)), "svg").decode()
    engine.dispose()
    assert "Anna (CHF)" in svg and "Anna (EUR)" in svg and "EUR + CHF" not in svg


def test_chart_without_out_writes_into_the_current_folder(
    app: typer.Typer, ledger: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _run(app, ledger, "chart", "thirds")[:2] == (0, "Wrote thirds.png\n")
    assert _run(app, ledger, "chart", "running", "--evening", "1")[:2] == (0, "Wrote evening-1-running.png\n")
    assert _png_size((tmp_path / "thirds.png").read_bytes()) == (960, 720)
    assert _png_size((tmp_path / "evening-1-running.png").read_bytes()) == (960, 720)
