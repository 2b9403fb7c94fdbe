"""Club nights and seasons: events, the players present, rounds seated at tables (each table an evening).

Nothing about a deal changes when its evening belongs to an event: the event only says which evenings are its
tables. An event's figures are summed over its tables' deals that count, in one statement.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from itertools import combinations
from typing import Any

from sqlalchemy import Select, bindparam, case, func, or_
from sqlalchemy import select as sql_select
from sqlmodel import Session, col, select

from ledger.club.draw import Draw, check_seating, draw
from ledger.club.values import (
    PAIRINGS,
    EventInfo,
    EventLine,
    LeagueLine,
    PlayerLine,
    RoundInfo,
    SeasonInfo,
    TableInfo,
)
from ledger.errors import FactError, LedgerError
from ledger.i18n import _
from ledger.rules.numbers import shortened, storable
from ledger.rules.profiles import make_profile, started_with
from ledger.rules.seats import name_key
from ledger.rules.text import acts_on_screen, check_plain
from ledger.store.changes import note, noted
from ledger.store.club_models import ClubEvent, ClubRound, ClubTable, Entrant, Season
from ledger.store.counting import STANDING, counting_payouts
from ledger.store.evenings import close_evening, get_seating, parse_cents, parse_currency, start_evening
from ledger.store.models import Deal, Evening, Payout, Player, Seat, ident, utcnow
from ledger.store.players import clean_name, ensure_player, find_player
from ledger.values import LIBRARY, Terms, Writer

MOST_DEALS = 1000
"""The most deals a round may last, and the largest minimum of deals a season may ask."""
MOST_MINUTES = 24 * 60
PLAYED = ("declarer", "partner", "opponent")
"""The roles of a player who held cards in a deal that was played (not passed, not sitting out)."""


def _count(value: int | None, fact: str, most: int) -> int | None:
    if value is not None and not 1 <= value <= most:
        raise FactError(fact, str(value), _("a whole number from 1 to {most}").format(most=most))
    return value


# Seasons


def start_season(session: Session, name: str, min_deals: int = 0) -> Season:
    """A new season; an error if one of that name exists (case and accents ignored)."""
    cleaned = clean_name(name)
    if not 0 <= min_deals <= MOST_DEALS * 100:
        raise FactError("min_deals", str(min_deals), _("a whole number from 0 to {most}").format(most=MOST_DEALS * 100))
    if session.exec(select(Season).where(Season.key == name_key(cleaned))).first():
        raise LedgerError(_("season {name!r} exists already").format(name=cleaned))
    season = Season(name=cleaned, key=name_key(cleaned), min_deals=min_deals)
    session.add(season)
    session.flush()
    noted(session, "season")
    return season


def get_season(session: Session, name: str | None) -> Season:
    """The season of that name (or number), or the most recent one when no name is given."""
    query = select(Season).order_by(col(Season.id).desc())
    if name is not None:
        number = int(name) if name.isascii() and name.isdecimal() and len(name) < 10 else None
        query = select(Season).where(or_(col(Season.key) == name_key(name), col(Season.id) == number))
    season = session.exec(query).first()
    if season is None:
        known = ", ".join(s.name for s in session.exec(select(Season).order_by(col(Season.id))).all()[:12])
        if not known:
            raise LedgerError(_("no season yet: start one with `calabresella season start NAME`"))
        raise LedgerError(_("unknown season {name!r}: the seasons are {known}").format(name=name, known=known))
    return season


def list_seasons(session: Session) -> list[Season]:
    """Every season, newest first."""
    return list(session.exec(select(Season).order_by(col(Season.id).desc())))


# Events


def start_event(
    session: Session,
    name: str,
    players: Sequence[str],
    terms: Terms,
    *,
    season: str | None = None,
    pairing: str = "random",
    round_deals: int | None = None,
    round_minutes: int | None = None,
) -> ClubEvent:
    """A new event with the players present; its tables' terms are checked as an evening's are."""
    if pairing not in PAIRINGS:
        raise FactError("pairing", pairing, " | ".join(PAIRINGS))
    _count(round_deals, "deals", MOST_DEALS)
    _count(round_minutes, "minutes", MOST_MINUTES)
    check_plain(terms.place, "place")
    title = " ".join(name.split())
    if not title or len(title) > 60 or acts_on_screen(title):
        raise FactError("name", shortened(name), _("the event's name, 1 to 60 characters"))
    rules = make_profile(terms.profile, terms.options)
    event = ClubEvent(
        name=title,
        season_id=get_season(session, season).id if season is not None else None,
        profile=rules.name,
        options=dict(rules.options),
        stake_cents=parse_cents(terms.stake),
        currency=parse_currency(terms.currency),
        place=terms.place,
        pairing=pairing,
        round_deals=round_deals,
        round_minutes=round_minutes,
    )
    session.add(event)
    session.flush()
    arrive(session, event, players)
    sizes = rules.seat_counts
    if len(present(session, event)) < min(sizes):
        raise LedgerError(
            _("{count} players: a table of {profile} seats {sizes}").format(
                count=len(players), profile=terms.profile, sizes=_sizes(sizes)
            )
        )
    noted(session, "event", event=ident(event))
    return event


def _sizes(sizes: Sequence[int]) -> str:
    return _(" or ").join(str(size) for size in sizes)


def get_event(session: Session, number: int | None = None, *, open_only: bool = False) -> ClubEvent:
    """Event `number`, or the most recent open one (with `open_only`) or of all."""
    if number is not None:
        event = session.get(ClubEvent, number) if storable(number) else None
        if event is None:
            last = session.exec(select(func.max(ClubEvent.id))).one()
            raise LedgerError(
                _("event {number} does not exist (events are 1 to {last})").format(number=number, last=last or 0)
            )
        if open_only and event.closed_at is not None:
            raise LedgerError(_("event {number} is closed").format(number=number))
        return event
    query = select(ClubEvent).order_by(col(ClubEvent.id).desc())
    if open_only:
        query = query.where(col(ClubEvent.closed_at).is_(None))
    found = session.exec(query).first()
    if found is None:
        if open_only:
            raise LedgerError(_("no open event: start one with `calabresella event start`"))
        raise LedgerError(_("no event yet: start one with `calabresella event start`"))
    return found


def lock_event(session: Session, event: ClubEvent) -> ClubEvent:
    """Hold the event's row until commit (PostgreSQL; SQLite's write transaction holds the whole ledger already), so
    two organisers seating a round take turns."""
    if session.get_bind().dialect.name == "sqlite":
        return event
    return session.exec(
        select(ClubEvent).where(ClubEvent.id == event.id).with_for_update().execution_options(populate_existing=True)
    ).one()


def _rounds(session: Session, event: ClubEvent) -> list[ClubRound]:
    return list(session.scalars(_rounds_query(), {"event": event.id}))


@cache
def _rounds_query() -> Any:
    """The rounds of event `:event`, in order. This and the other statements a leaderboard reads at every deal are
    built once: building them each time cost a fifth of a tournament server's processor time a deal."""
    return select(ClubRound).where(ClubRound.event_id == bindparam("event")).order_by(col(ClubRound.number))


