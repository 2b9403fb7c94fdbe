"""`calabresella settle|paid|tab`: money at the end of the evening and what is still owed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.app import JsonFlag, print_json
from ledger.cli.evenings import EveningOption
from ledger.cli.render import console, signed
from ledger.cli.session import ledger_session
from ledger.clock import parse_date

if TYPE_CHECKING:
    from ledger.store.money import Settlement


def print_settlement(result: Settlement, *, pairs: bool = False, money_table: bool = True) -> None:
    """Points and money per player (unless already shown), then who pays whom."""
    from ledger.settlement import format_cents

    if money_table:
        plural = "s " if len(result.evenings) > 1 else " "
        title = f"Settlement of evening{plural}" + ", ".join(map(str, result.evenings))
        print_money(title, result.points, result.cents, result.currency)
    if pairs:
        console.print("[bold]Who owes whom, deal by deal summed per pair[/bold]")
        for payment in result.pairs:
            console.print(f"  {payment.payer} owes {payment.payee} {format_cents(payment.cents, result.currency)}")
    if not result.payments:
        console.print("Nobody owes anything.")
        return
    console.print(f"[bold]{len(result.payments)} payment{'s' if len(result.payments) > 1 else ''} settle it:[/bold]")
    for payment in result.payments:
        console.print(f"  {payment.payer} pays {payment.payee} {format_cents(payment.cents, result.currency)}")
    for name, cents in result.rounding.items():
        change = "gains" if cents > 0 else "gives up"
        console.print(f"  rounding: {name} {change} {format_cents(abs(cents), result.currency)}")


def print_money(title: str, points: dict[str, int], cents: dict[str, int], currency: str) -> None:
    """Game points and money per player, the winners first."""
    from rich.table import Table

    from ledger.settlement import format_cents

    table = Table(show_edge=False, pad_edge=False, title=title)
    table.add_column("player")
    table.add_column("game points", justify="right")
    table.add_column("money", justify="right")
    for name in sorted(cents, key=lambda n: (-cents[n], -points[n])):
        table.add_row(name, signed(points[name]), format_cents(cents[name], currency))
    console.print(table)


def settle(
    ctx: typer.Context,
    evening: EveningOption = None,
    since: Annotated[str | None, typer.Option("--since", help="Every evening from this day on, YYYY-MM-DD.")] = None,
    round_to: Annotated[str | None, typer.Option(
        "--round-to", help="Cash rounding: every payment a multiple of this coin, e.g. [b]0.50[/b].")] = None,
    pairs: Annotated[bool, typer.Option("--pairs", help="Also who owes whom per pair, without simplifying.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Money per player and the fewest payments that settle an evening (or several).

    [b]Examples[/b]

    calabresella settle

    calabresella settle --evening 3 --round-to 0.50

    calabresella settle --since 2026-11-01 --pairs
    """
    from ledger.store.money import choose_evenings
    from ledger.store.money import settle as settle_evenings

    with ledger_session(ctx) as session:
        tables = choose_evenings(session, evening, parse_date(since, "--since"))
        result = settle_evenings(session, tables, round_to=round_to, pairs=pairs)
    if as_json:
        print_json(result.to_dict())
    else:
        print_settlement(result, pairs=pairs)


def paid(
    ctx: typer.Context,
    payer: Annotated[str, typer.Argument(help="Who paid.")],
    payee: Annotated[str, typer.Argument(help="Who received.")],
    amount: Annotated[str, typer.Argument(help="How much, e.g. 3.40.")],
    currency: Annotated[str | None, typer.Option("--currency", help="Default: the latest evening's.")] = None,
    evening: Annotated[int | None, typer.Option("--evening", "-e", help="The evening it settles, if one.")] = None,
    note: Annotated[str | None, typer.Option("--note", help="Anything worth remembering.")] = None,
) -> None:
    """Record money handed over, so the tab shows what is still owed.

    Example: [b]calabresella paid Bruno Anna 3.40[/b]
    """
    from ledger.settlement import format_cents
    from ledger.store.money import record_payment

    with ledger_session(ctx) as session:
        entry = record_payment(session, payer, payee, amount, currency=currency, evening=evening, note=note)
        names = (entry.payer_id, entry.payee_id)
        from ledger.store.models import Player

        payer_name, payee_name = (session.get(Player, pid).name for pid in names)  # type: ignore[union-attr]
    console.print(f"Recorded: {payer_name} paid {payee_name} {format_cents(entry.cents, entry.currency)}.")


def tab(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """What is still owed across all evenings, after the payments recorded. Example: [b]calabresella tab[/b]"""
    from ledger.settlement import format_cents
    from ledger.store.money import tab as open_tab

    with ledger_session(ctx) as session:
        tabs = open_tab(session)
    if as_json:
        print_json([t.to_dict() for t in tabs])
        return
    if not any(t.balances for t in tabs):
        console.print("The tab is clear: nobody owes anything.")
        return
    for item in tabs:
        if not item.balances:
            continue
        console.print(f"[bold]Tab in {item.currency}[/bold]")
        for name in sorted(item.balances, key=lambda n: -item.balances[n]):
            state = "is owed" if item.balances[name] > 0 else "owes"
            console.print(f"  {name} {state} {format_cents(abs(item.balances[name]), item.currency)}")
        console.print("  per pair: " + "; ".join(
            f"{p.payer} owes {p.payee} {format_cents(p.cents, item.currency)}" for p in item.pairs))
        console.print("  to clear it: " + "; ".join(
            f"{p.payer} pays {p.payee} {format_cents(p.cents, item.currency)}" for p in item.suggested))
