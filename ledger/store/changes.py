"""The evenings' change logs: every write to an evening is one row, numbered by the evening's revision it made.

A write calls `note` once, inside its transaction, after its rows are written: the evening's revision goes up by one
and the row says what happened, to which deal, from where and why. Nothing here is ever updated or deleted; an undo
is a row of its own that names the revision it took back.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, bindparam, text
from sqlalchemy import Table as Rows
from sqlmodel import Session, col, select

from ledger.clock import as_utc, utcnow
from ledger.store.models import EveningChange
from ledger.values import TABLE, UNDOABLE, ChangeView, Writer

CHANGES: Rows = EveningChange.__table__  # type: ignore[attr-defined]


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
    session.execute(
        CHANGES.insert(),
        {
            "evening_id": evening.id,
            "revision": evening.revision,
            "at": utcnow(),
            "kind": kind,
            "deal": deal,
            "deal_revision": deal_revision,
            "undoes": undoes,
            "source": by.source,
            "session": by.session,
            "reason": reason,
        },
    )
    session.flush()
    return int(evening.revision)


def started(session: Session, evening_id: int, by: Writer, revision: int = 0) -> None:
    """Log an evening's start (its revision 0, or the revision an import found)."""
    session.execute(
        CHANGES.insert(),
        {
            "evening_id": evening_id,
            "revision": revision,
            "kind": "start",
            "at": utcnow(),
            "source": by.source,
            "session": by.session,
        },
    )


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
    """A logged change as a value."""
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


def newer(connection: Connection, last_id: int) -> list[tuple[int, int, int, int | None]]:
    """Changes logged after row `last_id`, by any program: (row id, evening, revision, the club event the evening is
    a table of, if any), oldest first."""
    rows = connection.execute(
        text(
            "SELECT c.id, c.evening_id, c.revision, r.event_id FROM evening_change c"
            " LEFT JOIN club_table t ON t.evening_id = c.evening_id LEFT JOIN club_round r ON r.id = t.round_id"
            " WHERE c.id > :last ORDER BY c.id"
        ),
        {"last": last_id},
    ).all()
    return [(int(a), int(b), int(c), None if d is None else int(d)) for a, b, c, d in rows]


def last_id(connection: Connection) -> int:
    """The newest change log row's id (0 when none)."""
    return int(connection.execute(text("SELECT coalesce(max(id), 0) FROM evening_change")).scalar_one())


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
    """Write the reconstructed change log of an evening that has none."""
    rows = reconstruct(connection, evening_id)
    columns = ("revision", "kind", "deal", "deal_revision", "undoes", "at", "source", "reason")
    connection.execute(
        CHANGES.insert(),
        [{"evening_id": evening_id, **{name: row.get(name) for name in columns}} for row in rows],
    )
