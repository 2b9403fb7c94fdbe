"""A deal's table is drawn exactly as rich's `Table` draws the same cells, whatever the names, the width and the
terminal; when the cells fit, without building the `Table`."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from ledger.cli.grid import Column, Grid
from ledger.cli.render import deal_table
from ledger.rules.build import DealInput, build_facts
from ledger.rules.profiles import make_profile
from ledger.rules.scoring import score

COLUMNS = (
    Column("player"),
    Column("role", style="dim"),
    Column("game points", justify="right"),
    Column("total", justify="right", style="bold"),
)
ROLES = ("declarer, dealer", "partner", "opponent", "sits out", "passed")
TERMINALS = {
    "plain": {},
    "colour": {"force_terminal": True, "color_system": "truecolor"},
    "8 colours": {"force_terminal": True, "color_system": "standard"},
}


class AsciiFile(io.StringIO):
    """A terminal that can only show ASCII: rich draws the box with plain characters."""

    encoding = "ascii"


def drawn(renderable: object, width: int, terminal: str = "colour", ascii_only: bool = False) -> str:
    console = Console(file=AsciiFile() if ascii_only else io.StringIO(), width=width, **TERMINALS[terminal])  # type: ignore[arg-type]
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


ANY = st.characters(codec="utf-8")
PRINTABLE = st.characters(codec="utf-8", exclude_categories=("C", "Z"), include_characters=" ")
"""Characters the grid draws itself (when the cells fit the width), which any text seldom keeps to in every name."""
points = st.integers(-(10**6), 10**6).map(lambda n: f"{n:+d}" if n else "0")


@st.composite
def rows(draw: st.DrawFn) -> list[list[str]]:
    """A deal's rows, the names of any text or, as often, of printable characters only."""
    names = st.text(draw(st.sampled_from([ANY, PRINTABLE])), min_size=1, max_size=40)
    return draw(st.lists(st.tuples(names, st.sampled_from(ROLES), points, points).map(list), min_size=1, max_size=6))


@settings(max_examples=150, deadline=None)
@given(rows=rows(), width=st.integers(10, 160), terminal=st.sampled_from(sorted(TERMINALS)), ascii_only=st.booleans())
def test_the_grid_draws_what_the_table_draws(
    rows: list[list[str]], width: int, terminal: str, ascii_only: bool
) -> None:
    grid = Grid(COLUMNS, rows)
    assert drawn(grid, width, terminal, ascii_only) == drawn(grid.table(), width, terminal, ascii_only)


@pytest.mark.parametrize("terminal", sorted(TERMINALS))
def test_cells_that_fit_are_drawn_without_a_table(terminal: str, monkeypatch: pytest.MonkeyPatch) -> None:
    grid = Grid(
        COLUMNS,
        [
            ["Anna", "declarer, dealer", "+4", "+120"],
            ["Bruno", "opponent", "-2", "-60"],
            ["Çarla 漢字", "opponent", "-2", "-60"],
        ],
    )
    expected = drawn(grid.table(), 80, terminal)

    def no_table() -> None:
        raise AssertionError("the cells fit: no Table should be built")

    monkeypatch.setattr(grid, "table", no_table)
    assert drawn(grid, 80, terminal) == expected


def test_cells_too_wide_for_the_terminal_are_wrapped_within_it() -> None:
    grid = Grid(COLUMNS, [["Bartolomeo Giovanni Maria", "declarer, dealer", "+1234", "-56789"]])
    lines = drawn(grid, 40, "plain").splitlines()
    assert len(lines) > 3
    assert max(map(len, lines)) <= 40


def test_a_deals_table_shows_every_seat_with_its_role_points_and_total() -> None:
    profile = make_profile("pagat")
    players = ("Anna", "Bruno", "Carla")
    facts = build_facts(DealInput(declarer="Bruno", contract="solo", thirds=22), profile, players, "Anna")
    text = drawn(deal_table(score(facts, profile), "Anna", {"Anna": -2, "Bruno": 4, "Carla": -2}), 80, "plain")
    assert text.splitlines() == [
        "player ┃ role             ┃ game points ┃ total",
        "━━━━━━━╇━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━",
        "Anna   │ opponent, dealer │          -2 │    -2",
        "Bruno  │ declarer         │          +4 │    +4",
        "Carla  │ opponent         │          -2 │    -2",
    ]
