"""Times are stored in UTC and shown in local time."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


def as_local(moment: datetime) -> datetime:
    """A stored time (naive ones are UTC) in the local time zone."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone()
