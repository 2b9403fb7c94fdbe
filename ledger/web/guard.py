"""In front of every request: only this server's own host names are answered, every answer carries the security
headers, a body past `limits.MOST_BYTES` or slower than `limits.BODY_SECONDS` is refused as it comes (and the
connection closed, the rest unread), and anything that still goes wrong is one line in the log and one line to the
client, never a traceback; a request still under way when the stopping server's time is up is told that it stops.

Host names: a page on another site whose name was pointed at this machine (DNS rebinding) sends its own name in
`Host`, and gets 421 instead of the ledger. Headers: the pages load only their own scripts, styles and images
(`Content-Security-Policy`), cannot be framed (`frame-ancestors 'none'`, `X-Frame-Options`), are never read as
another type (`nosniff`), and send no `Referer`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable, Mapping

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ledger.i18n import _
from ledger.web.drawing import Stopping
from ledger.web.limits import BODY_SECONDS, MOST_BYTES
from ledger.web.state import ASKED

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
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


class TooSlow(HTTPException):
    """A request body that did not all come in time (408)."""

    def __init__(self) -> None:
        super().__init__(
            408, _("the request did not all come within {seconds} s: nothing was read").format(seconds=BODY_SECONDS)
        )


class Guard:
    """ASGI middleware: allowed hosts, security headers, the body's size and pace, one line for any failure, and a
    read that went through told to the database outage when a request that asked the ledger has its answer (only a
    write committed tells that writes go through again: the ledger tells of it)."""

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
            await _answer(send, 413, TooLarge().detail, api=api, close=True)
            return
        started = False
        read = 0
        body_left = "chunked" in headers.get("transfer-encoding", "").lower() or int(length) > 0
        waited = 0.0
        loop = asyncio.get_running_loop()

        async def counted() -> Message:
            """The body, refused once past its size or its time; after it, what comes (a disconnect) in its time."""
            nonlocal read, body_left, waited
            if not body_left:
                return await receive()
            began = loop.time()
            try:
                message = await asyncio.wait_for(receive(), BODY_SECONDS - waited)
            except TimeoutError:
                raise TooSlow() from None
            waited += loop.time() - began
            read += len(message.get("body", b""))
            body_left = message.get("more_body", False) and message["type"] == "http.request"
            if read > MOST_BYTES:
                raise TooLarge()
            if body_left and waited >= BODY_SECONDS:
                raise TooSlow()
            return message

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                answer = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    answer.setdefault(name, value)
                if body_left:
                    answer["connection"] = "close"  # the rest of the body is not read: it goes with the connection
                state = scope.get("state", {})
                if message["status"] < 500 and state.get(ASKED) and "outage" in state:
                    state["outage"].answered(writing=False)
            await send(message)

        try:
            await self.app(scope, counted, with_headers)
        except Exception as error:
            where = f"{scope['method']} {scope['path']}"
            log.error(_("%s failed: %s: %s"), where, type(error).__name__, error)
            if not started:
                await _answer(send, 500, _("the server failed on this request: nothing was written"), api=api)
        except asyncio.CancelledError:
            if started:
                raise  # the stopping server cuts its connection
            # The server stops, and this request ran past the time it had (`serve`'s STOP_SECONDS): it is answered,
            # and ends here, instead of uvicorn's 500 after a line of traceback
            stopping = Stopping()
            await _answer(send, stopping.status_code, stopping.detail, api=api, more=stopping.headers)


def one_line(message: str, *, api: bool, close: bool = False) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """An answer of one line, as JSON for the API and as text for a page: its headers, the security headers among
    them (closing the connection, when `close`: the body it announced is not read), and its body."""
    body = json.dumps({"error": message}).encode() if api else f"{message}\n".encode()
    kind = "application/json" if api else "text/plain; charset=utf-8"
    headers = [(b"content-type", kind.encode()), (b"content-length", str(len(body)).encode())]
    headers += [(b"connection", b"close")] if close else []
    headers += [(name.lower().encode(), value.encode()) for name, value in HEADERS.items()]
    return headers, body


async def _answer(
    send: Send, status: int, message: str, *, api: bool, close: bool = False, more: Mapping[str, str] | None = None
) -> None:
    """`one_line`, sent, with `more` headers."""
    headers, body = one_line(message, api=api, close=close)
    headers += [(name.lower().encode(), value.encode()) for name, value in (more or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
