"""Forms that write: the write link, starting and closing an evening, recording, amending, voiding, undoing.

Each form post needs a write session, its CSRF token and this site's Origin (`Access.check_form`), and fields
within their limits; then one `Ledger` method runs, and the page either shows the result (after a redirect, so
a reload writes nothing) or the one-line error with what was typed kept. A deal sent by the evening page's own
script gets the page's new `<main>` (or the question, or the refusal) instead, as JSON. When the database cannot
answer, the error goes on to the 503 page instead.
"""

from __future__ import annotations

import hashlib
import json

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from ledger.errors import DatabaseUnavailable, KeyTaken, LedgerError, MissingFact, Stale
from ledger.i18n import _
from ledger.values import EveningInfo, Recorded, Terms
from ledger.web import guided, pages
from ledger.web.limits import check_fields
from ledger.web.live import load_live
from ledger.web.state import (
    access,
    deal_number,
    evening_number,
    in_turn,
    ledger,
    plain_number,
    render,
    render_part,
    writer,
)


async def write_link(request: Request) -> Response:
    """The scorekeeper's link: with the right key, this browser gets a write session, and goes on to a page whose
    address holds no key."""
    guard = access(request)
    if not await guard.open_link(request):
        return render(
            request, "error.html", 403, status_code=403, message=_("This link cannot record deals: its key is wrong.")
        )
    response = RedirectResponse("/welcome", 303, headers={"Cache-Control": "no-store"})
    guard.remember(request, response, guard.new_session())
    return response


async def _form(request: Request) -> FormData:
    """The posted form, once the write session, CSRF token, Origin and the fields' lengths are checked."""
    form = await request.form()
    access(request).check_form(request, form)
    check_fields(form.multi_items())
    return form


def _mistake(error: LedgerError) -> str:
    """The one line for what was typed wrong; the database's own failure goes on to the 503 page."""
    if isinstance(error, DatabaseUnavailable):
        raise error
    return str(error)


def _text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


def _shown(
    request: Request, evening: int, deal: int | None = None, path: str = "", undone: str | None = None
) -> Response:
    """Back to a page of the evening after a write (the ledger tells every phone watching it); `undone`: the kind of
    change to the deal an undo took back, which the page names."""
    target = f"/evenings/{evening}{path}" + (f"?deal={deal}" if deal is not None else "")
    return RedirectResponse(target + (f"&undone={undone}" if undone and deal is not None else ""), 303)


async def _recorded(request: Request, evening: int, done: Recorded) -> Response:
    """A deal's result (the ledger tells every phone and screen watching the evening).

    A plain form is redirected to the result's address (so a reload writes nothing); the page's own script, which
    sent the form (`Sent-By: page`), gets the page's `<main>` with the result on top and a fresh pad, and that address:
    it swaps them in, and loads no page. A retry of the evening's last deal (a double tap, an answer lost on the way)
    is answered as the first send was; a retry of an earlier deal (a form sent again long after) says that deal is
    already recorded, and what it was, under the evening's own address."""
    number, by_page = done.deal.number, request.headers.get(SENT_BY_PAGE) == "page"
    address = pages.recorded_address(evening, number)
    if not by_page and not done.duplicate:
        return RedirectResponse(address, 303)
    live = await in_turn(request, load_live, ledger(request), evening)
    last = pages.latest(live, number)
    if last is None and not by_page:
        return pages.evening_page(request, live, result=done.deal, again=True)
    if last is None:
        main = pages.evening_main(request, live, result=done.deal, again=True)
        return JSONResponse({"location": f"/evenings/{evening}", "main": main})
    if not by_page:
        return RedirectResponse(address, 303)
    refused = await pages.refusal(request, evening)  # the round's last deal: the table's key writes no more
    return JSONResponse({"location": address, "main": pages.evening_main(request, live, result=last, refused=refused)})


SENT_BY_PAGE = "Sent-By"
"""The header with which the page's own script sends a form."""


async def start(request: Request) -> Response:
    """Start an evening: players in turn order, profile and options, stake and currency, place."""
    form = await _form(request)
    players = [name.strip() for name in _text(form, "players").split(",") if name.strip()]
    try:
        info = await in_turn(
            request,
            lambda: ledger(request).start_evening(
                players,
                Terms(
                    profile=_text(form, "profile") or "pagat",
                    options=_text(form, "options").split(),
                    stake=_text(form, "stake") or "0",
                    currency=_text(form, "currency") or "EUR",
                    place=_text(form, "place") or None,
                ),
                by=writer(request),
            ),
        )
    except LedgerError as error:
        return await pages.new_evening(request, 422, error=_mistake(error), form=dict(form))
    return _shown(request, info.number)


async def record(request: Request) -> Response:
    """Record a new deal from the quick line or the pad: it is the evening's next deal, whatever the page showed when
    it was tapped (each deal has its own key, so it is stored once). A missing fact is asked for on its own page, and
    a refused deal is shown again, each with every fact tapped kept; the page's own script gets either as JSON."""
    form = await _form(request)
    info = await in_turn(request, ledger(request).evening, evening_number(request))
    line, tapped, key = _text(form, "line"), guided.tapped(form), _text(form, "key") or None
    given = guided.answers(tapped)
    try:
        more = guided.deal_input(given, info.players, info.profile)
        if not line and not more.declares:
            return _question(request, info, "declarer", line, tapped, key)
        extra = more if line and more.to_dict() else None

        by = writer(request)

        def write(key: str | None) -> Recorded:
            return ledger(request).record(line or more, evening=info.number, more=extra, key=key, by=by)

        try:
            done = await in_turn(request, write, key)
        except KeyTaken:  # the page's key holds the deal sent before Back: this is another deal, with its own key
            done = await in_turn(request, write, _another_key(key or "", line, given))
    except MissingFact as missing:
        return _question(request, info, missing.fact, line, tapped, key)
    except LedgerError as error:
        said, asking = _mistake(error), _text(form, "asking")
        if asking in guided.FACTS:
            return _question(request, info, asking, line, tapped, key, error=said, status=422)
        if request.headers.get(SENT_BY_PAGE) == "page":
            return JSONResponse({"error": said, "final": await pages.closed_to(request, info.number)}, 422)
        live = await in_turn(request, load_live, ledger(request), info.number)
        return pages.evening_page(request, live, 422, error=said, line=line, given=tapped)
    return await _recorded(request, info.number, done)


