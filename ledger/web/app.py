"""The ASGI app: one `Ledger` for the app's lifetime, the pages, the live feeds, the JSON API under /api; each
request answered in its own language."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Iterable
from http import HTTPStatus
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ledger.errors import DatabaseRefused, LedgerError
from ledger.notices import Notice
from ledger.server_store import ServerStore
from ledger.service import Ledger
from ledger.web import api, club, club_api, pages, reporting, shell, writes
from ledger.web.access import Access, check_token
from ledger.web.drawing import Drawing
from ledger.web.guard import Guard
from ledger.web.language import Speaking, switch
from ledger.web.live import Channel
from ledger.web.outage import Outage
from ledger.web.state import render, unavailable
from ledger.web.templating import make_templates
from ledger.web.throttle import Clock, Throttle

STATIC = Path(__file__).parent / "static"
STREAM_SECONDS = 300.0
"""How long one live stream stays open before the browser reconnects (saying the last revision it got)."""
LOOPBACK = ("127.0.0.1", "localhost", "::1")
HOSTS_VARIABLE = "CALABRESELLA_HOSTS"
"""The host names the app answers for, comma-separated, when it is made from the environment."""


def page_error(request: Request, error: Exception) -> Response:
    """A user's mistake (422) or a refused, missing page (401, 403, 404, 413, 429) as a page with one line."""
    if not isinstance(error, HTTPException):
        return render(request, "error.html", 422, message=str(error), status_code=422)
    said = error.detail if error.detail != HTTPStatus(error.status_code).phrase else None
    response = render(request, "error.html", error.status_code, message=said, status_code=error.status_code)
    response.headers.update(error.headers or {})
    return response


def unavailable_page(request: Request, error: Exception) -> Response:
    """503: a page with one line."""
    message, headers = unavailable(request, error)
    response = render(request, "error.html", 503, message=message, status_code=503)
    response.headers.update(headers)
    return response


def create_app(
    db: str | None,
    token: str,
    *,
    hosts: Iterable[str] = LOOPBACK,
    stream_seconds: float = STREAM_SECONDS,
    clock: Clock | None = None,
) -> Starlette:
    """The web front end over the ledger at `db`; `token` lets a browser (through the write link) or an API client
    write; only requests naming one of `hosts` are answered; wrong tries are slowed by the wall clock, or `clock`."""
    check_token(token)
    templates = make_templates()
    live_fragment = templates.get_template("live.html")
    board_fragment = templates.get_template("club_live.html")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, object]]:
        ledger = Ledger(db)
        store = ServerStore(ledger)
        access = Access(token, store.identity(), Throttle(store, clock))
        outage = Outage()
        loop = asyncio.get_running_loop()

        def wrote(_change: Notice) -> None:
            """A change was committed, by this server or another program: writes go through (told in the loop)."""
            loop.call_soon_threadsafe(functools.partial(outage.answered, writing=True))

        forget_writes = ledger.subscribe(wrote)
        channel = Channel(
            ledger,
            {
                "evening": lambda live: live_fragment.render(live=live),
                "event": lambda event: board_fragment.render(event=event),
            },
            outage,
        )
        channel.listen()
        drawing = Drawing()
        stopping: list[asyncio.Task[None]] = []

        def stop() -> None:
            """The server stops: end the live streams now, and begin no chart (call in the event loop; once is
            enough)."""
            if not stopping:
                drawing.stop()
                stopping.append(asyncio.get_running_loop().create_task(channel.stop()))

        try:
            yield {
                "ledger": ledger,
                "channel": channel,
                "access": access,
                "outage": outage,
                "drawing": drawing,
                "stop": stop,
                "templates": templates,
                "stream_seconds": stream_seconds,
            }
        finally:
            stop()
            await stopping[0]
            forget_writes()
            ledger.close()

    evening = "/evenings/{evening}"
    routes = [
        Route("/", pages.home),
        Route("/write", writes.write_link),
        Route("/welcome", pages.welcome),
        Route("/sw.js", shell.worker),
        Route("/manifest.webmanifest", shell.manifest),
        Route(shell.OFFLINE, shell.offline),
        Route("/language/{code}", switch),
        Route("/evenings", pages.evenings),
        Route("/evenings", writes.start, methods=["POST"]),
        Route("/evenings/new", pages.new_evening),
        Route(evening, pages.evening),
        Route(f"{evening}/events", pages.events),
        Route(f"{evening}/deals", pages.deals),
        Route(f"{evening}/deals", writes.record, methods=["POST"]),
        Route(f"{evening}/deals/{{deal}}", pages.deal),
        Route(f"{evening}/deals/{{deal}}/amend", writes.amend, methods=["POST"]),
        Route(f"{evening}/deals/{{deal}}/void", writes.void, methods=["POST"]),
        Route(f"{evening}/undo", writes.undo, methods=["POST"]),
        Route(f"{evening}/settle", pages.settlement),
        Route(f"{evening}/close", writes.close, methods=["POST"]),
        Route(f"{evening}/reopen", writes.reopen, methods=["POST"]),
        Route(f"{evening}/report", reporting.report),
        Route(f"{evening}/charts", reporting.charts),
        Route(f"{evening}/charts/{{kind}}.png", reporting.chart),
        Route("/tables/{evening}", club.table_link),
        Route("/events", club.events),
        Route("/events/{event}", club.event),
        Route("/events/{event}/board", club.board),
        Route("/events/{event}/board/live", club.board_live),
        Route("/events/{event}/sheets", club.sheets),
        Mount(
            "/api",
            app=Starlette(
                routes=api.routes + club_api.routes,
                exception_handlers={
                    DatabaseRefused: api.unavailable_error,
                    LedgerError: api.user_error,
                    HTTPException: api.http_error,
                },
            ),
        ),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(Speaking), Middleware(Guard, hosts=hosts)],
        exception_handlers={DatabaseRefused: unavailable_page, LedgerError: page_error, HTTPException: page_error},
    )


def from_environment() -> Starlette:
    """The app as `calabresella serve` makes it, from the environment, for an ASGI server that runs it in several
    worker processes (`uvicorn --factory ledger.web.app:from_environment --workers 4`, or gunicorn with uvicorn's
    workers): the ledger `CALABRESELLA_DB`; the token `CALABRESELLA_TOKEN`, else the file `CALABRESELLA_TOKEN_FILE`,
    else the ledger's default token file; the host names `CALABRESELLA_HOSTS` (default: loopback)."""
    import os

    from ledger.web.logs import to_terminal
    from ledger.web.token import load_token, token_path

    to_terminal()
    hosts = [name.strip() for name in os.environ.get(HOSTS_VARIABLE, "").split(",") if name.strip()]
    with Ledger(None) as ledger:
        identity = ServerStore(ledger).identity()
    return create_app(None, load_token(token_path(identity)), hosts=hosts or LOOPBACK)
