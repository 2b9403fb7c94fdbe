"""`calabresella event start|seat|round|show|list|close` and `calabresella season start|show`: club nights and
tournaments seated at several tables, round after round, and the seasons whose league tables they make."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.app import JsonFlag, new_app, print_json
from ledger.cli.options import OptionsOption, ProfileOption, split_players
from ledger.cli.render import console, local_time, signed
from ledger.cli.session import open_ledger
from ledger.club.ranking import event_places, ranks, season_key
from ledger.club.values import EventPage
from ledger.errors import FactError, LedgerError, NoOpenEvening
from ledger.fmt import format_cents, format_decimal
from ledger.i18n import N_, _, ngettext
from ledger.values import MOST_AT_ONCE, PAGE, Terms

if TYPE_CHECKING:
    from ledger.club.values import EventInfo, LeagueLine, PlayerLine, RoundInfo, SeasonInfo

event_app = new_app("event", "Club nights and tournaments: several tables, round after round, one leaderboard.")
season_app = new_app("season", "Seasons: the events started in one make a league table.")

OPTIONS = {
    "deals": "--deals",
    "minutes": "--minutes",
    "pairing": "--pairing",
    "min_deals": "--min-deals",
    "name": "NAME",
}
"""The option of these commands that gives each fact an error may name."""
PAIRING_WORDS = {
    "random": N_("drawn at random"),
    "standing": N_("drawn by the event's standing"),
    "rating": N_("drawn by the season's skill"),
}
"""How the event's rounds are drawn, in words."""

EventArgument = Annotated[
    int | None,
    typer.Argument(help="The event's number (default: the most recent event).", min=1, show_default=False),
]
CsvOption = Annotated[
    Path | None,
    typer.Option("--csv", help="Also write the table to this CSV file, one row per player.", dir_okay=False),
]
NamesOption = Annotated[
    list[str] | None,
    typer.Option(
        "--arrive",
        help="Players who arrived, from this round on, e.g. [b]--arrive Nino,Olga[/b] (repeatable).",
        show_default=False,
        metavar="NAMES",
    ),
]
LeaveOption = Annotated[
    list[str] | None,
    typer.Option(
        "--leave",
        help="Players who left: seated in no round from this one on (their deals so far stand), e.g. "
        "[b]--leave Bruno[/b] (repeatable).",
        show_default=False,
        metavar="NAMES",
    ),
]
TableOption = Annotated[
    list[str] | None,
    typer.Option(
        "--table",
        help="Seat the round by hand: one [b]--table[/b] per table, its players in seat order (the first deals "
        "first), e.g. [b]--table Anna,Bruno,Carla,Dario --table Elena,Franco,Gina[/b]. Every player present sits "
        "exactly once.",
        show_default=False,
        metavar="NAMES",
    ),
]


@contextmanager
def _named_by_option() -> Iterator[None]:
    """A value refused by the ledger is named by the option of these commands that gives it (`--deals 0: ...`)."""
    try:
        yield
    except FactError as error:
        error.fact = OPTIONS.get(error.fact, error.fact)
        raise


def _names(values: Sequence[str] | None, option: str) -> list[str]:
    """`--arrive Nino,Olga --arrive Pia` as `[Nino, Olga, Pia]`."""
    names: list[str] = []
    for value in values or ():
        names += _split(value, option)
    return names


def _split(text: str, option: str) -> list[str]:
    """Names separated by commas; an error naming the option for an empty name."""
    names = [name.strip() for name in text.split(",")]
    if not text.strip() or not all(names):
        raise LedgerError(
            _("{option} {text!r}: names separated by commas, e.g. Anna,Bruno,Carla").format(option=option, text=text)
        )
    return names


def _markup_free(text: str) -> str:
    """Text shown as it is, never read as rich markup."""
    from rich.markup import escape

    return escape(text)


# Events


