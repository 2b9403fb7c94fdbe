"""Guessing the write token is slowed down: each wrong try from an address makes it wait longer before the next
one is even looked at (1 s, 2 s, 4 s... up to a minute), a try while another from the same address is being
checked is turned away at once, and each refusal is one line in the server's log."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from starlette.exceptions import HTTPException

from ledger.i18n import _

FIRST_WAIT_SECONDS = 1.0
LONGEST_WAIT_SECONDS = 60.0
FAILED_PAUSE_SECONDS = 0.5
"""A wrong try is answered only after this pause, so guesses cannot be fired back to back even in parallel."""
FORGET_SECONDS = 3600.0
"""An address that tried nothing for an hour starts afresh."""
MOST_ADDRESSES = 10_000
log = logging.getLogger("calabresella.web")


@dataclass
class _Tries:
    failures: int = 0
    not_before: float = 0.0
    checking: bool = False
    last: float = 0.0


class Throttle:
    """Wrong tries at a secret, per address."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.tries: dict[str, _Tries] = {}

    @asynccontextmanager
    async def attempt(self, address: str, what: str) -> AsyncIterator[Callable[[bool], None]]:
        """One try from `address` at the secret named `what`, refused (429) while the address must wait; the block
        calls the function it is given with whether the secret was right."""
        now = self.clock()
        self._forget()
        tries = self.tries.setdefault(address, _Tries())
        if now - tries.last > FORGET_SECONDS:
            tries.failures = 0
        if tries.checking or now < tries.not_before:
            seconds = max(1, round(tries.not_before - now))
            raise HTTPException(
                429,
                _("too many wrong tokens from {address}: try again in {seconds} s").format(
                    address=address, seconds=seconds
                ),
                headers={"Retry-After": str(seconds)},
            )
        tries.checking, tries.last = True, now
        outcome: list[bool] = []
        try:
            yield outcome.append
            if outcome == [False]:
                tries.failures += 1
                wait = min(FIRST_WAIT_SECONDS * 2 ** (tries.failures - 1), LONGEST_WAIT_SECONDS)
                tries.not_before = self.clock() + wait
                log.warning(
                    _(
                        "refused a wrong {what} from {address} ({failures} in a row; its next try waits {wait:.0f} s)"
                    ).format(what=what, address=address, failures=tries.failures, wait=wait)
                )
                await asyncio.sleep(FAILED_PAUSE_SECONDS)
            elif outcome == [True]:
                self.tries.pop(address, None)
        finally:
            tries.checking = False

    def _forget(self) -> None:
        """Past `MOST_ADDRESSES`, the quieter half is forgotten."""
        if len(self.tries) >= MOST_ADDRESSES:
            for address in sorted(self.tries, key=lambda known: self.tries[known].last)[: len(self.tries) // 2]:
                del self.tries[address]
