"""Times are stored in UTC and shown in local time."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


def as_local(moment: datetime) -> datetime:
    """A stored time (naive ones are UTC) in the local time zone."""
    return as_utc(moment).astimezone()


def as_utc(moment: datetime) -> datetime:
    """A stored time (naive ones are UTC) as an aware UTC time."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
