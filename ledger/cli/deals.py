"""`calabresella record|deals|deal show|amend|void|undo|standings`: the deals of an evening."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.app import JsonFlag, new_app, print_json
from ledger.cli.deal_options import with_deal_options
from ledger.cli.deals_table import deals_table
from ledger.cli.options import EveningOption
from ledger.cli.render import (
    console,
    deal_table,
    deal_title,
    print_count,
    print_standings,
    rescored_line,
    totals_line,
    voided_banner,
)
from ledger.cli.session import evening_to_read, open_ledger
from ledger.errors import LedgerError, UndoRefused
from ledger.fmt import format_time
from ledger.i18n import _
from ledger.rules.build import DealInput
from ledger.summary import after_undo, described, explanation, headline, logged, why_voided
from ledger.values import EveningDeals

if TYPE_CHECKING:
    from ledger.values import Recorded, Undone

deal_app = new_app("deal", "Look at one deal and its history.")
DealNumber = Annotated[int, typer.Argument(help="The deal's number in the evening.", min=1)]
Reason = Annotated[str | None, typer.Option("--reason", "-r", help="Why: kept with the correction.")]
DealerOption = Annotated[
    str | None,
    typer.Option("--dealer", help="Who dealt (default: the ledger's rotation, the seat after the last dealer)."),
]


def print_recorded(done: Recorded, as_json: bool, verb: str, *, undoable: bool = False) -> None:
    """A written deal: its headline, payouts and running totals, or the totals after a void; the later deals it
    re-scored; with `undoable`, how to take it back."""
    deal = done.deal
    if as_json:
        print_json(done)
        return
    if done.duplicate:
        console.print(
            _("Deal {number} was recorded already with this key; nothing written.").format(number=deal.number)
        )
    title = deal_title(deal, verb)
    console.print(
        _("[bold]{title}[/bold] · evening {evening} · dealer {dealer}").format(
            title=title, evening=done.evening, dealer=deal.dealer
        )
    )
    if done.result is not None:
        console.print(headline(done.result, done.profile))
        console.print(deal_table(done.result, deal.dealer, done.totals))
        console.print(explanation(deal))
    else:
        console.print(
            _("It no longer counts ({why}); totals {totals_line}").format(
                why=why_voided(deal), totals_line=totals_line(done.totals)
            )
        )
    if done.rescored:
        console.print(rescored_line(done))
    if undoable and not done.duplicate:
        console.print(
            _("[dim]to take it back: calabresella undo --revision {evening_revision}[/dim]").format(
                evening_revision=done.evening_revision
            )
        )


@with_deal_options
def record(
    ctx: typer.Context,
    typed: DealInput,
    line: Annotated[
        str | None,
        typer.Argument(
            help="The whole deal as one quick line, as in `play`, e.g. [b]'carla chiamo 3D@anna 17 last=opp'[/b].",
            show_default=False,
        ),
    ] = None,
    evening: EveningOption = None,
    dealer: DealerOption = None,
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            help="Idempotency key: a deal is stored at most once per key, so a retried command never doubles it.",
        ),
    ] = None,
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
    with open_ledger(ctx) as ledger:
        done = (
            ledger.record(line, evening=evening, dealer=dealer, key=key, more=typed)
            if line
            else (ledger.record(typed, evening=evening, dealer=dealer, key=key))
        )
    if not as_json:
        print_count(typed.count)
    print_recorded(done, as_json, _("recorded"), undoable=True)


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
    with open_ledger(ctx) as ledger:
        done = ledger.amend(number, typed, reason=reason, evening=evening, dealer=dealer)
    if not as_json:
        print_count(typed.count)
    print_recorded(done, as_json, _("amended"), undoable=True)


def void(
    ctx: typer.Context,
    number: DealNumber,
    reason: Reason = None,
    evening: EveningOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Void a deal: it stays in the log but no longer counts. Example: [b]calabresella void 5 -r "misdeal"[/b]"""
    with open_ledger(ctx) as ledger:
        done = ledger.void(number, reason=reason, evening=evening)
    print_recorded(done, as_json, _("voided"))


def undo(
    ctx: typer.Context,
    evening: EveningOption = None,
    revision: Annotated[
        int | None,
        typer.Option(
            "--revision",
            help="The number printed after each change ('to take it back: calabresella undo --revision N'); undo is "
            "refused if the evening changed since. Without it, the last change is taken back unguarded.",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Take back the evening's last change, whatever it was: a deal recorded is voided (never deleted), an amendment
    goes back to the revision before it, a void brings the deal back, a close reopens the evening. The undo stays in
    the evening's log; undo again to step further back.

    Example: [b]calabresella undo --revision 12[/b]
    """
    with open_ledger(ctx) as ledger:
        try:
            done = ledger.undo(evening=evening, seen_revision=revision)
        except UndoRefused as refused:
            raise LedgerError(
                _(
                    "{refused}; see them with calabresella deals, then calabresella void N --reason WHY "
                    "for the one you mean"
                ).format(refused=refused)
            ) from None
    print_undone(done, as_json)


def print_undone(done: Undone, as_json: bool) -> None:
    """What an undo took back, and the deal it touched as it stands now."""
    if as_json:
        print_json(done)
        return
    deal = done.recorded.deal if done.recorded else None
    console.print(_("[bold]Taken back:[/bold] {change}").format(change=described(done.taken_back, deal)))
    if done.recorded is not None:
        print_recorded(done.recorded, False, after_undo(done.taken_back.kind))


def deals(ctx: typer.Context, evening: EveningOption = None, as_json: JsonFlag = False) -> None:
    """List the evening's deals with their payouts (voided ones marked void). Example: [b]calabresella deals[/b]"""
    with open_ledger(ctx, create=False) as ledger:
        info, views = ledger.deals(evening_to_read(ledger, evening, quiet=as_json).number)
    if as_json:
        print_json(EveningDeals(info.number, views))
        return
    if info.voided:
        console.print(voided_banner(info.number, info.void_reason))
    if not views:
        console.print(_("Evening {number} has no deals yet.").format(number=info.number))
    else:
        deals_table(info.players, views)


@deal_app.command("show")
def show(ctx: typer.Context, number: DealNumber, evening: EveningOption = None, as_json: JsonFlag = False) -> None:
    """Show a deal with every revision, oldest first. Example: [b]calabresella deal show 7[/b]"""
    with open_ledger(ctx, create=False) as ledger:
        info = evening_to_read(ledger, evening, quiet=as_json)
        shown = ledger.deal(number, info.number)
    if as_json:
        print_json(shown)
        return
    current = shown.revisions[-1]
    state = (
        _("VOID ({reason})").format(reason=why_voided(current))
        if current.voided
        else _("revision {revision} counts").format(revision=current.revision)
    )
    console.print(
        _("[bold]Deal {number}[/bold] of evening {evening}: {state}").format(
            number=number, evening=info.number, state=state
        )
    )
    deals_table(info.players, shown.revisions, history=True)
    console.print(explanation(current))
    console.print(_("[bold]Changes[/bold] (evening revision, what, from where):"))
    for change in shown.changes:
        console.print(f"  {format_time(change.at)} {logged(change, current)}", markup=False, highlight=False)


def standings(ctx: typer.Context, evening: EveningOption = None, as_json: JsonFlag = False) -> None:
    """Game points and money per player, and the running totals deal by deal. Example: [b]calabresella standings[/b]"""
    with open_ledger(ctx, create=False) as ledger:
        result = ledger.standings(evening_to_read(ledger, evening, quiet=as_json).number)
    if as_json:
        print_json(result)
        return
    print_standings(result)
