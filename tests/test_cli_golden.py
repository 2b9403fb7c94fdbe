"""The CLI prints the example evenings exactly as the reference outputs in tests/golden/ show them.

The references were written by the ledger before its redesign into one `Ledger` service; a change of
output is a deliberate change of a reference, never an accident of a refactoring.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.cli.main import app

GOLDEN = Path(__file__).with_name("golden")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CASES = [line.split("|", 1) for line in (GOLDEN / "commands.txt").read_text(encoding="utf-8").splitlines()]
runner = CliRunner()


@pytest.mark.parametrize(("index", "case"), list(enumerate(CASES)), ids=[c[1] for c in CASES])
def test_output_matches_the_reference(index: int, case: list[str], tmp_path: Path) -> None:
    example, command = case
    db = str(tmp_path / "ledger.sqlite3")
    env = {"COLUMNS": "200", "TZ": "UTC"}
    imported = runner.invoke(app, ["--db", db, "import", str(EXAMPLES / example)], env=env)
    assert imported.exit_code == 0, imported.output
    result = runner.invoke(app, ["--db", db, *shlex.split(command)], env=env)
    assert result.exit_code == 0, result.output
    assert result.output == (GOLDEN / f"{index}.out").read_text(encoding="utf-8")
