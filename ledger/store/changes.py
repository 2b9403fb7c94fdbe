"""The change log: every change someone may watch is one row, appended inside the transaction that made it; after
the commit, `Ledger` tells its own subscribers of the rows it appended (`appended`), and every program's watcher
finds the rows others appended (`newer`).

An evening's write calls `note` once, after its rows are written: the evening's revision goes up by one and the row
says what happened, to which deal, from where and why. A write of no evening (a player, a payment, a season, a club
event or its round) calls `noted`. Nothing here is ever updated or deleted; an undo is a row of its own that names the
revision it took back. On PostgreSQL the rows are appended under one lock held to the commit, so they commit in the
order of their ids and a watcher reading the ids after the last it saw never misses one.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, bindparam, column, func, text
from sqlalchemy import Table as Rows
from sqlalchemy import select as sql_select
from sqlalchemy import table as sql_table
from sqlmodel import Session, col, select

from ledger.clock import as_utc, utcnow
from ledger.notices import Notice
from ledger.store.models import EveningChange
from ledger.values import LIBRARY, TABLE, UNDOABLE, ChangeView, Writer

CHANGES: Rows = EveningChange.__table__  # type: ignore[attr-defined]
APPENDED = "changes appended"
"""Where a session keeps the notices of the change rows it appended, by row id, for `Ledger` to publish."""
LOG_LOCK = 0x63616C62
"""The PostgreSQL advisory lock a transaction holds from its first change row to its commit."""
CHANNEL = "calabresella"
"""The PostgreSQL channel on which a transaction that appended change rows wakes the watchers as it commits."""


def note(
    session: Session,
    evening: Any,
    kind: str,
    by: Writer,
    *,
    deal: int | None = None,
    deal_revision: int | None = None,
    undoes: int | None = None,
    reason: str | None = None,
) -> int:
    """Count one more change to the evening (its row is locked by the caller) and log it; the new revision."""
    evening.revision += 1
    session.add(evening)
    row = {"deal": deal, "deal_revision": deal_revision, "undoes": undoes, "reason": reason}
    _append(session, Notice(kind, evening.id, evening.revision), by, row)
    session.flush()
    return int(evening.revision)


def started(session: Session, evening_id: int, by: Writer, *, event: int | None = None) -> None:
    """Log an evening's start, its revision 0 (`event`: the club event that seats it at one of its tables)."""
    _append(session, Notice("start", evening_id, 0, event), by)


def noted(session: Session, kind: str, *, event: int | None = None) -> None:
    """Log a change of no evening: a `player` added or renamed, a `payment` recorded or voided, a `season` started,
    a club `event` started or closed, or its `round` seated or ended (`event` naming the club event)."""
    _append(session, Notice(kind, event=event), LIBRARY)


def appended(session: Session) -> list[tuple[int, Notice]]:
    """The change rows this transaction appended, by row id, with what each tells a watcher."""
    return list(session.info.get(APPENDED, []))


def _append(session: Session, change: Notice, by: Writer, row: dict[str, Any] | None = None) -> None:
    """Append the row of `change` to the change log, with the `row`'s other columns; an evening's row names the club
    event its evening is a table of."""
    lock_log(session)
    values = {"deal": None, "deal_revision": None, "undoes": None, "reason": None, **(row or {})}
    values |= {"evening_id": change.evening, "revision": change.revision, "kind": change.kind, "event_id": change.event}
    values |= {"at": utcnow(), "source": by.source, "session": by.session}
    found = session.execute(_appending(change.evening is not None), {f"new_{k}": v for k, v in values.items()}).one()
    told = Notice(change.kind, change.evening, change.revision, found.event_id)
    session.info.setdefault(APPENDED, []).append((int(found.id), told))


def lock_log(session: Session) -> None:
    """On PostgreSQL, once in a transaction: take the change log's lock until it ends, so that the rows appended after
    it commit in the order of their ids, and have every program's watcher woken when it commits (one statement)."""
    if session.get_bind().dialect.name == "postgresql" and not session.info.get(LOG_LOCK):
        session.execute(
            text("SELECT pg_advisory_xact_lock(:key), pg_notify(:channel, '')"), {"key": LOG_LOCK, "channel": CHANNEL}
        )
        session.info[LOG_LOCK] = True


LOGGED = ("evening_id", "revision", "kind", "deal", "deal_revision", "undoes", "at", "source", "session", "reason")
"""The columns of a change row given as they are (its id is made, its event given or found)."""


