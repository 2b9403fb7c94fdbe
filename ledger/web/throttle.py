"""Guessing the server's secrets is slowed down, never the use of the right ones: a right token or key is served at
once, whatever came from its address before. A wrong try is logged in one line and answered only after a pause, and
sets its address a wait (1 s); a wrong try during the wait is refused with 429 and doubles it (2 s, 4 s... up to a
minute). When the wait is over the address's record ends, and its next wrong try is a first one again. The wrong
tries are kept in the ledger's database, so every server process serving the same ledger slows a guesser alike."""

from __future__ import annotations

import asyncio
import logging
import time

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ledger.i18n import _
from ledger.server_store import ServerStore

FIRST_WAIT_SECONDS = 1.0
LONGEST_WAIT_SECONDS = 60.0
FAILED_PAUSE_SECONDS = 0.5
"""A wrong try is answered only after this pause, so guesses cannot be fired back to back."""
log = logging.getLogger("calabresella.web")


class Clock:
    """The wall clock the throttle reads (seconds since the epoch, which every server process shares) and waits on."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def waiting(failures: int) -> float:
    """How long the wait set by the `failures`-th wrong try in a row lasts.

    >>> [waiting(n) for n in (1, 2, 3, 7, 8, 50)]
    [1.0, 2.0, 4.0, 60.0, 60.0, 60.0]
    """
    return min(FIRST_WAIT_SECONDS * 2 ** min(failures - 1, 16), LONGEST_WAIT_SECONDS)


class Throttle:
    """Wrong tries at a secret, per address, kept in the server's `store`, timed by `clock`."""

    def __init__(self, store: ServerStore, clock: Clock | None = None) -> None:
        self.store = store
        self.clock = clock or Clock()

    async def wrong(self, address: str, what: str) -> None:
        """A wrong try from `address` at the secret named `what`: counted, logged and answered after the pause;
        refused here (429) when it came during the address's wait, else the caller refuses it."""
        now = self.clock.now()
        failures, until = await run_in_threadpool(self.store.wrong_try, address, now, waiting)
        log.warning(
            _("refused a wrong {what} from {address} ({failures} in a row; it waits {wait:.0f} s)").format(
                what=what, address=address, failures=failures, wait=until - now
            )
        )
        await self.clock.sleep(FAILED_PAUSE_SECONDS)
        if failures > 1:
            wait = max(1, round(until - self.clock.now()))
            raise HTTPException(
                429,
                _("too many wrong tokens from {address}: try again in {seconds} s").format(
                    address=address, seconds=wait
                ),
                headers={"Retry-After": str(wait)},
            )
