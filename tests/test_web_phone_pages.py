"""Every page on a phone in Chromium (the system's, nothing downloaded): each tap target at least 44 x 44 CSS px at
390 px, as a viewer and as the scorekeeper; the evening report fits 360 and 390 px, keeps its content in landmarks and
follows dark mode (on the web and as the file `calabresella report` writes); a correction with a tapped reason needs
no keyboard; the charts page never shows an empty chart box."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_web_browser import CHROMIUM, LINK, PHONE, Restartable, _shoot, playwright_api
from test_web_support import PLAYERS

from ledger import Ledger

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no Chromium at /usr/bin/chromium")

TAP = 44
"""The smallest tap target, in CSS px, both ways (WCAG 2.5.5)."""

SMALL_TARGETS = """() => {
  // Inline links inside running text are exempt (WCAG 2.5.8's inline exception): a link that is only part of a
  // sentence cannot grow to 44 px without breaking the lines around it. It is a link whose block holds more text
  // than the link itself; the pages mark none as such on purpose, so any found here is listed apart to be seen.
  const shown = (e) => e.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
  const found = [];
  for (const e of document.querySelectorAll("a[href], button, input, summary, select, textarea")) {
    if (e.type === "hidden") { continue; }
    const label = (e.type === "checkbox" || e.type === "radio") ? (e.closest("label") || e.labels?.[0]) : null;
    const target = label || e;
    if (!shown(target)) { continue; }
    const box = target.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) { continue; }
    if (box.width >= 44 && box.height >= 44) { continue; }
    const block = e.tagName === "A" ? e.parentElement.closest("p, li, td, dd, figcaption") : null;
    const inline = block !== null && block.textContent.trim().length > e.textContent.trim().length
                   && getComputedStyle(e).display === "inline";
    found.push(`${inline ? "inline " : ""}${e.tagName.toLowerCase()}${e.type ? "[" + e.type + "]" : ""} `
               + `"${(e.textContent || e.value || e.name || "").trim().slice(0, 30)}" `
               + `${Math.round(box.width)}x${Math.round(box.height)}`);
  }
  return found;
}"""
"""Every visible link, button, field, summary and list that measures less than 44 x 44 CSS px (a tick box or
radio button measured with its label, which takes the tap for it)."""


@pytest.fixture
def ledger_served(sqlite_url: str) -> Iterator[str]:
    """`calabresella serve` over a ledger with evening 1 open (a deal amended, one voided, five standing), evening 2
    closed, and a club event seating two tables (evenings 3 and 4); its base URL."""
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(PLAYERS, stake="0.10")
        for line in ("bruno solo 22", "carla chiamo 3D@anna 17 last=opp", "pass", "anna solo 20", "br so 7+1/3"):
            ledger.record(line)
        ledger.record("carla solo 15")
        ledger.amend(1, "20", reason="recounted", evening=1)
        ledger.void(3, reason="misdeal", evening=1)
        ledger.start_evening(PLAYERS, stake="0.10")
        ledger.record("anna solo 22", evening=2)
        ledger.close_evening(2)
        ledger.start_event("Club night", [*PLAYERS, "Dario", "Elena", "Franco"], stake="0.10", round_deals=12)
        ledger.seat_round(1, tables=[list(PLAYERS), ["Dario", "Elena", "Franco"]])
        ledger.record("anna solo 22", evening=3)
    served = Restartable(sqlite_url)
    served.start()
    try:
        yield served.url
    finally:
        served.stop()


@pytest.fixture
def chromium() -> Iterator[playwright_api.Browser]:
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"] if os.geteuid() == 0 else [])
        yield browser
        browser.close()


PAGES = (
    "/welcome",
    "/evenings",
    "/evenings/new",
    "/evenings/1",
    "/evenings/1/deals",
    "/evenings/1/deals/1",
    "/evenings/1/deals/2",
    "/evenings/1/settle",
    "/evenings/2/settle",
    "/evenings/1/report",
    "/evenings/1/charts",
    "/evenings/99",
    "/events",
    "/events/1",
    "/events/1?player=Dario",
    "/events/1/board",
    "/events/1/sheets",
    "/evenings/3",
)


@pytest.mark.parametrize("keeper", [False, True], ids=["viewer", "scorekeeper"])
@pytest.mark.parametrize("language", ["en", "it"])
def test_every_tap_target_on_every_page_is_at_least_44_pixels_both_ways(
    ledger_served: str, chromium: playwright_api.Browser, keeper: bool, language: str
) -> None:
    page = chromium.new_context(viewport=PHONE).new_page()
    if keeper:
        page.goto(f"{ledger_served}{LINK}")
    page.goto(f"{ledger_served}/language/{language}")
    small: dict[str, list[str]] = {}
    for path in PAGES:
        answer = page.goto(f"{ledger_served}{path}", wait_until="load")
        assert answer is not None and answer.ok is (path != "/evenings/99"), path  # the last: the error page
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        if found := page.evaluate(SMALL_TARGETS):
            small[path] = found
    if keeper:  # the forms are there to be measured
        page.goto(f"{ledger_served}/evenings/1/deals/2")
        assert page.locator("form.guided .chip").count() > 10 and page.locator("form .reasons .chip").count() == 8
        page.goto(f"{ledger_served}/evenings/2/settle")
        assert page.locator("form .reasons .chip").count() == 3
        page.goto(f"{ledger_served}/evenings/1/settle")
        assert page.locator("label.confirm input[type=checkbox]").count() == 1
    page.context.close()
    assert not small, "\n".join(f"{path}: {', '.join(found)}" for path, found in small.items())
