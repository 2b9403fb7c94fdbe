"""A deal's round trip through `calabresella serve` on SQLite, with phones watching, against the bare record; and a
deal tapped in on a phone in Chromium, from the tap to the new standings, against the code before.

The round trip: starts the real server on a loopback port, connects VIEWERS phones to the evening's live feed
(server-sent events), then times each deal from the scorekeeper's POST to the moment the last phone has the new
standings. Alternating with it, in this process: `Ledger.record` of the same line on a ledger file of its own, the
work the round trip is built around.

The taps: starts `calabresella serve` of this checkout and, with `--before`, of an older one, each with two
390 x 844 pages of Debian's Chromium (the scorekeeper's, through the write link, and a player's that only looks),
and records TAPS solos on the scorekeeper's pad, the checkouts taking turns deal by deal (which goes first
alternates). Each deal is timed in the browser, on one clock: from the click on Record to the moment the
scorekeeper's page holds the deal's result with the new standings, and to the moment the other phone's standings
hold the deal. The test driver's own time is left out: its click waits for the button to keep still over two
frames before it clicks (some 40 ms here), and it sees a page change only at its next look.
`--taps 0` leaves this part out, `--deals 0` the round trip.

The report and the charts: over an evening of REPORT_DEALS deals in each checkout, a 390 x 844 Chromium page opens
the evening's report OPENS times (from the navigation's start to the page read, its charts loading after) and the
charts page OPENS times (to the last chart image loaded), the checkouts taking turns. `--opens 0` leaves it out.

    python bench/web_bench.py [--deals 200] [--viewers 20] [--taps 40] [--opens 10]
                              [--before OLDER/.venv/bin/calabresella]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import calabresella, listening

from ledger import Ledger
from ledger.values import Terms

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PLAYERS = ("Anna", "Bruno", "Carla")
LINES = (
    "bruno solo 22",
    "carla chiamo 3D@anna 17 last=opp",
    "pass",
    "anna solissimo dividete 8",
    "br so 7+1/3",
    "anna solissimo scegliete 35 tricks=12",
    "bruno chiamo 4t last=decl",
)
TOKEN = "bench-token-for-the-round-trip-0123456789"
BUDGET_MS = 50.0
TAP_BUDGET_MS = 150.0
"""From the tap on Record to the new standings, p95, on the recording phone and on a phone watching."""
REPORT_BUDGET_MS = 300.0
"""From opening the report of an evening of REPORT_DEALS deals to the page read, p50."""
REPORT_DEALS = 40
CHROMIUM = next(
    (path for path in ("/usr/bin/chromium", "/usr/bin/chromium-headless-shell") if Path(path).exists()),
    "/usr/bin/chromium",
)
"""Debian's Chromium, the full browser a phone runs where it is installed, else its headless shell."""


