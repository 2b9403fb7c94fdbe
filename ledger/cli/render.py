"""Rich tables for scored deals and running totals."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from rich.console import Console
from rich.table import Table

from ledger.clock import as_local
from ledger.rules.profiles import Profile
from ledger.rules.scoring import DealResult

console = Console(highlight=False)


def role(result: DealResult, player: str, dealer: str) -> str:
    """declarer, partner, opponent, sits out (and dealer) for one seat."""
    if result.passed:
        kind = "passed"
    elif player == result.declarer:
        kind = "declarer"
    elif player == result.partner:
        kind = "partner"
    elif player in result.opponents:
        kind = "opponent"
    else:
        kind = "sits out"
    return f"{kind}, dealer" if player == dealer else kind


def headline(result: DealResult, profile: Profile) -> str:
    """`Bruno solo: 22 thirds (7+1/3), won, stramazzo` or `all passed`."""
    if result.passed:
        return "All passed."
    assert result.contract is not None and result.declarer_thirds is not None
    contract = profile.word(result.contract) + (f" {result.aggravation.value}" if result.aggravation else "")
    if len(profile.bids) == 1:
        contract += "s"  # the one bid of the game: `Anna plays`
    points = f"{result.declarer_thirds} of 35" if profile.american else (
        f"{result.declarer_thirds} thirds ({profile.format_points(result.declarer_thirds)})")
    sweep = f", {result.sweep.value}" if result.sweep else ""
    return f"{result.declarer} {contract}: {points}, {'won' if result.declarer_won else 'lost'}{sweep}"


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


def signed(value: int) -> str:
    """`+4`, `-2`, `0`."""
    return f"{value:+d}" if value else "0"


def print_deal(result: DealResult, profile: Profile, dealer: str, totals: Mapping[str, int] | None = None) -> None:
    """The headline, the table and the explanation of one deal."""
    console.print(f"[bold]{headline(result, profile)}[/bold]")
    console.print(deal_table(result, dealer, totals))
    console.print(result.explanation)


def local_time(moment: datetime | None) -> str:
    """A stored UTC time shown in local time, `2026-11-21 21:05`."""
    if moment is None:
        return ""
    return as_local(moment).strftime("%Y-%m-%d %H:%M")
