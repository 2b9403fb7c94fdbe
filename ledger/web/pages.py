"""Pages that only read: the evenings, one evening as it stands (and its live feed), its deals, its settlement."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response, StreamingResponse

from ledger.errors import LedgerError, shown
from ledger.i18n import _, language
from ledger.rules.profiles import DEFAULTS
from ledger.rules.quick import examples
from ledger.summary import after_undo, logged
from ledger.values import PAGE, DealView, Writer
from ledger.web import guided
from ledger.web.live import Live, load_live
from ledger.web.state import (
    access,
    channel,
    deal_number,
    evening_number,
    ledger,
    plain_number,
    render,
    render_part,
)


async def home(request: Request) -> Response:
    """The open evening, or the list of evenings when none is open."""
    try:
        info = await run_in_threadpool(ledger(request).evening)
    except LedgerError:
        return RedirectResponse("/evenings", 303)
    return RedirectResponse(f"/evenings/{info.number}", 303)


async def welcome(request: Request) -> Response:
    """Where the write link leads: this phone keeps the score now (or, without a session, it cannot)."""
    return render(request, "welcome.html")


async def evenings(request: Request) -> Response:
    """A page of the evenings, newest first (`?before=N`: those numbered below N), with a link to the older ones."""
    before, limit = page_asked(request)
    page = await run_in_threadpool(lambda: ledger(request).evening_page(before=before, limit=limit))
    older = next_page("/evenings", page.next, limit)
    return render(request, "evenings.html", evenings=page.evenings, older=older, before=before)


def next_page(address: str, after: int | None, limit: int) -> str | None:
    """The address of a list's next page, its older items (`address?before=N`, and `&limit=M` unless the usual
    `PAGE`); None on the last page."""
    if after is None:
        return None
    return f"{address}?before={after}" + ("" if limit == PAGE else f"&limit={limit}")


def next_link(address: str, after: int | None, limit: int) -> dict[str, str]:
    """The `Link` header to a list's next page, as an API answer gives it; none on the last page."""
    found = next_page(address, after, limit)
    return {} if found is None else {"Link": f'<{found}>; rel="next"'}


def page_asked(request: Request) -> tuple[int | None, int]:
    """The page of a list a request asks for: `?before=N` (those numbered below N; none: the newest) and `&limit=M`
    (how many; none: `PAGE`). A value that is not a plain number is an error naming it."""
    asked: dict[str, int | None] = {}
    for name in ("before", "limit"):
        text = request.query_params.get(name)
        asked[name] = None if text is None else plain_number(text)
        if text is not None and asked[name] is None:
            raise LedgerError(
                _("{what} {number}: a whole number, {smallest} or more").format(
                    what=name, number=shown(text[:20]), smallest=1
                )
            )
    return asked["before"], PAGE if asked["limit"] is None else asked["limit"]


async def evening(request: Request) -> Response:
    """The evening as it stands; `?deal=N` shows deal N's result and explanation on top (with `&undone=KIND`, named as
    an undo of a change of that kind left it); `?recorded=N`, the address of a deal just recorded, shows its result
    while it is still the evening's last deal."""
    live = await run_in_threadpool(load_live, ledger(request), evening_number(request))
    refused = await refusal(request, live.evening.number)
    recorded = plain_number(request.query_params.get("recorded", ""))
    if recorded is not None:
        return evening_page(request, live, result=latest(live, recorded), refused=refused)
    shown = plain_number(request.query_params.get("deal", ""))
    undone = request.query_params.get("undone")
    left = after_undo(undone) if undone in ("record", "amend", "void") else None
    return evening_page(request, live, result=await shown_deal(request, live, shown), refused=refused, undone=left)


async def refusal(request: Request, evening: int) -> str | None:
    """Why this phone may no longer write to the evening (a club table's key after its round), as `Ledger` says it;
    None when it may, or when it only looks."""
    table = access(request).kept_to(request)
    if table is None:
        return None
    return await run_in_threadpool(ledger(request).refusal, evening, Writer("table", table))


