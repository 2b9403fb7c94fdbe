"""Each request in its own language: the `lang` cookie the page's switch sets, else the browser's
`Accept-Language` (Italian when the browser prefers it to English), else the server's own language (`serve --lang`,
`CALABRESELLA_LANG`, the locale).

Phones with different languages are served at once, so the language is set for the request's context only
(`ledger.i18n.speaking`): the pages, the Ledger's messages, money and times all follow it.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection, Request
from starlette.responses import RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ledger.i18n import LANGUAGES, SOURCE_LANGUAGE, language, speaking

COOKIE = "lang"


def preferred(accept_language: str, otherwise: str = SOURCE_LANGUAGE) -> str:
    """The language the ledger speaks that an `Accept-Language` header ranks first; `otherwise` when it names none.

    >>> preferred("it-IT,it;q=0.9,en;q=0.8"), preferred("en-GB,en;q=0.9,it;q=0.8"), preferred("fr, it;q=0.5")
    ('it', 'en', 'it')
    >>> preferred("en;q=0.5, it;q=0.7"), preferred(""), preferred("de, it;q=0"), preferred("fr", "it")
    ('it', 'en', 'en', 'it')
    """
    ranked = []
    for position, item in enumerate(accept_language.split(",")):
        tag, _semicolon, weight = item.strip().partition(";")
        code = tag.strip().split("-")[0].lower()
        try:
            quality = float(weight.strip().removeprefix("q=")) if weight else 1.0
        except ValueError:
            continue
        if code in LANGUAGES and quality > 0:
            ranked.append((-quality, position, code))
    return min(ranked)[2] if ranked else otherwise


def chosen(connection: HTTPConnection) -> str:
    """The request's language: the switch's cookie, else the browser's preference, else the server's language."""
    cookie = connection.cookies.get(COOKIE)
    return cookie if cookie in LANGUAGES else preferred(connection.headers.get("accept-language", ""), language())


class Speaking:
    """ASGI middleware: the rest of the app answers each request in that request's language, and says which
    (`Content-Language`: the phone's service worker keeps its page for an address never opened in that language)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        code = chosen(HTTPConnection(scope))

        async def said(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).setdefault("Content-Language", code)
            await send(message)

        with speaking(code):
            await self.app(scope, receive, said)


async def switch(request: Request) -> Response:
    """`/language/it?next=/evenings/1`: remember the language in a cookie (a year) and go back to the page."""
    code = request.path_params["code"]
    target = request.query_params.get("next", "/")
    if not target.startswith("/") or target[1:2] in ("/", "\\"):
        target = "/"
    response = RedirectResponse(target, 303)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="lax", path="/")
    return response
