"""What the ledger says of club nights and seasons: frozen values, `to_dict()` ready for JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ledger.frozen import Plain, freeze, shown
from ledger.rules.profiles import Profile

PAIRINGS = ("random", "standing", "rating")
"""How the rounds after the first are drawn: at random, or Swiss-like by the event's standing or by skill."""


def per_deal(points: int, deals: int) -> float | None:
    """Game points per deal played, to two decimals; None before a first deal.

    >>> per_deal(7, 3), per_deal(0, 0)
    (2.33, None)
    """
    return round(points / deals, 2) if deals else None


@dataclass(frozen=True)
class TableInfo(Plain):
    """A table of a round: its number, the evening kept there, its players in seat order (the first deals first),
    the deals played there that stand, and whether its evening is closed."""

    number: int = field(metadata=shown("table"))
    evening: int
    players: tuple[str, ...]
    deals: int
    closed: bool


@dataclass(frozen=True)
class TablePlace(Plain):
    """Where a club table's evening belongs: its event, round and table; how far the table is in its round."""

    event: int
    event_name: str
    round: int
    table: int
    deals: int
    """The deals that stand at the table."""
    round_deals: int | None
    round_ends_at: datetime | None
    """When the round's time is up, for a round of a number of minutes."""
    round_over: bool


@dataclass(frozen=True)
class RoundInfo(Plain):
    """A round: its tables, who sat it out, the repeated pairings its seating could not avoid (`exact`: proven the
    fewest possible), whether it was seated by hand, when it started and ended."""

    number: int = field(metadata=shown("round"))
    tables: tuple[TableInfo, ...]
    sitting_out: tuple[str, ...]
    repeats: int
    exact: bool
    by_hand: bool
    started_at: datetime
    ended_at: datetime | None

    def __post_init__(self) -> None:
        freeze(self, "tables", "sitting_out")

    def table_of(self, player: str) -> tuple[TableInfo, int] | None:
        """The table where the player sits this round and their seat (1 = deals first), if seated."""
        for table in self.tables:
            if player in table.players:
                return table, table.players.index(player) + 1
        return None


@dataclass(frozen=True)
class PlayerLine(Plain):
    """One player's line on an event's leaderboard: game points and deals played (held cards, not passed) over the
    deals that stand, and the table and seat in the current round (None when not seated)."""

    player: str
    points: int
    deals: int = field(metadata=shown(after=("per_deal",)))
    present: bool
    table: int | None = None
    seat: int | None = None

    @property
    def per_deal(self) -> float | None:
        """Game points per deal played."""
        return per_deal(self.points, self.deals)


@dataclass(frozen=True)
class EventInfo(Plain):
    """A club night or tournament: its rules (pinned for every table), its rounds, and the leaderboard, best first.

    `stamp` changes whenever anything shown changes (a deal at any table, a new round), for live pages."""

    number: int = field(metadata=shown("event"))
    name: str
    season: str | None
    profile: Profile = field(metadata=shown(value=lambda event: event.profile.name, after=("options",)))
    stake_cents: int
    currency: str
    place: str | None
    pairing: str
    round_deals: int | None
    round_minutes: int | None
    started_at: datetime
    closed_at: datetime | None = field(metadata=shown(after=("closed",)))
    present: tuple[str, ...]
    rounds: tuple[RoundInfo, ...]
    standings: tuple[PlayerLine, ...]
    stamp: tuple[int, ...] = field(default=(), metadata=shown(hidden=True))

    def __post_init__(self) -> None:
        freeze(self, "present", "rounds", "standings", "stamp")

    @property
    def options(self) -> Mapping[str, object]:
        """The options of the rules every table plays."""
        return self.profile.options

    @property
    def closed(self) -> bool:
        """A closed event seats no more rounds."""
        return self.closed_at is not None

    @property
    def current(self) -> RoundInfo | None:
        """The round being played (the last one, while it has not ended)."""
        return self.rounds[-1] if self.rounds and self.rounds[-1].ended_at is None else None

    def ends_at(self) -> datetime | None:
        """When the current round's time is up, for a round of `round_minutes`."""
        from datetime import timedelta

        if self.current is None or self.round_minutes is None:
            return None
        return self.current.started_at + timedelta(minutes=self.round_minutes)

    def round_at(self, now: datetime) -> RoundClock:
        """The event's last round as it stands at `now`, with the time left to play it."""
        ends_at = self.ends_at()
        return RoundClock(
            event=self.number,
            name=self.name,
            round_deals=self.round_deals,
            round_minutes=self.round_minutes,
            under_way=self.current is not None,
            ends_at=ends_at,
            seconds_left=round((ends_at - now).total_seconds()) if ends_at is not None else None,
            round=self.rounds[-1] if self.rounds else None,
        )


@dataclass(frozen=True)
class RoundClock(Plain):
    """An event's last round as it stands at a moment (`EventInfo.round_at`): how long a round lasts, whether one is
    under way, when its time is up and the seconds left then (below zero once it is up), and the round itself (None
    before a first is seated)."""

    event: int
    name: str
    round_deals: int | None
    round_minutes: int | None
    under_way: bool
    ends_at: datetime | None
    seconds_left: int | None
    round: RoundInfo | None


@dataclass(frozen=True)
class EventLine(Plain):
    """A club night as a list of them shows it: its name and season, when and where, its players and rounds counted,
    and whether it is closed (`Ledger.event` reads the whole of it)."""

    number: int = field(metadata=shown("event"))
    name: str
    season: str | None
    started_at: datetime
    closed_at: datetime | None = field(metadata=shown(after=("closed",)))
    place: str | None
    players: int
    rounds: int

    @property
    def closed(self) -> bool:
        """A closed event seats no more rounds."""
        return self.closed_at is not None


@dataclass(frozen=True)
class EventPage(Plain):
    """A page of the club nights, newest first: `next` is where the older ones begin (ask for the events `before`
    it), None when none is older."""

    events: Sequence[EventLine]
    next: int | None = None

    def __post_init__(self) -> None:
        freeze(self, "events")


def _two(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


@dataclass(frozen=True)
class LeagueLine(Plain):
    """One player's line in a season's league table: game points, deals played, events attended, whether they have
    played the season's minimum of deals to be ranked, and their skill (a conservative rating, apart from points)."""

    player: str
    points: int
    deals: int = field(metadata=shown(after=("per_deal",)))
    events: int
    ranked: bool
    skill: float | None = field(default=None, metadata=shown(value=lambda line: _two(line.skill)))
    mu: float | None = field(default=None, metadata=shown(value=lambda line: _two(line.mu)))
    sigma: float | None = field(default=None, metadata=shown(value=lambda line: _two(line.sigma)))

    @property
    def per_deal(self) -> float | None:
        """Game points per deal played."""
        return per_deal(self.points, self.deals)


@dataclass(frozen=True)
class SeasonInfo(Plain):
    """A season: its events (number, name, when, closed) and the league table, ranked players first (by game points
    per deal, then points), then those still short of `min_deals`."""

    number: int = field(metadata=shown("season"))
    name: str
    min_deals: int
    events: tuple[tuple[int, str, datetime, bool], ...] = field(
        metadata=shown(
            value=lambda season: [
                {"event": number, "name": name, "started_at": started, "closed": closed}
                for number, name, started, closed in season.events
            ]
        )
    )
    table: tuple[LeagueLine, ...]

    def __post_init__(self) -> None:
        freeze(self, "events", "table")