@cache
def _appending(of_evening: bool) -> Any:
    """The insert of one change row, returning its id and event (an evening's, unless given, found by a subquery of
    the club's tables, named without their models, which a program that keeps no club night never builds)."""
    event: Any = bindparam("new_event_id")
    if of_evening:
        tables = sql_table("club_table", column("round_id"), column("evening_id"))
        rounds = sql_table("club_round", column("id"), column("event_id"))
        table_of = (
            sql_select(rounds.c.event_id)
            .join(tables, tables.c.round_id == rounds.c.id)
            .where(tables.c.evening_id == bindparam("new_evening_id"))
            .scalar_subquery()
        )
        event = func.coalesce(event, table_of)
    given: dict[str, Any] = {name: bindparam(f"new_{name}") for name in LOGGED}
    return CHANGES.insert().values(**given, event_id=event).returning(CHANGES.c.id, CHANGES.c.event_id)


def _undone(session: Session, evening: int) -> set[int]:
    found = session.exec(
        select(col(EveningChange.undoes)).where(
            col(EveningChange.evening_id) == evening, col(EveningChange.undoes).is_not(None)
        )
    )
    return {int(undoes) for undoes in found if undoes is not None}


def last_undoable(session: Session, evening: int) -> EveningChange | None:
    """The change undo would take back now: the newest that is not an undo, nor taken back already."""
    return session.exec(_last_undoable_query(), params={"evening": evening}).first()


@cache
def _last_undoable_query() -> Any:
    evening: Any = bindparam("evening")
    taken = (
        select(col(EveningChange.undoes))
        .where(col(EveningChange.evening_id) == evening, col(EveningChange.undoes).is_not(None))
        .scalar_subquery()
    )
    return (
        select(EveningChange)
        .where(
            col(EveningChange.evening_id) == evening,
            col(EveningChange.kind).in_(UNDOABLE),
            col(EveningChange.revision).not_in(taken),
        )
        .order_by(col(EveningChange.revision).desc())
        .limit(1)
    )


def last_of(
    session: Session, evening: int, *, deal: int | None = None, kind: str | None = None
) -> EveningChange | None:
    """The evening's newest change of deal `deal`, or of kind `kind`."""
    query = select(EveningChange).where(col(EveningChange.evening_id) == evening)
    if deal is not None:
        query = query.where(col(EveningChange.deal) == deal)
    if kind is not None:
        query = query.where(col(EveningChange.kind) == kind)
    return session.exec(query.order_by(col(EveningChange.revision).desc()).limit(1)).first()


def organisers_change(session: Session, evening: int) -> EveningChange | None:
    """A change of the evening after its start made by someone other than a club table's key, if there is one."""
    return session.exec(
        select(EveningChange).where(
            col(EveningChange.evening_id) == evening,
            col(EveningChange.kind) != "start",
            col(EveningChange.source) != TABLE,
        )
    ).first()


def log_of(session: Session, evening: int, *, deal: int | None = None, since: int = -1) -> list[ChangeView]:
    """The evening's changes after revision `since` (or those of one deal), oldest first."""
    query = select(EveningChange).where(col(EveningChange.evening_id) == evening, col(EveningChange.revision) > since)
    if deal is not None:
        query = query.where(col(EveningChange.deal) == deal)
    rows = session.exec(query.order_by(col(EveningChange.revision))).all()
    undone = _undone(session, evening) if rows else set()
    return [view(row, row.revision in undone) for row in rows]


def view(row: EveningChange, undone: bool = False) -> ChangeView:
    """An evening's logged change as a value."""
    assert row.evening_id is not None, "a change of no evening is no entry of an evening's log"
    return ChangeView(
        evening=row.evening_id,
        revision=row.revision,
        kind=row.kind,
        deal=row.deal,
        at=row.at,
        source=row.source,
        session=row.session,
        reason=row.reason,
        undoes=row.undoes,
        undone=undone,
    )


def newer(connection: Connection, last_id: int) -> list[tuple[int, Notice]]:
    """The changes logged after row `last_id`, by any program, oldest first: each row's id and what it tells."""
    rows = connection.execute(_newer_query(), {"last": last_id}).all()
    return [(int(row.id), Notice(row.kind, row.evening_id, row.revision, row.event_id)) for row in rows]


