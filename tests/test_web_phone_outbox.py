"""The scorekeeper's phone in Chromium: deals tapped while the server cannot be reached wait on the phone, in words,
and are each stored once, in order, with the dealer right; a refused deal keeps its taps; a double tap is one deal;
the pad is the next thing on the screen after every deal, with no scrolling; Back after a deal shows the evening."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_web_browser import (
    CHROMIUM,
    PHONE,
    Restartable,
    Table,
    cookie_from,
    phone_and_server,
    playwright_api,
    shared_server,
    signed_in,
    table,
)
from test_web_support import deal_count, link

from ledger import Ledger
from ledger.values import Terms
from ledger.web.templating import signed

__all__ = ["phone_and_server", "shared_server", "table"]  # the fixtures, shared with the other browser tests

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}")
STORE = "calabresella-waiting-1"
RETRY_MS = 3000
"""How often the phone tries again to send the deals waiting; a test moves the page's clock on by as much rather
than waiting for it."""
Page = playwright_api.Page


WHERE = """async selector => {
  await new Promise(done => setTimeout(done));  // after the events the last tap set off
  const found = document.querySelectorAll(selector);
  if (found.length !== 1) { return found.length; }
  const box = found[0].getBoundingClientRect();
  const x = box.x + box.width / 2, y = box.y + box.height / 2;
  const covered = !found[0].contains(document.elementFromPoint(x, y));
  return { top: box.top, bottom: box.bottom, screen: innerHeight, x, y, covered };
}"""
"""Where the one element `selector` finds is on the screen, its middle, and whether something else covers its middle
(or how many elements it finds, when not one), once the page is done with the events the last tap set off (as the
count's heading opening, which the page answers by bringing up what comes next)."""


def _in_view(page: Page, selector: str, what: str) -> tuple[float, float]:
    """What `selector` finds is on the screen as it is, and nothing covers its middle: a finger can tap it without
    scrolling, once the page has settled (a page reloaded has its scroll put back, a moment later on a busy phone).
    Its middle."""
    where = page.evaluate(WHERE, selector)
    if not isinstance(where, dict):  # not on the page yet: waited for
        page.locator(selector).wait_for(state="attached")
        where = page.evaluate(WHERE, selector)
    for _ in range(20):  # up to 2 s for the page to settle
        if not isinstance(where, dict) or (where["top"] >= 0 and where["bottom"] <= where["screen"]):
            break
        page.wait_for_timeout(100)
        where = page.evaluate(WHERE, selector)
    assert isinstance(where, dict), f"{what}: {where} found"
    assert where["top"] >= 0 and where["bottom"] <= where["screen"], f"{what} is off the screen: {where}"
    assert not where["covered"], f"{what} is covered"
    return where["x"], where["y"]


def _finger(page: Page, selector: str, what: str) -> None:
    """Tap the middle of what `selector` finds, once it is on the screen with nothing over it, where it is (nothing
    scrolled)."""
    page.mouse.click(*_in_view(page, selector, what))


def _tap(page: Page, name: str, value: str) -> None:
    """Tap the pad's button `name=value`, once it is on the screen; again when it did not light up, as a player does
    (on a busy phone the page can still move under the finger: the notice of deals waiting goes, a result is laid
    out)."""
    chip = f"input[name={name}][value='{value}']"
    for _ in range(3):
        _finger(page, f"form.guided label:has({chip})", f"{name}={value}")
        if page.locator(f"form.guided {chip}").is_checked():
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"{name}={value} tapped three times, and not lit")


def _record(page: Page) -> None:
    _finger(page, ".record-bar button", "Record")


def _answer(page: Page, fact: str, value: str) -> None:
    """Answer the question the page asks for one more fact."""
    button = f"#asked button[name={fact}][value='{value}']"
    page.locator(button).wait_for()
    _finger(page, button, f"the answer {fact}={value}")


def _tap_deal(page: Page, taps: tuple[tuple[str, str], ...]) -> None:
    for name, value in taps:
        _tap(page, name, value)
    _record(page)


def _signed_in(page: Page, served: Restartable) -> None:
    """The scorekeeper's link opened: on to evening 1's page."""
    cookie_from(page, f"{served.url}{link(served.db_url)}")
    page.goto(f"{served.url}/evenings/1")


