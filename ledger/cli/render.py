"""Rich tables for scored deals and running totals."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from ledger.settlement import Transfer
    from ledger.values import Closed, DealView, Recorded, Settlement, Standings

from ledger.cli.grid import Column, Grid
from ledger.fmt import format_cents, format_time
from ledger.i18n import _, ngettext, to_whom
from ledger.rules.count import parse_count
from ledger.rules.profiles import Profile
from ledger.rules.scoring import DealResult
from ledger.summary import evening_voided, explanation, headline

console = Console(highlight=False)


def role(result: DealResult, player: str, dealer: str) -> str:
    """declarer, partner, opponent, sits out (and dealer) for one seat."""
    if player == result.sitting_out and player not in result.opponents:
        kind = _("sits out")
    elif result.passed:
        kind = _("passed")
    elif player == result.declarer:
        kind = _("declarer")
    elif player == result.partner:
        kind = _("partner")
    else:
        kind = _("opponent")
    return _("{role}, dealer").format(role=kind) if player == dealer else kind


def deal_table(result: DealResult, dealer: str, totals: Mapping[str, int] | None = None) -> Grid:
    """Every seated player's role and game points, with running totals when given."""
    columns = [Column(_("player")), Column(_("role"), style="dim"), Column(_("game points"), justify="right")]
    if totals is not None:
        columns.append(Column(_("total"), justify="right", style="bold"))
    rows = []
    for player, points in result.payouts.items():
        row = [player, role(result, player, dealer), signed(points)]
        if totals is not None:
            row.append(signed(totals.get(player, 0)))
        rows.append(row)
    return Grid(columns, rows)


def print_count(count: str | None) -> None:
    """The thirds a count as made at the table gives, when the deal was given as one."""
    if count:
        console.print(_("count {count}: {thirds}").format(count=count, thirds=parse_count(count)), markup=False)


def signed(value: int) -> str:
    """`+4`, `-2`, `0`."""
    return f"{value:+d}" if value else "0"


def totals_line(totals: Mapping[str, int]) -> str:
    """`Anna -2, Bruno +4, Carla -2`."""
    return ", ".join(f"{player} {signed(points)}" for player, points in totals.items())


def print_deal(result: DealResult, profile: Profile, dealer: str, totals: Mapping[str, int] | None = None) -> None:
    """The headline, the table and the explanation of one deal."""
    console.print(f"[bold]{headline(result, profile)}[/bold]")
    console.print(deal_table(result, dealer, totals))
    console.print(explanation(result))


def print_closed(closed: Closed) -> None:
    """An evening just closed: the pot it leaves to the same table's next evening, and its settlement."""
    evening = closed.evening
    console.print(_("Evening {number} closed.").format(number=evening.number))
    if evening.pot_out:
        console.print(
            ngettext(
                "The pot of {count} passed deal goes to the same table's next evening.",
                "The pot of {count} passed deals goes to the same table's next evening.",
                evening.pot_out,
            ).format(count=evening.pot_out)
        )
    print_settlement(closed.settlement)


def print_settlement(result: Settlement, *, pairs: bool = False, money_table: bool = True) -> None:
    """Points and money per player (unless already shown), then who pays whom."""
    if money_table:
        title = ngettext(
            "Settlement of evening {numbers}", "Settlement of evenings {numbers}", len(result.evenings)
        ).format(numbers=", ".join(map(str, result.evenings)))
        print_money(title, result.points, result.cents, result.currency)
    if pairs:
        console.print(_("[bold]Who owes whom, deal by deal summed per pair[/bold]"))
        for payment in result.pairs:
            console.print(
                _("  {payer} owes {payee} {amount}").format(
                    payer=payment.payer, payee=payment.payee, amount=format_cents(payment.cents, result.currency)
                )
            )
    if not result.payments:
        console.print(_("Nobody owes anything."))
        return
    count = len(result.payments)
    console.print(
        ngettext("[bold]{count} payment settles it:[/bold]", "[bold]{count} payments settle it:[/bold]", count).format(
            count=count
        )
    )
    for payment in result.payments:
        console.print(payment_line(payment, result.currency))
    for name, cents in result.rounding.items():
        change = _("  rounding: {name} gains {amount}") if cents > 0 else _("  rounding: {name} gives up {amount}")
        console.print(change.format(name=name, amount=format_cents(abs(cents), result.currency)))


