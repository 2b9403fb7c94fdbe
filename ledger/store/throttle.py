"""Wrong tries at the server's secrets, per address, kept where every server process sees them (see
`ledger.web.throttle` for the waits). Times are seconds since the epoch: processes share the wall clock."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import delete, update
from sqlmodel import Field, Session, SQLModel, col

FORGET_SECONDS = 3600.0
"""An address that tried nothing for an hour starts afresh."""


class WrongTry(SQLModel, table=True):
    """Wrong tries at the server's secrets from one address, kept in the ledger so that every server process slows
    the same guesser down: how many in a row, when the next try may be looked at, when the last one came (seconds
    since the epoch)."""

    __tablename__ = "wrong_try"
    address: str = Field(primary_key=True)
    failures: int = 0
    not_before: float = 0.0
    last: float = 0.0


def tries_of(session: Session, address: str) -> WrongTry | None:
    """The address's wrong tries, if it has any."""
    return session.get(WrongTry, address)


def take_turn(session: Session, address: str, now: float, until: float) -> bool:
    """Hold the address's next try until `until` while one is checked, unless it must wait already: whether it got
    its turn (two processes checking tries of one address take turns)."""
    held = session.execute(
        update(WrongTry)
        .where(col(WrongTry.address) == address, col(WrongTry.not_before) <= now)
        .values(not_before=until)
    )
    return bool(held.rowcount)  # type: ignore[attr-defined]


def failed(session: Session, address: str, now: float, wait: Callable[[int], float]) -> tuple[int, float]:
    """One more wrong try from the address: how many in a row now, and how long its next try waits (`wait` of that
    count). Addresses quiet for `FORGET_SECONDS` are forgotten meanwhile."""
    session.execute(delete(WrongTry).where(col(WrongTry.last) < now - FORGET_SECONDS))
    tries = session.get(WrongTry, address) or WrongTry(address=address)
    tries.failures = (tries.failures or 0) + 1
    seconds = wait(tries.failures)
    tries.not_before, tries.last = now + seconds, now
    session.add(tries)
    return tries.failures, seconds


def release(session: Session, address: str, not_before: float) -> None:
    """A right try: the address may try again from `not_before` (its count of wrong tries stays)."""
    session.execute(update(WrongTry).where(col(WrongTry.address) == address).values(not_before=not_before))
