"""The club's desk (`Ledger.club`): seasons, club nights and their rounds, what an organiser does. It writes and
reads through its ledger (`Ledger.transaction`, `Ledger.snapshot`), so each change is told as every other is; a
command at the table never loads it, nor the club's store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session

from ledger.club.values import EventInfo, EventPage, SeasonInfo
from ledger.desk import Desk
from ledger.store.club import (
    arrive,
    check_round,
    close_event,
    end_round,
    event_after_deals,
    event_info,
    event_lines,
    get_event,
    get_season,
    has_rounds,
    leave,
    list_events,
    list_seasons,
    lock_event,
    present,
    season_deals,
    season_info,
    seat_round,
    start_event,
    start_season,
)
from ledger.store.club_models import Season
from ledger.values import NOTHING_SAID, PAGE, Terms, Writer, check_page


class Club:
    """The club nights and seasons of `ledger`: one method for each thing an organiser does."""

    def __init__(self, ledger: Desk) -> None:
        self.ledger = ledger

    def start_season(self, name: str, *, min_deals: int = 0) -> SeasonInfo:
        """A new season: events started in it make one league table; `min_deals` to be ranked."""
        with self.ledger.transaction() as session:
            return season_info(session, start_season(session, name, min_deals))

    def season(self, name: str | None = None) -> SeasonInfo:
        """Season `name` (or number; default the most recent): its events and league table, with each player's skill
        (openskill) apart from game points."""
        with self.ledger.snapshot() as session:
            season = get_season(session, name)
            skill = {s.player: (s.rating, s.mu, s.sigma) for s in _season_skill(session, season)}
            return season_info(session, season, skill)

    def seasons(self) -> list[SeasonInfo]:
        """Every season, newest first, with its league table."""
        with self.ledger.snapshot() as session:
            names = [season.name for season in list_seasons(session)]
        return [self.season(name) for name in names]

    def start_event(
        self,
        name: str,
        players: Sequence[str],
        terms: Terms = NOTHING_SAID,
        *,
        season: str | None = None,
        pairing: str = "random",
        round_deals: int | None = None,
        round_minutes: int | None = None,
        by: Writer | None = None,
    ) -> EventInfo:
        """A club night or tournament with the players present; every table it seats plays on its `terms`. A round
        lasts `round_deals` deals or `round_minutes`; later rounds are drawn by `pairing`."""
        self.ledger.organiser(by)
        with self.ledger.transaction() as session:
            event = start_event(
                session,
                name,
                players,
                terms,
                season=season,
                pairing=pairing,
                round_deals=round_deals,
                round_minutes=round_minutes,
            )
            return event_info(session, event)

    def event(self, number: int | None = None) -> EventInfo:
        """Event `number` (default: the most recent) as it stands: rounds, tables, leaderboard."""
        with self.ledger.snapshot() as session:
            return event_info(session, get_event(session, number))

    def event_after_deals(self, shown: EventInfo) -> EventInfo | None:
        """Event `shown` as it stands now, its tables and leaderboard read again, when only its tables' deals and
        evenings changed since it was read; None when more changed (then read it whole with `event`)."""
        with self.ledger.snapshot() as session:
            return event_after_deals(session, shown)

    def events(self) -> list[EventInfo]:
        """Every event, newest first, each whole (the pages of a list read `event_page`)."""
        with self.ledger.snapshot() as session:
            return [event_info(session, event) for event in list_events(session)]

    def event_page(self, *, before: int | None = None, limit: int = PAGE) -> EventPage:
        """A page of the events, newest first, as a list shows them: `limit` of them (up to `MOST_AT_ONCE`), numbered
        below `before` (without it, the newest), with where the older ones begin. One statement, however many events
        and deals the ledger holds."""
        check_page(before, limit)
        with self.ledger.snapshot() as session:
            lines = event_lines(session, before=before, limit=limit + 1)
        shown = lines[:limit]
        return EventPage(shown, shown[-1].number if len(lines) > limit else None)

    def seat_round(
        self,
        number: int | None = None,
        *,
        tables: Sequence[Sequence[str]] | None = None,
        arrived: Sequence[str] = (),
        left: Sequence[str] = (),
        seed: int | None = None,
        round: int | None = None,
        by: Writer | None = None,
    ) -> EventInfo:
        """Seat the next round of event `number` (default: the most recent open one), the round before ending
        first: players who `arrived` or `left` are counted in or out, then the seating is drawn (random, or by the
        event's standing or skill, keeping repeated opponents to the fewest possible) or set by hand (`tables`).

        `round`: the number of the round this request makes. When that round was seated already (the same request
        sent twice, or by two organisers at once), the event is returned as it is and nothing is written.
        """
        writer = self.ledger.organiser(by)
        with self.ledger.transaction() as session:
            event = lock_event(session, get_event(session, number, open_only=round is None))
            if round is not None and check_round(session, event, round):
                return event_info(session, event)
            arrive(session, event, arrived)
            leave(session, event, left)
            order = None
            if tables is None and event.pairing != "random" and has_rounds(session, event):
                order = _order(session, event, present(session, event))
            seat_round(session, event, tables=tables, order=order, seed=seed, by=writer)
            return event_info(session, event)

    def end_round(self, number: int | None = None, *, by: Writer | None = None) -> EventInfo:
        """End the round under way of event `number`: every table's evening closes."""
        writer = self.ledger.organiser(by)
        with self.ledger.transaction() as session:
            event = get_event(session, number, open_only=True)
            end_round(session, event, by=writer)
            return event_info(session, event)

    def close_event(self, number: int | None = None, *, by: Writer | None = None) -> EventInfo:
        """Close event `number`: the round under way ends, no more rounds; its tables' keys write no more."""
        writer = self.ledger.organiser(by)
        with self.ledger.transaction() as session:
            event = close_event(session, get_event(session, number, open_only=True), by=writer)
            return event_info(session, event)


def _order(session: Session, event: Any, players: list[str]) -> list[str]:
    """The players present best first: by the event's game points so far, or by season skill."""
    if event.pairing == "standing":
        ranked = [line.player for line in event_info(session, event).standings]
    else:
        season = session.get(Season, event.season_id) if event.season_id else None
        ranked = [s.player for s in _season_skill(session, season)] if season else []
    return [name for name in ranked if name in players] + [name for name in players if name not in ranked]


def _season_skill(session: Session, season: Any) -> list[Any]:
    """Each player's skill over the deals of the season's tables (openskill)."""
    from ledger.reports.rating import season_skill, sides

    played = (sides(roles, points) for roles, points in season_deals(session, season))
    return season_skill(side for side in played if side is not None)