def _another_key(key: str, line: str, given: dict[str, str]) -> str:
    """The key of a different deal sent from a page whose key is taken: the same for the same facts, so that its
    own retries are still stored once."""
    facts = json.dumps([line, sorted(given.items())], ensure_ascii=False).encode()
    return f"{key}.{hashlib.sha256(facts).hexdigest()[:12]}"


def _question(
    request: Request,
    info: EveningInfo,
    fact: str,
    line: str,
    tapped: dict[str, str],
    key: str | None,
    status: int = 200,
    **context: object,
) -> Response:
    """The page that asks for one fact, the deal so far carried in hidden fields as it was tapped; the page's own
    script gets the question alone, to show on the evening page."""
    carried = {name: value for name, value in tapped.items() if name != fact}
    shown = {
        "evening": info,
        "question": guided.question(fact, info.players, info.profile),
        "line": line,
        "given": carried,
        "so_far": " ".join(part for part in (line, guided.so_far(guided.answers(carried))) if part),
        "key": key,
        **context,
    }
    if request.headers.get(SENT_BY_PAGE) == "page":
        return JSONResponse({"question": render_part(request, "_question.html", **shown)}, status)
    return render(request, "question.html", status, **shown)


async def amend(request: Request) -> Response:
    """A new revision of the deal with the facts changed, as tapped on its pad or typed in a few words, and why."""
    form = await _form(request)
    number, line, reason = deal_number(request), _text(form, "line"), _text(form, "reason")
    seen = plain_number(_text(form, "seen_revision"))
    try:
        info = await in_turn(request, ledger(request).evening, evening_number(request))
        changes = line or guided.deal_input(guided.answers(form), info.players, info.profile)
        done = await in_turn(
            request,
            lambda: ledger(request).amend(
                number, changes, reason=reason or None, evening=info.number, seen_revision=seen, by=writer(request)
            ),
        )
    except LedgerError as error:
        tapped = {name: _text(form, name) for name in (*guided.FIELDS, *guided.PAD) if _text(form, name)}
        status = 409 if isinstance(error, Stale) else 422
        return await pages.deal(request, status, error=_mistake(error), line=line, reason=reason, given=tapped)
    return _shown(request, done.evening, number)


async def void(request: Request) -> Response:
    """The deal stays in the log but no longer counts."""
    form = await _form(request)
    number, reason = deal_number(request), _text(form, "reason")
    try:
        done = await in_turn(
            request,
            lambda: ledger(request).void(
                number, reason=reason or None, evening=evening_number(request), by=writer(request)
            ),
        )
    except LedgerError as error:
        return await pages.deal(request, 422, error=_mistake(error), reason=reason)
    return _shown(request, done.evening, number)


async def undo(request: Request) -> Response:
    """Take back the evening's last change, whatever it was (the page names it), only with the box ticked that
    confirms it, and unless the evening changed since this phone last saw it (the revision the page showed is
    required)."""
    form = await _form(request)
    seen_text = _text(form, "seen_revision")
    seen, number = plain_number(seen_text), evening_number(request)
    try:
        if _text(form, "confirm") != "yes":
            raise LedgerError(_("Tick the box to take back the last change; nothing was taken back."))
        if seen is None:
            raise LedgerError(
                _("seen_revision {seen!r}: the evening's revision this page showed, a number; reload the page").format(
                    seen=seen_text
                )
            )
        done = await in_turn(
            request, lambda: ledger(request).undo(evening=number, seen_revision=seen, by=writer(request))
        )
    except LedgerError as error:
        live = await in_turn(request, load_live, ledger(request), number)
        return pages.evening_page(request, live, 422, error=_mistake(error))
    return _shown(request, done.evening, done.taken_back.deal, undone=done.taken_back.kind)


async def close(request: Request) -> Response:
    """Close the evening (its deals can no longer change, until it is reopened) and show its settlement; only with
    the box ticked that confirms it."""
    form = await _form(request)
    if _text(form, "confirm") != "yes":
        return await pages.settlement(request, 422, error=_("Tick the box to close the evening; nothing was closed."))
    try:
        number, by = evening_number(request), writer(request)
        closed = await in_turn(request, lambda: ledger(request).close_evening(number, by=by))
    except LedgerError as error:
        return await pages.settlement(request, 422, error=_mistake(error))
    return _shown(request, closed.evening.number, path="/settle")


async def reopen(request: Request) -> Response:
    """Open a closed evening again, with the reason typed; the close it undoes stays in the log."""
    form = await _form(request)
    reason = _text(form, "reason")
    try:
        info = await in_turn(
            request,
            lambda: ledger(request).reopen_evening(evening_number(request) or 0, reason=reason, by=writer(request)),
        )
    except LedgerError as error:
        return await pages.settlement(request, 422, error=_mistake(error), reason=reason)
    return _shown(request, info.number)