def has_rounds(session: Session, event: ClubEvent) -> bool:
    """Whether a round of the event was seated already (the first round is drawn at random whatever the pairing)."""
    return _next_round(session, event) > 1


def check_round(session: Session, event: ClubEvent, number: int) -> bool:
    """Whether round `number` of the event was seated already; an error unless it is that round or the next one."""
    coming = _next_round(session, event)
    if number < coming:
        return True
    if number > coming:
        raise FactError(
            "round", number, _("the next round of event {event} is {next}").format(event=event.id, next=coming)
        )
    if event.closed_at is not None:
        raise LedgerError(_("event {number} is closed").format(number=event.id))
    return False


def _next_round(session: Session, event: ClubEvent) -> int:
    rounds = _rounds(session, event)
    return rounds[-1].number + 1 if rounds else 1


def _entrants(session: Session, event: ClubEvent) -> list[tuple[Entrant, str]]:
    """The event's entrants, to change, with their names."""
    return [(entrant, name) for entrant, name in session.execute(_entrants_query(), {"event": event.id})]


def _presence(session: Session, event: int) -> list[tuple[Any, str]]:
    """The event's entrants, to read (`player_id`, `arrived`, `left`), with their names: one statement, no objects
    kept by the session."""
    rows = session.connection().execute(_presence_query(), {"event": event})
    return [(row, row.name) for row in rows]


