"""A correction needs no keyboard: amend, void and reopen offer the usual reasons as chips to tap, in the phone's
language; words of one's own stay possible, and a tapped reason counts over them."""

from __future__ import annotations

import re

from test_web_support import BEARER, csrf, scorekeeper, start

from ledger import Ledger

ITALIAN = {"Accept-Language": "it-IT,it;q=0.9"}


def _chips(page: str) -> list[str]:
    return re.findall(r'<input type="radio" name="reason" value="([^"]*)">', page)


def test_the_deal_and_settlement_pages_offer_the_usual_reasons_as_chips(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        deal = phone.get("/evenings/1/deals/1", headers=ITALIAN).text
        assert _chips(deal) == ["ricontato", "carte date male", "giocatore sbagliato", "scritto per sbaglio"] * 2
        assert 'name="reason" value="" autocomplete="off"' in deal and " required" not in deal
        token = csrf(phone, "/evenings/1/deals/1")
        voided = phone.post(
            "/evenings/1/deals/1/void", data={"csrf": token, "reason": ["", "carte date male"]}, headers=ITALIAN
        )
        assert voided.status_code == 303
        phone.post("/evenings/1/close", data={"csrf": csrf(phone, "/evenings/1/settle"), "confirm": "yes"})
        settle = phone.get("/evenings/1/settle", headers=ITALIAN).text
        assert _chips(settle) == ["mancava una smazzata", "ricontato", "scritto per sbaglio"]
    with Ledger(sqlite_url) as ledger:
        assert ledger.deals(1)[1][0].void_reason == "carte date male"