@cache
def _newer_query() -> Any:
    c = CHANGES.c
    return sql_select(c.id, c.evening_id, c.revision, c.event_id, c.kind).where(c.id > bindparam("last")).order_by(c.id)


def last_id(connection: Connection) -> int:
    """The newest change log row's id (0 when none)."""
    return int(connection.execute(sql_select(func.coalesce(func.max(CHANGES.c.id), 0))).scalar_one())


def reconstruct(connection: Connection, evening_id: int) -> list[dict[str, Any]]:
    """The change log of an evening kept before changes were logged, rebuilt from what its rows keep: each deal's
    revisions and void, each reopening, its close and void. Numbered so that the last is the evening's revision."""
    found: list[tuple[datetime | str, int, dict[str, Any]]] = []
    stacks: dict[int, list[dict[str, Any]]] = {}

    def add(at: datetime | str, order: int, **change: Any) -> dict[str, Any]:
        row = {"at": _time(at), "source": "unknown", **change}
        found.append((at, order, row))
        return row

    revisions = connection.execute(
        text(
            "SELECT d.number, r.revision, r.recorded_at, r.cause, r.reason FROM deal_revision r"
            " JOIN deal d ON d.id = r.deal_id WHERE d.evening_id = :e ORDER BY r.id"
        ),
        {"e": evening_id},
    ).all()
    for number, revision, at, cause, reason in revisions:
        done = stacks.setdefault(number, [])
        if cause == "undo":
            add(at, 1, kind="undo", deal=number, deal_revision=revision, undoes=done.pop() if done else None)
        elif cause is None:
            kind = "record" if revision == 1 else "amend"
            done.append(add(at, 1, kind=kind, deal=number, deal_revision=revision, reason=reason))
    voids = connection.execute(
        text(
            "SELECT number, voided_at, void_reason, void_cause FROM deal"
            " WHERE evening_id = :e AND voided_at IS NOT NULL"
        ),
        {"e": evening_id},
    ).all()
    for number, at, reason, cause in voids:
        done = stacks.get(number, [])
        if cause == "undo":
            add(at, 2, kind="undo", deal=number, undoes=done.pop() if done else None)
        else:
            add(at, 2, kind="void", deal=number, reason=reason)
    for closed, reopened, reason in connection.execute(
        text("SELECT closed_at, reopened_at, reason FROM evening_reopen WHERE evening_id = :e ORDER BY id"),
        {"e": evening_id},
    ).all():
        add(closed, 3, kind="close")
        add(reopened, 4, kind="reopen", reason=reason)
    started_at, closed_at, voided_at, void_reason, revision = connection.execute(
        text("SELECT started_at, closed_at, voided_at, void_reason, revision FROM evening WHERE id = :e"),
        {"e": evening_id},
    ).one()
    if closed_at is not None and closed_at != voided_at:
        add(closed_at, 5, kind="close")
    if voided_at is not None:
        add(voided_at, 6, kind="void_evening", reason=void_reason)
    found.sort(key=lambda item: (item[2]["at"], item[1]))
    first = max(1, int(revision or 0) - len(found) + 1)
    rows = [{"at": _time(started_at), "source": "unknown", "kind": "start", "revision": 0}]
    for offset, (_at, _order, row) in enumerate(found):
        row["revision"] = first + offset
        rows.append(row)
    numbered = {id(row): row["revision"] for row in rows}
    for row in rows:
        undone = row.get("undoes")
        if isinstance(undone, dict):
            row["undoes"] = numbered[id(undone)]
    return rows


def _time(value: datetime | str) -> datetime:
    """A time as read by a plain statement (SQLite gives text), in UTC."""
    return as_utc(datetime.fromisoformat(value) if isinstance(value, str) else value)


def rebuild(connection: Connection, evening_id: int) -> None:
    """Write the reconstructed change log of an evening that has none; the evening's revision becomes its last
    change's, when its rows held more changes than it counted (an evening kept before every change was counted)."""
    rows = reconstruct(connection, evening_id)
    columns = ("revision", "kind", "deal", "deal_revision", "undoes", "at", "source", "reason")
    connection.execute(
        CHANGES.insert(),
        [{"evening_id": evening_id, **{name: row.get(name) for name in columns}} for row in rows],
    )
    connection.execute(
        text("UPDATE evening SET revision = :last WHERE id = :evening AND revision < :last"),
        {"last": rows[-1]["revision"], "evening": evening_id},
    )
