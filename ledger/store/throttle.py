"""Wrong tries at the server's secrets, per address, kept where every server process sees them (see
`ledger.web.throttle` for what they cost). Times are seconds since the epoch: processes share the wall clock."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import delete, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Field, Session, SQLModel, col


class WrongTry(SQLModel, table=True):
    """Wrong tries at the server's secrets from one address, kept in the ledger so that every server process slows
    the same guesser down: how many in a row (each within the wait the one before set), and when the wait ends
    (seconds since the epoch). The record ends with its wait."""

    __tablename__ = "wrong_try"
    address: str = Field(primary_key=True)
    failures: int = 0
    not_before: float = 0.0


def failed(session: Session, address: str, now: float, wait: Callable[[int], float]) -> tuple[int, float]:
    """One more wrong try from the address: how many in a row now (1 when it came after the wait), and when the wait
    it sets ends (now and `wait` of that count). Every record whose wait is over ends first. Two processes counting
    tries of one address at once count both (the insert of one is the other's update)."""
    session.execute(delete(WrongTry).where(col(WrongTry.not_before) <= now))
    insert = (postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert)(WrongTry)
    counted = insert.values(address=address, failures=1, not_before=now).on_conflict_do_update(
        index_elements=[col(WrongTry.address)], set_={"failures": col(WrongTry.failures) + 1}
    )
    failures = session.execute(counted.returning(col(WrongTry.failures))).scalar_one()
    until = now + wait(failures)
    session.execute(update(WrongTry).where(col(WrongTry.address) == address).values(not_before=until))
    return failures, until