class Phones:
    """When each watching phone received each revision of the evening."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.arrivals: dict[int, list[float]] = {}
        self.complete: dict[int, asyncio.Event] = {}

    def expect(self, revision: int) -> asyncio.Event:
        return self.complete.setdefault(revision, asyncio.Event())

    def received(self, revision: int) -> None:
        times = self.arrivals.setdefault(revision, [])
        times.append(time.perf_counter())
        if len(times) == self.count:
            self.expect(revision).set()

    async def watch(self, client: httpx.AsyncClient, url: str, connected: asyncio.Event) -> None:
        """One phone's event stream: note the time each `evening` event has fully arrived."""
        async with client.stream("GET", url) as response:
            connected.set()
            revision = None
            async for line in response.aiter_lines():
                if line.startswith("id: "):
                    revision = int(line[4:])
                elif not line and revision is not None:
                    self.received(revision)
                    revision = None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_listening(port: int, process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    if not listening(port, process):
        raise SystemExit("calabresella serve did not start")


def _ms(values: list[float]) -> str:
    q = statistics.quantiles(values, n=100)
    return f"p50 {statistics.median(values):6.2f} ms   p95 {q[94]:6.2f} ms   max {max(values):6.2f} ms"


async def run(deals: int, viewers: int, folder: Path) -> None:
    served, bare = str(folder / "served.sqlite3"), str(folder / "bare.sqlite3")
    for db in (served, bare):
        with Ledger(db) as ledger:
            ledger.start_evening(PLAYERS, Terms(stake="0.10"))
    port = _free_port()
    server = subprocess.Popen(
        [calabresella(), "--db", served, "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        env={**os.environ, "CALABRESELLA_TOKEN": TOKEN},
    )
    try:
        _wait_listening(port, server)
        base = f"http://127.0.0.1:{port}"
        phones = Phones(viewers)
        limits = httpx.Limits(max_connections=viewers + 4)
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
            connected = [asyncio.Event() for _ in range(viewers)]
            watching = [asyncio.create_task(phones.watch(client, "/evenings/1/events?seen=0", c)) for c in connected]
            await asyncio.gather(*(c.wait() for c in connected))
            await asyncio.sleep(0.3)
            round_trips, post_only, records = [], [], []
            with Ledger(bare) as ledger:
                for n in range(deals):
                    line = LINES[n % len(LINES)]
                    order = (0, 1) if n % 2 == 0 else (1, 0)
                    for which in order:
                        if which == 0:
                            arrived = phones.expect(n + 1)
                            start = time.perf_counter()
                            answer = await client.post(
                                "/api/evenings/1/deals",
                                json={"line": line},
                                headers={"Authorization": f"Bearer {TOKEN}"},
                            )
                            posted = time.perf_counter()
                            answer.raise_for_status()
                            await asyncio.wait_for(arrived.wait(), 5)
                            round_trips.append((phones.arrivals[n + 1][-1] - start) * 1000)
                            post_only.append((posted - start) * 1000)
                        else:
                            start = time.perf_counter()
                            ledger.record(line)
                            records.append((time.perf_counter() - start) * 1000)
            for task in watching:
                task.cancel()
            await asyncio.gather(*watching, return_exceptions=True)
    finally:
        server.terminate()
        server.wait(10)

    p95 = statistics.quantiles(round_trips, n=100)[94]
    base95 = statistics.quantiles(records, n=100)[94]
    print(f"{deals} deals, {viewers} phones watching over server-sent events, SQLite, loopback")
    print(f"  round trip (POST to the last phone updated)  {_ms(round_trips)}")
    print(f"  POST answered                               {_ms(post_only)}")
    print(f"  baseline: Ledger.record in this process     {_ms(records)}")
    print(
        f"  round trip p95 / baseline p95 = {p95 / base95:.1f}x;  budget p95 <= {BUDGET_MS:.0f} ms: "
        f"{'met' if p95 <= BUDGET_MS else 'MISSED'}"
    )


STAMPS = """(() => {
  // On the bench's own clock: when Record is clicked, and when deal `expect` (set before each tap) is on the page.
  const now = () => performance.timeOrigin + performance.now();
  addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest(".record-bar button")) { sessionStorage.setItem("tapped", now()); }
  }, true);
  new MutationObserver(() => {
    const deal = sessionStorage.getItem("expect");
    if (!deal || sessionStorage.getItem("shown")) { return; }
    const standings = document.querySelector(`#live .turn[data-revision="${deal}"] ~ table.running`);
    const result = document.querySelector(`.result a[href$="/deals/${deal}"]`);
    if (standings && (result || !document.querySelector("form.guided"))) { sessionStorage.setItem("shown", now()); }
  }).observe(document, { childList: true, subtree: true });
})();"""
"""Added to every page of the tap bench: the times are taken in the browser, so neither the driver's own
round trips nor the order in which it asks the two phones count."""


@dataclass
class Table:
    """One checkout's `calabresella serve`, with its scorekeeper's phone and a phone watching, and the times."""

    name: str
    command: str
    folder: Path
    port: int = 0
    process: subprocess.Popen[str] | None = None
    keeper: Page | None = None
    watcher: Page | None = None
    recorded: list[float] = field(default_factory=list)
    watched: list[float] = field(default_factory=list)

    def start(self, browser: Browser) -> None:
        db = str(self.folder / f"{self.name}.sqlite3")
        env = {**os.environ, "CALABRESELLA_TOKEN": TOKEN, "CALABRESELLA_LANG": "en"}
        subprocess.run(
            [self.command, "--db", db, "evening", "start", "--players", ",".join(PLAYERS)],
            env=env,
            check=True,
            capture_output=True,
        )
        self.port = _free_port()
        self.process = subprocess.Popen(
            [self.command, "--db", db, "serve", "--port", str(self.port)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        _wait_listening(self.port, self.process)
        base = f"http://127.0.0.1:{self.port}"
        self.keeper, self.watcher = (_phone(browser) for _ in range(2))
        self.keeper.goto(_write_link(self.process))
        self.keeper.wait_for_url(f"{base}/evenings/1")
        self.watcher.goto(f"{base}/evenings/1")

    def deal(self, number: int) -> None:
        """Tap a solo in on the scorekeeper's pad and Record; note the times to both phones."""
        assert self.keeper is not None and self.watcher is not None
        for page in (self.keeper, self.watcher):
            page.evaluate("n => { sessionStorage.clear(); sessionStorage.setItem('expect', n); }", str(number))
        for name, value in (("declarer", "Bruno"), ("contract", "solo"), ("whole", "7")):
            self.keeper.locator(f"label.chip:has(input[name={name}][value='{value}'])").click()
        self.keeper.locator(".record-bar button").click()
        times = [
            page.wait_for_function("() => sessionStorage.getItem('shown')", polling=20, timeout=10_000).json_value()
            for page in (self.keeper, self.watcher)
        ]
        tapped = float(self.keeper.evaluate("sessionStorage.getItem('tapped')"))
        self.recorded.append(float(times[0]) - tapped)
        self.watched.append(float(times[1]) - tapped)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)


def _phone(browser: Browser) -> Page:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.add_init_script(STAMPS)
    return page


def _write_link(process: subprocess.Popen[str]) -> str:
    """The scorekeeper's link as the server printed it (its key is bound to the ledger, and the older checkout's
    server may derive it otherwise)."""
    assert process.stdout is not None
    return next(line.strip() for line in process.stdout if "/write?key=" in line)


def _quantiles(values: list[float]) -> tuple[float, float]:
    return statistics.median(values), statistics.quantiles(values, n=100, method="inclusive")[94]


@contextlib.contextmanager
def _checkouts(before: str | None, folder: Path) -> Iterator[list[Table]]:
    """This checkout's server (and, with `before`, an older one's), each with two phones in one Chromium, started;
    stopped afterwards."""
    from playwright.sync_api import sync_playwright

    tables = [Table("now", calabresella(), folder)] + ([Table("before", before, folder)] if before else [])
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox"] if os.geteuid() == 0 else []
            )
            for table in tables:
                table.start(browser)
            yield tables
            browser.close()
    finally:
        for table in tables:
            table.stop()


def taps(count: int, before: str | None, folder: Path) -> None:
    """The Chromium part: `count` solos tapped in on each checkout, in turns."""
    with _checkouts(before, folder) as tables:
        for number in range(1, count + 1):
            for table in tables if number % 2 else tables[::-1]:
                table.deal(number)
    print(f"{count} solos tapped in on a 390 x 844 Chromium page, another page watching, SQLite, loopback")
    for table in tables:
        for phone, values in (("recording phone", table.recorded), ("watching phone", table.watched)):
            p50, p95 = _quantiles(values)
            met = "met" if p95 <= TAP_BUDGET_MS else "MISSED"
            print(
                f"  {table.name:>6}, {phone:<15}  tap to the new standings  p50 {p50:6.1f} ms   p95 {p95:6.1f} ms"
                f"   max {max(values):6.1f} ms   budget p95 <= {TAP_BUDGET_MS:.0f} ms: {met}"
            )
    if before:
        now, then = tables
        for phone, mine, theirs in (
            ("recording phone", now.recorded, then.recorded),
            ("watching phone", now.watched, then.watched),
        ):
            (p50, p95), (old50, old95) = _quantiles(mine), _quantiles(theirs)
            print(f"  now / before, {phone:<15}  p50 {p50 / old50:.2f}x   p95 {p95 / old95:.2f}x")


REPORT_READ = """() => performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd"""
LAST_CHART = """() => Math.max(...performance.getEntriesByType("resource")
    .filter(r => r.name.includes("/charts/")).map(r => r.responseEnd))"""
"""On the page's own clock from the navigation's start: the page read, and the last chart image received."""


def _open(page: Page, address: str, charts: bool) -> float:
    """Open `address` and the milliseconds it took: to the page read, or (`charts`) to its last chart loaded."""
    answer = page.goto(address, wait_until="commit")
    if answer is None or not answer.ok:
        raise SystemExit(f"{address}: {answer.status if answer else 'no answer'}")
    if not charts:
        page.wait_for_load_state("domcontentloaded")
        return float(page.evaluate(REPORT_READ))
    page.wait_for_load_state("load")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # a lazy image loads once near the screen
    page.wait_for_function("() => [...document.images].every(image => image.complete && image.naturalWidth > 0)")
    return float(page.evaluate(LAST_CHART))


def opens(count: int, before: str | None, folder: Path) -> None:
    """The report and the charts page of an evening of REPORT_DEALS deals opened `count` times in each checkout, in
    turns; the first open of each (its server's first report, which loads the reporting libraries) apart."""
    times: dict[tuple[str, str], list[float]] = {}
    with _checkouts(before, folder) as tables:
        for table in tables:
            for n in range(REPORT_DEALS):
                httpx.post(
                    f"http://127.0.0.1:{table.port}/api/evenings/1/deals",
                    json={"line": LINES[n % len(LINES)]},
                    headers={"Authorization": f"Bearer {TOKEN}"},
                ).raise_for_status()
        for n in range(count + 1):
            for table in tables if n % 2 else tables[::-1]:
                assert table.watcher is not None
                base = f"http://127.0.0.1:{table.port}/evenings/1"
                for what, charts in (("report", False), ("charts", True)):
                    took = _open(table.watcher, f"{base}/{what}", charts)
                    times.setdefault((table.name, what if n else f"first {what}"), []).append(took)
    print(f"An evening of {REPORT_DEALS} deals on a 390 x 844 Chromium page, {count} opens each, SQLite, loopback")
    for table in tables:
        for what, name in (("report", "report, to the page read"), ("charts", "charts page, to the last chart")):
            first, rest = times[(table.name, f"first {what}")][0], times[(table.name, what)]
            p50, p95 = _quantiles(rest)
            budget = f"   budget p50 <= {REPORT_BUDGET_MS:.0f} ms: {'met' if p50 <= REPORT_BUDGET_MS else 'MISSED'}"
            print(
                f"  {table.name:>6}, {name:<30}  p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   first open {first:7.1f} ms"
                + (budget if what == "report" else "")
            )
    if before:
        for what in ("report", "charts"):
            (p50, p95), (old50, old95) = _quantiles(times[("now", what)]), _quantiles(times[("before", what)])
            first = times[("now", f"first {what}")][0] / times[("before", f"first {what}")][0]
            ratios = f"p50 {p50 / old50:.2f}x   p95 {p95 / old95:.2f}x   first open {first:.2f}x"
            print(f"  now / before, {what:<8}  {ratios}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="Deals of the round trip (0: leave it out).")
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument("--taps", type=int, default=40, help="Solos tapped in, in Chromium (0: leave them out).")
    parser.add_argument("--opens", type=int, default=10, help="Report and charts opens (0: leave them out).")
    parser.add_argument("--before", help="The `calabresella` of an older checkout, to run in turns with this one.")
    parser.add_argument("--dir", default=None, help="Where the ledger files go (default: the temp folder).")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="calabresella-web-bench-", dir=args.dir) as folder:
        if args.deals:
            asyncio.run(run(args.deals, args.viewers, Path(folder)))
        for part, count in ((taps, args.taps), (opens, args.opens)):
            if count:
                own = Path(folder) / part.__name__  # each part on ledgers of its own
                own.mkdir()
                part(count, args.before, own)


if __name__ == "__main__":
    main()
