"""`calabresella record|deals|deal show|amend|void|undo|standings`: the deals of an evening."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.app import JsonFlag, new_app, print_json
from ledger.cli.deal_options import with_deal_options
from ledger.cli.evenings import EveningOption
from ledger.cli.render import console, deal_table, headline, local_time, signed
from ledger.cli.session import ledger_session
from ledger.errors import LedgerError
from ledger.rules.build import DealInput
from ledger.rules.quick import parse_quick_line

if TYPE_CHECKING:
    from ledger.store.deals import DealView, Recorded
    from ledger.store.evenings import Table

deal_app = new_app("deal", "Look at one deal and its history.")
DealNumber = Annotated[int, typer.Argument(help="The deal's number in the evening.", min=1)]
Reason = Annotated[str | None, typer.Option("--reason", "-r", help="Why: kept with the correction.")]
DealerOption = Annotated[str | None, typer.Option(
    "--dealer", help="Who dealt (default: the ledger's rotation, the seat after the last dealer).")]


def _names(table: Table) -> dict[int, str]:
    return {pid: name for name, pid in table.ids.items()}


def _print_recorded(table: Table, done: Recorded, as_json: bool, verb: str) -> None:
    from ledger.rules.scoring import DealResult

    deal = done.deal
    if as_json:
        print_json({"evening": table.number, "evening_revision": done.evening_revision, "duplicate": done.duplicate,
                    "deal": deal.to_dict(_names(table)), "totals": done.totals})
        return
    if done.duplicate:
        console.print(f"Deal {deal.number} was recorded already with this key; nothing written.")
    result = done.result or DealResult(deal.payouts, deal.row.explanation)
    title = f"Deal {deal.number} {verb}" + (f" (revision {deal.revision})" if deal.revision > 1 else "")
    console.print(f"[bold]{title}[/bold] · evening {table.number} · dealer {deal.dealer}")
    if done.result is not None:
        console.print(headline(done.result, table.profile))
        console.print(deal_table(done.result, deal.dealer, done.totals))
        console.print(done.result.explanation)
    else:
        console.print(f"{result.explanation}; totals " + ", ".join(f"{p} {signed(v)}" for p, v in done.totals.items()))
    console.print(f"[dim]evening revision {done.evening_revision}[/dim]")


@with_deal_options
def record(
    ctx: typer.Context,
    typed: DealInput,
    line: Annotated[str | None, typer.Argument(
        help="The whole deal as one quick line, as in `play`, e.g. [b]'carla chiamo 3D@anna 17 last=opp'[/b].",
        show_default=False)] = None,
    evening: EveningOption = None,
    dealer: DealerOption = None,
    key: Annotated[str | None, typer.Option(
        "--key", help="Idempotency key: a deal is stored at most once per key, so a retried command never "
                      "doubles it.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Record a deal as played: validate, score, store; print the payouts and the running totals.

    The dealer follows the rotation (the seat after the last dealer, passed deals included).

    [b]Examples[/b]

    calabresella record -d Bruno -c solo -t 22

    calabresella record -d Carla -c chiamo --called 3D --holder Anna -p 5+2/3 -l opponents

    calabresella record --auction pass,pass,solissimo -a dividete -p 8

    calabresella record --passed

    calabresella record "bruno solo 22"   (the quick syntax of [b]play[/b]; see [b]calabresella play --help[/b])
    """
    from ledger.store.deals import record_deal
    from ledger.store.evenings import get_table

    with ledger_session(ctx) as session:
        table = get_table(session, evening, open_only=evening is None)
        if line:
            quick = parse_quick_line(line, table.players, table.profile)
            if quick.dealer and dealer:
                raise LedgerError("give the dealer once: dealer= in the line or --dealer")
            dealer = dealer or quick.dealer
            typed = quick.deal.amended(typed)
        done = record_deal(session, table, typed, dealer=dealer, key=key)
    _print_recorded(table, done, as_json, "recorded")