SOLO_7 = (("declarer", "Bruno"), ("contract", "solo"), ("whole", "7"))
ALL_POINTS = (("declarer", "Anna"), ("contract", "solo"), ("whole", "11"), ("third", "2/3"))
PASS = (("declarer", "pass"),)
POINTS = (("whole", "7"), ("third", "1/3"))


def test_four_deals_tapped_offline_are_stored_once_in_order_with_the_dealer_right(
    phone_and_server: tuple[Page, Restartable], sqlite_url: str
) -> None:
    """Today's probe: the second deal was refused, a deal needing the trick count vanished, two passed deals were
    stored once and the dealer went one seat wrong."""
    page, served = phone_and_server
    page.clock.install()
    _signed_in(page, served)
    served.stop()
    for deal in (SOLO_7, ALL_POINTS, PASS, PASS):
        _tap_deal(page, deal)
    waiting = page.locator("#waiting")
    playwright_api.expect(waiting).to_contain_text(
        "4 deals waiting: Bruno solo 7, Anna solo 11+2/3, all passed, all passed. They go in order"
    )
    assert page.locator("form.guided input:checked").evaluate_all("all => all.map(i => i.name + '=' + i.value)") == [
        "third="
    ]  # the pad is ready for the next deal

    served.start()
    page.clock.fast_forward(RETRY_MS)
    playwright_api.expect(page.locator("#asked")).to_contain_text("How many tricks did the declarer side take?")
    playwright_api.expect(waiting).to_have_text("Waiting behind it: all passed, all passed.")  # not "as soon as"
    assert deal_count(sqlite_url) == 1
    _answer(page, "tricks", "12")
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 4 recorded", timeout=10000)
    playwright_api.expect(waiting).to_be_hidden()
    assert page.evaluate(f"localStorage.getItem('{STORE}')") == "[]"
    playwright_api.expect(page.locator("#live .turn")).to_contain_text("Anna deals")
    with Ledger(sqlite_url) as ledger:
        deals = ledger.deals(1)[1]
    assert [(d.number, d.declarer, d.declarer_thirds, d.dealer) for d in deals] == [
        (1, "Bruno", 21, "Carla"),
        (2, "Anna", 35, "Anna"),
        (3, None, None, "Bruno"),
        (4, None, None, "Carla"),
    ]


def test_deals_waiting_outlive_a_reload_and_a_server_restart(
    phone_and_server: tuple[Page, Restartable], sqlite_url: str
) -> None:
    page, served = phone_and_server
    page.context.set_extra_http_headers({"Accept-Language": "it-IT,it;q=0.9"})
    page.clock.install()
    _signed_in(page, served)
    page.route("**/evenings/1/deals", lambda route: route.abort("internetdisconnected"))  # the phone's wifi is off
    _tap_deal(page, (("declarer", "Carla"), ("contract", "solo"), ("whole", "8")))
    chiamo = (("declarer", "Bruno"), ("contract", "chiamo"), ("rank", "3"), ("suit", "D"), ("holder", "Anna"))
    _tap_deal(page, (*chiamo, ("whole", "6")))
    said = "2 smazzate in attesa: Carla solo 8, Bruno chiamo 3D@Anna 6. Partono in ordine"
    playwright_api.expect(page.locator("#waiting")).to_contain_text(said)
    playwright_api.expect(page.locator("#waiting")).to_be_visible()
    page.reload()
    playwright_api.expect(page.locator("#waiting")).to_contain_text(said)
    served.stop()
    served.start()
    assert deal_count(sqlite_url) == 0
    page.unroute("**/evenings/1/deals")
    page.clock.fast_forward(RETRY_MS)
    playwright_api.expect(page.locator(".result h2")).to_have_text("Smazzata 2 registrata")
    with Ledger(sqlite_url) as ledger:
        deals = ledger.deals(1)[1]
    assert [(d.declarer, d.contract, d.declarer_thirds, d.called, d.holder) for d in deals] == [
        ("Carla", "solo", 24, None, None),
        ("Bruno", "chiamo", 18, "3D", "Anna"),
    ]


