"""A real phone-sized browser: headless Chromium (the system's, nothing downloaded) at 390 x 844 records a deal
through the guided form on one page, and a second page shows the new standings without being reloaded."""

from __future__ import annotations

import http.server
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from conftest import CHROMIUM
from test_serve import _free_port, serving
from test_web_support import TOKEN, deal_count, link, start

from ledger import Ledger
from ledger.values import Terms

PHONE = {"width": 390, "height": 844}

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}")


@dataclass(frozen=True)
class Table:
    """A test's own evening (the newest open one) on the module's server."""

    url: str
    """The server's base URL."""
    db: str
    number: int

    @property
    def page(self) -> str:
        """The evening's page."""
        return f"{self.url}/evenings/{self.number}"


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`calabresella serve` for a module's tests, over a SQLite ledger of their own: the ledger and the base URL."""
    db = str(tmp_path_factory.mktemp("served") / "ledger.sqlite3")
    Ledger(db).close()
    with served(db) as url:
        yield db, url


@pytest.fixture
def table(shared_server: tuple[str, str]) -> Table:
    """A new evening of Anna, Bruno and Carla on the module's server, for one test."""
    db, url = shared_server
    return Table(url, db, start(db))


def cookie_from(page: playwright_api.Page, address: str) -> None:
    """`address` asked for with `page`'s cookies, which keep the cookie it sets; the page it leads to is not drawn."""
    answer = page.request.get(address, max_redirects=0)
    assert answer.status == 303 and answer.headers["set-cookie"], f"{address}: {answer.status}"


def speak(page: playwright_api.Page, base: str, language: str, then: str) -> None:
    """The page's language switch tapped, as on a phone (its service worker hears of it); it leads to `then`."""
    page.goto(f"{base}/language/{language}?next={then}")


def signed_in(page: playwright_api.Page, table: Table) -> None:
    """The scorekeeper's link opened with `page`'s cookies (it holds a write session now), then the table's evening
    on `page`."""
    cookie_from(page, f"{table.url}{link(table.db)}")
    page.goto(table.page)


def _png(width: int, height: int) -> bytes:
    """A white PNG image of `width` x `height` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = (b"\x00" + b"\xff\xff\xff" * width) * height
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


BLANK_CHART = _png(960, 720)
"""A blank image as large as a chart."""


def charts_left_blank(page: playwright_api.Page) -> None:
    """Every chart `page` asks for comes as a blank image as large as a chart, for a test of where things are on the
    pages: the server draws each chart anew for each page (matplotlib), which would cost such a test most of its
    time."""
    page.route("**/evenings/*/charts/*.png", lambda route: route.fulfill(body=BLANK_CHART, content_type="image/png"))


OVERFLOWING = """() => [...document.querySelectorAll('button, .button, .bar > *, h1, h2, label')]
    .filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth)
    .map(e => e.textContent.trim())"""
"""The texts of the buttons, bar items, headings and labels that stick out of their box or past the screen."""


def _overflowing(page: playwright_api.Page) -> list[str]:
    """What sticks out on `page` (`OVERFLOWING`)."""
    return page.evaluate(OVERFLOWING)


def test_a_deal_tapped_in_on_one_phone_shows_on_another_without_reloading(
    chromium: playwright_api.Browser, db_url: str
) -> None:
    """On SQLite and on PostgreSQL, each with a server of its own (on SQLite `calabresella serve` itself, in a process
    of its own): the scorekeeper's link leads to the open evening."""
    start(db_url)
    with ExitStack() as serving_it, ThreadPoolExecutor(1) as starter:
        serve = served if db_url.startswith("postgresql") else by_command
        starting = starter.submit(serving_it.enter_context, serve(db_url))
        keeper = chromium.new_context(viewport=PHONE, device_scale_factor=2).new_page()  # while the server starts
        watcher = chromium.new_context(viewport=PHONE, device_scale_factor=2).new_page()
        server = starting.result()

        keeper.goto(f"{server}{link(db_url)}")  # the welcome page: one tap on to the open evening
        keeper.get_by_role("link", name="To the evening").click()
        watcher.goto(f"{server}/")
        playwright_api.expect(watcher.locator("#live")).to_contain_text("No deals yet.")
        watcher.evaluate("window.notReloaded = true")

        keeper.wait_for_url(f"{server}/evenings/1")
        keeper.get_by_role("group", name="Declarer").get_by_text("Bruno", exact=True).click()
        keeper.get_by_role("group", name="Contract").get_by_text("solo", exact=True).click()
        keeper.locator(".pad.points").get_by_text("7", exact=True).click()
        keeper.locator(".pad.thirds").get_by_text("+⅓", exact=True).click()
        keeper.get_by_role("button", name="Record the deal").click()
        playwright_api.expect(keeper.locator(".result")).to_contain_text("Deal 1 recorded")
        playwright_api.expect(keeper.locator(".result")).to_contain_text("solo 2 = 2 from each opponent")

        standings = watcher.locator("#live .standings")
        playwright_api.expect(standings).to_contain_text("+4", timeout=2000)
        playwright_api.expect(watcher.locator("#live .running")).to_contain_text("Bruno solo · 7+1/3 · won")
        assert watcher.evaluate("window.notReloaded") is True
        assert watcher.locator("form").count() == 0
        playwright_api.expect(keeper.locator(".result")).to_be_visible()  # both drawn on screen, not only written
        playwright_api.expect(standings).to_be_visible()


