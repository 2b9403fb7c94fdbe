"""Corrections never overwrite what the corrector did not see: an amendment carries the deal's revision it was drawn
from, and is refused, naming how the deal was corrected since, when that is no longer the deal's revision."""

from __future__ import annotations

import pytest
from test_web_support import BEARER, start, viewer

from ledger import Ledger
from ledger.errors import DealChanged


def test_two_phones_correcting_one_deal_the_later_one_is_refused(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"])
        for line in ("anna solo 22", "bruno solo 20", "carla solo 19", "anna solo 25"):
            ledger.record(line)
        drawn = ledger.deals()[1][3]  # both phones open deal 4
        ledger.amend(4, "15", reason="recount", seen_revision=drawn.revision)  # phone A recounts
        revision = ledger.evening().revision
        with pytest.raises(DealChanged) as refused:  # phone B, from its older page, changes the declarer
            ledger.amend(4, "bruno solo", reason="wrong declarer", seen_revision=drawn.revision)
        assert str(refused.value) == (
            "deal 4 was corrected since you saw it (revision 1, now 2): deal 4 amended (recount): Anna solo 5; "
            "look at it again"
        )
        assert ledger.evening().revision == revision
        now = ledger.deals()[1][3]
        assert (now.declarer, now.declarer_thirds, now.revision) == ("Anna", 15, 2)
        # drawn again, the correction goes through
        assert ledger.amend(4, "bruno solo", reason="wrong declarer", seen_revision=2).deal.declarer == "Bruno"


def test_the_api_answers_409_with_the_change(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        first = phone.post(
            "/api/evenings/1/deals/1/amend",
            json={"line": "20", "reason": "recount", "seen_revision": 1},
            headers=BEARER,
        )
        assert first.status_code == 200
        late = phone.post(
            "/api/evenings/1/deals/1/amend",
            json={"line": "anna", "reason": "wrong declarer", "seen_revision": 1},
            headers=BEARER,
        )
        assert late.status_code == 409
        assert late.json()["error"].startswith("deal 1 was corrected since you saw it (revision 1, now 2)")
        assert phone.get("/api/evenings/1/deals/1").json()["revisions"][-1]["declarer"] == "Bruno"
