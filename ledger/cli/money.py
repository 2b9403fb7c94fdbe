"""`calabresella settle|paid|tab`: money at the end of the evening and what is still owed."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.app import JsonFlag, print_json
from ledger.cli.options import EveningOption
from ledger.cli.render import console, print_settlement
from ledger.cli.session import open_ledger
from ledger.clock import parse_date
from ledger.fmt import format_cents
from ledger.i18n import _


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
    with open_ledger(ctx) as ledger:
        result = ledger.settle(evening=evening, since=parse_date(since, "--since"), round_to=round_to, pairs=pairs)
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
    with open_ledger(ctx) as ledger:
        entry = ledger.paid(payer, payee, amount, currency=currency, evening=evening, note=note)
    console.print(_("Recorded: {payer} paid {payee} {amount}.").format(
        payer=entry.payer, payee=entry.payee, amount=format_cents(entry.cents, entry.currency)))


def tab(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """What is still owed across all evenings, after the payments recorded. Example: [b]calabresella tab[/b]"""
    with open_ledger(ctx) as ledger:
        tabs = ledger.tab()
    if as_json:
        print_json([t.to_dict() for t in tabs])
        return
    if not any(t.balances for t in tabs):
        console.print(_("The tab is clear: nobody owes anything."))
        return
    for item in tabs:
        if not item.balances:
            continue
        console.print(_("[bold]Tab in {currency}[/bold]").format(currency=item.currency))
        for name in sorted(item.balances, key=lambda n: -item.balances[n]):
            state = _("is owed") if item.balances[name] > 0 else _("owes")
            console.print(f"  {name} {state} {format_cents(abs(item.balances[name]), item.currency)}")
        console.print("  per pair: " + "; ".join(
            f"{p.payer} owes {p.payee} {format_cents(p.cents, item.currency)}" for p in item.pairs))
        console.print("  to clear it: " + "; ".join(
            f"{p.payer} pays {p.payee} {format_cents(p.cents, item.currency)}" for p in item.suggested))
