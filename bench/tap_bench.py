"""From the tap on *Record* to the new standings, on the recording phone and on a phone watching, in Chromium.

Starts `calabresella serve` of each checkout given (the current one by default) on a loopback port, opens two
390 x 844 pages of Debian's Chromium (the scorekeeper's, through the write link, and a player's), and records DEALS
solos by tapping. Each deal is timed from the tap on *Record* to the moment the scorekeeper's page shows the result,
and to the moment the other phone's standings show the deal. The checkouts take turns, deal by deal, in one run.

    python bench/tap_bench.py [--deals 40] [--before /path/to/an/older/checkout/.venv/bin/calabresella]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, sync_playwright

TOKEN = "tap-bench-token-0123456789abcdef"
CHROMIUM = "/usr/bin/chromium"
PHONE: ViewportSize = {"width": 390, "height": 844}


@dataclass
class Table:
    """One server (a checkout's `calabresella`) with its two phones and the times measured."""

    name: str
    command: str
    folder: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    keeper: Page | None = None
    watcher: Page | None = None
    recorded: list[float] = field(default_factory=list)
    watched: list[float] = field(default_factory=list)

    def start(self) -> None:
        db = str(self.folder / f"{self.name}.sqlite3")
        env = {**os.environ, "CALABRESELLA_TOKEN": TOKEN, "CALABRESELLA_LANG": "en"}
        subprocess.run(
            [self.command, "--db", db, "evening", "start", "--players", "Anna,Bruno,Carla"],
            env=env,
            check=True,
            capture_output=True,
        )
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.process = subprocess.Popen(
            [self.command, "--db", db, "serve", "--port", str(self.port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.name}: serve did not start")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def deal(self, number: int) -> None:
        """Tap a solo in, then time Record to the result here and to the standings on the other phone."""
        assert self.keeper is not None and self.watcher is not None
        page = self.keeper
        page.locator("fieldset:has(legend:text-is('Declarer'))").get_by_text("Bruno", exact=True).click()
        page.locator("fieldset:has(legend:text-is('Contract'))").get_by_text("solo", exact=True).click()
        if page.locator(".pad.points").count():
            page.locator(".pad.points").get_by_text("7", exact=True).click()
            button = page.locator(".record-bar button")
        else:  # the form before the pad: the points typed
            page.locator("input[name=thirds]").fill("7")
            button = page.get_by_role("button", name="Record the deal")
        started = time.perf_counter()
        button.click()
        page.locator(".result h2").filter(has_text=f"Deal {number} recorded").wait_for()
        self.recorded.append(time.perf_counter() - started)
        self.watcher.locator(f"#live .turn[data-revision='{number}']").wait_for()
        self.watched.append(time.perf_counter() - started)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(values) * 1000:6.1f} ms, p95 {p95 * 1000:6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--before", help="The `calabresella` of an older checkout, to run in turns with this one.")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tap-bench-"))
    here = shutil.which("calabresella") or str(Path(__file__).resolve().parent.parent / ".venv/bin/calabresella")
    tables = [Table("now", here, folder)] + ([Table("before", args.before, folder)] if args.before else [])
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for table in tables:
                table.start()
                table.keeper = browser.new_context(viewport=PHONE).new_page()
                table.keeper.goto(table.url(f"/write?key={_link_key()}"))
                table.keeper.wait_for_url(table.url("/evenings/1"))
                table.watcher = browser.new_context(viewport=PHONE).new_page()
                table.watcher.goto(table.url("/evenings/1"))
            for number in range(1, args.deals + 1):
                for table in tables:
                    table.deal(number)
            browser.close()
    finally:
        for table in tables:
            table.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{args.deals} solos tapped in on a 390 x 844 Chromium page, another page watching")
    for table in tables:
        print(f"{table.name:>6}: Record to the result {_ms(table.recorded)}; to the other phone {_ms(table.watched)}")


def _link_key() -> str:
    from ledger.web.access import Access

    return Access(TOKEN).link_key


if __name__ == "__main__":
    main()
