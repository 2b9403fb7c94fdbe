"""Charts drawn one at a time, off the event loop.

A chart waits its turn on the event loop, holding none of the threads the pages read in; when the server stops, the
chart being drawn is finished and answered, and those still waiting their turn are answered at once (503, asked to
ask again): Ctrl-C never waits for a queue of drawings, and no chart under way is answered 500.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ledger.i18n import _

T = TypeVar("T")
RETRY_SECONDS = 5
"""When a request refused as the server stops is to be sent again (to the server that takes over)."""


class Stopping(HTTPException):
    """The server stops before it could answer (503): a chart whose turn had not come, or any request still running
    when the stopping server's time is up (`guard.Guard`)."""

    def __init__(self) -> None:
        super().__init__(
            503, _("the server is stopping: ask again in a moment"), headers={"Retry-After": str(RETRY_SECONDS)}
        )


class Drawing:
    """Whose turn it is to draw: one drawing at a time; none begins once the server stops."""

    def __init__(self) -> None:
        self.free = asyncio.Event()
        self.free.set()
        self.stopping = False

    async def draw(self, call: Callable[[], T]) -> T:
        """`call` (a chart's drawing) in a worker thread, in its turn; `Stopping` when the server stops first."""
        while not (self.stopping or self.free.is_set()):
            await self.free.wait()  # every waiter wakes; the first to run takes the turn, the others wait again
        if self.stopping:
            raise Stopping()
        self.free.clear()
        try:
            return await run_in_threadpool(call)
        finally:
            self.free.set()

    def stop(self) -> None:
        """The server stops: the drawing under way goes on, every chart waiting its turn is refused now (call in the
        event loop)."""
        self.stopping = True
        self.free.set()
