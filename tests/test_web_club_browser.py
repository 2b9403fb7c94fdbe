"""A club night in a real browser: `calabresella serve` and headless Chromium (the system's). At 390 x 844 a player
opens the event's link, taps their name and reads their table and seat; no club page is wider than the phone, even
with four 14-letter names; at 1280 x 800 the leaderboard at the bar follows a deal without being reloaded; the
scoresheets print on A4."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from test_web_browser import (
    CHROMIUM,
    LONG_NAMES,
    OVERFLOWING,
    PHONE,
    _overflowing,
    cookie_from,
    playwright_api,
    served,
    speak,
)
from test_web_support import BEARER, link

from ledger import Ledger
from ledger.values import Terms

SCREEN = {"width": 1280, "height": 800}
PLAYERS = (*LONG_NAMES, "Anna", "Bruno", "Carla")
TABLES = [list(LONG_NAMES), ["Anna", "Bruno", "Carla"]]
PAGES = (
    "/events",
    "/events/1",
    "/events/1?player=Massimilianone",
    "/events/1/board",
    "/events/1/sheets",
    "/evenings/1",
)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`calabresella serve` for the module's tests, over a ledger with a club night under way: the four long names at
    table 1 (evening 1), Anna, Bruno and Carla at table 2 (evening 2), a deal recorded at each; the ledger and the
    base URL. One test records a deal more, at table 2; the others read."""
    db = str(tmp_path_factory.mktemp("club") / "ledger.sqlite3")
    with Ledger(db) as ledger:
        ledger.club.start_event(
            "Autumn club night at the Bar Sport", PLAYERS, Terms(stake="0.10", place="Bar Sport"), round_deals=12
        )
        ledger.club.seat_round(1, tables=TABLES)
        ledger.record("massimilianone solo 22", evening=1)
        ledger.record("bruno solo 16", evening=2)
    with served(db) as url:
        yield db, url


SPILLING = """() => [...document.querySelectorAll(
        '.chip span, .board th, .board td, .paper th, .headline, .seats li, h1, h2, h3, .meta, summary')]
    .filter(e => e.offsetParent !== null)
    .filter(e => e.scrollWidth > e.clientWidth + 1
                 || (!e.closest('.paper-wrap') && e.getBoundingClientRect().right > innerWidth))
    .map(e => e.textContent.trim())"""
"""The texts of the club pages' names, cells and headings that stick out of their box or past the screen."""


def _spilling(page: playwright_api.Page) -> list[str]:
    """What spills on `page` (`SPILLING`)."""
    return page.evaluate(SPILLING)


def _widths(page: playwright_api.Page) -> list[int]:
    return page.evaluate("[document.documentElement.scrollWidth, innerWidth]")


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_player_taps_their_name_on_the_event_page_and_reads_their_table_and_seat(
    club: tuple[str, str], chromium: playwright_api.Browser, locale: str
) -> None:
    db, url = club
    with Ledger(db) as ledger:
        current = ledger.club.event(1).current
    assert current is not None
    found = current.table_of("Bartolomeoalfa")
    assert found is not None
    table, seat = found
    page = chromium.new_context(viewport=PHONE, device_scale_factor=2, locale=locale).new_page()
    page.goto(f"{url}/events/1")
    page.locator(".chips.names").get_by_role("link", name="Bartolomeoalfa", exact=True).click()
    page.wait_for_url(f"{url}/events/1?player=Bartolomeoalfa")
    result = page.locator(".seat-found")
    playwright_api.expect(result.locator("h2")).to_have_text("Bartolomeoalfa")
    headline = result.locator(".headline")
    if locale == "en-GB":
        playwright_api.expect(headline).to_have_text(f"Table {table.number}, seat {seat}")
        playwright_api.expect(result).to_contain_text(f"{table.players[0]} deals first.")
    else:
        assert page.locator("html").get_attribute("lang") == "it"
        playwright_api.expect(headline).to_contain_text(f"{table.number}")
        assert re.search(rf"\b{table.number}\b.*\b{seat}\b", headline.inner_text())
    assert result.locator(f'a[href="/evenings/{table.evening}"]').is_visible()
    box = result.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], "the seat is below the first screen"
    assert _widths(page) == [390, 390]
    assert _overflowing(page) == [] and _spilling(page) == []


