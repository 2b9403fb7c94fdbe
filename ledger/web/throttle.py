"""Guessing the write token is slowed down: each wrong try from an address makes it wait longer before the next
one is even looked at (1 s, 2 s, 4 s... up to a minute), a try while another from the same address is being
checked is turned away at once, and each refusal is logged. The wrong tries are kept in the ledger, so every server
process serving the same ledger slows a guesser alike; a right try does not wipe them out (a table's key that works
says nothing about the guesses before it)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ledger.i18n import _
from ledger.service import Ledger

FIRST_WAIT_SECONDS = 1.0
LONGEST_WAIT_SECONDS = 60.0
FAILED_PAUSE_SECONDS = 0.5
"""A wrong try is answered only after this pause, so guesses cannot be fired back to back even in parallel."""
log = logging.getLogger("calabresella.web")


class Clock:
    """The wall clock the throttle reads (seconds since the epoch, which every server process shares) and waits on."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def waiting(failures: int) -> float:
    """How long the next try waits after `failures` wrong ones in a row.

    >>> [waiting(n) for n in (1, 2, 3, 7, 8, 50)]
    [1.0, 2.0, 4.0, 60.0, 60.0, 60.0]
    """
    return min(FIRST_WAIT_SECONDS * 2 ** min(failures - 1, 16), LONGEST_WAIT_SECONDS)


class Throttle:
    """Wrong tries at a secret, per address, kept in the ledger (`store`, given when the server starts), timed by
    `clock`."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock or Clock()
        self.store: Ledger | None = None
        self.checking: set[str] = set()
        """The addresses one of whose tries this process is checking now."""

    @asynccontextmanager
    async def attempt(self, address: str, what: str) -> AsyncIterator[Callable[[bool], None]]:
        """One try from `address` at the secret named `what`, refused (429) while the address must wait; the block
        calls the function it is given with whether the secret was right."""
        store = self.store
        assert store is not None, "the server gives the throttle its ledger when it starts"
        now = self.clock.now()
        known = await run_in_threadpool(store.wrong_tries, address)
        held = known is not None and known[0] > 0
        if address in self.checking or (known is not None and now < known[1]):
            _refuse(address, (known[1] if known else now) - now)
        if held and not await run_in_threadpool(store.take_turn, address, now, now + FAILED_PAUSE_SECONDS):
            _refuse(address, FAILED_PAUSE_SECONDS)  # another process is checking a try of the same address
        self.checking.add(address)
        outcome: list[bool] = []
        try:
            yield outcome.append
            if outcome == [False]:
                failures, wait = await run_in_threadpool(store.wrong_try, address, self.clock.now(), waiting)
                log.warning(
                    _(
                        "refused a wrong {what} from {address} ({failures} in a row; its next try waits {wait:.0f} s)"
                    ).format(what=what, address=address, failures=failures, wait=wait)
                )
                await self.clock.sleep(FAILED_PAUSE_SECONDS)
            elif outcome == [True] and held:
                await run_in_threadpool(store.right_try, address, now)
        finally:
            self.checking.discard(address)


def _refuse(address: str, seconds: float) -> None:
    """429: the address must wait `seconds` before its next try is looked at."""
    wait = max(1, round(seconds))
    raise HTTPException(
        429,
        _("too many wrong tokens from {address}: try again in {seconds} s").format(address=address, seconds=wait),
        headers={"Retry-After": str(wait)},
    )
