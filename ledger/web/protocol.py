"""The server's HTTP/1.1 connections: uvicorn's h11 protocol with the edges a public server needs.

A request whose head (its line and headers) has not all come within `HEAD_SECONDS` of the connection, or of the
answer before it on the same connection, is dropped: a slow sender holds nothing for long (a slow body is the
app's to refuse, `limits.BODY_SECONDS`). When the server stops, the app is told at once (its live streams end) and a
connection in the middle of a streamed answer is cut rather than finished (a browser reconnects to the next server):
2,000 live streams end in a fraction of a second. A request that is not well-formed HTTP is answered 400 as the app
answers (one line in the server's language, JSON when it asked the API, with every answer's security headers), not
as uvicorn would. What uvicorn notes about a request goes to the server's own log, in one line.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.web.guard import one_line

HEAD_VARIABLE = "CALABRESELLA_HEAD_SECONDS"
MOST_HEAD_SECONDS = 3600.0
BEGINNING = 64
"""How much of a request's first bytes a connection keeps, to know whether it asked the API."""


def head_seconds(said: str | None) -> float:
    """How long a request's head may take to come whole: 10 s, or the seconds `HEAD_VARIABLE` says in the environment
    the server starts in (a server far from its phones may give them longer); an error names a wrong value."""
    if not (said or "").strip():
        return 10.0
    try:
        seconds = float(str(said))
    except ValueError:
        seconds = 0.0
    if not 0 < seconds <= MOST_HEAD_SECONDS:
        raise LedgerError(
            _("{variable}={value}: give the seconds a request's head may take, more than 0 and at most 3600").format(
                variable=HEAD_VARIABLE, value=said
            )
        )
    return seconds


HEAD_SECONDS = head_seconds(os.environ.get(HEAD_VARIABLE))
log = logging.getLogger("calabresella.web")


class Connection(H11Protocol):
    """One client's connection."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.logger = log
        self.head_timer: asyncio.TimerHandle | None = None
        self.began = b""
        """The first bytes of the request coming, until its head is read."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self.began = (self.began + data)[:BEGINNING]
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._head_came()

    def on_response_complete(self) -> None:
        self.began = b""
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_came()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """The request is not well-formed HTTP: answered 400 in one line, as the app answers, when nothing was answered
        yet; the connection closed."""
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            api = self.began.partition(b" ")[2].startswith(b"/api/")
            headers, body = one_line(_("the request is not well-formed HTTP: nothing was read"), api=api, close=True)
            for event in (
                h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                h11.Data(data=body),
                h11.EndOfMessage(),
            ):
                self.transport.write(self.conn.send(event) or b"")
        self.transport.close()

    def shutdown(self) -> None:
        """The server stops: the app ends what it streams; a streamed answer under way is cut, any other connection
        closed when idle or when its answer is done."""
        stop = self.app_state.get("stop")
        if callable(stop):
            stop()
        if self.cycle is not None and self.cycle.response_started and not self.cycle.response_complete:
            self.transport.abort()
        else:
            super().shutdown()

    def _await_head(self) -> None:
        self._head_came()
        self.head_timer = self.loop.call_later(HEAD_SECONDS, self._too_slow)

    def _head_came(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _too_slow(self) -> None:
        self.head_timer = None
        if not self.transport.is_closing():
            self.transport.close()