def test_an_italian_phone_gets_the_evening_in_italian_and_nothing_overflows(
    table: Table, chromium: playwright_api.Browser
) -> None:
    phone = chromium.new_context(viewport=PHONE, device_scale_factor=2, locale="it-IT").new_page()
    signed_in(phone, table)
    phone.locator("#line").fill("bruno solo 22")
    phone.get_by_role("button", name="Registra", exact=True).click()
    playwright_api.expect(phone.locator(".result")).to_contain_text("Smazzata 1 registrata")
    assert phone.locator("html").get_attribute("lang") == "it"
    playwright_api.expect(phone.locator("h1")).to_have_text(f"Serata {table.number}")
    playwright_api.expect(phone.locator("#live .standings")).to_contain_text("+0,40\xa0€")
    playwright_api.expect(phone.get_by_role("button", name="Registra la smazzata")).to_be_visible()
    assert _overflowing(phone) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_phone_that_only_looks_has_its_whole_bar_on_screen(
    table: Table, chromium: playwright_api.Browser, locale: str
) -> None:
    phone = chromium.new_context(viewport=PHONE, device_scale_factor=2, locale=locale).new_page()
    phone.goto(f"{table.url}/evenings")
    playwright_api.expect(phone.locator(".bar .viewer")).to_be_visible()
    assert _overflowing(phone) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


PAGES = (
    "/evenings",
    "/evenings/new",
    "/evenings/{n}",
    "/evenings/{n}/deals",
    "/evenings/{n}/deals/1",
    "/evenings/{n}/settle",
    "/evenings/{n}/charts",
    "/evenings/{n}/report",
    "/welcome",
)
"""The pages a scorekeeper's phone opens ({n}: its evening)."""


def test_every_page_passes_the_strict_policy_cannot_be_framed_and_keeps_no_token(
    table: Table, chromium: playwright_api.Browser
) -> None:
    """The probes: one click in an invisible frame undid the last deal; the cookie held the raw token, which
    Chromium also sent to another port of the same host."""
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(f"{page.url}: {message.text}") if "Content Security Policy" in message.text else None
        ),
    )
    signed_in(page, table)
    page.locator("#line").fill("bruno solo 22")
    page.get_by_role("button", name="Record", exact=True).click()
    playwright_api.expect(page.locator(".result")).to_contain_text("Deal 1 recorded")
    charts_left_blank(page)
    for path in PAGES:
        page.goto(table.url + path.format(n=table.number), wait_until="load")
    page.goto(table.page)
    playwright_api.expect(page.locator("#live .standings")).to_contain_text("+4")
    page.unroute_all()
    page.goto(f"{table.page}/charts/running.png", wait_until="load")  # a chart as the server draws it
    assert refused == []

    session = next(cookie for cookie in context.cookies() if cookie["name"].startswith("calabresella_session_"))
    assert TOKEN not in session["value"] and session["httpOnly"] and session["sameSite"] == "Strict"

    framing = context.new_page()
    with elsewhere(f'<iframe src="{table.page}" width="390" height="800"></iframe>') as site:
        framing.goto(site)  # done once the frame, refused or not, has loaded
    framed = framing.frames[1]
    assert f"Evening {table.number}" not in framed.content() and framed.locator("form").count() == 0


