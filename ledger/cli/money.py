"""`calabresella settle|paid|tab`: money at the end of the evening and what is still owed."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.app import JsonFlag, print_json
from ledger.cli.options import EveningOption
from ledger.cli.render import console, local_time, payment_line, print_settlement
from ledger.cli.session import open_ledger
from ledger.clock import parse_date
from ledger.errors import LedgerError
from ledger.fmt import format_cents
from ledger.i18n import N_, _
from ledger.values import PaymentInfo, Tab


def settle(
    ctx: typer.Context,
    evening: EveningOption = None,
    since: Annotated[str | None, typer.Option("--since", help="Every evening from this day on, YYYY-MM-DD.")] = None,
    round_to: Annotated[
        str | None,
        typer.Option("--round-to", help="Cash rounding: every payment a multiple of this coin, e.g. [b]0.50[/b]."),
    ] = None,
    pairs: Annotated[bool, typer.Option("--pairs", help="Also who owes whom per pair, without simplifying.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Money per player and the fewest payments that settle an evening (or several).

    [b]Examples[/b]

    calabresella settle

    calabresella settle --evening 3 --round-to 0.50

    calabresella settle --since 2026-11-01 --pairs
    """
    with open_ledger(ctx, create=False) as ledger:
        result = ledger.settle(evening=evening, since=parse_date(since, "--since"), round_to=round_to, pairs=pairs)
    if as_json:
        print_json(result)
    else:
        print_settlement(result, pairs=pairs)


