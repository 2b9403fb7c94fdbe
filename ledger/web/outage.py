"""A database outage in the server's log: one line when the ledger stops answering, whatever the failure (a request
answered 503, or the live channel's read failed), one when it answers again, with how long it lasted and how many
requests were answered 503 meanwhile. When writes failed (a full disk, a read-only folder: reads still work), only a
write committed ends it: a request refused for what it asked (a typo, a stale undo) wrote nothing, and says nothing
of the writes."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from ledger.i18n import _

log = logging.getLogger("calabresella.web")


class Outage:
    """Whether the ledger is failing now, since when, whether writes failed, and the requests it failed meanwhile."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.since: float | None = None
        self.writes = False
        self.refused = 0

    def failed(self, error: Exception, *, refused: bool, writing: bool) -> None:
        """The ledger did not answer a read or a write (`writing`), for a request answered 503 when `refused`: the
        first failure is one line."""
        if self.since is None:
            self.since, self.writes, self.refused = self.clock(), False, 0
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            log.warning(_("the ledger does not answer: {reason}").format(reason=reason))
        self.writes |= writing
        self.refused += refused

    def answered(self, *, writing: bool) -> None:
        """The ledger answered a read, or committed a write (`writing`): the end of an outage is one line."""
        if self.since is None or (self.writes and not writing):
            return
        log.warning(
            _("the ledger answers again after {seconds:.0f} s; {count} requests were answered 503 meanwhile").format(
                seconds=self.clock() - self.since, count=self.refused
            )
        )
        self.since = None