@event_app.command("start")
def start(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The event's name, e.g. [b]'Friday club'[/b].", show_default=False)],
    players: Annotated[
        str,
        typer.Option("--players", help="The players present, e.g. [b]Anna,Bruno,Carla,Dario,Elena,Franco,Gina[/b]."),
    ],
    profile: ProfileOption = "pagat",
    option: OptionsOption = None,
    stake: Annotated[str, typer.Option("--stake", help="Money per game point at every table, e.g. [b]0.10[/b].")] = "0",
    currency: Annotated[str, typer.Option("--currency", help="Three-letter code, e.g. [b]EUR[/b].")] = "EUR",
    place: Annotated[str | None, typer.Option("--place", help="Where you play.")] = None,
    season: Annotated[
        str | None, typer.Option("--season", help="The season it counts in (its name or number).")
    ] = None,
    pairing: Annotated[
        str,
        typer.Option(
            "--pairing",
            help="How the rounds are drawn: [b]random[/b]; [b]standing[/b], players close in the event's game "
            "points share tables; [b]rating[/b], players close in the season's skill share tables. Every draw keeps "
            "players who already met apart as far as it can.",
        ),
    ] = "random",
    deals: Annotated[
        int | None, typer.Option("--deals", help="A round lasts this many deals at each table.", show_default=False)
    ] = None,
    minutes: Annotated[
        int | None, typer.Option("--minutes", help="A round lasts this many minutes.", show_default=False)
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Start a club night or a tournament with the players present; every table plays its rules and stake.

    Then seat the first round with [b]calabresella event seat[/b].

    [b]Examples[/b]

    calabresella event start "Friday club" --players Anna,Bruno,Carla,Dario,Elena,Franco,Gina --deals 6

    calabresella event start "Winter cup" --players A,B,C,D,E,F,G,H,I --season 2026 --pairing standing --minutes 45

    calabresella event start "Quartiglio night" --players A,B,C,D,E,F,G,H -P quartiglio --stake 0.05
    """
    with open_ledger(ctx) as ledger, _named_by_option():
        event = ledger.club.start_event(
            name,
            split_players(players),
            Terms(profile=profile, options=option or [], stake=stake, currency=currency, place=place),
            season=season,
            pairing=pairing,
            round_deals=deals,
            round_minutes=minutes,
        )
    if as_json:
        print_json(event)
        return
    console.print(
        _("[bold]Event {number}[/bold] started: {name}.").format(number=event.number, name=_markup_free(event.name))
    )
    _print_rules(event)
    console.print(
        ngettext(
            "{count} player present: {players}.", "{count} players present: {players}.", len(event.present)
        ).format(count=len(event.present), players=", ".join(event.present)),
    )
    console.print(_("Seat the first round with: calabresella event seat"))


def _print_rules(event: EventInfo) -> None:
    """The rules every table plays, the stake, the season, how long a round lasts and how rounds are drawn."""
    from ledger.house_rules import describe_rules

    console.print(
        _("{rules}; stake {amount} per game point").format(
            rules=describe_rules(event.profile), amount=format_cents(event.stake_cents, event.currency)
        ),
        markup=False,
    )
    facts = [_("later rounds are {how}").format(how=_(PAIRING_WORDS.get(event.pairing, event.pairing)))]
    if event.round_deals is not None:
        facts.append(
            ngettext("a round lasts {count} deal", "a round lasts {count} deals", event.round_deals).format(
                count=event.round_deals
            )
        )
    if event.round_minutes is not None:
        facts.append(
            (
                ngettext("at most {count} minute", "at most {count} minutes", event.round_minutes)
                if event.round_deals is not None
                else ngettext("a round lasts {count} minute", "a round lasts {count} minutes", event.round_minutes)
            ).format(count=event.round_minutes)
        )
    if event.season is not None:
        facts.append(_("season {name}").format(name=event.season))
    if event.place:
        facts.append(_("place: {place}").format(place=event.place))
    said = "; ".join(facts)
    console.print(said[:1].upper() + said[1:] + ".", markup=False)


@event_app.command("seat")
def seat(
    ctx: typer.Context,
    event: EventArgument = None,
    arrive: NamesOption = None,
    leave: LeaveOption = None,
    table: TableOption = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="The same seed draws the same seating (to check a draw).", show_default=False),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Seat the next round: the round under way ends first (its tables close), then the players present are drawn
    to tables (or seated by hand), keeping players who already met at a table apart as far as possible.

    [b]Examples[/b]

    calabresella event seat

    calabresella event seat --arrive Nino --leave Bruno

    calabresella event seat 3 --table Anna,Bruno,Carla,Dario --table Elena,Franco,Gina
    """
    tables = [_split(text, "--table") for text in table] if table else None
    with open_ledger(ctx, create=False) as ledger, _named_by_option():
        seated = ledger.club.seat_round(
            event, tables=tables, arrived=_names(arrive, "--arrive"), left=_names(leave, "--leave"), seed=seed
        )
    if as_json:
        print_json(seated)
        return
    played = seated.rounds[-1]
    pairing = "random" if played.number == 1 else seated.pairing  # a first round is drawn at random
    how = _("seated by hand") if played.by_hand else _(PAIRING_WORDS.get(pairing, pairing))
    console.print(
        _("[bold]Round {round}[/bold] of event {number} ({name}), {how}:").format(
            round=played.number, number=seated.number, name=_markup_free(seated.name), how=how
        )
    )
    _print_tables(played)
    if played.sitting_out:
        console.print(_("Sitting out this round: {players}.").format(players=", ".join(played.sitting_out)))
    said = _repeats(played)
    if said:
        console.print(said)
    first = played.tables[0]
    console.print(
        _(
            "Seat 1 deals first. Record each table's deals under its evening, e.g. calabresella record --evening "
            '{evening} "{player} solo 22"'
        ).format(evening=first.evening, player=first.players[1].lower()),
        markup=False,
    )


def _print_tables(played: RoundInfo, *, deals_per_round: int | None = None) -> None:
    """Each table of a round: its evening, its players in seat order, and (with `deals_per_round`) its deals."""
    from rich.table import Table

    seats = max((len(t.players) for t in played.tables), default=0)
    headers = [_("table"), _("evening"), *(_("seat {number}").format(number=n) for n in range(1, seats + 1))]
    if deals_per_round is not None or played.ended_at is not None or any(t.deals for t in played.tables):
        headers += [_("deals"), _("state")]
    grid = Table(*headers, show_edge=False)
    for at in played.tables:
        row = [str(at.number), str(at.evening), *at.players, *([""] * (seats - len(at.players)))]
        if len(headers) > seats + 2:
            done = (
                _("{played} of {deals}").format(played=at.deals, deals=deals_per_round)
                if deals_per_round is not None
                else str(at.deals)
            )
            row += [done, _("closed") if at.closed else _("playing")]
        grid.add_row(*row)
    console.print(grid)


def _repeats(played: RoundInfo) -> str | None:
    """What the seating says of players who meet again: how many pairs, and whether that is proven the fewest."""
    if played.by_hand:
        if not played.repeats:
            return None
        return ngettext(
            "Seated by hand: {count} pair of players meets again at one table.",
            "Seated by hand: {count} pairs of players meet again at one table.",
            played.repeats,
        ).format(count=played.repeats)
    if played.number == 1:
        return None
    if not played.repeats:
        return _("No two players meet again at one table this round.")
    if played.exact:
        return ngettext(
            "{count} pair of players meets again at one table: it could not be avoided, this is the fewest possible.",
            "{count} pairs of players meet again at one table: it could not be avoided, this is the fewest possible.",
            played.repeats,
        ).format(count=played.repeats)
    return ngettext(
        "{count} pair of players meets again at one table (a quick search, not proven the fewest possible).",
        "{count} pairs of players meet again at one table (a quick search, not proven the fewest possible).",
        played.repeats,
    ).format(count=played.repeats)


@event_app.command("round")
def round_(
    ctx: typer.Context,
    event: EventArgument = None,
    end: Annotated[bool, typer.Option("--end", help="End the round under way: every table's evening closes.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Show the round under way: each table's deals, whether it is closed, the time left; or end it with --end.

    [b]Examples[/b]

    calabresella event round

    calabresella event round --end
    """
    from ledger.clock import utcnow

    with open_ledger(ctx, create=False) as ledger:
        info = ledger.club.end_round(event) if end else ledger.club.event(event)
    clock = info.round_at(utcnow())
    if as_json:
        print_json(info if end else clock)  # a round ended: the event, as every change of an event answers
        return
    played, ends_at, left = clock.round, clock.ends_at, clock.seconds_left
    if played is None:
        console.print(
            _("Event {number} has seated no round yet: seat one with: calabresella event seat").format(
                number=info.number
            )
        )
        return
    if end:
        said = _("[bold]Round {round}[/bold] of event {number} ({name}) ended: its tables are closed.")
    elif info.current is None:
        said = _("[bold]Round {round}[/bold] of event {number} ({name}) has ended; no round is under way.")
    else:
        said = _("[bold]Round {round}[/bold] of event {number} ({name}) is under way.")
    console.print(said.format(round=played.number, number=info.number, name=_markup_free(info.name)))
    _print_tables(played, deals_per_round=info.round_deals)
    if played.sitting_out:
        console.print(_("Sitting out this round: {players}.").format(players=", ".join(played.sitting_out)))
    if ends_at is not None and left is not None:
        minutes = -(-left // 60) if left > 0 else -left // 60  # time left rounded up, time past rounded down
        if left > 0:
            console.print(
                ngettext(
                    "Time left: {count} minute (the round's time is up at {time}).",
                    "Time left: {count} minutes (the round's time is up at {time}).",
                    minutes,
                ).format(count=minutes, time=local_time(ends_at))
            )
        else:
            console.print(
                ngettext(
                    "The round's time is up: {count} minute ago ({time}).",
                    "The round's time is up: {count} minutes ago ({time}).",
                    minutes,
                ).format(count=minutes, time=local_time(ends_at))
            )
    if info.current is not None and info.round_deals is not None:
        done = all(t.deals >= info.round_deals or t.closed for t in played.tables)
        if done:
            console.print(_("Every table has played its deals: seat the next round with: calabresella event seat"))


def _place_now(line: PlayerLine, under_way: bool) -> str:
    """Where a player sits in the round under way: `2, seat 1`, sitting out, or left."""
    if not line.present:
        return _("left")
    if line.table is not None:
        return _("{table}, seat {seat}").format(table=line.table, seat=line.seat)
    return _("sits out") if under_way else ""


def _per_deal(value: float | None) -> str:
    return format_decimal(value, 2, signed=True) if value is not None else "-"


@event_app.command("show")
def show(ctx: typer.Context, event: EventArgument = None, as_json: JsonFlag = False, csv: CsvOption = None) -> None:
    """Show an event's results: the leaderboard (game points over the deals of all its tables), its rounds and
    tables.

    [b]Examples[/b]

    calabresella event show

    calabresella event show 3 --csv friday.csv
    """
    with open_ledger(ctx, create=False) as ledger:
        info = ledger.club.event(event)
    places = event_places(info.standings)
    if csv is not None:
        header = ["event", "rank", "player", "points", "deals", "per_deal", "present", "table", "seat"]
        rows = [
            [
                info.name,
                rank,
                line.player,
                line.points,
                line.deals,
                line.per_deal,
                _yes(line.present),
                line.table,
                line.seat,
            ]
            for rank, line in zip(places, info.standings, strict=True)
        ]
        write_csv(csv, header, rows)
    if as_json:
        print_json(info)
        return
    from rich.table import Table

    state = (
        _("closed {time}").format(time=local_time(info.closed_at))
        if info.closed_at
        else _("round {round} under way").format(round=info.current.number)
        if info.current
        else _("open")
    )
    console.print(
        _("[bold]Event {number}[/bold]: {name}, started {time}; {state}").format(
            number=info.number, name=_markup_free(info.name), time=local_time(info.started_at), state=state
        )
    )
    _print_rules(info)
    board = Table(
        _("rank"), _("player"), _("game points"), _("deals"), _("points per deal"), _("table now"), show_edge=False
    )
    for column in board.columns[2:5]:
        column.justify = "right"
    for rank, line in zip(places, info.standings, strict=True):
        board.add_row(
            str(rank),
            line.player,
            signed(line.points),
            str(line.deals),
            _per_deal(line.per_deal),
            _place_now(line, info.current is not None),
        )
    console.print(board)
    for played in info.rounds:
        when = (
            _("ended {time}").format(time=local_time(played.ended_at))
            if played.ended_at
            else _("under way since {time}").format(time=local_time(played.started_at))
        )
        console.print(_("[bold]Round {round}[/bold], {when}").format(round=played.number, when=when))
        _print_tables(played, deals_per_round=info.round_deals)
        if played.sitting_out:
            console.print(_("Sitting out: {players}.").format(players=", ".join(played.sitting_out)))


@event_app.command("list")
def list_(
    ctx: typer.Context,
    limit: Annotated[
        int, typer.Option("--limit", min=1, max=MOST_AT_ONCE, help="How many events, newest first.")
    ] = PAGE,
    before: Annotated[
        int | None, typer.Option("--before", min=1, help="Only the events numbered below this one (the older ones).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """List events, newest first, a page at a time. Example: [b]calabresella event list[/b], then
    [b]calabresella event list --before 12[/b] for the older ones"""
    from rich.table import Table

    try:
        with open_ledger(ctx, create=False) as ledger:
            page = ledger.club.event_page(before=before, limit=limit)
    except NoOpenEvening:
        page = EventPage(())  # no ledger there yet: no events, and none is made
    if as_json:
        print_json(page)
        return
    if not page.events and before is None:
        console.print(_("No events yet: start one with: calabresella event start NAME --players Anna,Bruno,Carla"))
        return
    if not page.events:
        console.print(_("No events before event {number}.").format(number=before))
        return
    listed = Table(_("event"), _("name"), _("started"), _("season"), _("rounds"), _("players"), _("state"))
    listed.show_edge = False
    for e in page.events:
        listed.add_row(
            str(e.number),
            _markup_free(e.name),
            local_time(e.started_at),
            e.season or "",
            str(e.rounds),
            str(e.players),
            _("closed") if e.closed else _("open"),
        )
    console.print(listed)
    if page.next is not None:
        more = f"calabresella event list --before {page.next}" + ("" if limit == PAGE else f" --limit {limit}")
        console.print(_("Older events: {command}").format(command=more))


@event_app.command("close")
def close(ctx: typer.Context, event: EventArgument = None, as_json: JsonFlag = False) -> None:
    """Close an event: the round under way ends (its tables close) and no round is seated after.

    [b]Example[/b]: calabresella event close
    """
    with open_ledger(ctx, create=False) as ledger:
        info = ledger.club.close_event(event)
    if as_json:
        print_json(info)
        return
    console.print(
        ngettext(
            "Event {number} ({name}) closed after {count} round.",
            "Event {number} ({name}) closed after {count} rounds.",
            len(info.rounds),
        ).format(number=info.number, name=_markup_free(info.name), count=len(info.rounds))
    )
    if any(line.deals for line in info.standings):
        places = event_places(info.standings)
        first = [line.player for rank, line in zip(places, info.standings, strict=True) if rank == 1]
        console.print(
            ngettext(
                "First: {players}, {points} game points.", "Joint first: {players}, {points} game points.", len(first)
            ).format(players=", ".join(first), points=signed(info.standings[0].points))
        )
    console.print(_("The results: calabresella event show {number}").format(number=info.number))


# Seasons


@season_app.command("start")
def season_start(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The season's name, e.g. [b]2026[/b].", show_default=False)],
    min_deals: Annotated[
        int, typer.Option("--min-deals", help="Deals a player must have played in the season to be ranked.")
    ] = 0,
    as_json: JsonFlag = False,
) -> None:
    """Start a season: the events started in it ([b]event start --season NAME[/b]) make one league table.

    [b]Example[/b]: calabresella season start "Autumn 2026" --min-deals 30
    """
    with open_ledger(ctx) as ledger, _named_by_option():
        started = ledger.club.start_season(name, min_deals=min_deals)
    if as_json:
        print_json(started)
        return
    console.print(
        _("[bold]Season {number}[/bold] started: {name}.").format(
            number=started.number, name=_markup_free(started.name)
        )
    )
    if started.min_deals:
        console.print(
            ngettext(
                "A player is ranked after {count} deal played in the season.",
                "A player is ranked after {count} deals played in the season.",
                started.min_deals,
            ).format(count=started.min_deals)
        )
    console.print(
        _('Start its events with: calabresella event start NAME --players ... --season "{name}"').format(
            name=started.name
        ),
        markup=False,
    )


def _skill(line: LeagueLine) -> str:
    return format_decimal(line.skill, 1) if line.skill is not None else "-"


@season_app.command("show")
def season_show(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(help="The season's name or number (default: the most recent season).", show_default=False),
    ] = None,
    as_json: JsonFlag = False,
    csv: CsvOption = None,
) -> None:
    """Show a season's league table: ranked players by game points per deal, then by game points; players short of
    the season's minimum of deals after them.

    [b]Skill[/b] is a rating apart from game points: every deal won or lost moves it, more so against strong
    players; it starts at 0 and stays cautious while a player has few deals (a conservative openskill estimate).

    [b]Examples[/b]

    calabresella season show

    calabresella season show "Autumn 2026" --csv autumn.csv
    """
    with open_ledger(ctx, create=False) as ledger:
        info = ledger.club.season(name)
    ranked = [line for line in info.table if line.ranked]
    places = ranks(ranked, season_key)
    if csv is not None:
        header = ["season", "rank", "player", "points", "deals", "per_deal", "events", "skill", "ranked"]
        rows = [
            [
                info.name,
                places[index] if index < len(places) else None,
                line.player,
                line.points,
                line.deals,
                line.per_deal,
                line.events,
                None if line.skill is None else round(line.skill, 1),
                _yes(line.ranked),
            ]
            for index, line in enumerate(info.table)
        ]
        write_csv(csv, header, rows)
    if as_json:
        print_json(info)
        return
    _print_season(info, places)


def _print_season(info: SeasonInfo, places: Sequence[int]) -> None:
    from rich.table import Table

    console.print(
        ngettext(
            "[bold]Season {number}[/bold]: {name}, {count} event.",
            "[bold]Season {number}[/bold]: {name}, {count} events.",
            len(info.events),
        ).format(number=info.number, name=_markup_free(info.name), count=len(info.events))
    )
    for number, name, started, closed in info.events:
        state = _("closed") if closed else _("open")
        console.print(
            _("  event {number}: {name}, {time} ({state})").format(
                number=number, name=_markup_free(name), time=local_time(started), state=state
            )
        )
    if not info.table:
        console.print(_("No deals played in this season's events yet."))
        return
    league = Table(
        _("rank"),
        _("player"),
        _("game points"),
        _("deals"),
        _("points per deal"),
        _("events"),
        _("skill (rating)"),
        show_edge=False,
    )
    for column in league.columns[2:]:
        column.justify = "right"
    ranked = [line for line in info.table if line.ranked]
    short = [line for line in info.table if not line.ranked]
    for rank, line in zip(places, ranked, strict=True):
        league.add_row(*_league_row(str(rank), line))
    if short:
        if ranked:
            league.rows[-1].end_section = True
        league.add_row(
            "",
            ngettext(
                "[dim]fewer than {count} deal: not ranked yet[/dim]",
                "[dim]fewer than {count} deals: not ranked yet[/dim]",
                max(info.min_deals, 1),
            ).format(count=max(info.min_deals, 1)),
            end_section=True,
        )
        for line in short:
            league.add_row(*_league_row("", line))
    console.print(league)
    console.print(
        _(
            "[dim]skill: a rating of how well each player plays, apart from game points; cautious while a player has "
            "few deals.[/dim]"
        )
    )


def _league_row(rank: str, line: LeagueLine) -> list[str]:
    return [
        rank,
        line.player,
        signed(line.points),
        str(line.deals),
        _per_deal(line.per_deal),
        str(line.events),
        _skill(line),
    ]


def _yes(value: bool) -> str:
    """A yes-or-no cell, as JSON writes it."""
    return "true" if value else "false"


def write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """The header, then one row per line; text never read as a spreadsheet formula (`ledger.spreadsheet`)."""
    import csv

    from ledger.spreadsheet import safe_cell

    try:
        with path.open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow([safe_cell(column) for column in header])
            for row in rows:
                writer.writerow([safe_cell("" if cell is None else cell) for cell in row])
    except OSError as error:
        raise LedgerError(
            _("--csv {path!r}: cannot write it ({strerror})").format(path=str(path), strerror=error.strerror)
        ) from None