@cache
def _entrants_query() -> Any:
    return (
        select(Entrant, Player.name)
        .join(Player, col(Player.id) == Entrant.player_id)
        .where(Entrant.event_id == bindparam("event"))
        .order_by(col(Entrant.id))
    )


@cache
def _presence_query() -> Any:
    return (
        sql_select(col(Entrant.player_id), col(Entrant.arrived), col(Entrant.left), col(Player.name))
        .join(Player, col(Player.id) == Entrant.player_id)
        .where(col(Entrant.event_id) == bindparam("event"))
        .order_by(col(Entrant.id))
    )


def present(session: Session, event: ClubEvent, number: int | None = None) -> list[str]:
    """Who is present for round `number` (default: the next round to seat)."""
    at = number if number is not None else _next_round(session, event)
    return _present_at(_presence(session, ident(event)), at)


def _present_at(entrants: Sequence[tuple[Any, str]], at: int) -> list[str]:
    return [name for e, name in entrants if e.arrived <= at and (e.left is None or e.left > at)]


def arrive(session: Session, event: ClubEvent, names: Sequence[str]) -> list[str]:
    """Players who arrived: present from the next round on (one who had left comes back)."""
    at, added = _next_round(session, event), []
    known = {e.player_id: e for e, _name in _entrants(session, event)}
    seen: set[str] = set()
    for name in names:
        player = ensure_player(session, name)
        if player.key in seen:
            raise FactError("player", name, _("named twice"))
        seen.add(player.key)
        entrant = known.get(ident(player))
        if entrant is None:
            session.add(Entrant(event_id=ident(event), player_id=ident(player), arrived=at))
        elif entrant.left is not None:
            entrant.arrived, entrant.left = at, None
            session.add(entrant)
        elif len(names) == 1 or entrant.arrived < at:
            raise FactError("player", name, _("already present at this event"))
        added.append(player.name)
    session.flush()
    return added


def leave(session: Session, event: ClubEvent, names: Sequence[str]) -> list[str]:
    """Players who left: seated in no round after the current one (their deals so far stand)."""
    at = _next_round(session, event)
    entrants = {name_key(name): entrant for entrant, name in _entrants(session, event)}
    gone = []
    for name in names:
        player = find_player(session, name)
        entrant = entrants.get(player.key if player else name_key(name))
        if entrant is None or player is None or (entrant.left is not None and entrant.left <= at):
            raise FactError("player", name, _("not present at this event"))
        entrant.left = at
        session.add(entrant)
        gone.append(player.name)
    session.flush()
    return gone


def _seated(session: Session, event: ClubEvent) -> list[tuple[int, int, int, int, str]]:
    """Every seat of every table of the event: (round, table, evening, position, player), in order."""
    rows = session.connection().execute(_seated_query(), {"event": event.id})
    return [(r, t, e, p, n) for r, t, e, p, n in rows]


@cache
def _seated_query() -> Any:
    return (
        sql_select(col(ClubRound.number), col(ClubTable.number), col(ClubTable.evening_id))
        .add_columns(col(Seat.position), col(Player.name))
        .join(ClubTable, col(ClubTable.round_id) == ClubRound.id)
        .join(Seat, col(Seat.evening_id) == ClubTable.evening_id)
        .join(Player, col(Player.id) == Seat.player_id)
        .where(col(ClubRound.event_id) == bindparam("event"))
        .order_by(col(ClubRound.number), col(ClubTable.number), col(Seat.position))
    )


