"""Rich tables for scored deals and running totals."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from ledger.values import Settlement

from ledger.clock import as_local
from ledger.rules.count import parse_count
from ledger.rules.profiles import Profile
from ledger.rules.scoring import DealResult
from ledger.settlement import format_cents
from ledger.summary import headline

console = Console(highlight=False)


def role(result: DealResult, player: str, dealer: str) -> str:
    """declarer, partner, opponent, sits out (and dealer) for one seat."""
    if player == result.sitting_out and player not in result.opponents:
        kind = "sits out"
    elif result.passed:
        kind = "passed"
    elif player == result.declarer:
        kind = "declarer"
    elif player == result.partner:
        kind = "partner"
    else:
        kind = "opponent"
    return f"{kind}, dealer" if player == dealer else kind


def deal_table(result: DealResult, dealer: str, totals: Mapping[str, int] | None = None) -> Table:
    """Every seated player's role and game points, with running totals when given."""
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("player")
    table.add_column("role", style="dim")
    table.add_column("game points", justify="right")
    if totals is not None:
        table.add_column("total", justify="right", style="bold")
    for player, points in result.payouts.items():
        row = [player, role(result, player, dealer), signed(points)]
        if totals is not None:
            row.append(signed(totals.get(player, 0)))
        table.add_row(*row)
    return table


def print_count(count: str | None) -> None:
    """The thirds a count as made at the table gives, when the deal was given as one."""
    if count:
        console.print(f"count {count}: {parse_count(count)}", markup=False)


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
    console.print(result.explanation)


def print_settlement(result: Settlement, *, pairs: bool = False, money_table: bool = True) -> None:
    """Points and money per player (unless already shown), then who pays whom."""
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
    table = Table(show_edge=False, pad_edge=False, title=title)
    table.add_column("player")
    table.add_column("game points", justify="right")
    table.add_column("money", justify="right")
    for name in sorted(cents, key=lambda n: (-cents[n], -points[n])):
        table.add_row(name, signed(points[name]), format_cents(cents[name], currency))
    console.print(table)


def local_time(moment: datetime | None) -> str:
    """A stored UTC time shown in local time, `2026-11-21 21:05`."""
    if moment is None:
        return ""
    return as_local(moment).strftime("%Y-%m-%d %H:%M")