def paid(
    ctx: typer.Context,
    payer: Annotated[str | None, typer.Argument(help="Who paid.", show_default=False)] = None,
    payee: Annotated[str | None, typer.Argument(help="Who received.", show_default=False)] = None,
    amount: Annotated[str | None, typer.Argument(help="How much, e.g. 3.40.", show_default=False)] = None,
    currency: Annotated[str | None, typer.Option("--currency", help="Default: the latest evening's.")] = None,
    evening: Annotated[int | None, typer.Option("--evening", "-e", help="The evening it settles, if one.")] = None,
    note: Annotated[str | None, typer.Option("--note", help="Anything worth remembering.")] = None,
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            help="Idempotency key: a payment is stored at most once per key, so a retried command never doubles it.",
        ),
    ] = None,
    listing: Annotated[bool, typer.Option("--list", help="List every payment with its number instead.")] = False,
    void: Annotated[
        int | None,
        typer.Option("--void", min=1, help="Void payment N (see --list): it stays in the log but no longer counts."),
    ] = None,
    reason: Annotated[str | None, typer.Option("--reason", "-r", help="Why a payment is voided.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Record money handed over, so the tab shows what is still owed; list or void payments.

    [b]Examples[/b]

    calabresella paid Bruno Anna 3.40 --key bruno-anna-nov

    calabresella paid --list

    calabresella paid --void 4 --reason "entered twice"
    """
    given = [payer, payee, amount]
    if (listing or void is not None) and any(given):
        raise LedgerError(_("paid: give PAYER PAYEE AMOUNT, or --list, or --void N, one of them"))
    with open_ledger(ctx, create=not listing) as ledger:
        if listing:
            _print_payments(ledger.payments(), as_json)
            return
        if void is not None:
            entry = ledger.void_payment(void, reason=reason)
        elif payer and payee and amount:
            entry = ledger.paid(payer, payee, amount, currency=currency, evening=evening, note=note, key=key)
        else:
            raise LedgerError(
                _("paid: give who paid, who received and how much, e.g. calabresella paid Bruno Anna 3.40")
            )
    _print_payment(entry, as_json)


def _print_payment(entry: PaymentInfo, as_json: bool) -> None:
    """A payment just recorded or voided; a warning on stderr when it pays more than the payer owed."""
    if as_json:
        print_json(entry)
        return
    money = format_cents(entry.cents, entry.currency)
    if entry.voided:
        console.print(
            _("Payment {number} voided ({reason}): {payer} paid {payee} {amount} no longer counts.").format(
                number=entry.id, reason=entry.void_reason, payer=entry.payer, payee=entry.payee, amount=money
            )
        )
    elif entry.duplicate:
        console.print(
            _("Payment {number} was recorded already with this key; nothing written.").format(number=entry.id)
        )
    else:
        console.print(
            _("Recorded payment {number}: {payer} paid {payee} {amount}.").format(
                number=entry.id, payer=entry.payer, payee=entry.payee, amount=money
            )
        )
    if entry.overpaid_cents:
        owed = format_cents(entry.owed_cents or 0, entry.currency)
        typer.echo(
            _("Warning: {payer} owed {owed} in all; this pays {extra} more than that.").format(
                payer=entry.payer, owed=owed, extra=format_cents(entry.overpaid_cents, entry.currency)
            ),
            err=True,
        )


def _print_payments(entries: list[PaymentInfo], as_json: bool) -> None:
    """Every payment with its number, voided ones struck through."""
    from rich.table import Table as RichTable

    if as_json:
        print_json(entries)
        return
    if not entries:
        console.print(_("No payments recorded."))
        return
    grid = RichTable(show_edge=False, pad_edge=False)
    for column in (N_("payment"), N_("when"), N_("payer"), N_("payee"), N_("amount"), N_("evening"), N_("note")):
        grid.add_column(_(column), justify="right" if column in ("payment", "amount") else "left")
    for entry in entries:
        note = _("VOID: {reason}").format(reason=entry.void_reason) if entry.voided else (entry.note or "")
        grid.add_row(
            str(entry.id),
            local_time(entry.paid_at),
            entry.payer,
            entry.payee,
            format_cents(entry.cents, entry.currency),
            str(entry.evening or ""),
            note,
            style="strike dim" if entry.voided else None,
        )
    console.print(grid)


def tab(
    ctx: typer.Context,
    pairs: Annotated[
        bool,
        typer.Option(
            "--pairs",
            help="Also what each pair won and lost at the table, deal by deal before any payment (the play, not what "
            "is still owed).",
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """What is still owed across all evenings, after the payments recorded. Example: [b]calabresella tab[/b]"""
    with open_ledger(ctx, create=False) as ledger:
        tabs = ledger.tab(pairs=pairs)
    if as_json:
        print_json(tabs)
        return
    if not any(t.balances for t in tabs):
        console.print(_("The tab is clear: nobody owes anything."))
    for item in tabs:
        if item.balances:
            _print_tab(item)
        if item.pairs:
            _print_pairs(item)


def _print_tab(item: Tab) -> None:
    """Per player what they owe or are owed, then the payments that clear it, one per line."""
    console.print(
        _("[bold]Tab in {currency}[/bold]: what is still owed, over every evening less the payments recorded").format(
            currency=item.currency
        )
    )
    for name in sorted(item.balances, key=lambda n: -item.balances[n]):
        amount = format_cents(abs(item.balances[name]), item.currency)
        state = _("  {name} is owed {amount}") if item.balances[name] > 0 else _("  {name} owes {amount}")
        console.print(state.format(name=name, amount=amount))
    console.print(_("To clear it:"))
    for payment in item.suggested:
        console.print(payment_line(payment, item.currency))


def _print_pairs(item: Tab) -> None:
    """What each pair won and lost at the table, said for what it is: the play, not a debt."""
    console.print(
        _(
            "[bold]Won and lost per pair in {currency}[/bold], deal by deal over every evening, before any payment: "
            "the play, not a debt (what is still owed is the tab)."
        ).format(currency=item.currency)
    )
    for payment in item.pairs:
        console.print(
            _("  {payer} lost {amount} to {payee}").format(
                payer=payment.payer, payee=payment.payee, amount=format_cents(payment.cents, item.currency)
            )
        )