SHOWN = f"""() => {{
  document.querySelectorAll("details").forEach(d => d.open = true);
  return {{
    widths: [document.documentElement.scrollWidth, innerWidth],
    lang: document.documentElement.lang,
    overflowing: ({OVERFLOWING})(),
    spilling: ({SPILLING})(),
    places: document.querySelectorAll(".place").length,
    codes: document.querySelectorAll(".qr svg").length,
  }};
}}"""
"""A club page with every folded part unfolded, as a phone shows it: its widths and language, what sticks out or
spills, how many places (a table's round and table) and QR codes it has."""


@pytest.mark.parametrize("keeper", [False, True], ids=["viewer", "scorekeeper"])
def test_no_club_page_is_wider_than_a_390_pixel_phone_with_four_long_names(
    club: tuple[str, str], chromium: playwright_api.Browser, keeper: bool
) -> None:
    """In English and in Italian, on a phone that only looks and on the scorekeeper's."""
    db, url = club
    page = chromium.new_context(viewport=PHONE).new_page()
    if keeper:  # the scorekeeper's phone also gets each table's link and QR code, opened
        cookie_from(page, f"{url}{link(db)}")
    for language in ("en", "it"):
        speak(page, url, language, PAGES[0])
        for path in PAGES:
            page.goto(f"{url}{path}")
            shown = page.evaluate(SHOWN)
            where = f"{language} {path} (scorekeeper: {keeper}): {shown}"
            assert shown["widths"] == [390, 390] and shown["lang"] == language, where
            assert shown["overflowing"] == [] and shown["spilling"] == [], where
            if path.startswith("/evenings/"):
                assert shown["places"] == 1, where  # the table's own page says its round and table
            if keeper and path == "/events/1":
                assert shown["codes"] == 2, where


def test_the_leaderboard_at_the_bar_follows_a_deal_without_being_reloaded(
    club: tuple[str, str], chromium: playwright_api.Browser
) -> None:
    db, url = club
    page = chromium.new_context(viewport=SCREEN).new_page()
    page.goto(f"{url}/events/1/board")
    board = page.locator("#live .board")
    playwright_api.expect(board.locator("tbody tr").first).to_contain_text("Massimilianone")
    playwright_api.expect(board.locator("tbody tr").first).to_contain_text("+4")
    page.evaluate("window.notReloaded = true")
    key = httpx.get(f"{url}/api/events/1/links", headers=BEARER).json()[1]["key"]
    recorded = httpx.post(
        f"{url}/api/evenings/2/deals", json={"line": "carla solo 26"}, headers={"Authorization": f"Bearer {key}"}
    )
    assert recorded.status_code == 201, recorded.text
    with Ledger(db) as ledger:
        standings = {line.player: line.points for line in ledger.club.event(1).standings}
    assert standings["Carla"] == 6  # +2 from Bruno's lost solo, +4 from her own
    first = board.locator("tbody tr").first
    playwright_api.expect(first).to_contain_text("Carla", timeout=5000)
    playwright_api.expect(first).to_contain_text("+6")
    assert page.evaluate("window.notReloaded") is True
    rows = page.evaluate(
        "[...document.querySelectorAll('#live .board tbody tr')].map(r => [r.querySelector('th').textContent,"
        " r.querySelector('.big').textContent])"
    )
    assert {name: int(points) for name, points in rows} == standings
    shown = [int(points) for _name, points in rows]
    assert shown == sorted(shown, reverse=True)
    assert _widths(page) == [1280, 1280] and _spilling(page) == []


def test_the_sheets_print_on_a4_one_page_per_table(club: tuple[str, str], chromium: playwright_api.Browser) -> None:
    _db, url = club
    page = chromium.new_context(viewport=PHONE).new_page()
    page.goto(f"{url}/events/1/sheets")
    pdf = page.pdf(format="A4", print_background=True)
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    assert pages == 3, f"{pages} pages: the results, then one scoresheet per table"
