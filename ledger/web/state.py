"""What every route reaches (the lifespan's state): the one `Ledger`, write access and who writes, the live channel,
templates; path values; the line a client reads when the database fails."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.templating import Jinja2Templates

from ledger.i18n import _
from ledger.service import Ledger
from ledger.values import Writer
from ledger.web.access import Access
from ledger.web.drawing import Drawing
from ledger.web.live import Channel
from ledger.web.outage import Outage

T = TypeVar("T")
RETRY_SECONDS = 5
"""When a client is told to try again after the database failed it."""
CURRENT = "current"
"""The path word for the open evening (the most recent one still open)."""
SAFE = ("GET", "HEAD")
"""The methods that only read."""
ASKED = "asked_ledger"
"""Set in a request's state once it asks the ledger: its answer then says whether the ledger answers."""


def ledger(request: Request) -> Ledger:
    """The app's ledger, opened once at start-up."""
    setattr(request.state, ASKED, True)
    return request.state.ledger


def outage(request: Request) -> Outage:
    """Where the ledger's failures to answer are told."""
    return request.state.outage


def access(request: Request) -> Access:
    """Who may write on this server."""
    return request.state.access


def channel(request: Request) -> Channel:
    """What the phones and screens watch, live."""
    return request.state.channel


def drawing(request: Request) -> Drawing:
    """Whose turn it is to draw a chart."""
    return request.state.drawing


def writer(request: Request) -> Writer:
    """Who writes with this request, as `Access` found when it let the write in (a phone, a table, the API)."""
    return getattr(request.state, "writer", None) or Writer("phone")


async def in_turn(request: Request, call: Callable[..., T], *args: object) -> T:
    """A call of the ledger (a write, or the reads around it) off the server's event loop; the ledger orders the
    writes."""
    return await run_in_threadpool(call, *args)


def templates(request: Request) -> Jinja2Templates:
    """The page templates."""
    return request.state.templates


def render(request: Request, name: str, status: int = 200, **context: object) -> Response:
    """A page, told whether this browser may write here and given the CSRF token its forms carry."""
    return templates(request).TemplateResponse(request, name, {**_writing(request), **context}, status_code=status)


def render_part(request: Request, name: str, **context: object) -> str:
    """Part of a page, as text, told what `render` tells a page."""
    return templates(request).get_template(name).render({**_writing(request), **context})


def _writing(request: Request) -> dict[str, object]:
    """Whether this browser may write here (a table's phone writes on its own evening's pages only), and the CSRF
    token its forms carry ("" for a viewer)."""
    guard = access(request)
    here = plain_number(request.path_params.get("evening", ""))
    return {"can_write": guard.can_write(request, here), "csrf": guard.csrf(request)}


def evening_number(request: Request) -> int | None:
    """The `{evening}` of the path: a number, or None for `current`; anything else is not found."""
    text = request.path_params["evening"]
    if text == CURRENT:
        return None
    number = plain_number(text)
    if number is None or number < 1:
        raise HTTPException(404, _("evening %r: give its number, or %s") % (text[:20], CURRENT))
    return number


def deal_number(request: Request) -> int:
    """The `{deal}` of the path, a positive number."""
    text = request.path_params["deal"]
    number = plain_number(text)
    if number is None or number < 1:
        raise HTTPException(404, _("deal %r: deals are numbered from 1") % text[:20])
    return number


def plain_number(text: str) -> int | None:
    """A whole number written in at most 18 plain digits (what a page or a browser sends back), else None.

    >>> plain_number("12"), plain_number("-1"), plain_number("\u0661"), plain_number("9" * 19)
    (12, None, None, None)
    """
    return int(text) if text.isascii() and text.isdecimal() and len(text) <= 18 else None


def unavailable(request: Request, error: Exception) -> tuple[str, dict[str, str]]:
    """The one line a client reads when the database failed a request (its own reason goes to the log, once per
    outage), and the header that says when to try again. A request that fails may have been a write when it is not a
    read, or when it carries a link's key (a wrong key is written down, to slow the guesser)."""
    writing = request.method not in SAFE or "key" in request.query_params
    outage(request).failed(error, refused=True, writing=writing)
    message = _("the ledger cannot be written (disk full / read-only / database restarting): try again in a moment")
    return message, {"Retry-After": str(RETRY_SECONDS)}