def met_pairs(seats: Sequence[tuple[int, int, int, int, str]]) -> dict[frozenset[str], int]:
    """How often each pair of players sat at one table, over the seats given."""
    tables: defaultdict[int, list[str]] = defaultdict(list)
    for _round, _table, evening, _position, name in seats:
        tables[evening].append(name)
    met: defaultdict[frozenset[str], int] = defaultdict(int)
    for players in tables.values():
        for pair in combinations(players, 2):
            met[frozenset(pair)] += 1
    return dict(met)


def seat_round(
    session: Session,
    event: ClubEvent,
    *,
    tables: Sequence[Sequence[str]] | None = None,
    order: Sequence[str] | None = None,
    seed: int | None = None,
    by: Writer = LIBRARY,
) -> ClubRound:
    """Seat the next round (the round before ends first): drawn for the players present, or `tables` as set by hand;
    each table becomes an evening with the event's rules. `order`: the present players best first, for a
    Swiss-like draw."""
    event = lock_event(session, event)
    if event.closed_at is not None:
        raise LedgerError(_("event {number} is closed").format(number=event.id))
    end_round(session, event, quiet=True, by=by)
    number = _next_round(session, event)
    players = present(session, event, number)
    sizes = make_profile(event.profile, started_with(event.profile, event.options)).seat_counts
    seats = _seated(session, event)
    met = met_pairs(seats)
    if tables is not None:
        named = [[_named(players, name) for name in table] for table in tables]
        seating = Draw(tuple(tuple(t) for t in named), (), check_seating(named, players, sizes, met), True)
    else:
        seating = draw(players, sizes, met=met, order=order, sat_out=_sat_out(seats, session, event), seed=seed)
    if not seating.tables:
        raise LedgerError(
            _("{count} present: a table of {profile} seats {sizes}").format(
                count=len(players), profile=event.profile, sizes=_sizes(sizes)
            )
        )
    played = ClubRound(
        event_id=ident(event), number=number, repeats=seating.repeats, exact=seating.exact, by_hand=tables is not None
    )
    session.add(played)
    session.flush()
    for position, players_at in enumerate(seating.tables, start=1):
        table = start_evening(session, players_at, event_terms(event), dealer=players_at[0], event=ident(event), by=by)
        session.add(ClubTable(round_id=ident(played), number=position, evening_id=table.number))
    session.flush()
    noted(session, "round", event=ident(event))
    return played


def event_terms(event: ClubEvent) -> Terms:
    """The terms the event's tables play on."""
    return Terms(
        profile=event.profile,
        options=dict(event.options),
        stake=f"{event.stake_cents / 100:.2f}",
        currency=event.currency,
        place=event.place,
    )


def _named(players: Sequence[str], name: str) -> str:
    """A name typed for a seating by hand, as the event knows the player present."""
    key = name_key(name)
    found = next((player for player in players if name_key(player) == key), None)
    if found is None:
        raise LedgerError(_("{name} is not present at this event").format(name=name))
    return found


def _sat_out(seats: Sequence[tuple[int, int, int, int, str]], session: Session, event: ClubEvent) -> dict[str, int]:
    """How many rounds so far each entrant was present for but not seated at."""
    seated: defaultdict[int, set[str]] = defaultdict(set)
    for number, _table, _evening, _position, name in seats:
        seated[number].add(name)
    counts: defaultdict[str, int] = defaultdict(int)
    entrants = _presence(session, ident(event))
    for number, names in seated.items():
        for name in _present_at(entrants, number):
            counts[name] += name not in names
    return dict(counts)


def end_round(session: Session, event: ClubEvent, *, quiet: bool = False, by: Writer = LIBRARY) -> ClubRound | None:
    """End the round being played: every table's evening still open closes, table by table in their order (a pot of
    passed deals waiting stays with that table's evening: the next round seats other tables). Without `quiet`, an
    error when no round is on."""
    rounds = _rounds(session, event)
    playing = rounds[-1] if rounds and rounds[-1].ended_at is None else None
    if playing is None:
        if quiet:
            return None
        raise LedgerError(_("event {number} has no round under way").format(number=event.id))
    evenings = session.exec(
        select(ClubTable.evening_id)
        .join(Evening, col(Evening.id) == ClubTable.evening_id)
        .where(ClubTable.round_id == playing.id, col(Evening.closed_at).is_(None))
        .order_by(col(ClubTable.number))
    ).all()
    for evening in evenings:
        closed = close_evening(session, get_seating(session, evening))
        note(session, closed.evening, "close", by)
    playing.ended_at = utcnow()
    session.add(playing)
    session.flush()
    noted(session, "round", event=ident(event))
    return playing


