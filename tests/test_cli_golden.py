"""The CLI prints the example evenings exactly as the reference outputs in tests/golden/ show them.

The references were written by the ledger before its redesign into one `Ledger` service; a change of
output is a deliberate change of a reference, never an accident of a refactoring.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from conftest import EXAMPLES, copy_ledger, ready_to_copy
from typer.testing import CliRunner

from ledger.cli.main import app

GOLDEN = Path(__file__).with_name("golden")
CASES = [line.split("|", 1) for line in (GOLDEN / "commands.txt").read_text(encoding="utf-8").splitlines()]
runner = CliRunner()
ENV = {"COLUMNS": "200", "TZ": "UTC"}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each example of the references imported once into a ledger of its own, ready to be copied for a test."""
    ledgers = {}
    for example in sorted({example for example, _command in CASES}):
        db = tmp_path_factory.mktemp("imported") / "ledger.sqlite3"
        result = runner.invoke(app, ["--db", str(db), "import", str(EXAMPLES / example)], env=ENV)
        assert result.exit_code == 0, result.output
        ledgers[example] = ready_to_copy(db)
    return ledgers


@pytest.mark.parametrize(("index", "case"), list(enumerate(CASES)), ids=[c[1] for c in CASES])
def test_output_matches_the_reference(index: int, case: list[str], imported: dict[str, Path], tmp_path: Path) -> None:
    example, command = case
    db = str(copy_ledger(imported[example], tmp_path))
    result = runner.invoke(app, ["--db", db, *shlex.split(command)], env=ENV)
    assert result.exit_code == 0, result.output
    assert result.output == (GOLDEN / f"{index}.out").read_text(encoding="utf-8")
