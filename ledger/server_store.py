"""What the web server keeps in the ledger's database beside the score: the wrong tries at its secrets, per address,
which every server process of the ledger shares (`ledger.web.throttle` says what they cost). Keeping it is no
scorekeeper's doing, so it is not `Ledger`'s: the server makes one `ServerStore` over the ledger it serves."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ledger.store.engine import transaction
from ledger.store.throttle import failed

if TYPE_CHECKING:
    from ledger.service import Ledger


class ServerStore:
    """The server's records in `ledger`'s database, each read or write a transaction of its own (the database the
    ledger has open now: a ledger opened read-only may be opened again for writing)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def wrong_try(self, address: str, now: float, wait: Callable[[int], float]) -> tuple[int, float]:
        """One more wrong try from `address`: the count in a row, and when the wait it sets ends (in its turn with
        the ledger's writes)."""
        return self.ledger.in_turn(self._wrong_try, address, now, wait)

    def _wrong_try(self, address: str, now: float, wait: Callable[[int], float]) -> tuple[int, float]:
        with transaction(self.ledger.engine) as session:
            return failed(session, address, now, wait)
