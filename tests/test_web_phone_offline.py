"""The phone through any outage, in Chromium at 390 x 844: a reload and a new tab with the network cut show the pad, the
last standings heard and the deals waiting, and the deals go once, in order, when it is back (the service worker on
127.0.0.1, a secure context); an updated server reaches an open page on the same visit, once nothing would be lost;
the taps of a deal survive a switch of language; a question owns the pad; an undo tick never carries over to another
change, and the phone whose deal another phone took back is told; a club table's page says by itself when its round
ended (also when a reload in the outage brought back the copy kept), and a deal refused after it is said once and
never follows the phone to the next round; a stalled connection is seen after two keep-alives missed; the pad keeps
its place on the screen while the line saying so comes and goes."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from test_web_browser import (
    PHONE,
    Restartable,
    Table,
    cookie_from,
    phone_and_server,
    playwright_api,
    pytestmark,
    shared_server,
    signed_in,
    speak,
    table,
)
from test_web_phone_outbox import KINDS, PASS, RETRY_MS, SOLO_7, _record, _signed_in, _tap, _tap_deal, _tap_kind
from test_web_support import keys

from ledger import Ledger
from ledger.values import Terms
from ledger.web import shell
from ledger.web.live import KEEP_ALIVE_SECONDS

__all__ = ["phone_and_server", "pytestmark", "shared_server", "table"]  # the skip and the fixtures

Page = playwright_api.Page
PAGE_WAIT_SECONDS = (
    int(re.findall(r"PAGE_WAIT_MS = (\d+)", (Path(shell.__file__).parent / "static/sw.js").read_text())[0]) / 1000
)
"""How long the phone waits for the server before it shows the copy it kept of a page."""
CARLA_8 = (("declarer", "Carla"), ("contract", "solo"), ("whole", "8"))


def _kept(page: Page, path: str) -> None:
    """Wait until the phone's service worker controls `page` and keeps `path`."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function(f"() => caches.match('{path}').then(Boolean)")


def _cut(page: Page) -> None:
    """The phone's Wi-Fi is off: every request of its pages and its service worker fails."""
    page.context.route("**/*", lambda route: route.abort("internetdisconnected"))
    page.context.set_offline(True)


def _back(page: Page) -> None:
    page.context.unroute_all()
    page.context.set_offline(False)


def _deals(db: str, evening: int = 1) -> list[tuple[str | None, int | None]]:
    with Ledger(db) as ledger:
        return [(deal.declarer, deal.declarer_thirds) for deal in ledger.deals(evening)[1] if not deal.voided]


def test_a_reload_and_a_new_tab_with_the_network_cut_show_the_pad_and_the_deals_go_once_when_it_is_back(
    phone_and_server: tuple[Page, Restartable], sqlite_url: str
) -> None:
    """In Italian: a deal recorded, the Wi-Fi cut, a reload (the pad, the last standings said to be of their time), two
    deals tapped, a new tab on `/` (the same evening, the same deals waiting), the server restarted; the Wi-Fi back:
    every deal stored once, in order. Before the service worker, the reload showed the browser's error page."""
    page, served = phone_and_server
    page.context.set_extra_http_headers({"Accept-Language": "it-IT,it;q=0.9"})
    page.clock.install()
    _signed_in(page, served)
    _kept(page, "/evenings/1")
    _tap_deal(page, SOLO_7)
    playwright_api.expect(page.locator(".result h2")).to_have_text("Smazzata 1 registrata")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('calabresella-live-1') || '{}').revision === 1")

    _cut(page)
    served.stop()  # the server out of reach too: a browser's own cut can let a request of a page being reloaded through
    page.reload()
    playwright_api.expect(page.locator("form.guided")).to_be_visible()
    playwright_api.expect(page.locator("#live .standings")).to_contain_text("+4")  # the last standings heard
    status = page.locator("p.connection")
    playwright_api.expect(status).to_contain_text("Nessun collegamento con il server: i totali sono quelli delle ")
    _tap_deal(page, PASS)
    _tap_deal(page, CARLA_8)
    waiting = "2 smazzate in attesa: hanno passato tutti, Carla solo 8."
    playwright_api.expect(page.locator("#waiting")).to_contain_text(waiting)

    tab = page.context.new_page()
    tab.goto(f"{served.url}/")  # a new tab, the server still out of reach: the evening opened last
    playwright_api.expect(tab.locator("h1")).to_have_text("Serata 1")
    playwright_api.expect(tab.locator("#waiting")).to_contain_text(waiting)
    tab.close()
    assert _deals(sqlite_url) == [("Bruno", 21)]
    served.start()  # a new server process, as after a restart

    _back(page)
    page.clock.fast_forward(RETRY_MS)
    playwright_api.expect(page.locator(".result h2")).to_have_text("Smazzata 3 registrata", timeout=10000)
    playwright_api.expect(page.locator("#waiting")).to_be_hidden()
    assert _deals(sqlite_url) == [("Bruno", 21), (None, None), ("Carla", 24)]


