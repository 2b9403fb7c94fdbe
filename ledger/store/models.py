"""The ledger's tables. Nothing is overwritten: deals change by new revisions, voids are marks. The club's tables
are in `ledger.store.club_models`, the wrong tries at the server's secrets in `ledger.store.throttle`, the ledger's
identity (which the server's keys are bound to) in `ledger.store.identity`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime, Dialect, ForeignKey, Index, TypeDecorator, UniqueConstraint
from sqlmodel import Field, SQLModel

from ledger.clock import as_utc, utcnow


def ident(row: Any) -> int:
    """A stored row's id: rows are flushed before their id is used, so it is never missing."""
    assert row.id is not None
    return int(row.id)


class UtcDateTime(TypeDecorator[datetime]):
    """A time stored in UTC and read back as an aware UTC time, on SQLite (which keeps no offset, so its times
    are naive UTC) as on PostgreSQL (which answers in the session's time zone). The column is `DateTime`."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)

    def bind_processor(self, dialect: Dialect) -> Callable[[datetime | None], Any] | None:
        """On SQLite the time as SQLAlchemy's own `DATETIME` writes it (`2026-11-21 20:05:00.000000`, UTC), in one
        call to `isoformat` instead of its formatting per field: an import writes hundreds of thousands of times."""
        if dialect.name != "sqlite":
            return super().bind_processor(dialect)

        def stored(value: datetime | None) -> str | None:
            if value is None:
                return None
            if value.tzinfo not in (None, UTC):
                value = value.astimezone(UTC)
            return value.isoformat(" ", "microseconds")[:26]  # less the offset: `+00:00`

        return stored

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)


def when(nullable: bool = False) -> Any:
    """A time column: now by default, or nullable (no time until set)."""
    column: Column[datetime] = Column(UtcDateTime(), nullable=nullable)
    return Field(default=None, sa_column=column) if nullable else Field(default_factory=utcnow, sa_column=column)


class Player(SQLModel, table=True):
    """A person; `key` is the name without case and accents, unique."""

    id: int | None = Field(default=None, primary_key=True)
    name: str
    key: str = Field(unique=True, index=True)
    created_at: datetime = when()


class PlayerRename(SQLModel, table=True):
    """A rename, kept so that old score sheets stay readable."""

    __tablename__ = "player_rename"
    id: int | None = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    old_name: str
    new_name: str
    renamed_at: datetime = when()


PARTIAL_INDEXES = {"ix_evening_open": "closed_at IS NULL", "ix_deal_voided": "voided_at IS NOT NULL"}
"""The indexes that hold only some rows, and which rows, on both databases (migrations 0018 and 0005 make them so).
Their `Index` says no more than its columns: a dialect's option (`sqlite_where`, `postgresql_where`) would load that
dialect's code in every command, whichever database it opens."""


class Evening(SQLModel, table=True):
    """One sitting: seats, rule profile and options pinned at the start, the stake per game point."""

    __table_args__ = (Index("ix_evening_open", "id"),)
    """`ix_evening_open` is partial (`PARTIAL_INDEXES`), to open evenings only, as `ix_deal_voided` is to voided deals:
    the few evenings open are found without walking every evening."""
    id: int | None = Field(default=None, primary_key=True)
    profile: str
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    stake_cents: int = 0
    currency: str = "EUR"
    first_dealer_id: int = Field(foreign_key="player.id")
    place: str | None = None
    note: str | None = None
    started_at: datetime = when()
    closed_at: datetime | None = when(nullable=True)
    revision: int = 0
    pot_in: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """Passed deals whose pot the evening took in from `pot_from`, the same table's evening before."""
    pot_from: int | None = Field(default=None, sa_column_args=[ForeignKey("evening.id", name="fk_evening_pot_from")])
    pot_out: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """Passed deals whose pot was still waiting when the evening closed, carried to the table's next evening."""
    voided_at: datetime | None = when(nullable=True)
    void_reason: str | None = None
    """An evening voided whole stays in the log and counts nowhere."""


class EveningReopen(SQLModel, table=True):
    """An evening reopened after it was closed: when it had closed, when and why it was opened again, and the passed
    deals whose pot waited for the next evening then (`pot_out`, given back if the reopening is taken back; None for a
    reopening kept before it was)."""

    __tablename__ = "evening_reopen"
    id: int | None = Field(default=None, primary_key=True)
    evening_id: int = Field(foreign_key="evening.id", index=True)
    closed_at: datetime = when()
    reopened_at: datetime = when()
    reason: str
    pot_out: int | None = None