@with_deal_options
def amend(
    ctx: typer.Context,
    typed: DealInput,
    number: DealNumber,
    reason: Reason = None,
    evening: EveningOption = None,
    dealer: DealerOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Correct a deal: a new revision with the given facts changed; the old one stays in the history.

    [b]Examples[/b]

    calabresella amend 7 --thirds 20 --reason "recounted"

    calabresella amend 3 --contract solo --reason "it was solo, not chiamo"
    """
    from ledger.store.deals import amend_deal
    from ledger.store.evenings import get_table

    with ledger_session(ctx) as session:
        table = get_table(session, evening)
        done = amend_deal(session, table, number, typed, reason, dealer=dealer)
    _print_recorded(table, done, as_json, "amended")


def void(ctx: typer.Context, number: DealNumber, reason: Reason = None, evening: EveningOption = None,
         as_json: JsonFlag = False) -> None:
    """Void a deal: it stays in the log but no longer counts. Example: [b]calabresella void 5 -r "misdeal"[/b]"""
    from ledger.store.deals import void_deal
    from ledger.store.evenings import get_table

    with ledger_session(ctx) as session:
        table = get_table(session, evening)
        done = void_deal(session, table, number, reason)
    _print_recorded(table, done, as_json, "voided")


def undo(
    ctx: typer.Context,
    evening: EveningOption = None,
    revision: Annotated[int | None, typer.Option(
        "--revision", help="The evening revision you last saw (printed after each deal); undo is refused if "
                           "the evening changed since. Without it, the last deal is undone unguarded.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Take back the last deal that stands (it is voided with reason 'undo', never deleted).

    Example: [b]calabresella undo --revision 12[/b]
    """
    from ledger.store.deals import undo_last
    from ledger.store.evenings import get_table

    with ledger_session(ctx) as session:
        table = get_table(session, evening)
        done = undo_last(session, table, seen_revision=revision)
    _print_recorded(table, done, as_json, "undone")


def deals_table(table: Table, views: list[DealView], history: bool = False) -> None:
    from rich.table import Table as RichTable

    grid = RichTable(show_edge=False, pad_edge=False)
    grid.add_column("rev" if history else "deal", justify="right")
    grid.add_column("dealer")
    grid.add_column("deal")
    for player in table.players:
        grid.add_column(player, justify="right")
    grid.add_column("explanation" if not history else "when / why")
    names = _names(table)
    for view in views:
        r = view.row
        what = "all passed" if view.passed else (
            f"{names[r.declarer_id]} {r.contract}{' ' + r.aggravation if r.aggravation else ''} {r.declarer_thirds}")
        if r.sweep:
            what += f" {r.sweep}"
        note = f"{local_time(r.recorded_at)} {r.reason or 'recorded'}" if history else r.explanation
        style = "strike dim" if view.voided or (history and r.superseded_at) else None
        if view.voided and not history:
            note = f"VOID: {view.void_reason}"
        grid.add_row(str(view.revision if history else view.number), view.dealer, what,
                     *(signed(view.payouts.get(p, 0)) for p in table.players), note, style=style)
    console.print(grid)


def deals(ctx: typer.Context, evening: EveningOption = None, as_json: JsonFlag = False) -> None:
    """List the evening's deals with their payouts (voided ones struck through). Example: [b]calabresella deals[/b]"""
    from ledger.store.deals import list_deals
    from ledger.store.evenings import get_table

    with ledger_session(ctx) as session:
        table = get_table(session, evening)
        views = list_deals(session, table)
    if as_json:
        print_json({"evening": table.number, "deals": [v.to_dict(_names(table)) for v in views]})
    elif not views:
        console.print(f"Evening {table.number} has no deals yet.")
    else:
        deals_table(table, views)


@deal_app.command("show")
def show(ctx: typer.Context, number: DealNumber, evening: EveningOption = None, as_json: JsonFlag = False) -> None:
    """Show a deal with every revision, oldest first. Example: [b]calabresella deal show 7[/b]"""
    from ledger.store.deals import deal_history
    from ledger.store.evenings import get_table

    with ledger_session(ctx) as session:
        table = get_table(session, evening)
        views = deal_history(session, table, number)
    if as_json:
        print_json({"evening": table.number, "number": number, "revisions": [v.to_dict(_names(table)) for v in views]})
        return
    current = views[-1]
    state = f"VOID ({current.void_reason})" if current.voided else f"revision {current.revision} counts"
    console.print(f"[bold]Deal {number}[/bold] of evening {table.number}: {state}")
    deals_table(table, views, history=True)
    console.print(current.row.explanation)


def standings(ctx: typer.Context, evening: EveningOption = None, as_json: JsonFlag = False) -> None:
    """Game points and money per player, and the running totals deal by deal. Example: [b]calabresella standings[/b]"""
    from rich.table import Table as RichTable

    from ledger.cli.money import print_settlement
    from ledger.store.evenings import get_table
    from ledger.store.money import settle
    from ledger.store.standings import standings as evening_standings

    with ledger_session(ctx) as session:
        table = get_table(session, evening)
        result = evening_standings(session, table)
        settlement = settle(session, [table]) if result.closed else None
    if as_json:
        print_json({**result.to_dict(), "settlement": settlement.to_dict() if settlement else None})
        return
    running = RichTable(show_edge=False, pad_edge=False, title=f"Evening {table.number}: running totals")
    running.add_column("deal", justify="right")
    for player in table.players:
        running.add_column(player, justify="right")
    for number, line in result.running:
        running.add_row(str(number), *(signed(line[p]) for p in table.players))
    console.print(running)
    final = RichTable(show_edge=False, pad_edge=False, title="Standings")
    final.add_column("player")
    final.add_column("game points", justify="right")
    final.add_column(f"money ({result.currency})", justify="right")
    for player in sorted(table.players, key=lambda p: -result.points[p]):
        final.add_row(player, signed(result.points[player]), f"{result.cents[player] / 100:+.2f}")
    console.print(final)
    if settlement:
        print_settlement(settlement, money_table=False)
