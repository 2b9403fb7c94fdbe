"""In front of every request: only this server's own host names are answered, every answer carries the security
headers, a body past `limits.MOST_BYTES` is refused, and anything that still goes wrong is one line in the log and
one line to the client, never a traceback.

Host names: a page on another site whose name was pointed at this machine (DNS rebinding) sends its own name in
`Host`, and gets 421 instead of the ledger. Headers: the pages load only their own scripts, styles and images
(`Content-Security-Policy`), cannot be framed (`frame-ancestors 'none'`, `X-Frame-Options`), are never read as
another type (`nosniff`), and send no `Referer`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ledger.i18n import _
from ledger.web.limits import MOST_BYTES

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""Every answer's security headers (a route may set a stricter or looser Content-Security-Policy of its own)."""
log = logging.getLogger("calabresella.web")


def hostname(host: str) -> str:
    """The name in a `Host` header, without its port: `[::1]:8000` -> `::1`, `Anna.local:80` -> `anna.local`.

    >>> hostname("[::1]:8000"), hostname("Anna.local:80"), hostname("192.168.1.20")
    ('::1', 'anna.local', '192.168.1.20')
    """
    if host.startswith("["):
        return host[1 : host.find("]")].lower()
    return host.rpartition(":")[0].lower() if host.count(":") == 1 else host.lower()


class TooLarge(HTTPException):
    """A request body past the limit (413)."""

    def __init__(self) -> None:
        super().__init__(413, _("the request is over {most} bytes: nothing was read").format(most=MOST_BYTES))


class Guard:
    """ASGI middleware: allowed hosts, security headers, the body limit, and one line for any failure."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(hostname(host) for host in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        api = scope["path"].startswith("/api/")
        if hostname(headers.get("host", "")) not in self.hosts:
            message = _("this server does not answer for the host name {host!r}").format(host=headers.get("host", ""))
            await _answer(send, 421, message, api=api)
            return
        length = headers.get("content-length", "0")
        if not length.isdecimal() or len(length) > 9 or int(length) > MOST_BYTES:
            await _answer(send, 413, TooLarge().detail, api=api)
            return
        started = False
        read = 0

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if read > MOST_BYTES:
                raise TooLarge()
            return message

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                answer = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    answer.setdefault(name, value)
            await send(message)

        try:
            await self.app(scope, counted, with_headers)
        except Exception as error:
            where = f"{scope['method']} {scope['path']}"
            log.error(_("%s failed: %s: %s"), where, type(error).__name__, error)
            if not started:
                await _answer(send, 500, _("the server failed on this request: nothing was written"), api=api)


async def _answer(send: Send, status: int, message: str, *, api: bool) -> None:
    """One line, as JSON for the API and as text for a page, with the security headers."""
    body = json.dumps({"error": message}).encode() if api else f"{message}\n".encode()
    kind = "application/json" if api else "text/plain; charset=utf-8"
    headers = [(b"content-type", kind.encode()), (b"content-length", str(len(body)).encode())]
    headers += [(name.lower().encode(), value.encode()) for name, value in HEADERS.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