def payment_line(payment: Transfer, currency: str) -> str:
    """`  Carla pays Anna 0.40 EUR` (`  Carla dà 0,40 € ad Anna`): a payment that settles."""
    # TRANSLATORS: {payee} comes with the word for "to" where the language needs one: "a Bruno", "ad Anna".
    return _("  {payer} pays {payee} {amount}").format(
        payer=payment.payer, payee=to_whom(payment.payee), amount=format_cents(payment.cents, currency)
    )


def print_money(title: str, points: Mapping[str, int], cents: Mapping[str, int], currency: str) -> None:
    """Game points and money per player, the winners first."""
    table = Table(show_edge=False, pad_edge=False, title=title)
    table.add_column(_("player"))
    table.add_column(_("game points"), justify="right")
    table.add_column(_("money"), justify="right")
    for name in sorted(cents, key=lambda n: (-cents[n], -points[n])):
        table.add_row(name, signed(points[name]), format_cents(cents[name], currency, signed=True))
    console.print(table)


def local_time(moment: datetime | None) -> str:
    """A stored UTC time shown in local time, `2026-11-21 21:05`."""
    return format_time(moment)


def deal_title(deal: DealView, verb: str) -> str:
    """`Deal 3 amended (revision 2)`: what just happened to a deal."""
    title = _("Deal {number} {verb}").format(number=deal.number, verb=verb)
    return title + (_(" (revision {revision})").format(revision=deal.revision) if deal.revision > 1 else "")


def rescored_line(done: Recorded) -> str:
    """The later deals a correction re-scored because their pot of passed deals changed."""
    numbers = ", ".join(str(number) for number in done.rescored)
    return ngettext(
        "Deal {numbers} re-scored: its pot of passed deals changed.",
        "Deals {numbers} re-scored: their pot of passed deals changed.",
        len(done.rescored),
    ).format(numbers=numbers)


def voided_banner(number: int, reason: str | None) -> Text:
    """The line over what a voided evening shows: that it is voided and counts nowhere, the reason as typed (brackets
    too), said in words, colour or not."""
    return Text(evening_voided(number, reason), style="bold red")


def print_standings(result: Standings) -> None:
    """The running totals deal by deal, the standings, and the settlement of a closed evening; a voided evening's
    figures between two lines that say it is voided and counts nowhere, the reason given."""
    voided = voided_banner(result.evening, result.void_reason) if result.voided else None
    if voided:
        console.print(voided)
    running = Table(
        show_edge=False, pad_edge=False, title=_("Evening {evening}: running totals").format(evening=result.evening)
    )
    running.add_column(_("deal"), justify="right")
    for player in result.players:
        running.add_column(player, justify="right")
    for number, line in result.running:
        running.add_row(str(number), *(signed(line[p]) for p in result.players))
    console.print(running)
    if result.game_to:
        print_games(result)
    final = Table(show_edge=False, pad_edge=False, title=_("Standings"))
    final.add_column(_("player"))
    final.add_column(_("game points"), justify="right")
    final.add_column(_("money"), justify="right")
    if result.game_to:
        final.add_column(_("games won"), justify="right")
    for player in sorted(result.players, key=lambda p: -result.points[p]):
        won = [str(result.games_won[player])] if result.games_won is not None else []
        won_money = format_cents(result.cents[player], result.currency, signed=True)
        final.add_row(player, signed(result.points[player]), won_money, *won)
    console.print(final)
    if result.settlement:
        print_settlement(result.settlement, money_table=False)
    if voided:
        console.print(voided)


def print_games(result: Standings) -> None:
    """The evening's games to N points: each one's deals, game points and winners, the last one perhaps going on."""
    shown = Table(show_edge=False, pad_edge=False, title=_("Games to {points} points").format(points=result.game_to))
    shown.add_column(_("game"), justify="right")
    shown.add_column(_("deals"))
    for player in result.players:
        shown.add_column(player, justify="right")
    shown.add_column(_("won by"))
    for number, game in enumerate(result.games, start=1):
        won = ", ".join(game.winners) if game.finished else _("going on")
        shown.add_row(
            str(number), f"{game.first}-{game.last}", *(signed(game.totals.get(p, 0)) for p in result.players), won
        )
    console.print(shown)


def game_ended(result: Standings, deal: int) -> str | None:
    """`Game 2 to 21 points won by Anna.` when deal `deal` ended a game, else None."""
    ended = [game for game in result.games if game.finished and game.last == deal]
    if not ended:
        return None
    number = result.games.index(ended[0]) + 1
    return _("Game {number} to {points} points won by {winners}.").format(
        number=number, points=result.game_to, winners=", ".join(ended[0].winners)
    )
