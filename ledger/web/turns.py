"""The server's one lane for the ledger's writes and the live reads that follow them.

Python runs one thread at a time, and a thread gives the interpreter up at each statement it sends the database: a
write made beside reads has to win it back after every statement. At a club night of 10 tables a deal's write took
6 ms of work, and 65 ms at the 95th percentile beside the leaderboard's and the phones' reads. Writes, and the reads
for the phones and screens watching, take turns here in the order they came; a page or a report opened by someone
still reads beside them (a read never waits for a write). A write kept waiting by another program's lock keeps the
watchers' next read waiting too: until it is done there is nothing new for them to see.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")


class Turns:
    """One lane: each call runs in a worker thread when the one before it has finished."""

    def __init__(self) -> None:
        self._lane: anyio.CapacityLimiter | None = None

    async def run(self, call: Callable[..., T], *args: object) -> T:
        """`call(*args)` in its turn (blocking work: a write, or a read for the watchers)."""
        if self._lane is None:  # made inside the server's event loop
            self._lane = anyio.CapacityLimiter(1)
        return await anyio.to_thread.run_sync(partial(call, *args), limiter=self._lane)
