"""The phone's *Undo* in headless Chromium at 390 x 844: it names what it takes back, takes back that change only
(a void is undone by bringing the deal back, whichever deal came after it), and when another phone's change
arrives it names the new one and waits two seconds, so a tap meant for what was shown a moment ago takes back
nothing the scorekeeper has not read."""

from __future__ import annotations

import os

from test_web_browser import CHROMIUM, PHONE, playwright_api, pytestmark, server  # noqa: F401  (the fixture, the skip)
from test_web_support import LINK

from ledger import Ledger


def _phone(driver: object, base: str, locale: str = "en-GB") -> object:
    browser = driver.chromium.launch(  # type: ignore[attr-defined]
        executable_path=CHROMIUM, args=["--no-sandbox"] if os.geteuid() == 0 else []
    )
    page = browser.new_context(viewport=PHONE, locale=locale).new_page()
    page.goto(f"{base}{LINK}")
    page.wait_for_url(f"{base}/evenings/1")
    return page


def _undo(page: object) -> None:
    page.locator("form.undo input[name=confirm]").check()  # type: ignore[attr-defined]
    page.locator("form.undo button").click()  # type: ignore[attr-defined]


def test_undo_names_the_change_and_takes_back_a_void_bringing_the_deal_back(server: str, db_url: str) -> None:  # noqa: F811
    with Ledger(db_url) as ledger:
        ledger.record("anna solo 22")
        ledger.record("bruno solo 22")
        ledger.void(1, reason="misdeal")
    with playwright_api.sync_playwright() as driver:
        page = _phone(driver, server)
        button = page.locator("form.undo button")
        playwright_api.expect(button).to_have_text("Undo: the void of deal 1")
        _undo(page)
        page.wait_for_url(f"{server}/evenings/1?deal=1")  # the deal it brought back, on top
        playwright_api.expect(button).to_have_text("Undo: deal 2, Bruno solo 7+1/3")
    with Ledger(db_url) as ledger:
        _info, deals = ledger.deals(1)
        assert [(deal.number, deal.voided) for deal in deals] == [(1, False), (2, False)]
        assert [change.kind for change in ledger.changes(1)][-2:] == ["void", "undo"]


def test_a_change_arriving_just_before_the_tap_is_not_taken_back(server: str, db_url: str) -> None:  # noqa: F811
    with Ledger(db_url) as ledger:
        ledger.record("anna solo 22")
    with playwright_api.sync_playwright() as driver:
        page = _phone(driver, server, "it-IT")
        button = page.locator("form.undo button")
        playwright_api.expect(button).to_have_text("Ritira: smazzata 1, Anna solo 7+1/3")
        page.locator("form.undo input[name=confirm]").check()
        with Ledger(db_url) as ledger:  # another phone records while this one is about to tap
            ledger.record("carla solo 8")
        playwright_api.expect(button).to_have_text("Ritira: smazzata 2, Carla solo 8", timeout=5000)
        assert button.is_disabled()  # the tap that was meant for deal 1 takes back nothing
        playwright_api.expect(page.locator("form.undo .hint")).to_be_visible()
        playwright_api.expect(button).to_be_enabled(timeout=5000)  # read, it may be tapped
        _undo(page)
        page.wait_for_url(f"{server}/evenings/1?deal=2")
    with Ledger(db_url) as ledger:
        _info, deals = ledger.deals(1)
        assert [(deal.number, deal.voided) for deal in deals] == [(1, False), (2, True)]


def test_a_form_drawn_before_another_change_is_refused_with_what_happened(server: str, db_url: str) -> None:  # noqa: F811
    with Ledger(db_url) as ledger:
        ledger.record("anna solo 22")
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"] if os.geteuid() == 0 else [])
        page = browser.new_context(viewport=PHONE, java_script_enabled=False).new_page()  # no live feed
        page.goto(f"{server}{LINK}")
        page.wait_for_url(f"{server}/evenings/1")
        playwright_api.expect(page.locator("form.undo button")).to_have_text("Undo: deal 1, Anna solo 7+1/3")
        with Ledger(db_url) as ledger:
            ledger.record("bruno solo 8")
        _undo(page)
        playwright_api.expect(page.locator(".error")).to_contain_text("deal 2 recorded: Bruno solo 8")
    with Ledger(db_url) as ledger:
        assert not any(deal.voided for deal in ledger.deals(1)[1])