class EveningChange(SQLModel, table=True):
    """One change, as it happened: the ledger's change log, never rewritten. Its ids count every change someone may
    watch, in the order they were committed.

    An evening's change (its change log, one row per revision): `kind` is `start`, `record`, `amend`, `void`, `undo`,
    `close`, `reopen` or `void_evening`; `deal` the number of the deal it touched and `deal_revision` the revision of
    it that the change wrote; `undoes` the evening revision an undo took back; `source` where it came from
    (`terminal`, `play`, `phone`, `table`, `api`, `import`, `library`), with `session` naming the phone or table where
    there is one; `reason` what the person typed; `event` the club event the evening is a table of, if any.
    A change of no evening (`evening_id` None, revision 0): `kind` is `player`, `payment`, `season`, `event` or `round`,
    `event` naming the club event it changed.
    """

    __tablename__ = "evening_change"
    __table_args__ = (UniqueConstraint("evening_id", "revision"),)
    id: int | None = Field(default=None, primary_key=True)
    evening_id: int | None = Field(default=None, foreign_key="evening.id")
    event_id: int | None = Field(
        default=None, sa_column_args=[ForeignKey("club_event.id", name="fk_evening_change_event_id")]
    )
    revision: int
    kind: str
    deal: int | None = None
    deal_revision: int | None = None
    undoes: int | None = None
    at: datetime = when()
    source: str = "library"
    session: str | None = None
    reason: str | None = None


class Seat(SQLModel, table=True):
    """A player's seat in turn order (position 0 first)."""

    __table_args__ = (UniqueConstraint("evening_id", "position"), UniqueConstraint("evening_id", "player_id"))
    id: int | None = Field(default=None, primary_key=True)
    evening_id: int = Field(foreign_key="evening.id")
    position: int
    player_id: int = Field(foreign_key="player.id")


class Deal(SQLModel, table=True):
    """A deal of an evening, numbered from 1; its facts live in revisions."""

    __table_args__ = (
        UniqueConstraint("evening_id", "number"),
        Index("ix_deal_voided", "evening_id"),
    )
    """`ix_deal_voided` is partial (`PARTIAL_INDEXES`), to voided deals only: the few deals voided are found without
    walking every deal."""
    id: int | None = Field(default=None, primary_key=True)
    evening_id: int = Field(foreign_key="evening.id")
    number: int
    key: str | None = Field(default=None, unique=True)
    created_at: datetime = when()
    voided_at: datetime | None = when(nullable=True)
    void_reason: str | None = None
    void_cause: str | None = None
    """Why the ledger itself voided the deal (`undo`), when no person typed a reason."""


class DealRevision(SQLModel, table=True):
    """One version of a deal's facts and its derived result; the current one has no `superseded_at`.

    The facts are canonical: players by id, words as the rules' enum values. The called card's holder is
    `holder_id` when a seat held it, else `holder` is `monte` or `declarer`; `called` is a card (`3D`), or a rank
    alone (`3`) when the suit was not said; `calls` is the auction as `[[player_id, contract or null], ...]` in
    speaking order, or null when none was recorded; `monte_thirds` are the card points the monte held, when given.
    """

    __tablename__ = "deal_revision"
    __table_args__ = (
        UniqueConstraint("deal_id", "revision"),
        Index("ix_deal_revision_current", "deal_id", "superseded_at"),
    )
    id: int | None = Field(default=None, primary_key=True)
    deal_id: int = Field(foreign_key="deal.id")
    revision: int
    recorded_at: datetime = when()
    superseded_at: datetime | None = when(nullable=True)
    reason: str | None = None
    cause: str | None = None
    """Why the ledger itself wrote this revision (`pot`: deal `cause_deal`'s correction changed its pot)."""
    cause_deal: int | None = None
    profile: str
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    dealer_id: int = Field(foreign_key="player.id")
    declarer_id: int | None = Field(default=None, foreign_key="player.id")
    partner_id: int | None = Field(default=None, foreign_key="player.id")
    contract: str | None = None
    aggravation: str | None = None
    called: str | None = None
    holder_id: int | None = Field(
        default=None, sa_column_args=[ForeignKey("player.id", name="fk_deal_revision_holder_id_player")]
    )
    holder: str | None = None
    calls: list[Any] | None = Field(default=None, sa_column=Column(JSON(none_as_null=True), nullable=True))
    declarer_thirds: int | None = None
    tricks: int | None = None
    last_trick: str | None = None
    monte_thirds: int | None = None
    passed_before: int = 0
    declarer_won: bool | None = None
    sweep: str | None = None
    multiplier: int = 1
    amount: int = 0


class Payout(SQLModel, table=True):
    """One seated player's game points in one revision of a deal."""

    __table_args__ = (UniqueConstraint("revision_id", "player_id"),)
    id: int | None = Field(default=None, primary_key=True)
    revision_id: int = Field(foreign_key="deal_revision.id")
    player_id: int = Field(foreign_key="player.id", index=True)
    position: int
    role: str
    points: int


class PaymentEntry(SQLModel, table=True):
    """Money handed over between two players, recorded so the tab shows what is still owed.

    `key` makes a retried `paid` store it at most once; a voided payment stays in the log but no longer counts.
    """

    __tablename__ = "payment"
    __table_args__ = (UniqueConstraint("key", name="uq_payment_key"),)
    id: int | None = Field(default=None, primary_key=True)
    payer_id: int = Field(foreign_key="player.id", index=True)
    payee_id: int = Field(foreign_key="player.id", index=True)
    cents: int
    currency: str
    evening_id: int | None = Field(default=None, foreign_key="evening.id")
    note: str | None = None
    paid_at: datetime = when()
    key: str | None = None
    voided_at: datetime | None = when(nullable=True)
    void_reason: str | None = None