PAD_TOPS = """() => {
  window.padTops = new Set();
  (function watch() {
    const pad = document.querySelector("form.guided");
    if (pad) { window.padTops.add(Math.round(pad.getBoundingClientRect().top)); }
    requestAnimationFrame(watch);
  })();
}"""
"""Where the pad's top is on the screen, kept at every frame the page draws (`window.padTops`)."""


def test_the_pad_keeps_its_place_on_the_screen_while_the_connection_goes_and_comes_back(
    phone_and_server: tuple[Page, Restartable], sqlite_url: str
) -> None:
    """The line saying that the connection went, then that it is back, comes and goes above the scorekeeper's totals by
    itself, with nobody tapping: the pad under it stays where it is on the screen, so a finger on its way to a button
    still finds it there. Before, the pad jumped down by the line's height when it came (80 px here, 110 px in the
    two-phone evening), and up again four seconds after the connection was back; a tap landed on the button the jump
    brought under the finger."""
    page, served = phone_and_server
    _signed_in(page, served)
    _tap_deal(page, SOLO_7)
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 1 recorded")
    status = page.locator("p.connection")
    page.evaluate(PAD_TOPS)
    served.stop()
    playwright_api.expect(status).to_contain_text("No connection to the server", timeout=10000)
    served.start()
    playwright_api.expect(status).to_contain_text("Connected again", timeout=10000)
    playwright_api.expect(status).to_be_hidden(timeout=10000)
    page.evaluate("() => new Promise(drawn => requestAnimationFrame(() => requestAnimationFrame(drawn)))")  # once gone
    tops = page.evaluate("() => [...window.padTops]")
    assert max(tops) - min(tops) <= 1, f"the pad's top moved on the screen: {sorted(tops)}"  # 1: a part of a pixel


def test_a_page_never_opened_says_so_and_lists_the_evenings_kept(
    phone_and_server: tuple[Page, Restartable],
) -> None:
    page, served = phone_and_server
    _signed_in(page, served)
    _kept(page, "/evenings/1")
    _cut(page)
    page.goto(f"{served.url}/evenings/1/settle")
    playwright_api.expect(page.locator("h1")).to_have_text("No connection to the server")
    playwright_api.expect(page.locator("#kept a")).to_have_attribute("href", "/evenings/1")


