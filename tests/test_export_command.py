"""`calabresella export` runs with the cycle collector paused and resumes it, also when the export fails."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, as_document
from typer.testing import CliRunner

from ledger import Ledger
from ledger.cli.main import app

runner = CliRunner()


def test_the_export_runs_with_the_collector_paused(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Ledger(sqlite_url) as ledger:
        ledger.import_file(EXAMPLES / "three_friends.json")
    seen = []
    export_to = Ledger.export_to

    def watched(self: Ledger, *args: Any, **kwargs: Any) -> None:
        seen.append(gc.isenabled())
        export_to(self, *args, **kwargs)

    monkeypatch.setattr(Ledger, "export_to", watched)
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["--db", sqlite_url, "export", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert seen == [False] and gc.isenabled()
    assert as_document(out.read_text(encoding="utf-8"))["evenings"][0]["number"] == 1
    refused = runner.invoke(app, ["--db", sqlite_url, "export", "--evening", "9"])
    assert refused.exit_code == 2 and seen == [False, False] and gc.isenabled()
