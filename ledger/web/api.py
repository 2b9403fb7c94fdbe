"""The JSON API: the values as the command line's `--json` prints them (`ledger.summary.as_json`).

Reads are open to anyone who can reach the server; writes need `Authorization: Bearer TOKEN`. A user's
mistake is 422 `{"error": "one line"}`, with `"missing": FACT` when the rules need one more fact; a database
that cannot answer is 503 with one line and `Retry-After`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args, get_type_hints

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ledger.errors import FactError, Forbidden, LedgerError, MissingFact, Stale
from ledger.i18n import _
from ledger.rules.build import DealInput
from ledger.service import DealEntry
from ledger.summary import as_json
from ledger.values import EveningDeals, EveningInfo, Terms
from ledger.web.bodies import LINE, body, no_more, optional, seen
from ledger.web.pages import next_link, page_asked
from ledger.web.state import deal_number, evening_number, in_turn, ledger, plain_number, unavailable, writer

_FACT_TYPES = get_type_hints(DealInput)


def user_error(request: Request, error: Exception) -> Response:
    """A LedgerError as 422 with its one-line message (and the missing fact, if that is what it is); a write this
    writer may not make (a table's key after its round) as 403; a correction drawn from what changed since as 409."""
    body: dict[str, object] = {"error": str(error)}
    if isinstance(error, MissingFact):
        body["missing"] = error.fact
    if isinstance(error, FactError):
        body["fact"] = error.fact
    return JSONResponse(body, 403 if isinstance(error, Forbidden) else 409 if isinstance(error, Stale) else 422)


def http_error(request: Request, error: Exception) -> Response:
    """401, 403, 404, 413, 429 as JSON."""
    assert isinstance(error, HTTPException)
    return JSONResponse({"error": error.detail}, error.status_code, headers=error.headers)


def unavailable_error(request: Request, error: Exception) -> Response:
    """503 as JSON: the database cannot answer now."""
    message, headers = unavailable(request, error)
    return JSONResponse({"error": message}, 503, headers=headers)


def _deal(data: dict[str, Any]) -> DealEntry:
    """`{"line": "..."}`, or the deal's facts as the fields of `DealInput`, each of its type."""
    if "line" in data:
        line = data.pop("line")
        if not isinstance(line, str) or data:
            raise LedgerError(_("give the deal as {example} or as its facts, not both").format(example=LINE))
        return line
    for name, value in data.items():
        types = get_args(_FACT_TYPES.get(name)) or (_FACT_TYPES.get(name, object),)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            allowed = _(" or ").join("null" if t is type(None) else t.__name__ for t in types)
            raise LedgerError(
                _("{name} {value}: {name} is {allowed}").format(name=name, value=seen(value), allowed=allowed)
            )
    return DealInput.from_dict(data)


def terms_of(data: dict[str, Any], options: list[str] | dict[str, object]) -> Terms:
    """The table's terms a body gives (`profile`, `stake`, `currency`, `place`, each a string; `options`), those it
    leaves out as a table that says nothing else plays."""
    given = {name: optional(data, name, str) for name in ("profile", "stake", "currency", "place")}
    return Terms(options=options, **{name: value for name, value in given.items() if value is not None})


def answer(value: object, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A value as JSON, as the command line's `--json` prints it: its facts, and its words in the reader's language."""
    return JSONResponse(as_json(value), status, headers=headers)


async def list_evenings(request: Request) -> Response:
    """A page of the evenings, newest first: `?before=N` (those numbered below N; none: the newest) and `&limit=M`
    (default 50, at most 500). `{"evenings": [...], "next": N}`: ask `?before=N` for the older ones (`next` is null on
    the last page), as the `Link` header's `rel="next"` says."""
    before, limit = page_asked(request)
    page = await run_in_threadpool(lambda: ledger(request).evening_page(before=before, limit=limit))
    return answer(page, headers=next_link("/api/evenings", page.next, limit))


async def start_evening(request: Request) -> Response:
    """`{"players": [...], "profile": "pagat", "options": [...], "stake": "0.10", "currency": "EUR", ...}`."""
    data = await body(request)
    players = data.pop("players", None)
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise LedgerError(
            _("players: a list of names in turn order, e.g. {example}").format(example='["Anna", "Bruno", "Carla"]')
        )
    options = data.pop("options", [])
    if not isinstance(options, list | dict):
        raise LedgerError(
            _("options: a list like {listed} or an object like {named}").format(
                listed='["sweeps=off"]', named='{"sweeps": false}'
            )
        )
    dealer, note = optional(data, "dealer", str), optional(data, "note", str)
    terms = terms_of(data, options)
    no_more(data)
    by = writer(request)
    info = await in_turn(
        request, lambda: ledger(request).start_evening(players, terms, dealer=dealer, note=note, by=by)
    )
    return answer(info, 201)


async def show_evening(request: Request) -> Response:
    """The evening: seats, profile, stake, revision, totals, who deals and speaks next."""
    return answer(await run_in_threadpool(ledger(request).evening, evening_number(request)))


async def standings(request: Request) -> Response:
    """Game points and money per player, and the running totals."""
    return answer(await run_in_threadpool(ledger(request).standings, evening_number(request)))


async def list_deals(request: Request) -> Response:
    """Every deal's current revision, voided ones included."""
    info, views = await run_in_threadpool(ledger(request).deals, evening_number(request))
    return answer(EveningDeals(info.number, views))


async def deal_history(request: Request) -> Response:
    """Every revision of one deal, oldest first, and the changes of the evening's log that touched it."""
    return answer(await run_in_threadpool(ledger(request).deal, deal_number(request), evening_number(request)))


async def record(request: Request) -> Response:
    """Record a deal: `{"line": "bruno solo 22"}` or its facts; `key` makes a retry store it at most once."""
    data = await body(request)
    key, dealer = optional(data, "key", str), optional(data, "dealer", str)
    deal, number = _deal(data), evening_number(request)
    by = writer(request)
    done = await in_turn(request, lambda: ledger(request).record(deal, evening=number, dealer=dealer, key=key, by=by))
    return answer(done, 200 if done.duplicate else 201)


async def amend(request: Request) -> Response:
    """A new revision of the deal: `{"line": "20", "reason": "recount"}` or the facts to change; with
    `"seen_revision": 1` (the deal's revision you saw) refused (409) when it was corrected since."""
    data = await body(request)
    reason, dealer = optional(data, "reason", str), optional(data, "dealer", str)
    seen_revision = optional(data, "seen_revision", int)
    changes, number, by = _deal(data), evening_number(request), writer(request)
    done = await in_turn(
        request,
        lambda: ledger(request).amend(
            deal_number(request),
            changes,
            reason=reason,
            evening=number,
            dealer=dealer,
            seen_revision=seen_revision,
            by=by,
        ),
    )
    return answer(done)


async def void(request: Request) -> Response:
    """Void the deal: `{"reason": "misdeal"}`."""
    data = await body(request)
    reason = optional(data, "reason", str)
    number, by = evening_number(request), writer(request)
    done = await in_turn(
        request, lambda: ledger(request).void(deal_number(request), reason=reason, evening=number, by=by)
    )
    return answer(done)


async def undo(request: Request) -> Response:
    """Take back the evening's last change, whatever it was: `{"seen_revision": 12}` (required) refuses it if the
    evening changed since revision 12, saying what happened since."""
    data = await body(request)
    seen = optional(data, "seen_revision", int)
    if seen is None:
        raise LedgerError(
            _("seen_revision: give the evening's revision you last saw, e.g. {example}").format(
                example='{"seen_revision": 12}'
            )
        )
    number, by = evening_number(request), writer(request)
    return answer(await in_turn(request, lambda: ledger(request).undo(evening=number, seen_revision=seen, by=by)))


async def changes(request: Request) -> Response:
    """The evening's change log, oldest first (`?deal=N`: one deal's), and the change undo would take back now."""
    number = evening_number(request)
    deal = plain_number(request.query_params.get("deal", ""))
    logged = await run_in_threadpool(lambda: ledger(request).changes(number, deal=deal))
    last = await run_in_threadpool(ledger(request).last_change, number)
    return answer({"changes": logged, "undo_takes_back": last[0] if last else None})


async def settlement(request: Request) -> Response:
    """Money per player and the fewest payments."""
    _, settled = await run_in_threadpool(ledger(request).settlement, evening_number(request))
    return answer(settled)


async def void_evening(request: Request) -> Response:
    """Void the whole evening (recorded by mistake): `{"reason": "the demo"}`; it stays in the log and counts
    nowhere."""
    return await _with_reason(
        request,
        "void",
        lambda number, reason: ledger(request).void_evening(number, reason=reason, by=writer(request)),
    )


async def reopen_evening(request: Request) -> Response:
    """Open a closed evening again: `{"reason": "a deal was left out"}`; the close it undoes stays in the log."""
    return await _with_reason(
        request,
        "reopen",
        lambda number, reason: ledger(request).reopen_evening(number, reason=reason, by=writer(request)),
    )


async def _with_reason(request: Request, path: str, change: Callable[[int, str | None], EveningInfo]) -> Response:
    """A change to a whole evening named by its number (`.../evenings/3/PATH`), with the reason given:
    `{"reason": "..."}`."""
    data = await body(request)
    reason = optional(data, "reason", str)
    number = evening_number(request)
    if number is None:
        raise LedgerError(_("give the evening's number, e.g. /api/evenings/3/{path}").format(path=path))
    return answer(await in_turn(request, change, number, reason))


async def close(request: Request) -> Response:
    """Close the evening and settle it: `{"drop_pot": true}` drops a pot of passed deals still waiting instead of
    carrying it to the same table's next evening."""
    data = await body(request)
    drop = bool(optional(data, "drop_pot", bool))
    number, by = evening_number(request), writer(request)
    return answer(await in_turn(request, lambda: ledger(request).close_evening(number, drop_pot=drop, by=by)))


EVENING = "/evenings/{evening}"
routes = [
    Route("/evenings", list_evenings),
    Route("/evenings", start_evening, methods=["POST"]),
    Route(EVENING, show_evening),
    Route(f"{EVENING}/standings", standings),
    Route(f"{EVENING}/settlement", settlement),
    Route(f"{EVENING}/close", close, methods=["POST"]),
    Route(f"{EVENING}/void", void_evening, methods=["POST"]),
    Route(f"{EVENING}/reopen", reopen_evening, methods=["POST"]),
    Route(f"{EVENING}/deals", list_deals),
    Route(f"{EVENING}/deals", record, methods=["POST"]),
    Route(f"{EVENING}/deals/{{deal}}", deal_history),
    Route(f"{EVENING}/deals/{{deal}}/amend", amend, methods=["POST"]),
    Route(f"{EVENING}/deals/{{deal}}/void", void, methods=["POST"]),
    Route(f"{EVENING}/undo", undo, methods=["POST"]),
    Route(f"{EVENING}/changes", changes),
]