def test_points_forgotten_then_tapped_answer_the_question_and_make_no_second_deal(
    table: Table, chromium: playwright_api.Browser
) -> None:
    """Bruno, solo, Record: the points are asked. The pad answers it: its declarers are locked, 7 and Record complete
    the deal. Before, the pad was cleared and Bruno, solo, 7, Record made a second deal."""
    page = chromium.new_context(viewport=PHONE).new_page()
    signed_in(page, table)
    _tap(page, "declarer", "Bruno")
    _tap(page, "contract", "solo")
    _record(page)
    playwright_api.expect(page.locator("#asked")).to_contain_text("How many points did the declarer side take?")
    hint = page.locator(".record-bar .hint")
    playwright_api.expect(hint).to_have_text(
        "The pad answers the question above: How many points did the declarer side take?"
    )
    declarers = page.locator("form.guided fieldset:has(input[name=declarer])")
    assert declarers.evaluate("group => group.disabled")
    page.locator("form.guided label:has(input[name=declarer][value=Bruno])").click(force=True)  # taps as invited
    page.locator("form.guided label:has(input[name=contract][value=solo])").click(force=True)
    _tap(page, "whole", "7")
    _record(page)
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 1 recorded")
    playwright_api.expect(page.locator("#asked")).to_have_count(0)
    assert not declarers.evaluate("group => group.disabled")
    assert _deals(table.db, table.number) == [("Bruno", 21)]


def test_a_fact_the_pad_has_no_button_for_locks_it_with_the_question(
    table: Table, chromium: playwright_api.Browser
) -> None:
    page = chromium.new_context(viewport=PHONE).new_page()
    signed_in(page, table)
    _tap_deal(page, (("declarer", "Anna"), ("contract", "solo"), ("whole", "11"), ("third", "2/3")))
    playwright_api.expect(page.locator(".record-bar .hint")).to_have_text(
        "Answer the question above first: How many tricks did the declarer side take?"
    )
    playwright_api.expect(page.locator(".record-bar button")).to_be_disabled()
    page.locator("#asked button[name=tricks][value='12']").click()
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 1 recorded")
    playwright_api.expect(page.locator(".record-bar button")).to_be_enabled()


