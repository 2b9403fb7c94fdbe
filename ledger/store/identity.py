"""The ledger's identity: a random name given to the ledger when it is made (or upgraded to have one), which no other
ledger shares. A server binds every key it hands out to it, so a link, a key or a session of one ledger's server is
nothing to another's."""

from __future__ import annotations

import uuid

from sqlalchemy import Connection, insert
from sqlmodel import Field, Session, SQLModel, col, select


class LedgerIdentity(SQLModel, table=True):
    """The ledger's identity: one row."""

    __tablename__ = "ledger_identity"
    id: str = Field(primary_key=True)


def identity_of(session: Session) -> str | None:
    """The ledger's identity, or None when its row is gone (a damaged ledger)."""
    return session.exec(select(col(LedgerIdentity.id))).first()


def give_identity(connection: Connection) -> None:
    """Give a ledger just made its identity (migration 0017 gives one to a ledger made before it)."""
    connection.execute(insert(LedgerIdentity).values(id=uuid.uuid4().hex))
