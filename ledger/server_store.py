"""What the web server keeps in the ledger's database beside the score: the ledger's identity, which the server binds
every key it hands out to, and the wrong tries at its secrets, per address, which every server process of the ledger
shares (`ledger.web.throttle` says what they cost). Keeping them is no scorekeeper's doing, so it is not `Ledger`'s:
the server makes one `ServerStore` over the ledger it serves."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ledger.errors import DatabaseRefused
from ledger.i18n import _
from ledger.store.engine import reading, transaction, where
from ledger.store.identity import identity_of
from ledger.store.throttle import failed

if TYPE_CHECKING:
    from ledger.service import Ledger


class ServerStore:
    """The server's records in `ledger`'s database, each read or write a transaction of its own (the database the
    ledger has open now: a ledger opened read-only may be opened again for writing)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def identity(self) -> str:
        """The ledger's identity: no other ledger has it."""
        with transaction(reading(self.ledger.engine)) as session:
            found = identity_of(session)
        if found is None:
            raise DatabaseRefused(
                _("{where}: the ledger's identity is missing: go back to a backup copy").format(
                    where=where(self.ledger.engine)
                )
            )
        return found

    def wrong_try(self, address: str, now: float, wait: Callable[[int], float]) -> tuple[int, float]:
        """One more wrong try from `address`: the count in a row, and when the wait it sets ends (in its turn with
        the ledger's writes)."""
        return self.ledger.in_turn(self._wrong_try, address, now, wait)

    def _wrong_try(self, address: str, now: float, wait: Callable[[int], float]) -> tuple[int, float]:
        with transaction(self.ledger.engine) as session:
            return failed(session, address, now, wait)