def test_an_updated_server_reaches_the_page_on_the_same_visit_once_nothing_would_be_lost(
    phone_and_server: tuple[Page, Restartable], sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server is updated while a deal is being tapped: its new worker takes the page over and keeps the new files,
    the old ones removed, but the page waits, the taps kept; the deal recorded, the page loads again with the new
    files, the result on top. Before, the page went on with the old files until the next visit."""
    page, served = phone_and_server
    _signed_in(page, served)
    _kept(page, "/evenings/1")
    page.evaluate("window.drawn = 'before the update'")
    _tap(page, "declarer", "Bruno")
    _tap(page, "contract", "solo")
    monkeypatch.setattr(shell, "version", lambda: "0123456789abcdef")  # the server's files changed
    page.evaluate("navigator.serviceWorker.addEventListener('controllerchange', () => { window.taken = true; })")
    page.evaluate("navigator.serviceWorker.getRegistration().then(registration => registration.update())")
    page.wait_for_function("() => window.taken")  # the new worker has the page
    page.wait_for_function("() => caches.keys().then(names => names.join() === 'calabresella-0123456789abcdef')")
    assert page.evaluate("window.drawn") == "before the update"  # a deal is being tapped: the page stays
    assert _checked(page) == ["declarer=Bruno", "contract=solo", "third="]
    _tap(page, "whole", "7")
    _record(page)
    page.wait_for_function("() => window.drawn === undefined")  # loaded again, once the deal was recorded
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 1 recorded")
    assert _deals(sqlite_url) == [("Bruno", 21)]


def _checked(page: Page) -> list[str]:
    return page.locator("form.guided input:checked").evaluate_all("all => all.map(i => i.name + '=' + i.value)")


def test_the_taps_of_a_deal_survive_a_switch_of_language(table: Table, chromium: playwright_api.Browser) -> None:
    """Carla, solo, her cards counted (2 aces, 10 figures, the last trick), then IT: the Italian page shows them
    tapped, the count open, and Record records them; a line typed survives the way back to EN; a deal recorded leaves
    nothing tapped behind. Before, the switch dropped the taps."""
    page = chromium.new_context(viewport=PHONE).new_page()
    signed_in(page, table)
    counted = KINDS[6][0]
    _tap_kind(page, counted)
    page.locator(".lang a[hreflang=it]").click()
    playwright_api.expect(page.locator("h1")).to_have_text(f"Serata {table.number}")
    assert _checked(page) == ["declarer=Carla", "contract=solo", "third=", "aces=2", "figures=10", "last=u"]
    playwright_api.expect(page.locator("form.guided details.count")).to_have_attribute("open", "")
    _record(page)  # on the screen, as after the last tap
    playwright_api.expect(page.locator(".result h2")).to_have_text("Smazzata 1 registrata")
    page.locator("#line").fill("carla solo 8")
    page.locator(".lang a[hreflang=en]").click()
    playwright_api.expect(page.locator("h1")).to_have_text(f"Evening {table.number}")
    playwright_api.expect(page.locator("#line")).to_have_value("carla solo 8")
    page.get_by_role("button", name="Record", exact=True).click()
    playwright_api.expect(page.locator(".result h2")).to_have_text("Deal 2 recorded")
    page.reload()
    assert _checked(page) == ["third="] and page.locator("#line").input_value() == ""
    assert _deals(table.db, table.number) == [("Carla", 19), ("Carla", 24)]


def _phone(chromium: playwright_api.Browser, table: Table) -> Page:
    page = chromium.new_context(viewport=PHONE).new_page()
    page.clock.install()
    signed_in(page, table)
    return page


def test_an_undo_tick_never_carries_over_and_the_phone_whose_deal_was_taken_back_is_told(
    table: Table, chromium: playwright_api.Browser
) -> None:
    """A ticks to take back its own deal; B records: A's button names B's deal, its tick cleared. A takes B's deal
    back (ticked again, two seconds on): B's result says so. Before, the tick stayed and B's screen said "Deal 2
    recorded"."""
    first, second = _phone(chromium, table), _phone(chromium, table)
    _tap_deal(first, SOLO_7)
    playwright_api.expect(first.locator(".result h2")).to_have_text("Deal 1 recorded")
    tick = first.locator("form.undo input[name=confirm]")
    tick.check()
    _tap_deal(second, CARLA_8)
    playwright_api.expect(second.locator(".result h2")).to_have_text("Deal 2 recorded")
    playwright_api.expect(first.locator("form.undo button")).to_have_text("Undo: deal 2, Carla solo 8")
    playwright_api.expect(tick).not_to_be_checked()
    first.clock.fast_forward(2000)
    tick.check()
    first.locator("form.undo button").click()
    first.wait_for_url(f"{table.page}?deal=2&undone=record")
    playwright_api.expect(second.locator(".result h2")).to_have_text("Deal 2 was taken back by another phone")
    assert _deals(table.db, table.number) == [("Bruno", 21)]


def test_an_empty_evening_gets_its_undo_from_the_live_feed(table: Table, chromium: playwright_api.Browser) -> None:
    page = _phone(chromium, table)
    playwright_api.expect(page.locator("form.undo")).to_be_hidden()
    with Ledger(table.db) as ledger:
        ledger.record("anna solo 22", evening=table.number)
    playwright_api.expect(page.locator("form.undo button")).to_have_text("Undo: deal 1, Anna solo 7+1/3")


def test_a_tables_page_says_when_its_round_ends_and_a_deal_refused_after_it_never_follows_the_phone(
    phone_and_server: tuple[Page, Restartable], sqlite_url: str
) -> None:
    """Two tables of a club night. The organiser ends the round: the first table's page, left open, says so by itself
    as a reload would, with no pad and no undo (before, it noticed nothing until its next write or reload, and its
    undo was always refused). The second table's phone, its Wi-Fi off, tapped a deal after the round ended: once back,
    the deal is refused for good, said once with its words, the pad gone; dismissed. Round 2's table link (another
    evening, other players) shows no refused deal and a clean pad (before, the deal followed the phone: a red box and
    its facts tapped on the new table's pad)."""
    page, served = phone_and_server
    players = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
    with Ledger(sqlite_url) as ledger:
        ledger.club.start_event("Club night", players, Terms(stake="0.10"), round_deals=12)
        round_one = ledger.club.seat_round(1, tables=[players[:3], players[3:]]).current
    assert round_one is not None
    first, second = (table.evening for table in round_one.tables)
    cookie_from(page, f"{served.url}/tables/{first}?key={keys(sqlite_url).table_key(first)}")
    page.goto(f"{served.url}/evenings/{first}")
    other = page.context.browser.new_context(viewport=PHONE).new_page()  # type: ignore[union-attr]
    cookie_from(other, f"{served.url}/tables/{second}?key={keys(sqlite_url).table_key(second)}")
    other.goto(f"{served.url}/evenings/{second}")
    _kept(other, f"/evenings/{second}")
    _tap_deal(page, SOLO_7)
    playwright_api.expect(page.locator("form.undo")).to_be_visible()
    _cut(other)
    _tap_deal(other, (("declarer", "Elena"), ("contract", "solo"), ("whole", "8")))
    playwright_api.expect(other.locator("#waiting")).to_contain_text("1 deal waiting: Elena solo 8.")

    with Ledger(sqlite_url) as ledger:
        ledger.club.end_round(1)
    ended = "round 1 has ended: nothing was written; ask the organiser"
    playwright_api.expect(page.locator(".notice")).to_have_text(ended)
    assert page.locator("form.guided, form.quick, form.undo").count() == 0

    _back(other)
    waiting = other.locator("#waiting")
    playwright_api.expect(waiting).to_contain_text(
        f"Not recorded, and it cannot be: Elena solo 8 ({ended}).", timeout=10000
    )
    playwright_api.expect(waiting).not_to_contain_text("waiting")
    playwright_api.expect(other.locator("form.guided")).to_be_hidden()
    playwright_api.expect(other.locator("form.undo")).to_be_hidden()
    waiting.get_by_role("button", name="OK").click()
    playwright_api.expect(waiting).to_be_hidden()
    other.reload()
    playwright_api.expect(other.locator(".notice")).to_have_text(ended)  # the page says why it takes no deal
    assert other.locator("form.guided, form.undo").count() == 0
    playwright_api.expect(waiting).to_be_hidden()

    with Ledger(sqlite_url) as ledger:
        round_two = ledger.club.seat_round(1, tables=[["Dario", "Anna", "Elena"], ["Bruno", "Franco", "Carla"]]).current
    assert round_two is not None
    after = round_two.tables[0].evening
    cookie_from(other, f"{served.url}/tables/{after}?key={keys(sqlite_url).table_key(after)}")
    other.goto(f"{served.url}/evenings/{after}")
    playwright_api.expect(other.locator("form.guided")).to_be_visible()
    playwright_api.expect(other.locator("#waiting")).to_be_hidden()
    assert _checked(other) == ["third="]
    assert _deals(sqlite_url, first) == [("Bruno", 21)]
    assert _deals(sqlite_url, second) == [] and _deals(sqlite_url, after) == []


def test_a_tables_page_reloaded_in_an_outage_after_its_round_ended_is_drawn_again_once_the_server_is_back(
    phone_and_server: tuple[Page, Restartable], sqlite_url: str
) -> None:
    """The Wi-Fi goes while the feed still holds: the organiser ends the round, the word comes through, and the page is
    drawn again, but the reload brings the copy kept on the phone (pad and all). Once the server is back, the feed's
    word draws it again from the server: the round is over, no pad, no undo (before, a page reloaded once for a change
    was never reloaded again for it, and kept offering the pad and an undo of the close)."""
    page, served = phone_and_server
    players = ["Anna", "Bruno", "Carla"]
    with Ledger(sqlite_url) as ledger:
        ledger.club.start_event("Club night", players, Terms(stake="0.10"), round_deals=12)
        round_one = ledger.club.seat_round(1, tables=[players]).current
    assert round_one is not None
    evening = round_one.tables[0].evening
    cookie_from(page, f"{served.url}/tables/{evening}?key={keys(sqlite_url).table_key(evening)}")
    page.goto(f"{served.url}/evenings/{evening}")
    _kept(page, f"/evenings/{evening}")
    _tap_deal(page, SOLO_7)
    playwright_api.expect(page.locator("form.undo")).to_be_visible()

    _cut(page)
    with page.expect_navigation(), Ledger(sqlite_url) as ledger:
        ledger.club.end_round(1)
    playwright_api.expect(page.locator("form.guided")).to_be_visible()  # the copy kept, drawn while the round was on
    _back(page)
    ended = "round 1 has ended: nothing was written; ask the organiser"
    playwright_api.expect(page.locator(".notice")).to_have_text(ended)
    assert page.locator("form.guided, form.quick, form.undo").count() == 0


class Stalling:
    """A TCP relay in front of the server that can go quiet (an access point that stops passing bytes without closing
    anything), then pass them again."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.flowing = threading.Event()
        self.flowing.set()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(("127.0.0.1", self.target))
            except OSError:  # the server has gone (the test is ending): the phone's connection is refused
                client.close()
                continue
            self.sockets += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pass, args=(source, sink), daemon=True).start()

    def _pass(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                self.flowing.wait()
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                end.close()

    def close(self) -> None:
        self.flowing.set()
        self.listener.close()
        for end in self.sockets:
            end.close()


@contextmanager
def stalling(server: Restartable) -> Iterator[Stalling]:
    relay = Stalling(server.port)
    try:
        yield relay
    finally:
        relay.close()


def test_a_copy_kept_in_the_language_the_phone_left_waits_for_a_slow_server(
    phone_and_server: tuple[Page, Restartable],
) -> None:
    """The charts opened in English, then the switch to Italian; the server then answers a page later than the phone
    waits before it shows the copy it kept: the page comes in Italian once the server answers (before, the copy in
    English was shown, as if the switch had not been made). With no server at all, a copy is shown in any language."""
    page, served = phone_and_server
    with stalling(served) as relay:
        for path in ("/evenings/1/deals", "/evenings/1/charts"):
            page.goto(f"{relay.url}{path}")
            _kept(page, path)
            assert page.evaluate("document.documentElement.lang") == "en"
        speak(page, relay.url, "it", "/evenings/1")
        assert page.evaluate("document.documentElement.lang") == "it"
        relay.flowing.clear()
        later = threading.Timer(PAGE_WAIT_SECONDS + 2, relay.flowing.set)
        later.start()
        page.goto(f"{relay.url}/evenings/1/charts")
        later.join()
        assert page.evaluate("document.documentElement.lang") == "it"
        playwright_api.expect(page.locator("h1")).to_have_text("Serata 1: grafici")
        _cut(page)
        page.goto(f"{relay.url}/evenings/1/deals")
        assert page.evaluate("document.documentElement.lang") == "en"  # no server: the copy, though in English
        playwright_api.expect(page.locator("h1")).to_contain_text("deals")


def test_a_stalled_connection_is_said_after_two_keep_alives_and_the_page_reconnects_when_bytes_flow(
    phone_and_server: tuple[Page, Restartable], sqlite_url: str
) -> None:
    """A viewer behind an access point that goes quiet: no byte, nothing closed. Before, the page showed the old totals
    for over a minute without a word; a killed server was reported at once."""
    page, served = phone_and_server
    page.clock.install()
    with stalling(served) as relay:
        page.goto(f"{relay.url}/evenings/1")
        playwright_api.expect(page.locator("#live")).to_contain_text("No deals yet.")
        relay.flowing.clear()
        with Ledger(sqlite_url) as ledger:
            ledger.record("bruno solo 22")
        status = page.locator("p.connection")
        page.clock.fast_forward(int(KEEP_ALIVE_SECONDS * 1000))
        assert status.is_hidden()  # one keep-alive missed: nothing said yet
        page.clock.fast_forward(int(KEEP_ALIVE_SECONDS * 1000) + 10000)
        playwright_api.expect(status).to_contain_text("No connection to the server: the totals are those of ")
        relay.flowing.set()
        playwright_api.expect(status).to_contain_text("Connected again", timeout=10000)
        playwright_api.expect(page.locator("#live .standings")).to_contain_text("+4")