async def closed_to(request: Request, evening: int) -> bool:
    """Whether no deal this phone sends to the evening can be recorded now: the evening is closed, or this phone's
    table key may no longer write there."""
    info = await run_in_threadpool(ledger(request).evening, evening)
    return info.closed or await refusal(request, evening) is not None


def recorded_address(evening: int, deal: int) -> str:
    """The address of the evening page with deal `deal` just recorded."""
    return f"/evenings/{evening}?recorded={deal}"


def latest(live: Live, number: int) -> DealView | None:
    """Deal `number`, if it is the evening's last deal."""
    return live.deals[-1] if live.deals and live.deals[-1].number == number else None


async def shown_deal(request: Request, live: Live, shown: int | None) -> DealView | None:
    """Deal `shown` (the one just written), if the evening has it."""
    if shown is None or not live.deals or not 0 < shown <= live.deals[-1].number:
        return None
    found = next((deal for deal in live.deals if deal.number == shown), None)
    if found is None:
        found = (await run_in_threadpool(ledger(request).deal, shown, live.evening.number)).revisions[-1]
    return found


def evening_page(request: Request, live: Live, status: int = 200, **context: object) -> Response:
    """The evening page: the live part, the record forms (for the scorekeeper) and a fresh idempotency key (the
    page's own script makes one per deal; this one serves a phone without script)."""
    return render(request, "evening.html", status, **_evening(live, context))


def evening_main(request: Request, live: Live, **context: object) -> str:
    """What the evening page holds in its `<main>`, as text: the page's own script swaps it in after a deal."""
    return render_part(request, "evening_main.html", **_evening(live, context))


def _evening(live: Live, context: dict[str, object]) -> dict[str, object]:
    profile, players = live.evening.profile, live.evening.players
    return {
        "live": live,
        "drawn": datetime.now(UTC).isoformat(),
        "key": secrets.token_urlsafe(12),
        "pad": guided.pad(live.evening),
        "example": examples(players, profile)[0],
        "given": context.pop("given", {}),
        **context,
    }


async def events(request: Request) -> Response:
    """Server-sent events: the evening's live part at each change after the revision the phone last got."""
    number = evening_number(request)
    info = await run_in_threadpool(ledger(request).evening, number)
    seen = plain_number(request.headers.get("last-event-id") or request.query_params.get("seen", ""))
    watched = ("evening", info.number)
    stream = channel(request).stream(watched, -1 if seen is None else seen, request.state.stream_seconds, language())
    return StreamingResponse(
        stream, media_type="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )


async def deals(request: Request) -> Response:
    """Every deal of the evening, voided ones marked, each a link to its corrections; the evening's change log."""
    info, views = await run_in_threadpool(ledger(request).deals, evening_number(request))
    log = await run_in_threadpool(ledger(request).changes, info.number)
    by_number = {deal.number: deal for deal in views}
    changes = [(change, logged(change, by_number.get(change.deal or 0))) for change in reversed(log)]
    return render(request, "deals.html", evening=info, deals=views, changes=changes)


async def deal(request: Request, status: int = 200, **context: object) -> Response:
    """One deal: every revision, oldest first, and the forms to amend or void it."""
    number = evening_number(request)
    info = await run_in_threadpool(ledger(request).evening, number)
    history = (await run_in_threadpool(ledger(request).deal, deal_number(request), info.number)).revisions
    given = context.pop("given", None) or guided.given_of(history[-1])
    pad = guided.pad(info, every_declarer=True)
    return render(request, "deal.html", status, evening=info, history=history, pad=pad, given=given, **context)


async def settlement(request: Request, status: int = 200, **context: object) -> Response:
    """Money per player and the fewest payments that settle the evening; closing it, or reopening it."""
    info, settled = await run_in_threadpool(ledger(request).settlement, evening_number(request))
    return render(request, "settle.html", status, evening=info, settlement=settled, **context)


async def new_evening(request: Request, status: int = 200, **context: object) -> Response:
    """The form that starts an evening."""
    return render(request, "new_evening.html", status, profiles=list(DEFAULTS), **context)
