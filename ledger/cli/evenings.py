"""`calabresella evening start|list|show|close`."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.app import JsonFlag, new_app, print_json
from ledger.cli.render import console, local_time
from ledger.cli.score import OptionsOption, ProfileOption, split_players
from ledger.cli.session import ledger_session

evening_app = new_app("evening", "Start, list, show and close evenings.")
EveningOption = Annotated[int | None, typer.Option(
    "--evening", "-e", help="Evening number (default: the most recent open evening).")]


@evening_app.command("start")
def start(
    ctx: typer.Context,
    players: Annotated[str, typer.Option(
        "--players", help="Seats in turn order (deal and play go to the right), e.g. [b]Anna,Bruno,Carla[/b].")],
    dealer: Annotated[str | None, typer.Option("--dealer", help="Who deals first (default: the last listed).")] = None,
    profile: ProfileOption = "pagat",
    option: OptionsOption = None,
    stake: Annotated[str, typer.Option("--stake", help="Money per game point, e.g. [b]0.10[/b].")] = "0",
    currency: Annotated[str, typer.Option("--currency", help="Three-letter code, e.g. [b]EUR[/b].")] = "EUR",
    place: Annotated[str | None, typer.Option("--place", help="Where you play.")] = None,
    note: Annotated[str | None, typer.Option("--note", help="Anything worth remembering.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Start an evening: seats in turn order, the profile and its options, the stake.

    [b]Examples[/b]

    calabresella evening start --players Anna,Bruno,Carla --stake 0.10

    calabresella evening start --players Anna,Bruno,Carla,Dario -P pagat -o dealer_shares=on --dealer Dario

    calabresella evening start --players A,B,C,D,E -P quintiglio -o mediatore=on --currency CHF
    """
    from ledger.store.deals import next_dealer
    from ledger.store.evenings import start_evening

    with ledger_session(ctx) as session:
        table = start_evening(session, split_players(players), dealer=dealer, profile=profile, options=option or [],
                              stake=stake, currency=currency, place=place, note=note)
        first = next_dealer(session, table)
    if as_json:
        print_json({"evening": table.number, "players": list(table.players), "dealer": first,
                    "profile": table.evening.profile, "options": table.evening.options})
        return
    console.print(f"Evening {table.number} started: {', '.join(table.players)} ({table.profile.describe()}).")
    console.print(f"{first} deals first.")


@evening_app.command("list")
def list_(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List evenings, newest first. Example: [b]calabresella evening list[/b]"""
    from rich.table import Table

    from ledger.store.evenings import list_evenings

    with ledger_session(ctx) as session:
        tables = list_evenings(session)
    rows = [{"evening": t.number, "started": t.evening.started_at.isoformat(), "players": list(t.players),
             "profile": t.evening.profile, "closed": t.evening.closed_at is not None, "place": t.evening.place}
            for t in tables]
    if as_json:
        print_json(rows)
        return
    table = Table("evening", "started", "players", "profile", "state", "place", show_edge=False)
    for t in tables:
        table.add_row(str(t.number), local_time(t.evening.started_at), ", ".join(t.players), t.evening.profile,
                      "closed" if t.evening.closed_at else "open", t.evening.place or "")
    console.print(table)


@evening_app.command("show")
def show(ctx: typer.Context, evening: EveningOption = None, as_json: JsonFlag = False) -> None:
    """Show an evening's seats, profile, stake and totals. Example: [b]calabresella evening show -e 2[/b]"""
    from ledger.store.deals import next_dealer
    from ledger.store.evenings import get_table
    from ledger.store.standings import standings

    with ledger_session(ctx) as session:
        table = get_table(session, evening)
        result = standings(session, table)
        dealer = next_dealer(session, table)
    e = table.evening
    info = {"evening": table.number, "players": list(table.players), "profile": e.profile, "options": e.options,
            "stake_cents": e.stake_cents, "currency": e.currency, "place": e.place, "note": e.note,
            "started_at": e.started_at.isoformat(), "closed_at": e.closed_at.isoformat() if e.closed_at else None,
            "revision": e.revision, "next_dealer": dealer, "points": result.points}
    if as_json:
        print_json(info)
        return
    state = f"closed {local_time(e.closed_at)}" if e.closed_at else f"open, {dealer} deals next"
    console.print(f"[bold]Evening {table.number}[/bold]: {', '.join(table.players)}; {state}")
    console.print(f"{table.profile.describe()}; stake {e.stake_cents / 100:.2f} {e.currency} per game point")
    for label, value in (("place", e.place), ("note", e.note)):
        if value:
            console.print(f"{label}: {value}", markup=False)
    console.print("totals: " + ", ".join(f"{p} {v:+d}" for p, v in result.points.items()))


@evening_app.command("close")
def close(ctx: typer.Context, evening: EveningOption = None, as_json: JsonFlag = False) -> None:
    """Close an evening and print its settlement. Example: [b]calabresella evening close[/b]"""
    from ledger.cli.money import print_settlement
    from ledger.store.evenings import close_evening, get_table
    from ledger.store.money import settle

    with ledger_session(ctx) as session:
        table = close_evening(session, get_table(session, evening))
        result = settle(session, [table])
    if as_json:
        print_json({"evening": table.number, "closed": True, "settlement": result.to_dict()})
        return
    console.print(f"Evening {table.number} closed.")
    print_settlement(result)
