"""CSV files open in a spreadsheet as text: a cell that starts like a formula is neutralised, numbers stay numbers."""

from __future__ import annotations

import csv
from pathlib import Path

from typer.testing import CliRunner

from ledger import Ledger
from ledger.cli.main import app
from ledger.values import Terms

HOSTILE = "+cmd|' /C calc'!A0"
runner = CliRunner()


def ledger_with_a_hostile_name(db: str) -> None:
    with Ledger(db) as ledger:
        ledger.start_evening([HOSTILE, "-Bruno", "Carla"], Terms(stake="0.10"))
        ledger.record("+cmd solo 22")


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(text.splitlines()))


def test_export_csv_neutralises_names_and_keeps_negative_numbers(sqlite_url: str) -> None:
    ledger_with_a_hostile_name(sqlite_url)
    result = runner.invoke(app, ["--db", sqlite_url, "export", "--format", "csv"])
    assert result.exit_code == 0, result.output
    exported = rows(result.stdout)
    assert [r["player"] for r in exported] == ["'" + HOSTILE, "'-Bruno", "Carla"]
    assert [r["points"] for r in exported] == ["4", "-2", "-2"]
    assert exported[1]["money_cents"] == "-20"
    assert exported[0]["declarer"] == "'" + HOSTILE


def test_stats_csv_neutralises_names_too(sqlite_url: str, tmp_path: Path) -> None:
    ledger_with_a_hostile_name(sqlite_url)
    out = tmp_path / "stats.csv"
    result = runner.invoke(app, ["--db", sqlite_url, "stats", "--csv", str(out)])
    assert result.exit_code == 0, result.output
    cells = [cell for row in csv.reader(out.read_text(encoding="utf-8").splitlines()) for cell in row]
    assert "'" + HOSTILE in cells and HOSTILE not in cells
    assert "'-Bruno" in cells and "-Bruno" not in cells
    assert any(cell.startswith("-") and cell.lstrip("-").replace(".", "").isdigit() for cell in cells)


def test_stats_csv_neutralises_a_name_in_the_header_row(sqlite_url: str, tmp_path: Path) -> None:
    """The `called` table has a column per holder of the called card, named after the player: the header row."""
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening([HOSTILE, "Bruno", "Carla"], Terms(stake="0.10"))
        ledger.record(f"bruno chiamo 3D@{HOSTILE[:4]} 17 last=opp")
    out = tmp_path / "stats.csv"
    result = runner.invoke(app, ["--db", sqlite_url, "stats", "--csv", str(out)])
    assert result.exit_code == 0, result.output
    header = next(csv.reader(out.read_text(encoding="utf-8").splitlines()))
    assert "'" + HOSTILE in header and HOSTILE not in header
    assert not [cell for cell in header if cell.startswith(("=", "+", "-", "@"))]


def test_export_csv_is_safe_for_a_spreadsheet_that_splits_on_semicolons(sqlite_url: str) -> None:
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(["Anna;+1+1", "Bruno", "Carla"])
        ledger.record("anna solo 22")
    result = runner.invoke(app, ["--db", sqlite_url, "export", "--format", "csv"])
    assert result.exit_code == 0, result.output
    cells = [cell for line in result.stdout.splitlines() for cell in line.replace(",", ";").split(";")]
    assert "Anna" in cells and "'+1+1" in cells
    assert not any(cell.lstrip('"').startswith(("=", "+", "@")) for cell in cells)


def test_a_part_after_a_semicolon_that_starts_with_a_quote_is_neutralised_too(sqlite_url: str) -> None:
    """A spreadsheet that splits on `;` reads `""+1+1"` (the file's way of writing `"+1+1`) as a quoted cell: a
    formula, unless neutralised."""
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(['Anna;"+1+1', "Bruno", "Carla"])
        ledger.record("anna solo 22")
    result = runner.invoke(app, ["--db", sqlite_url, "export", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert rows(result.stdout)[0]["player"] == "Anna;'\"+1+1"
    parts = [part for line in result.stdout.splitlines() for part in line.split(";")]
    assert not [part for part in parts if part.lstrip('"').startswith(("=", "+", "@"))], parts
