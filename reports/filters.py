"""Which part of the history a report covers: evening, player, date range, profile."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from ledger.clock import day_start
from ledger.errors import LedgerError
from ledger.fmt import format_date
from ledger.i18n import _
from ledger.rules.numbers import check_number
from ledger.rules.profiles import profile_name


@dataclass(frozen=True)
class Filters:
    """Deals to report on; `since`/`until` are local dates of the evening's start, both included."""

    evening: int | None = None
    player: str | None = None
    since: date | None = None
    until: date | None = None
    profile: str | None = None

    def __post_init__(self) -> None:
        if self.evening is not None:
            check_number(self.evening, "--evening")
        if self.since and self.until and self.since > self.until:
            raise LedgerError(
                _("--since {since} is after --until {until}: give a range forwards in time").format(
                    since=self.since, until=self.until
                )
            )
        if self.profile is not None:
            object.__setattr__(self, "profile", profile_name(self.profile))

    def describe(self) -> str:
        """`evening 3, player Anna, since 2024-01-01` or `all deals`, dates as the language writes them."""
        parts = [
            f"{label} {value}"
            for label, value in (
                (_("evening"), self.evening),
                (_("player"), self.player),
                (_("since"), self.since and format_date(self.since)),
                (_("until"), self.until and format_date(self.until)),
                (_("profile"), self.profile),
            )
            if value is not None
        ]
        return ", ".join(parts) or _("all deals")


def utc_end(day: date) -> datetime:
    """The UTC moment the local day ends (exclusive)."""
    return day_start(day + timedelta(days=1))