def test_a_deal_refused_when_another_phone_recorded_first_keeps_its_taps(
    shared_server: tuple[str, str], chromium: playwright_api.Browser
) -> None:
    """Four players, the dealer sits out: another phone's deal makes Anna the dealer, so her deal is refused; every
    other fact stays tapped, and one tap on another declarer records it, with no keyboard."""
    db, url = shared_server
    with Ledger(db) as ledger:
        evening = ledger.start_evening(["Anna", "Bruno", "Carla", "Dario"], Terms(stake="0.10")).number
    page = chromium.new_context(viewport=PHONE).new_page()
    signed_in(page, Table(url, db, evening))
    with Ledger(db) as ledger:
        ledger.record("bruno solo 22", evening=evening)
    # the page hears of it before the first tap (its totals' line grows under the finger when it does), not its pad
    playwright_api.expect(page.locator("#totals")).to_contain_text("+4")
    taps = (
        ("declarer", "Anna"),
        ("contract", "chiamo"),
        ("rank", "3"),
        ("suit", "D"),
        ("holder", "Bruno"),
        *POINTS,
    )
    _tap_deal(page, taps)
    playwright_api.expect(page.locator("#waiting")).to_contain_text("Anna deals and sits out")
    checked = page.locator("form.guided input:checked").evaluate_all("all => all.map(i => [i.name, i.value])")
    assert [tuple(pair) for pair in checked] == list(taps)
    _tap(page, "declarer", "Carla")
    _record(page)
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 2 recorded", timeout=10000)
    assert page.evaluate("document.activeElement.type") not in ("text", "search", "number", "tel")
    playwright_api.expect(page.locator("#waiting")).to_be_hidden()
    with Ledger(db) as ledger:
        deal = ledger.deals(evening)[1][-1]
    assert (deal.declarer, deal.contract, deal.called, deal.holder, deal.declarer_thirds) == (
        "Carla",
        "chiamo",
        "3D",
        "Bruno",
        22,
    )


def test_a_double_tap_on_record_is_one_deal_and_says_it_is_recorded(
    table: Table, chromium: playwright_api.Browser
) -> None:
    page = chromium.new_context(viewport=PHONE).new_page()
    signed_in(page, table)
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    for name, value in SOLO_7:
        _tap(page, name, value)
    page.locator(".record-bar button").dblclick()
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 1 recorded")
    assert page.evaluate(f"localStorage.getItem('calabresella-waiting-{table.number}')") == "[]"
    assert len(posts) == 1 and "already" not in page.locator("main").inner_text()
    assert deal_count(table.db, table.number) == 1


@pytest.mark.parametrize("apart_ms", [0, 250])
def test_the_second_tap_of_a_double_tap_on_record_lights_nothing_for_the_next_deal(
    table: Table, chromium: playwright_api.Browser, apart_ms: int
) -> None:
    """Record clears the pad and brings the deal's notice into view, which moves the pad: the second tap, where
    Record was, lit a button of the fresh pad (`+1/3`), and the next deal went in with a third it was never given."""
    page = chromium.new_context(viewport=PHONE).new_page()
    signed_in(page, table)
    for name, value in SOLO_7:
        _tap(page, name, value)
    x, y = _in_view(page, ".record-bar button", "Record")
    page.mouse.click(x, y)
    page.wait_for_timeout(apart_ms)
    page.mouse.click(x, y)
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 1 recorded")
    assert page.locator("form.guided input:checked").evaluate_all("all => all.map(i => i.name + '=' + i.value)") == [
        "third="
    ]
    _tap_deal(page, (("declarer", "Carla"), ("contract", "solo"), ("whole", "8")))
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 2 recorded")
    with Ledger(table.db) as ledger:
        deals = ledger.deals(table.number)[1]
    assert [(d.declarer, d.declarer_thirds) for d in deals] == [("Bruno", 21), ("Carla", 24)]


