"""An evening's deals (or one deal's revisions) as a table that keeps, at any width and with names of any length, each
deal's number, its words and its payouts.

The fullest layout that fits the terminal is drawn: the explanations beside the deals; else under the table, one line
per deal; else the deal's words and called card under the table too; else the same with the players' names shortened
in the table (never in the lines under it); else, where not even that fits, each deal as a paragraph of its own. A
deal that no longer counts says so in words (`void`, `superseded`), not only struck through.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ledger.cli.render import console, local_time, signed
from ledger.i18n import _
from ledger.summary import brief, called_card, note, outcome, sits_out, why

if TYPE_CHECKING:
    from ledger.values import DealView

NOTE_ROOM = 30
"""The room, in columns, the explanations need beside the deals when they must wrap; with less they follow the
table."""
UNBOUNDED = 100_000
"""A width no table reaches, to measure one unclamped."""
SHORTEST_NAME = 3
"""The fewest cells a name is shortened to in the table (a letter either side of `…`)."""


@dataclass(frozen=True)
class Row:
    """One deal or revision as shown: its number, dealer, words, called card, result, each seat's game points, its
    note (the explanation, or when and why), and whether it is struck (voided or superseded)."""

    number: str
    dealer: str
    out: bool
    words: str
    called: str
    result: str
    points: tuple[str, ...]
    note: str
    struck: bool

    def said(self) -> list[str]:
        """The deal's own words and called card, unless the note says them already (`all passed`)."""
        return [part for part in (self.words, self.called) if part and not self.note.startswith(part)]

    def with_words(self) -> str:
        """The note after the deal's own words and called card: `Bruno chiamo 6+2/3 · 3B@Anna · chiamo 1 = ...`."""
        return " · ".join([*self.said(), self.note])


def deals_table(players: tuple[str, ...], views: Sequence[DealView], history: bool = False) -> None:
    """The deals (or, with `history`, one deal's revisions) in the fullest layout that fits the terminal."""
    rows = [_row(view, players, history) for view in views]
    number = _("rev") if history else "#"
    explained = _grid(players, rows, number, words=True, notes=_("when / why") if history else _("explanation"))
    beside = _grid(players, rows, number, words=True)
    if _widest(explained) <= console.width or console.width - _widest(beside) - 3 >= NOTE_ROOM:
        console.print(explained)
        return
    if _narrowest(beside) <= console.width:
        _print_under(beside, rows, [row.note for row in rows])
        return
    for names in _shortenings(players):
        plain = _grid(tuple(names.values()), rows, number, words=False, names=names)
        if _narrowest(plain) <= console.width:
            _print_under(plain, rows, [row.with_words() for row in rows])
            return
    for row in rows:  # not even a table of numbers fits: each deal on its own
        console.print(
            _paragraph(row, players), style="strike dim" if row.struck else None, highlight=False, markup=False
        )


def _row(view: DealView, players: tuple[str, ...], history: bool) -> Row:
    if view.voided:
        result = _("void")
    elif history and view.superseded_at:
        result = _("superseded")
    else:
        result = outcome(view)
    return Row(
        number=str(view.revision if history else view.number),
        dealer=view.dealer,
        out=sits_out(view),
        words=brief(view),
        called=called_card(view),
        result=result,
        points=tuple(signed(view.payouts.get(player, 0)) for player in players),
        note=local_time(view.recorded_at) + " " + (why(view) or _("recorded")) if history else note(view),
        struck=view.voided or bool(history and view.superseded_at),
    )


def _grid(
    players: Sequence[str],
    rows: list[Row],
    number: str,
    *,
    words: bool,
    notes: str | None = None,
    names: dict[str, str] | None = None,
) -> Table:
    """A table of the deals: the number and every seat's game points right-aligned and whole; with `words`, the
    deal's words (which wrap) and called card; with `notes`, the explanations (which wrap) under that header;
    `names`, each player's name as the table shows it (shortened)."""
    shown = names or {}
    grid = Table(show_edge=False, pad_edge=False)
    grid.add_column(number, justify="right", no_wrap=True)
    grid.add_column(_("dealer"), no_wrap=True)
    if words:
        grid.add_column(_("deal"))
        grid.add_column(_("called"), no_wrap=True)
    grid.add_column(_("result"), no_wrap=True)
    for player in players:
        grid.add_column(player, justify="right", no_wrap=True)
    if notes is not None:
        grid.add_column(notes)
    for row in rows:
        dealer = shown.get(row.dealer, row.dealer) + (_(" (out)") if row.out else "")
        cells = [row.number, dealer, *((row.words, row.called) if words else ()), row.result, *row.points]
        cells += [row.note] if notes is not None else []
        grid.add_row(*map(Text, cells), style="strike dim" if row.struck else None)
    return grid


def _print_under(grid: Table, rows: list[Row], lines: list[str]) -> None:
    """The table, then each deal's line under it, after its number."""
    console.print(grid)
    for row, line in zip(rows, lines, strict=True):
        console.print(
            f"{row.number}: {line}", style="strike dim" if row.struck else None, highlight=False, markup=False
        )


def _shortenings(players: tuple[str, ...]) -> Iterator[dict[str, str]]:
    """The players' names as the table may show them, longest first: whole, then each name longer than the limit
    cut in the middle (`Anna…ssi`), down to `SHORTEST_NAME` cells; a limit at which two names would read alike is
    passed over."""
    longest = max(map(cell_len, players))
    for limit in range(longest, SHORTEST_NAME - 1, -1):
        names = {player: _clipped(player, limit) for player in players}
        if len(set(names.values())) == len(names):
            yield names


def _clipped(name: str, limit: int) -> str:
    """The name in at most `limit` cells: whole, or its beginning and end around `…`."""
    if cell_len(name) <= limit:
        return name
    head, tail = _cells(name, limit // 2), _cells(name[::-1], (limit - 1) // 2)[::-1]
    return f"{head}…{tail}"


def _cells(text: str, width: int) -> str:
    """The longest beginning of `text` that takes at most `width` cells."""
    taken = ""
    for character in text:
        if cell_len(taken + character) > width:
            break
        taken += character
    return taken


def _paragraph(row: Row, players: tuple[str, ...]) -> str:
    """A deal in one paragraph, for a terminal too narrow for any table: `1: dealer Carla · Bruno solo 7+1/3 · won ·
    Anna -2, Bruno +4, Carla -2 · solo 2 = 2 from each opponent`."""
    points = ", ".join(f"{player} {value}" for player, value in zip(players, row.points, strict=True))
    dealer = _("dealer {dealer}").format(dealer=row.dealer) + (_(" (out)") if row.out else "")
    return f"{row.number}: " + " · ".join(part for part in (dealer, *row.said(), row.result, points, row.note) if part)


def _widest(grid: Table) -> int:
    """The width a table takes when nothing in it wraps."""
    return Measurement.get(console, console.options.update_width(UNBOUNDED), grid).maximum


def _narrowest(grid: Table) -> int:
    """The width a table needs with every column that wraps at its longest word and every other whole, its header
    included (rich measures a column that does not wrap as if it did, and then squeezes it)."""
    widths = [
        max(cell_len(part) for cell in (column.header, *column.cells) for part in _parts(str(cell), column.no_wrap))
        for column in grid.columns
    ]
    return sum(widths) + 3 * (len(widths) - 1)


def _parts(text: str, whole: bool) -> list[str]:
    """What of a cell cannot be wrapped: all of it, or each of its words."""
    return [text] if whole else text.split() or [""]
