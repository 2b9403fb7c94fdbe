"""A deal recorded again with its key (a retried command, a phone sending twice) writes nothing and shows the deal as
it stands now, amended or voided since or not."""

from __future__ import annotations

from pathlib import Path

from cli_support import calabresella

from ledger import Ledger


def test_a_retried_key_shows_the_deal_as_it_stands(tmp_path: Path) -> None:
    db = str(tmp_path / "ledger.sqlite3")
    with Ledger(db) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"])
    assert calabresella("--db", db, "record", "anna solo 22", "--key", "k1").returncode == 0
    again = calabresella("--db", db, "record", "anna solo 22", "--key", "k1")
    assert again.returncode == 0
    assert "Deal 1 was recorded already with this key; nothing written." in again.stdout
    assert "no longer counts" not in again.stdout
    assert "+4" in again.stdout
    with Ledger(db) as ledger:
        ledger.amend(1, "25", reason="recount")
        retried = ledger.record("anna solo 22", key="k1")  # the facts the key first stored
        assert retried.duplicate and retried.result is not None
        assert (retried.deal.declarer_thirds, retried.deal.revision) == (25, 2)
        assert ledger.evening().revision == 2
        ledger.void(1, reason="misdeal")
        voided = ledger.record("anna solo 22", key="k1")
        assert voided.duplicate and voided.result is None and voided.deal.voided
