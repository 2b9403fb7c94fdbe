"""A club night on the web: the event's page (each player finds their table and seat), the leaderboard for the
screen at the bar (live), the printable results and scoresheets, and each table's link that writes to that
table's evening only."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response, StreamingResponse

from ledger.club.ranking import event_places
from ledger.club.values import EventInfo, RoundInfo
from ledger.i18n import _, language
from ledger.rules.seats import name_key
from ledger.values import Writer
from ledger.web.pages import next_page, page_asked
from ledger.web.state import access, channel, ledger, plain_number, render

SHEET_ROWS = 24
"""Blank deal rows on a table's paper scoresheet."""


def event_number(request: Request) -> int:
    """The `{event}` of the path, a positive number."""
    text = request.path_params["event"]
    number = plain_number(text)
    if number is None or number < 1:
        raise HTTPException(404, _("event %r: give its number") % text[:20])
    return number


async def _event(request: Request) -> EventInfo:
    return await run_in_threadpool(ledger(request).club.event, event_number(request))


def table_links(request: Request, played: RoundInfo | None) -> list[tuple[int, str, str]]:
    """Each table of the round with its scorekeeper's link and that link as a QR code (inline SVG), for a browser
    that may write to the whole ledger; none for anyone else."""
    import segno

    guard = access(request)
    if played is None or not guard.can_write(request):
        return []
    base = str(request.base_url).rstrip("/")
    links = []
    for table in played.tables:
        url = f"{base}/tables/{table.evening}?key={guard.table_key(table.evening)}"
        qr = segno.make(url, error="m").svg_inline(dark="#000", light="#fff", omitsize=True)  # a viewBox: it scales
        links.append((table.number, url, qr))
    return links


async def events(request: Request) -> Response:
    """A page of the club nights, newest first (`?before=N`: those numbered below N), with a link to the older ones."""
    before, limit = page_asked(request)
    page = await run_in_threadpool(lambda: ledger(request).club.event_page(before=before, limit=limit))
    older = next_page("/events", page.next, limit)
    return render(request, "club_events.html", events=page.events, older=older, before=before)


async def event(request: Request) -> Response:
    """The event: its round, each table and seat; `?player=NAME` shows that player where they sit."""
    info = await _event(request)
    asked = request.query_params.get("player", "")[:60]
    at = next((i for i, line in enumerate(info.standings) if asked and name_key(line.player) == name_key(asked)), None)
    found = None if at is None else info.standings[at]
    place = None if at is None or not info.standings[at].deals else event_places(info.standings)[at]
    links = table_links(request, info.current)
    page = render(request, "club_event.html", event=info, player=found, place=place, asked=asked, links=links)
    if links:  # the tables' keys stay out of the browser's cache
        page.headers["Cache-Control"] = "no-store"
    return page


async def board(request: Request) -> Response:
    """The leaderboard, for a screen at the bar: it follows the event without being reloaded."""
    return render(request, "club_board.html", event=await _event(request))


async def board_live(request: Request) -> Response:
    """Server-sent events: the leaderboard now and at each change."""
    info = await _event(request)
    stream = channel(request).stream(("event", info.number), -1, request.state.stream_seconds, language())
    return StreamingResponse(
        stream, media_type="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )


async def sheets(request: Request) -> Response:
    """The results, and a paper scoresheet for each table of the round, made to print on A4."""
    return render(request, "club_sheets.html", event=await _event(request), rows=range(1, SHEET_ROWS + 1))


async def table_link(request: Request) -> Response:
    """A table's link: with its key, this phone keeps that table's score (and writes nowhere else); once the table
    may write no more (its round ended or its deals are played), the link opens the evening to look at."""
    number = plain_number(request.path_params["evening"])
    guard = access(request)
    if number is None or not await guard.open_link(request, number):
        return render(
            request, "error.html", 403, status_code=403, message=_("This link cannot record deals: its key is wrong.")
        )
    refused = await run_in_threadpool(ledger(request).refusal, number, Writer("table", number))
    response = RedirectResponse(f"/evenings/{number}", 303, headers={"Cache-Control": "no-store"})
    if refused:
        return response
    if guard.session(request) is None or guard.kept_to(request) is not None:  # the scorekeeper's phone keeps all
        guard.remember(request, response, guard.new_session(number))
    return response
