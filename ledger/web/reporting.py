"""The evening report and its charts; pandas, matplotlib and `reports` load on the first such request."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ledger.i18n import _
from ledger.web.state import evening_number, ledger, render

if TYPE_CHECKING:
    from sqlalchemy import Engine

CHARTS = ("running", "money", "contracts", "thirds", "pairings")
"""The chart kinds the charts page shows, as `reports.charts.draw` names them."""
_DRAWING = threading.Lock()
"""Matplotlib's style settings are process-wide: one chart is drawn at a time."""


async def report(request: Request) -> Response:
    """The evening report: one self-contained page with seats, deals, standings, settlement and charts."""
    from reports.html import evening_report

    number = evening_number(request)
    info = await run_in_threadpool(ledger(request).evening, number)
    return HTMLResponse(await run_in_threadpool(evening_report, ledger(request).engine, info.number))


async def charts(request: Request) -> Response:
    """A page with the evening's charts (none before its first deal)."""
    info = await run_in_threadpool(ledger(request).evening, evening_number(request))
    return render(request, "charts.html", evening=info, kinds=CHARTS if info.revision else ())


def _png(engine: Engine, evening: int, kind: str) -> bytes:
    from reports.charts import draw, image_bytes
    from reports.filters import Filters
    from reports.frames import load_frames

    frames = load_frames(engine, Filters(evening=evening))
    with _DRAWING:
        return image_bytes(draw(kind, frames), "png")


async def chart(request: Request) -> Response:
    """One chart of the evening as a PNG."""
    kind = request.path_params["kind"]
    if kind not in CHARTS:
        raise HTTPException(404, _("chart %r: the charts are %s") % (kind, ", ".join(CHARTS)))
    info = await run_in_threadpool(ledger(request).evening, evening_number(request))
    image = await run_in_threadpool(_png, ledger(request).engine, info.number, kind)
    return Response(image, media_type="image/png", headers={"Cache-Control": "no-store"})