LAST_TRICK, TRICKS = ("last_trick", "decl"), ("tricks", "12")
KINDS: tuple[tuple[tuple[tuple[str, str], ...], tuple[str, str] | None], ...] = (
    ((("declarer", "Bruno"), ("contract", "solo"), ("whole", "7"), ("third", "1/3")), None),
    (
        (
            ("declarer", "Carla"),
            ("contract", "chiamo"),
            ("rank", "3"),
            ("suit", "D"),
            ("holder", "Anna"),
            ("whole", "6"),
        ),
        None,
    ),
    (PASS, None),
    ((("declarer", "Anna"), ("contract", "solissimo"), ("whole", "8")), None),
    ((("declarer", "Bruno"), ("contract", "solissimo dividete"), ("whole", "10")), LAST_TRICK),
    (ALL_POINTS, TRICKS),
    (
        (("declarer", "Carla"), ("contract", "solo"), ("count", ""), ("aces", "2"), ("figures", "10"), ("last", "u")),
        None,
    ),
    (
        (
            ("declarer", "Anna"),
            ("contract", "chiamo"),
            ("rank", "A"),
            ("suit", "B"),
            ("holder", "declarer"),
            ("whole", "9"),
        ),
        None,
    ),
    (PASS, None),
    (
        (
            ("declarer", "Bruno"),
            ("contract", "chiamo"),
            ("rank", "2"),
            ("suit", "S"),
            ("holder", "monte"),
            ("whole", "5"),
        ),
        None,
    ),
)
"""Every kind of deal: the taps, and the question the rules then ask with its answer."""


def _tap_kind(page: Page, taps: tuple[tuple[str, str], ...]) -> None:
    """Tap a deal of `KINDS` on the pad, each button once it is on the screen: `count` opens the count of the cards,
    `last` ticks the last trick's box."""
    for name, value in taps:
        if name == "count":
            _finger(page, "form.guided details.count summary", "the count")
        elif name == "last":
            _finger(page, "form.guided label.confirm:has(input[name=last])", "the last trick")
        else:
            _tap(page, name, value)


@pytest.mark.parametrize(
    ("viewport", "count"),
    [({"width": 360, "height": 640}, 2 * len(KINDS)), (PHONE, len(KINDS))],
    ids=["360x640-twice", "390x844-once"],
)
def test_deals_of_every_kind_are_tapped_without_scrolling(
    table: Table, chromium: playwright_api.Browser, viewport: dict[str, int], count: int
) -> None:
    """Each button is on the screen when its turn comes (the page brings the next one up itself), nothing sticky
    covers one, and after each deal the result is one line above the totals and a fresh pad: every kind of deal twice
    over on the smaller phone, the page growing with the evening; each kind once on the larger. (The standings came
    1,000 px below the pad.)"""
    page = chromium.new_context(viewport=viewport, device_scale_factor=2, locale="it-IT").new_page()
    signed_in(page, table)
    for number in range(1, count + 1):
        kind, asked = KINDS[(number - 1) % len(KINDS)]
        _tap_kind(page, kind)
        _record(page)
        if asked:
            _answer(page, *asked)
        playwright_api.expect(page.locator(".result h2")).to_have_text(f"Smazzata {number} registrata")
        _in_view(page, "#totals", f"the totals after deal {number}")
    with Ledger(table.db) as ledger:
        deals = ledger.deals(table.number)[1]
        points = ledger.evening(table.number).points
    assert len(deals) == count and [d.declarer for d in deals[:3]] == ["Bruno", "Carla", None]
    assert [d.declarer_thirds for d in deals[5:7]] == [35, 19]
    said = " · ".join(f"{name} {signed(points[name])}" for name in ("Anna", "Bruno", "Carla"))
    playwright_api.expect(page.locator("#totals")).to_have_text(f"Totali: {said}")


def test_back_after_a_deal_shows_the_evening_as_it_is_now(table: Table, chromium: playwright_api.Browser) -> None:
    """Today's probe: Back left the evening, and could land on an old page saying a deal is already recorded."""
    page = chromium.new_context(viewport=PHONE).new_page()
    signed_in(page, table)
    _tap_deal(page, SOLO_7)
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 1 recorded")
    _tap_deal(page, PASS)
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 2 recorded")
    assert page.url == f"{table.page}?recorded=2"
    page.go_back()
    page.wait_for_url(table.page)
    playwright_api.expect(page.locator(".result")).to_have_count(0)
    playwright_api.expect(page.locator("#live .running")).to_contain_text("all passed")
    _in_view(page, "form.guided label:has(input[name=declarer][value=Anna])", "the declarer")
    page.goto(f"{table.page}?recorded=1")  # the first deal's address, opened later
    playwright_api.expect(page.locator("#live .running")).to_contain_text("all passed")
    assert page.locator(".result").count() == 0 and "already" not in page.locator("main").inner_text()
    assert deal_count(table.db, table.number) == 2