def close_event(session: Session, event: ClubEvent, by: Writer = LIBRARY) -> ClubEvent:
    """Close the event: the round under way ends, and no round is seated after."""
    event = lock_event(session, event)
    if event.closed_at is not None:
        raise LedgerError(_("event {number} is closed already").format(number=event.id))
    end_round(session, event, quiet=True, by=by)
    event.closed_at = utcnow()
    session.add(event)
    session.flush()
    noted(session, "event", event=ident(event))
    return event


# Figures


def _points_and_played() -> tuple[Any, Any]:
    """Game points and deals played, summed."""
    return func.coalesce(func.sum(Payout.points), 0), func.coalesce(
        func.sum(case((col(Payout.role).in_(PLAYED), 1), else_=0)), 0
    )


def _season_payouts(season: Season, *columns: Any) -> Select[Any]:
    """The given columns of the payouts of the deals that count at the season's tables."""
    return (
        counting_payouts(*columns)
        .join(ClubTable, col(ClubTable.evening_id) == Evening.id)
        .join(ClubRound, col(ClubRound.id) == ClubTable.round_id)
        .join(ClubEvent, col(ClubEvent.id) == ClubRound.event_id)
        .where(col(ClubEvent.season_id) == season.id)
    )


Figures = dict[str, tuple[int, int]]
"""Per player's name: game points and deals played."""


def _figures(session: Session, event: int) -> Figures:
    """Game points and deals played per player over the deals that count of the event's tables: one statement."""
    rows = session.connection().execute(_figures_query(), {"event": event})
    return {name: (int(points), int(played)) for name, points, played in rows}


@cache
def _figures_query() -> Any:
    return (
        counting_payouts(col(Player.name), *_points_and_played())
        .join(Player, col(Player.id) == Payout.player_id)
        .where(col(Deal.evening_id).in_(_table_evenings()))
        .group_by(col(Player.id), col(Player.name))
    )


def _table_evenings() -> Any:
    """The evenings of the tables of event `:event`, as a subquery."""
    return (
        sql_select(col(ClubTable.evening_id))
        .join(ClubRound, col(ClubRound.id) == ClubTable.round_id)
        .where(col(ClubRound.event_id) == bindparam("event"))
        .scalar_subquery()
    )


def _names(session: Session, ids: Sequence[int]) -> dict[int, str]:
    return dict(session.exec(select(Player.id, Player.name).where(col(Player.id).in_(ids))).all())  # type: ignore[arg-type]


def _tables(session: Session, event: int) -> dict[int, tuple[int, bool]]:
    """The deals and whether it is closed, of each evening of the event's tables: one statement. A table's deals are
    those not voided (`STANDING`), counted at a voided evening too, as the board shows each table as it is."""
    rows = session.connection().execute(_tables_query(), {"event": event})
    return {int(evening): (int(deals), closed is not None) for evening, deals, closed in rows}


@cache
def _tables_query() -> Any:
    deals = (
        select(col(Deal.evening_id), func.count().label("deals"))
        .where(STANDING, col(Deal.evening_id).in_(_table_evenings()))
        .group_by(col(Deal.evening_id))
        .subquery()
    )
    return (
        sql_select(col(Evening.id), func.coalesce(deals.c.deals, 0), col(Evening.closed_at))
        .outerjoin(deals, deals.c.evening_id == Evening.id)
        .where(col(Evening.id).in_(_table_evenings()))
    )


