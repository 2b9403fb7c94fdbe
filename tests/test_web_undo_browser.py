"""The phone's *Undo* in headless Chromium at 390 x 844: it names what it takes back, takes back that change only
(a void is undone by bringing the deal back, whichever deal came after it), and when another phone's change
arrives it names the new one and waits two seconds, so a tap meant for what was shown a moment ago takes back
nothing the scorekeeper has not read."""

from __future__ import annotations

from test_web_browser import PHONE, Table, playwright_api, pytestmark, shared_server, signed_in, table

from ledger import Ledger

__all__ = ["pytestmark", "shared_server", "table"]  # the skip and the fixtures


def _phone(chromium: playwright_api.Browser, table: Table, locale: str = "en-GB") -> playwright_api.Page:
    """The scorekeeper's phone on the table's evening, its clock one the test may move on."""
    page = chromium.new_context(viewport=PHONE, locale=locale).new_page()
    page.clock.install()
    signed_in(page, table)
    return page


def _undo(page: playwright_api.Page) -> None:
    page.locator("form.undo input[name=confirm]").check()
    page.locator("form.undo button").click()


def test_undo_names_the_change_and_takes_back_a_void_bringing_the_deal_back(
    table: Table, chromium: playwright_api.Browser
) -> None:
    with Ledger(table.db) as ledger:
        ledger.record("anna solo 22", evening=table.number)
        ledger.record("bruno solo 22", evening=table.number)
        ledger.void(1, reason="misdeal", evening=table.number)
    page = _phone(chromium, table)
    button = page.locator("form.undo button")
    playwright_api.expect(button).to_have_text("Undo: the void of deal 1")
    _undo(page)
    page.wait_for_url(f"{table.page}?deal=1&undone=void")  # the deal it brought back, on top
    playwright_api.expect(button).to_have_text("Undo: deal 2, Bruno solo 7+1/3")
    with Ledger(table.db) as ledger:
        _info, deals = ledger.deals(table.number)
        assert [(deal.number, deal.voided) for deal in deals] == [(1, False), (2, False)]
        assert [change.kind for change in ledger.changes(table.number)][-2:] == ["void", "undo"]


def test_a_change_arriving_just_before_the_tap_is_not_taken_back(
    table: Table, chromium: playwright_api.Browser
) -> None:
    with Ledger(table.db) as ledger:
        ledger.record("anna solo 22", evening=table.number)
    page = _phone(chromium, table, "it-IT")
    button = page.locator("form.undo button")
    playwright_api.expect(button).to_have_text("Ritira: smazzata 1, Anna solo 7+1/3")
    page.locator("form.undo input[name=confirm]").check()
    with Ledger(table.db) as ledger:  # another phone records while this one is about to tap
        ledger.record("carla solo 8", evening=table.number)
    playwright_api.expect(button).to_have_text("Ritira: smazzata 2, Carla solo 8", timeout=5000)
    assert button.is_disabled()  # the tap that was meant for deal 1 takes back nothing
    playwright_api.expect(page.locator("form.undo .hint")).to_be_visible()
    page.clock.fast_forward(2000)
    playwright_api.expect(button).to_be_enabled()  # two seconds on, read, it may be tapped
    _undo(page)
    page.wait_for_url(f"{table.page}?deal=2&undone=record")
    with Ledger(table.db) as ledger:
        _info, deals = ledger.deals(table.number)
        assert [(deal.number, deal.voided) for deal in deals] == [(1, False), (2, True)]


def test_a_form_drawn_before_another_change_is_refused_with_what_happened(
    table: Table, chromium: playwright_api.Browser
) -> None:
    with Ledger(table.db) as ledger:
        ledger.record("anna solo 22", evening=table.number)
    page = chromium.new_context(viewport=PHONE, java_script_enabled=False).new_page()  # no live feed
    signed_in(page, table)
    playwright_api.expect(page.locator("form.undo button")).to_have_text("Undo: deal 1, Anna solo 7+1/3")
    with Ledger(table.db) as ledger:
        ledger.record("bruno solo 8", evening=table.number)
    _undo(page)
    playwright_api.expect(page.locator(".error")).to_contain_text("deal 2 recorded: Bruno solo 8")
    with Ledger(table.db) as ledger:
        assert not any(deal.voided for deal in ledger.deals(table.number)[1])
