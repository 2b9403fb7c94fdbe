"""The issue's evening, in Chromium at 390 x 844: two scorekeepers' phones in Italian, the Wi-Fi cut for five deals,
with a reload and a new tab during the outage and a server restart; every deal stored once, in order, tapped
through without scrolling and without ever seeing the browser's error page.

A dozen deals, not the issue's 24: the outage, the reload, the new tab, the restart and the questions asked on the
way back all fall within them, and each deal past them would only repeat what the dozen did (the payouts of long
evenings are checked elsewhere), for about a second of the suite's time each."""

from __future__ import annotations

from pathlib import Path

from test_web_browser import PHONE, Restartable, cookie_from, phone_and_server, playwright_api, pytestmark
from test_web_phone_offline import _back, _cut, _kept
from test_web_phone_outbox import KINDS, LAST_TRICK, TRICKS, _answer, _record, _tap_kind
from test_web_support import link

from ledger import Ledger
from ledger.web.templating import signed

__all__ = ["phone_and_server", "pytestmark"]  # the fixture and the skip

Page = playwright_api.Page
SHOTS = Path("/tmp/shots")
"""Where the key moments are kept as pictures, to be looked at."""
ITALIAN = {"Accept-Language": "it-IT,it;q=0.9"}


def _phone(page: Page, served: Restartable, errors: list[str]) -> Page:
    """A scorekeeper's phone in Italian on evening 1, its service worker keeping the page; every page it shows that
    is the browser's error page is listed in `errors`."""
    page.context.set_extra_http_headers(ITALIAN)
    page.context.on("page", lambda tab: _watched(tab, errors))
    _watched(page, errors)
    cookie_from(page, f"{served.url}{link(served.db_url)}")
    page.goto(f"{served.url}/evenings/1")
    _kept(page, "/evenings/1")
    return page


def _watched(page: Page, errors: list[str]) -> None:
    page.on("framenavigated", lambda frame: errors.append(frame.url) if frame.url.startswith("chrome-error") else None)


def _deal(page: Page, number: int, kind: int) -> None:
    """Deal `number`, of kind `KINDS[kind]`, tapped and recorded on `page` (its question answered)."""
    taps, asked = KINDS[kind]
    _tap_kind(page, taps)
    _record(page)
    if asked:
        _answer(page, *asked)
    playwright_api.expect(page.locator(".result h2")).to_have_text(f"Smazzata {number} registrata", timeout=10000)


def _shot(page: Page, name: str) -> None:
    """The whole page as the phone shows it now, kept to be looked at."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"evening-{name}.png"), full_page=True)


def test_an_evening_on_two_phones_through_an_outage_stores_every_deal_once_in_order(
    phone_and_server: tuple[Page, Restartable], sqlite_url: str
) -> None:
    page, served = phone_and_server
    errors: list[str] = []
    keeper = _phone(page, served, errors)
    other = _phone(page.context.browser.new_context(viewport=PHONE).new_page(), served, errors)  # type: ignore[union-attr]
    _deal(keeper, 1, 0)
    _deal(keeper, 2, 1)
    _deal(other, 3, 2)  # the other scorekeeper's pass: the first phone follows
    playwright_api.expect(keeper.locator("#live .turn")).to_have_attribute("data-revision", "3")
    _deal(keeper, 4, 3)

    _cut(keeper)  # the Wi-Fi goes, for both phones, and the server with it
    _cut(other)
    served.stop()  # (a browser's own cut can let a request of a page being reloaded through)
    for kind in (6, 7):
        _tap_kind(keeper, KINDS[kind][0])
        _record(keeper)
    keeper.reload()
    waiting = "2 smazzate in attesa: Carla solo 2a10f+u, Anna chiamo AB@chiamante 9."  # the card of one's own hand
    playwright_api.expect(keeper.locator("#waiting")).to_contain_text(waiting)  # said in Italian (was AB@declarer)
    playwright_api.expect(keeper.locator("p.connection")).to_contain_text("Nessun collegamento con il server")
    playwright_api.expect(keeper.locator("#totals")).to_contain_text("Totali:")
    _shot(keeper, "offline-reloaded")
    for kind in (8, 4):  # a pass, and a deal the rules will ask about
        _tap_kind(keeper, KINDS[kind][0])
        _record(keeper)
    tab = keeper.context.new_page()
    tab.goto(f"{served.url}/")  # the evening opened last, with the deals waiting
    playwright_api.expect(tab.locator("h1")).to_have_text("Serata 1")
    playwright_api.expect(tab.locator("#waiting")).to_contain_text("4 smazzate in attesa")
    playwright_api.expect(tab.locator("form.guided")).to_be_visible()
    _shot(tab, "offline-new-tab")
    tab.close()
    _tap_kind(keeper, KINDS[0][0])
    _record(keeper)
    playwright_api.expect(keeper.locator("#waiting")).to_contain_text("5 smazzate in attesa")
    served.start()  # the server restarted meanwhile
    with Ledger(sqlite_url) as ledger:
        assert len(ledger.deals(1)[1]) == 4

    _back(keeper)
    _back(other)
    _answer(keeper, *LAST_TRICK)  # deals 5 to 7 went; deal 8 needs the last trick
    playwright_api.expect(keeper.locator(".result h2")).to_have_text("Smazzata 9 registrata", timeout=10000)
    playwright_api.expect(keeper.locator("#waiting")).to_be_hidden()
    _shot(keeper, "back")
    playwright_api.expect(other.locator("#live .turn")).to_have_attribute("data-revision", "9", timeout=10000)
    _deal(other, 10, 9)
    _deal(keeper, 11, 5)
    _deal(keeper, 12, 1)
    assert KINDS[5][1] == TRICKS

    with Ledger(sqlite_url) as ledger:
        info, deals = ledger.deals(1)
    assert [(deal.number, deal.declarer, deal.contract) for deal in deals] == [
        (1, "Bruno", "solo"),
        (2, "Carla", "chiamo"),
        (3, None, None),
        (4, "Anna", "solissimo"),
        (5, "Carla", "solo"),
        (6, "Anna", "chiamo"),
        (7, None, None),
        (8, "Bruno", "solissimo"),
        (9, "Bruno", "solo"),
        (10, "Bruno", "chiamo"),
        (11, "Anna", "solo"),
        (12, "Carla", "chiamo"),
    ]
    assert not any(deal.voided or deal.revision > 1 for deal in deals)
    totals = "Totali: " + " · ".join(f"{name} {signed(info.points[name])}" for name in info.players)
    for phone in (keeper, other):
        playwright_api.expect(phone.locator("#totals")).to_have_text(totals)
        playwright_api.expect(phone.locator("#live .turn")).to_have_attribute("data-revision", "12")
    _shot(other, "second-phone")
    assert errors == []
