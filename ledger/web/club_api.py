"""The JSON API of club nights and seasons, under /api/events and /api/seasons (writes need the server's token)."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.web.api import answer, terms_of
from ledger.web.bodies import body, no_more, optional
from ledger.web.club import event_number
from ledger.web.pages import next_link, page_asked
from ledger.web.state import access, in_turn, ledger, writer


def _names(data: dict[str, Any], name: str, example: str = '["Anna", "Bruno", "Carla"]') -> list[str]:
    """A list of names taken out of the body (empty when absent)."""
    value = data.pop(name, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise LedgerError(_("{name}: a list of names, e.g. {example}").format(name=name, example=example))
    return value


async def list_events(request: Request) -> Response:
    """A page of the events, newest first, as a list shows them (`/api/events/N` is one whole, with its rounds and
    leaderboard): `?before=N&limit=M` as for the evenings, `{"events": [...], "next": N}` and a `Link` to the next."""
    before, limit = page_asked(request)
    page = await run_in_threadpool(lambda: ledger(request).club.event_page(before=before, limit=limit))
    return answer(page, headers=next_link("/api/events", page.next, limit))


async def start_event(request: Request) -> Response:
    """`{"name": "Club night", "players": [...], "profile": "pagat", "options": [...], "stake": "0.10",
    "season": "Autumn", "pairing": "standing", "round_deals": 12}`."""
    data = await body(request)
    name = optional(data, "name", str) or ""
    players = _names(data, "players")
    options = data.pop("options", [])
    if not isinstance(options, list | dict):
        raise LedgerError(_("options: a list like {listed}").format(listed='["sweeps=off"]'))
    terms = terms_of(data, options)
    season, pairing = optional(data, "season", str), optional(data, "pairing", str) or "random"
    counts = {key: optional(data, key, int) for key in ("round_deals", "round_minutes")}
    no_more(data)
    by = writer(request)
    info = await in_turn(
        request,
        lambda: ledger(request).club.start_event(name, players, terms, season=season, pairing=pairing, by=by, **counts),
    )
    return answer(info, 201)


async def show_event(request: Request) -> Response:
    """The event: rules, rounds with their tables and seats, the leaderboard."""
    return answer(await run_in_threadpool(ledger(request).club.event, event_number(request)))


async def seat_round(request: Request) -> Response:
    """Seat the next round: `{}` draws it; `{"tables": [["Anna", "Bruno", "Carla"], ...]}` sets it by hand;
    `"arrived"` and `"left"` name players who came or went; `"seed"` repeats a draw; `"round": 2` names the round
    this request makes, so that sent twice (or by two organisers at once) it seats one round, and both are answered
    with it."""
    data = await body(request)
    tables = data.pop("tables", None)
    if tables is not None and (
        not isinstance(tables, list)
        or not all(isinstance(t, list) and all(isinstance(n, str) for n in t) for t in tables)
    ):
        raise LedgerError(
            _("tables: a list of tables, each a list of names, e.g. {example}").format(example='[["A", "B", "C"]]')
        )
    arrived, left, seed = _names(data, "arrived"), _names(data, "left"), optional(data, "seed", int)
    made = optional(data, "round", int)
    no_more(data)
    number, by = event_number(request), writer(request)
    info = await in_turn(
        request,
        lambda: ledger(request).club.seat_round(
            number, tables=tables, arrived=arrived, left=left, seed=seed, round=made, by=by
        ),
    )
    return answer(info, 201)


async def end_round(request: Request) -> Response:
    """End the round under way: every table's evening closes."""
    no_more(await body(request))
    number, by = event_number(request), writer(request)
    info = await in_turn(request, lambda: ledger(request).club.end_round(number, by=by))
    return answer(info)


async def close_event(request: Request) -> Response:
    """Close the event: the round under way ends, and no more rounds are seated."""
    no_more(await body(request))
    number, by = event_number(request), writer(request)
    info = await in_turn(request, lambda: ledger(request).club.close_event(number, by=by))
    return answer(info)


async def table_links(request: Request) -> Response:
    """Each table of the round under way with the key of its link (`/tables/EVENING?key=KEY`), which also writes
    through this API as `Authorization: Bearer KEY`, to that table's evening only. Needs the server's token."""
    await access(request).check_bearer(request)
    info = await run_in_threadpool(ledger(request).club.event, event_number(request))
    guard = access(request)
    tables = info.current.tables if info.current else ()
    return JSONResponse(
        [
            {
                "table": t.number,
                "evening": t.evening,
                "key": guard.table_key(t.evening),
                "link": f"/tables/{t.evening}?key={guard.table_key(t.evening)}",
            }
            for t in tables
        ]
    )


async def list_seasons(request: Request) -> Response:
    """Every season with its league table."""
    return answer(await run_in_threadpool(ledger(request).club.seasons))


async def start_season(request: Request) -> Response:
    """`{"name": "Autumn 2026", "min_deals": 30}`."""
    data = await body(request)
    name, least = optional(data, "name", str) or "", optional(data, "min_deals", int) or 0
    no_more(data)
    return answer(await in_turn(request, lambda: ledger(request).club.start_season(name, min_deals=least)), 201)


async def show_season(request: Request) -> Response:
    """The season's league table: game points, deals, points per deal, events attended, skill."""
    name = request.path_params["season"][:60]
    return answer(await run_in_threadpool(ledger(request).club.season, name))


EVENT = "/events/{event}"
routes = [
    Route("/events", list_events),
    Route("/events", start_event, methods=["POST"]),
    Route(EVENT, show_event),
    Route(f"{EVENT}/rounds", seat_round, methods=["POST"]),
    Route(f"{EVENT}/rounds/end", end_round, methods=["POST"]),
    Route(f"{EVENT}/close", close_event, methods=["POST"]),
    Route(f"{EVENT}/links", table_links),
    Route("/seasons", list_seasons),
    Route("/seasons", start_season, methods=["POST"]),
    Route("/seasons/{season}", show_season),
]
