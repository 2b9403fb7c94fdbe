"""A table of one-line cells that rich draws without its layout work: a deal's table shown at the table.

rich's `Table` measures and wraps every cell, about 2 ms for a deal's sixteen cells, which `play` pays
on every deal. When every cell fits on one line, `Grid` yields the very segments `Table` would draw (same
box, styles and padding; a test holds the two to the same output); when they do not fit the width, or hold
characters that are not printable (which `Table` wraps at or drops), it hands the cells to `Table`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from rich.box import HEAVY_HEAD
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text


@dataclass(frozen=True)
class Column:
    """A column's header, how its cells are justified and their style."""

    header: str
    justify: Literal["left", "right"] = "left"
    style: str = ""


class Grid:
    """Cells under headed columns, drawn like `Table(show_edge=False, pad_edge=False)`."""

    def __init__(self, columns: Sequence[Column], rows: Sequence[Sequence[str]]) -> None:
        self.columns = tuple(columns)
        self.rows = [list(row) for row in rows]

    def table(self) -> Table:
        """The same cells as a rich `Table`."""
        table = Table(show_edge=False, pad_edge=False)
        for column in self.columns:
            table.add_column(column.header, justify=column.justify, style=column.style or None)
        for row in self.rows:
            table.add_row(*map(Text, row))
        return table

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.table())

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        headers = [column.header for column in self.columns]
        texts = [headers, *self.rows]
        widths = [max(map(cell_len, cells)) for cells in zip(*texts, strict=True)]
        last = len(widths) - 1
        if sum(widths) + 3 * last > options.max_width or not "".join(map("".join, texts)).isprintable():
            yield self.table()
            return
        box = HEAVY_HEAD.substitute(options, safe=console.safe_box)
        border = console.get_style("")
        styles = [console.get_style(column.style) for column in self.columns]
        line = Segment.line()
        yield from self._line(
            headers, widths, [console.get_style("table.header")] * len(widths), Segment(box.head_vertical, border)
        )
        yield line
        padded = [width + (index > 0) + (index < last) for index, width in enumerate(widths)]
        yield Segment(box.get_row(padded, "head", edge=False), border)
        yield line
        for number, row in enumerate(self.rows, 1):
            vertical = box.foot_vertical if number == len(self.rows) else box.mid_vertical
            yield from self._line(row, widths, styles, Segment(vertical, border))
            yield line

    def _line(
        self, cells: Sequence[str], widths: Sequence[int], styles: Sequence[Style], divider: Segment
    ) -> Iterator[Segment]:
        """One row: each cell justified to its column's width, with a space of padding on its inner sides."""
        last = len(cells) - 1
        for index, (cell, width, style, column) in enumerate(zip(cells, widths, styles, self.columns, strict=True)):
            if index:
                yield divider
                yield Segment(" ", style)
            gap = " " * (width - cell_len(cell))
            yield Segment(gap + cell if column.justify == "right" else cell + gap, style or None)
            if index < last:
                yield Segment(" ", style)
