"""What a phone keeps to work through an outage, as the server hands it out: the service worker from the site's root,
its caches named by a digest of the files it keeps and never kept in the browser's cache; the manifest in the phone's
language; the page for an address never opened; the policy that lets the manifest load. And a deal's words as the
pages draw them: a card called from the declarer's own hand in the page's language, the partner who held the called
card not named twice."""

from __future__ import annotations

import json
import re

from test_web_support import scorekeeper, start, viewer

from ledger import Ledger
from ledger.values import Terms
from ledger.web import shell
from ledger.web.guard import CSP


def test_the_service_worker_is_served_from_the_root_with_its_version_and_what_it_keeps(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        answer = phone.get("/sw.js")
        manifest = phone.get("/manifest.webmanifest", headers={"Accept-Language": "it"})
        offline = phone.get("/offline", headers={"Accept-Language": "it"})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"  # every visit asks for it: an updated server is found
    head = answer.text.splitlines()[0]
    version = re.search(r'VERSION = "([0-9a-f]{16})"', head)
    assert version is not None and version.group(1) == shell.version()
    kept = json.loads(re.search(r"KEPT = (\[.*?\])", head).group(1))  # type: ignore[union-attr]
    assert {"/static/style.css", "/static/live.js", "/static/waiting.js", "/offline", "/manifest.webmanifest"} <= set(
        kept
    )
    assert "/static/sw.js" not in kept and not any("write" in path or "/api" in path for path in kept)
    said = manifest.json()
    assert manifest.headers["content-type"] == "application/manifest+json"
    assert (said["display"], said["start_url"], said["lang"]) == ("standalone", "/", "it")
    assert {icon["sizes"] for icon in said["icons"]} == {"192x192", "512x512"}
    assert offline.status_code == 200 and "Nessun collegamento con il server" in offline.text
    assert offline.headers["content-language"] == "it"
    assert "manifest-src 'self'" in CSP and answer.headers["content-security-policy"] == CSP


def test_the_write_link_and_the_live_feed_are_never_kept(sqlite_url: str) -> None:
    """The worker keeps no answer marked no-store and touches no write, API, key or live feed."""
    script = (shell.STATIC / shell.WORKER).read_text()
    assert 'request.method !== "GET"' in script and "no-store" in script and "text/event-stream" in script
    assert re.search(r"SKIPPED = /\^\\/\(api\|write\|tables\|language\)", script)
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        assert phone.get("/evenings/1").headers.get("cache-control") is None  # an evening's page may be kept


def test_a_called_card_from_the_declarers_hand_and_the_partner_are_said_in_the_pages_words(sqlite_url: str) -> None:
    start(sqlite_url)
    with Ledger(sqlite_url) as ledger:
        ledger.record("anna chiamo 3B@declarer 20", evening=1)
        quartiglio = ledger.start_evening(
            ("Anna", "Bruno", "Carla", "Dario"), Terms(profile="quartiglio", stake="0.10")
        )
        ledger.record("anna chiamo 3D@carla 20 last=decl", evening=quartiglio.number)
    with viewer(sqlite_url) as phone:
        italian = phone.get("/evenings/1", headers={"Accept-Language": "it"}).text
        four = phone.get(f"/evenings/{quartiglio.number}").text
    assert "3B@chiamante" in italian and "@declarer" not in italian
    assert "3D@Carla" in four and "+ Carla" not in four
