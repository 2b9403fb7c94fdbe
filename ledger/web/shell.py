"""What a phone keeps to work through an outage: the service worker (served from the site's root, so that its scope
covers every page), the web app manifest (to add the scorekeeper's page to the home screen), and the page shown for an
address this phone never opened while the server cannot be reached.

The worker's caches are named by `VERSION`, a digest of the static files and the templates: a server updated with
other pages or scripts gives the phones a new worker, which fetches the new files and removes the old caches."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

from ledger.i18n import _, language
from ledger.web.state import render
from ledger.web.templating import TEMPLATES

STATIC = Path(__file__).parent / "static"
WORKER = "sw.js"
OFFLINE = "/offline"
"""The page a phone shows for an address it never opened, while the server cannot be reached."""
THEME = "#1f5f3a"
"""The header's green: the phone's bar around the page, and the home screen's splash."""
BACKGROUND = "#f7f5f0"


def version() -> str:
    """A digest of every static file and template: it changes when the server's pages or scripts do."""
    digest = hashlib.sha256()
    for folder in (STATIC, TEMPLATES):
        for path in sorted(folder.iterdir()):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def kept() -> list[str]:
    """What the worker keeps when it is installed: every static file (scripts, style, icons; not the worker itself),
    the manifest and the page for an address never opened."""
    files = sorted(path.name for path in STATIC.iterdir() if path.name != WORKER)
    return [*(f"/static/{name}" for name in files), "/manifest.webmanifest", OFFLINE]


async def worker(request: Request) -> Response:
    """The service worker, its caches' version and the files it keeps written in; never kept in the browser's cache,
    so that each visit looks for an update."""
    script = (STATIC / WORKER).read_text(encoding="utf-8")
    head = f"var VERSION = {json.dumps(version())}, KEPT = {json.dumps(kept())}, OFFLINE = {json.dumps(OFFLINE)};\n"
    return Response(head + script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


async def manifest(request: Request) -> Response:
    """The web app manifest, in the phone's language: the scorekeeper's page added to the home screen opens on its
    own, without the browser's bar."""
    icons = [
        {"src": f"/static/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any maskable"}
        for size in (192, 512)
    ]
    body = {
        "name": _("Calabresella"),
        "short_name": _("Calabresella"),
        "description": _("The score of the evening, deal by deal, even while the server cannot be reached"),
        "lang": language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icons,
    }
    return Response(json.dumps(body, ensure_ascii=False), media_type="application/manifest+json")


async def offline(request: Request) -> Response:
    """The page shown for an address this phone never opened while the server cannot be reached: the evenings it
    did open, and the deals waiting on it (filled in by its script from what the phone keeps)."""
    return render(request, "offline.html")
