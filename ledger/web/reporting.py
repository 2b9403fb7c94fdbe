"""The evening report and its charts; pandas and matplotlib load on the first such request."""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ledger.i18n import _
from ledger.web.state import drawing, evening_number, ledger, render

CHARTS = ("running", "money", "contracts", "thirds", "pairings")
"""The chart kinds the charts page shows."""
STYLE = re.compile(r"<style>(.*?)</style>", re.S)
NOTHING = "'none'"
IMAGE_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'"
"""A chart opened on its own: the browser's image viewer styles itself inline; nothing in a PNG can use that."""


def report_policy(html: str) -> str:
    """The report's Content-Security-Policy: its own style blocks (by hash) and its chart images (from this server,
    or inline as data) load, and nothing else: no script, no frame, no form."""
    styles = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()}'"
        for style in STYLE.findall(html)
    )
    return (
        f"default-src 'none'; style-src {styles or NOTHING}; img-src 'self' data:; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'none'"
    )


async def report(request: Request) -> Response:
    """The evening report: seats, deals, standings, settlement, and the charts, each loaded as an image of its own
    (the page is there before they are drawn)."""
    info = await run_in_threadpool(ledger(request).evening, evening_number(request))
    here = f"/evenings/{info.number}"
    html = await run_in_threadpool(
        lambda: ledger(request).report(info.number, back=here, charts=f"{here}/charts/{{kind}}.png")
    )
    return HTMLResponse(html, headers={"Content-Security-Policy": report_policy(html)})


async def charts(request: Request) -> Response:
    """A page with the evening's charts, each said in words at once while its image loads (none before its first
    deal)."""
    info = await run_in_threadpool(ledger(request).evening, evening_number(request))
    said = await run_in_threadpool(lambda: ledger(request).chart_summaries(info.number)) if info.revision else {}
    return render(request, "charts.html", evening=info, said=said)


async def chart(request: Request) -> Response:
    """One chart of the evening as a PNG, drawn in its turn (refused when the server stops first)."""
    kind = request.path_params["kind"]
    if kind not in CHARTS:
        raise HTTPException(404, _("chart %r: the charts are %s") % (kind, ", ".join(CHARTS)))
    info = await run_in_threadpool(ledger(request).evening, evening_number(request))
    image = await drawing(request).draw(lambda: ledger(request).chart(kind, evening=info.number))
    return Response(
        image, media_type="image/png", headers={"Cache-Control": "no-store", "Content-Security-Policy": IMAGE_POLICY}
    )