@contextmanager
def elsewhere(html: str) -> Iterator[str]:
    """A page of another site on another port of this host (Chromium would not let a site on the internet frame a
    page of this machine at all): its address."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(html.encode())

        def log_message(self, format: str, *args: object) -> None:
            """Quiet."""

    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page) as site:
        thread = threading.Thread(target=site.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{site.server_port}/"
        finally:
            site.shutdown()
            thread.join()


def test_deals_are_tapped_in_with_few_taps_and_no_keyboard(table: Table, chromium: playwright_api.Browser) -> None:
    """At 390 x 844: a solo of 7+1/3 in 5 taps, a chiamo with its called card and holder in 7, a passed deal in 2,
    Record included; no text field ever focused (so no keyboard opens); after a result, the declarers on the first
    screen."""
    page = chromium.new_context(viewport=PHONE).new_page()
    signed_in(page, table)
    taps: list[str] = []

    def tap(locator: playwright_api.Locator, name: str) -> None:
        locator.click()
        taps.append(name)
        focused = page.evaluate("document.activeElement && document.activeElement.type")
        assert focused not in ("text", "search", "number", "tel"), f"a keyboard would open after {name}"

    def chip(group: str, text: str) -> playwright_api.Locator:
        return page.locator(group).get_by_text(text, exact=True)

    def record(number: int) -> None:
        tap(page.locator(".record-bar button"), "record")
        page.locator(".result h2").filter(has_text=f"Deal {number} recorded").wait_for()
        box = page.locator("fieldset:has(legend:text-is('Declarer')) label").first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], "declarers below the first screen"

    tap(chip("fieldset:has(legend:text-is('Declarer'))", "Bruno"), "Bruno")
    tap(chip("fieldset:has(legend:text-is('Contract'))", "solo"), "solo")
    tap(chip(".pad.points", "7"), "7")
    tap(chip(".pad.thirds", "+⅓"), "+1/3")
    record(1)
    assert len(taps) == 5
    taps.clear()
    tap(chip("fieldset:has(legend:text-is('Declarer'))", "Carla"), "Carla")
    tap(chip("fieldset:has(legend:text-is('Contract'))", "chiamo"), "chiamo")
    tap(chip(".pad.ranks", "3"), "3")
    tap(chip(".pad.suits", "denari"), "denari")
    tap(chip("fieldset:has(legend:text-is('Who held it'))", "Anna"), "Anna")
    tap(chip(".pad.points", "6"), "6")
    record(2)
    assert len(taps) == 7
    taps.clear()
    tap(chip("fieldset:has(legend:text-is('Declarer'))", "pass"), "pass")
    record(3)
    assert len(taps) == 2
    with Ledger(table.db) as ledger:
        deals = ledger.deals(table.number)[1]
    assert [(d.declarer, d.contract, d.declarer_thirds, d.called, d.holder) for d in deals] == [
        ("Bruno", "solo", 22, None, None),
        ("Carla", "chiamo", 18, "3D", "Anna"),
        (None, None, None, None, None),
    ]


def _solo(page: playwright_api.Page, declarer: str, points: str) -> None:
    """Tap a solo of `points` whole points by `declarer` on the pad, and Record (in any language)."""
    for name, value in (("declarer", declarer), ("contract", "solo"), ("whole", points)):
        page.locator(f"label.chip:has(input[name={name}][value='{value}'])").click()
    page.locator(".record-bar button").click()


def test_a_deal_tapped_in_is_shown_without_loading_a_page_and_the_next_form_is_ready(
    table: Table, chromium: playwright_api.Browser
) -> None:
    page = chromium.new_context(viewport=PHONE, device_scale_factor=2).new_page()
    signed_in(page, table)
    page.evaluate("window.notReloaded = true")
    first_key = page.locator("form.guided input[name=key]").input_value()
    playwright_api.expect(page.locator("form.undo")).to_be_hidden()  # nothing to take back yet

    _solo(page, "Bruno", "7")
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 1 recorded")
    assert page.evaluate("window.notReloaded") is True
    assert page.url == f"{table.page}?recorded=1"  # a reload shows the result again, and writes nothing
    playwright_api.expect(page.locator("#live .standings")).to_contain_text("+4")
    checked = page.locator("form.guided input:checked").evaluate_all("all => all.map(i => i.name + '=' + i.value)")
    assert checked == ["third="]  # the pad as a fresh page draws it
    keys = {page.locator(f"{form} input[name=key]").input_value() for form in ("form.guided", "form.quick")}
    assert len(keys) == 1 and first_key not in keys
    assert page.locator("input[name=seen_revision]").evaluate_all("all => all.map(i => i.value)") == ["1"]
    playwright_api.expect(page.locator("form.undo")).to_be_visible()
    assert (
        page.locator(".lang a[hreflang=it]").get_attribute("href")
        == f"/language/it?next=%2Fevenings%2F{table.number}%3Frecorded%3D1"
    )

    _solo(page, "Carla", "8")  # the next deal, on the form swapped in
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 2 recorded")
    with Ledger(table.db) as ledger:  # a deal recorded elsewhere still reaches the page swapped in
        ledger.record("anna solo 20", evening=table.number)
    playwright_api.expect(page.locator("#live .turn")).to_have_attribute("data-revision", "3", timeout=5000)
    playwright_api.expect(page.locator("#totals")).to_have_text("Totals: Anna 0 · Bruno 0 · Carla 0")  # over the pad
    assert page.locator("input[name=seen_revision]").evaluate_all("all => all.map(i => i.value)") == ["3"]
    assert page.evaluate("window.notReloaded") is True

    page.locator(".lang a[hreflang=it]").click()
    page.wait_for_url(f"{table.page}?recorded=2")
    page.evaluate("window.notReloaded = true")
    _solo(page, "Anna", "9")
    playwright_api.expect(page.locator(".result h2")).to_have_text("Smazzata 4 registrata")
    playwright_api.expect(page.get_by_role("button", name="Registra la smazzata")).to_be_visible()
    assert page.evaluate("window.notReloaded") is True
    assert _overflowing(page) == [] and page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.reload()
    playwright_api.expect(page.locator(".result h2")).to_have_text("Smazzata 4 registrata")
    assert deal_count(table.db, table.number) == 4


def test_without_script_the_pad_records_through_the_redirect(table: Table, chromium: playwright_api.Browser) -> None:
    page = chromium.new_context(viewport=PHONE, java_script_enabled=False).new_page()
    signed_in(page, table)
    with page.expect_response(lambda response: response.request.method == "POST") as posted:
        _solo(page, "Bruno", "7")
    recorded = f"/evenings/{table.number}?recorded=1"
    assert posted.value.status == 303 and posted.value.headers["location"] == recorded
    page.wait_for_url(f"{table.url}{recorded}")
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 1 recorded")
    assert deal_count(table.db, table.number) == 1


LONG_NAMES = ["Giovanbattista", "Massimilianone", "Bartolomeoalfa", "Mariantonietta"]


def test_every_page_fits_a_390_pixel_phone_with_four_long_names(
    shared_server: tuple[str, str], chromium: playwright_api.Browser
) -> None:
    db, server = shared_server
    with Ledger(db) as ledger:
        number = ledger.start_evening(
            LONG_NAMES, Terms(profile="quartiglio", options=["game_to=5"], stake="0.10")
        ).number
        for line in ("giovan solo 8 last=decl", "massi chiamo 3D@barto 7 last=decl", "pass", "barto solo 11"):
            ledger.record(line, evening=number)
    pages = ["", "/deals", "/deals/2", "/settle", "/charts", "/report"]
    page = chromium.new_context(viewport=PHONE).new_page()
    charts_left_blank(page)
    cookie_from(page, f"{server}{link(db)}")
    for language in ("en", "it"):
        speak(page, server, language, f"/evenings/{number}")
        for path in pages:
            page.goto(f"{server}/evenings/{number}{path}")
            shown = page.evaluate("[document.documentElement.scrollWidth, innerWidth, document.documentElement.lang]")
            assert shown == [390, 390, language], f"/evenings/{number}{path}: {shown}"
        back = page.locator(".back a")  # the report leads back to the evening
        assert back.get_attribute("href") == f"/evenings/{number}"


class Restartable:
    """The app `calabresella serve` runs (the same app, HTTP protocol and stop) on one loopback port, in a thread of
    the test process, which a test stops and starts again (a new process would cost a second each time; the first
    test of the module drives the real command)."""

    def __init__(self, db_url: str) -> None:
        self.db_url, self.port = db_url, _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    def start(self, token: str = TOKEN) -> None:
        """Serve with `token` as the write token, once it answers."""
        from ledger.cli.serve import STOP_SECONDS, allowed_hosts
        from ledger.web.app import create_app
        from ledger.web.protocol import Connection

        app = create_app(self.db_url, token, hosts=allowed_hosts("127.0.0.1", []))
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_config=None,
            timeout_graceful_shutdown=STOP_SECONDS,
            http=Connection,
        )
        self.server = server = uvicorn.Server(config)
        self.thread = threading.Thread(target=server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the app did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        """Stop as Ctrl-C stops `calabresella serve`: the port closes and every connection ends."""
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.thread.join(10)
            self.server = self.thread = None


@contextmanager
def by_command(db_url: str) -> Iterator[str]:
    """`calabresella serve` itself over the ledger, in a process of its own; its base URL."""
    with serving(db_url) as (url, _process):
        yield url


@contextmanager
def served(db_url: str) -> Iterator[str]:
    """The served app over the ledger on a free loopback port, once it answers; its base URL."""
    server = Restartable(db_url)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def phone_and_server(
    sqlite_url: str, chromium: playwright_api.Browser
) -> Iterator[tuple[playwright_api.Page, Restartable]]:
    """A 390 x 844 Chromium page, and a server of its own that it talks to (evening 1 open), which the test may stop
    and restart."""
    start(sqlite_url)
    served = Restartable(sqlite_url)
    served.start()
    try:
        yield chromium.new_context(viewport=PHONE).new_page(), served
    finally:
        served.stop()


def test_a_viewer_sees_the_connection_go_and_come_back_and_follows_the_table(
    phone_and_server: tuple[playwright_api.Page, Restartable], sqlite_url: str
) -> None:
    page, served = phone_and_server
    page.goto(f"{served.url}/evenings/1")
    served.stop()
    status = page.locator(".connection")
    playwright_api.expect(status).to_contain_text("No connection to the server", timeout=5000)
    with Ledger(sqlite_url) as ledger:  # while the server is away, the table closes and plays on
        ledger.close_evening(1)
    served.start()
    playwright_api.expect(status).to_contain_text("Connected again", timeout=8000)
    playwright_api.expect(page.locator("#live")).to_contain_text("no deal can change", timeout=5000)
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(stake="0.10"))  # by another program: the CLI
    page.wait_for_url(f"{served.url}/evenings/2", timeout=8000)


def test_a_deal_tapped_in_while_the_server_is_away_waits_and_is_stored_once(
    phone_and_server: tuple[playwright_api.Page, Restartable], sqlite_url: str
) -> None:
    page, served = phone_and_server
    page.clock.install()
    cookie_from(page, f"{served.url}{link(sqlite_url)}")
    page.goto(f"{served.url}/evenings/1")
    served.stop()
    page.locator("fieldset:has(legend:text-is('Declarer'))").get_by_text("Bruno", exact=True).click()
    page.locator("fieldset:has(legend:text-is('Contract'))").get_by_text("solo", exact=True).click()
    page.locator(".pad.points").get_by_text("7", exact=True).click()
    page.locator(".record-bar button").click()
    playwright_api.expect(page.locator("#waiting")).to_have_text(
        "1 deal waiting: Bruno solo 7. It goes as soon as the server answers."
    )
    served.start()
    page.clock.fast_forward(3000)  # the phone tries again every 3 seconds
    playwright_api.expect(page.locator(".result")).to_contain_text("Deal 1 recorded")
    assert page.evaluate("localStorage.getItem('calabresella-waiting-1')") == "[]"
    with Ledger(sqlite_url) as ledger:
        assert [(d.declarer, d.declarer_thirds) for d in ledger.deals(1)[1]] == [("Bruno", 21)]


def test_a_deal_tapped_after_the_link_changed_waits_until_the_new_link_is_opened(
    phone_and_server: tuple[playwright_api.Page, Restartable], sqlite_url: str
) -> None:
    page, served = phone_and_server
    cookie_from(page, f"{served.url}{link(sqlite_url)}")
    page.goto(f"{served.url}/evenings/1")
    served.stop()
    renewed = TOKEN + "-renewed"
    served.start(renewed)  # the scorekeeper restarted the server with a new token: the old link no longer records
    page.locator("fieldset:has(legend:text-is('Declarer'))").get_by_text("Carla", exact=True).click()
    page.locator("fieldset:has(legend:text-is('Contract'))").get_by_text("solo", exact=True).click()
    page.locator(".pad.points").get_by_text("8", exact=True).click()
    page.locator(".record-bar button").click()
    playwright_api.expect(page.locator("#waiting")).to_contain_text("open the scorekeeper's link again")
    with Ledger(sqlite_url) as ledger:
        assert ledger.deals(1)[1] == []
    cookie_from(page, f"{served.url}{link(sqlite_url, renewed)}")  # where it leads: the first test
    page.goto(f"{served.url}/evenings/1")
    playwright_api.expect(page.locator(".result")).to_contain_text("Deal 1 recorded", timeout=10000)
    with Ledger(sqlite_url) as ledger:
        assert [(d.declarer, d.declarer_thirds) for d in ledger.deals(1)[1]] == [("Carla", 24)]
