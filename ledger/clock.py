"""Times are stored in UTC and shown in local time."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from ledger.errors import LedgerError
from ledger.i18n import _


def utcnow() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


def as_local(moment: datetime) -> datetime:
    """A time as the ledger reads it (aware) in the local time zone."""
    return moment.astimezone()


def day_start(day: date) -> datetime:
    """The UTC moment the local day begins (times are stored in UTC)."""
    return datetime.combine(day, time.min).astimezone().astimezone(UTC)


def as_utc(moment: datetime) -> datetime:
    """A time as an aware UTC time; a naive one is UTC already (as SQLite and an export without offsets hold it)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def iso(moment: datetime | None) -> str | None:
    """A time as JSON writes it, ISO 8601 with its offset (`2026-11-21T20:05:00+00:00`); None stays None."""
    return moment.isoformat() if moment else None


def parse_date(text: str | None, option: str) -> date | None:
    """`2024-03-01` as a date; None stays None."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise LedgerError(
            _("{option} {text!r}: a date as YYYY-MM-DD, e.g. 2024-03-01").format(option=option, text=text)
        ) from None
