"""An export whose evening counts fewer changes than its change log holds (one written before every change was
counted) imports with the log's count, so the evening takes its next change: voided, then the void taken back."""

from __future__ import annotations

import json
from pathlib import Path

from ledger import Ledger

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "three_friends.json"


def test_an_evening_whose_count_lags_its_log_takes_its_next_change(tmp_path: Path) -> None:
    document = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    evening = document["evenings"][0]
    logged = max(change["revision"] for change in evening["changes"])
    evening["revision"] = logged - 1  # lagging by one, as the example once did
    lagging = tmp_path / "lagging.json"
    lagging.write_text(json.dumps(document), encoding="utf-8")
    with Ledger(str(tmp_path / "ledger.sqlite3")) as ledger:
        ledger.import_file(lagging)
        assert ledger.evening(1).revision == logged
        voided = ledger.void_evening(1, reason="a test")
        assert voided.revision == logged + 1
        assert ledger.undo(evening=1).taken_back.kind == "void_evening"