def event_info(session: Session, event: ClubEvent) -> EventInfo:
    """The event as it stands: rounds, tables and the leaderboard (a fixed number of statements, some read through
    the session's connection: what the transaction changed is flushed first)."""
    session.flush()
    rounds = _rounds(session, event)
    seats = _seated(session, event)
    states = _tables(session, ident(event))
    entrants = _presence(session, ident(event))
    infos = []
    for played in rounds:
        at: dict[int, tuple[int, list[str]]] = {}
        for number, table, evening, _position, name in seats:
            if number == played.number:
                at.setdefault(table, (evening, []))[1].append(name)
        tables = tuple(
            TableInfo(table, evening, tuple(names), *states[evening]) for table, (evening, names) in sorted(at.items())
        )
        seated = {name for t in tables for name in t.players}
        out = tuple(name for name in _present_at(entrants, played.number) if name not in seated)
        infos.append(
            RoundInfo(
                played.number,
                tables,
                out,
                played.repeats,
                played.exact,
                played.by_hand,
                played.started_at,
                played.ended_at,
            )
        )
    figures = _figures(session, ident(event))
    here = _present_at(entrants, rounds[-1].number + 1 if rounds else 1)
    current = infos[-1] if infos and infos[-1].ended_at is None else None
    lines = []
    for _entrant, name in entrants:
        points, count = figures.get(name, (0, 0))
        place = current.table_of(name) if current else None
        lines.append(
            PlayerLine(
                name, points, count, name in here, place[0].number if place else None, place[1] if place else None
            )
        )
    season = session.get(Season, event.season_id) if event.season_id else None
    return EventInfo(
        number=ident(event),
        name=event.name,
        season=season.name if season else None,
        profile=make_profile(event.profile, started_with(event.profile, event.options)),
        stake_cents=event.stake_cents,
        currency=event.currency,
        place=event.place,
        pairing=event.pairing,
        round_deals=event.round_deals,
        round_minutes=event.round_minutes,
        started_at=event.started_at,
        closed_at=event.closed_at,
        present=tuple(here),
        rounds=tuple(infos),
        standings=_ranked(lines),
        stamp=event_stamp(session, ident(event)),
    )


def event_after_deals(session: Session, shown: EventInfo) -> EventInfo | None:
    """Event `shown` as it stands now, when what changed since it was read is its tables' deals and evenings (deals
    recorded, corrected, voided or taken back, a table closed or opened again): its tables and leaderboard read
    again, in four statements against the whole event's eight; None when more changed (a round seated or ended, the
    event closed, a player renamed by any program), for a whole read."""
    stamp = event_stamp(session, shown.number)
    named = {name for _entrant, name in _presence(session, shown.number)}
    if stamp[:FRAME] != shown.stamp[:FRAME] or named != {line.player for line in shown.standings}:
        return None
    states, figures = _tables(session, shown.number), _figures(session, shown.number)
    rounds = tuple(
        replace(
            played, tables=tuple(TableInfo(t.number, t.evening, t.players, *states[t.evening]) for t in played.tables)
        )
        for played in shown.rounds
    )
    lines = [
        PlayerLine(line.player, *figures.get(line.player, (0, 0)), line.present, line.table, line.seat)
        for line in shown.standings
    ]
    return replace(shown, rounds=rounds, standings=_ranked(lines), stamp=stamp)


def _ranked(lines: Sequence[PlayerLine]) -> tuple[PlayerLine, ...]:
    """A leaderboard's lines, best first: game points, then points a deal, then name."""
    return tuple(sorted(lines, key=lambda line: (-line.points, -(line.per_deal or 0), name_key(line.player))))


FRAME = 3
"""The first parts of an event's stamp, which change with its frame: its rounds, those ended, its close."""


def event_stamp(session: Session, event: int) -> tuple[int, ...]:
    """What changes when the event's leaderboard may have changed: its rounds, those ended, its close (the `FRAME`),
    then the revisions of its tables and those closed (one statement, for the live page's poll)."""
    return tuple(int(value) for value in session.connection().execute(_stamp_query(), {"event": event}).one())


@cache
def _stamp_query() -> Any:
    event: Any = bindparam("event")
    return (
        sql_select(
            func.count(func.distinct(ClubRound.id)),
            func.count(col(ClubRound.ended_at)),
            select(func.count(col(ClubEvent.closed_at))).where(col(ClubEvent.id) == event).scalar_subquery(),
            func.coalesce(func.sum(Evening.revision), 0),
            func.count(col(Evening.closed_at)),
        )
        .select_from(ClubRound)
        .outerjoin(ClubTable, col(ClubTable.round_id) == ClubRound.id)
        .outerjoin(Evening, col(Evening.id) == ClubTable.evening_id)
        .where(col(ClubRound.event_id) == event)
    )


def list_events(session: Session) -> list[ClubEvent]:
    """Every event, newest first."""
    return list(session.exec(select(ClubEvent).order_by(col(ClubEvent.id).desc())))


def event_lines(session: Session, *, before: int | None = None, limit: int) -> list[EventLine]:
    """Events newest first, numbered below `before` (without it, from the newest), `limit` of them, as a list shows
    them (their players and rounds counted): one statement."""
    given = {"limit": limit} if before is None else {"before": before, "limit": limit}
    rows = session.connection().execute(_lines_query(before is not None), given)
    return [EventLine(*row) for row in rows]


@cache
def _lines_query(before: bool) -> Any:
    event = col(ClubEvent.id)
    players = sql_select(func.count()).where(col(Entrant.event_id) == event).scalar_subquery()
    rounds = sql_select(func.count()).where(col(ClubRound.event_id) == event).scalar_subquery()
    query = (
        sql_select(
            event,
            col(ClubEvent.name),
            col(Season.name),
            col(ClubEvent.started_at),
            col(ClubEvent.closed_at),
            col(ClubEvent.place),
            players,
            rounds,
        )
        .outerjoin(Season, col(Season.id) == ClubEvent.season_id)
        .order_by(event.desc())
        .limit(bindparam("limit"))
    )
    return query.where(event < bindparam("before")) if before else query


def season_figures(session: Session, season: Season) -> dict[str, tuple[int, int, int]]:
    """Game points, deals played and events attended per player over the season's tables: one statement."""
    figures = (col(Payout.player_id), *_points_and_played(), func.count(func.distinct(ClubEvent.id)))
    rows = list(session.execute(_season_payouts(season, *figures).group_by(col(Payout.player_id))))
    names = _names(session, [pid for pid, *_ in rows])
    return {names[pid]: (int(points), int(count), int(events)) for pid, points, count, events in rows}


def season_deals(session: Session, season: Season) -> list[tuple[dict[str, str], dict[str, int]]]:
    """Each deal that stands of the season's tables, in the order played: each seated player's role and points."""
    query = (
        _season_payouts(season, col(Deal.id), col(Player.name), col(Payout.role), col(Payout.points))
        .join(Player, col(Player.id) == Payout.player_id)
        .order_by(col(Deal.created_at), col(Deal.id))
    )
    deals: dict[int, tuple[dict[str, str], dict[str, int]]] = {}
    for deal, name, role, points in session.execute(query):
        roles, payouts = deals.setdefault(int(deal), ({}, {}))
        roles[name], payouts[name] = role, points
    return list(deals.values())


def season_info(
    session: Session, season: Season, skill: Mapping[str, tuple[float, float, float]] | None = None
) -> SeasonInfo:
    """The season's league table: ranked players (at least `min_deals` played) by points per deal, then by game
    points; then the others. `skill`: (rating, mu, sigma) per player, shown apart from points."""
    events = session.exec(select(ClubEvent).where(ClubEvent.season_id == season.id).order_by(col(ClubEvent.id))).all()
    lines = []
    for player, (points, deals, attended) in season_figures(session, season).items():
        rated = (skill or {}).get(player)
        lines.append(
            LeagueLine(
                player,
                points,
                deals,
                attended,
                deals >= season.min_deals and deals > 0,
                *(rated if rated else (None, None, None)),
            )
        )
    lines.sort(key=lambda line: (not line.ranked, -(line.per_deal or 0), -line.points, name_key(line.player)))
    return SeasonInfo(
        ident(season),
        season.name,
        season.min_deals,
        tuple((ident(e), e.name, e.started_at, e.closed_at is not None) for e in events),
        tuple(lines),
    )
