"""Matplotlib charts of the history, readable on a phone: large type, 4.8 x 3.6 inches at 200 dpi, PNG or SVG.

Names are drawn as written, never read as mathematics, and a long one shortened with an ellipsis alike in every
chart (`short_names`); titles and labels wrap instead of running off the figure, and names along an axis stay
horizontal."""

from __future__ import annotations

import difflib
import io
import textwrap
import threading
from collections.abc import Callable, Iterable, Mapping
from itertools import pairwise
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, ScalarFormatter

from ledger.clock import as_local
from ledger.errors import LedgerError
from ledger.fmt import decimal_sign, format_count, format_date, format_decimal, format_percent
from ledger.i18n import N_, _, ngettext
from ledger.reports import stats
from ledger.reports.frames import Frames
from ledger.rules.cards import DEAL_THIRDS
from ledger.rules.scoring import WIN_THIRDS

matplotlib.use("Agg")  # never a GUI backend; figures are drawn without pyplot, so no global figure state

FIGSIZE = (4.8, 3.6)
DPI = 200
"""960 x 720 pixels: shown 332 CSS pixels wide (a 360-pixel phone), the smallest text (13 points) is 12.5 CSS pixels
high."""
PIXELS = (round(FIGSIZE[0] * DPI), round(FIGSIZE[1] * DPI))
"""A chart's size in pixels, which a page gives its image so that the space is held while it loads."""
FORMATS = ("png", "svg")
SMALLEST_TEXT = 13
"""Points: no text of a chart is smaller."""
EM = 0.55
"""A character's mean width, in ems: what a line of text may hold is estimated from it."""
STYLE: Any = {
    "text.parse_math": False,
    "svg.fonttype": "none",
    "svg.hashsalt": "calabresella",
    "font.size": 14,
    "axes.titlesize": 16,
    "axes.labelsize": 14,
    "xtick.labelsize": SMALLEST_TEXT,
    "ytick.labelsize": SMALLEST_TEXT,
    "legend.fontsize": SMALLEST_TEXT,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.alpha": 0.3,
    "lines.linewidth": 2.5,
    "lines.markersize": 7,
}
WON, LOST, NO_DATA = "#2e7d32", "#c62828", "#d0d0d0"
_DRAWING = threading.Lock()
"""Matplotlib's style settings are process-wide: one chart is drawn at a time."""


NAME_ROOM = 15
"""Characters: the most of a player's name a chart writes (the ledger takes 40). Five such names make two columns
of legend across the figure, three rows under the axes, and sit beside the pairings' cells or under the bars of one
evening's money, leaving the axes most of the figure; the full names are in what the chart says in words (`summary`)."""
ELLIPSIS = "\u2026"


def short_names(players: Iterable[str], room: int = NAME_ROOM) -> dict[str, str]:
    """Each name as the charts write it: whole up to `room` characters, else its first characters and an ellipsis,
    `room` in all. Names that would come out alike (or like another's whole name) are kept longer, as long as it takes
    to tell them apart; given the ledger's every player, a name comes out the same in every chart."""
    names = list(dict.fromkeys(players))
    room_of = dict.fromkeys(names, max(room, 2))

    def cut(name: str) -> str:
        keep = room_of[name]
        return name if len(name) <= keep else name[: keep - 1].rstrip() + ELLIPSIS

    while True:
        written: dict[str, list[str]] = {}
        for name in names:
            written.setdefault(cut(name), []).append(name)
        alike = [name for same in written.values() if len(same) > 1 for name in same if len(name) > room_of[name]]
        if not alike:
            return {name: cut(name) for name in names}
        for name in alike:
            room_of[name] += 1


def player_colours(players: tuple[str, ...]) -> dict[str, tuple[float, ...]]:
    """One colour per player by the player's place in the ledger's name order, the same in every chart."""
    cmap = matplotlib.colormaps["tab10" if len(players) <= 10 else "tab20"]
    return {name: cmap(i % cmap.N) for i, name in enumerate(players)}


def _wrapped(text: str, size: str, inches: float) -> str:
    """`text` broken into lines that fit `inches` at the style's font size `size` (e.g. `axes.titlesize`)."""
    chars = _characters(inches, STYLE[size])
    return "\n".join(textwrap.wrap(text, chars, break_long_words=False)) if len(text) > chars else text


AXES_WIDTH = FIGSIZE[0] - 0.6
"""Inches: about what the axes of a chart span, its title and labels centred over them."""


def _figure(title: str, xlabel: str, ylabel: str, width: float = AXES_WIDTH) -> tuple[Figure, Axes]:
    """A figure with one axes `width` inches wide or more, its title and labels wrapped to that width."""
    figure = Figure(figsize=FIGSIZE, dpi=DPI, layout="constrained")
    axes = figure.add_subplot()
    axes.set_title(_wrapped(title, "axes.titlesize", width))
    axes.set_xlabel(_wrapped(xlabel, "axes.labelsize", width))
    axes.set_ylabel(_wrapped(ylabel, "axes.labelsize", FIGSIZE[1] * 0.8))
    return figure, axes


def _require(frame: pd.DataFrame, kind: str, frames: Frames, what: str = N_("deals")) -> None:
    """Refuse to draw a chart without data; `what` is the data it lacks (marked with `N_`)."""
    if frame.empty:
        raise LedgerError(
            _("chart {kind}: no {what} match {describe}; record some deals first").format(
                kind=kind, what=_(what), describe=frames.filters.describe()
            )
        )


def running(frames: Frames) -> Figure:
    """Running game points per player through one evening (the latest one unless --evening is given).

    A voided deal keeps its number on the axis, marked with a grey dotted line and `voided`; the totals stay flat.
    """
    evening, table = _running_totals(frames)
    figure, axes = _figure(
        _("Evening {evening}: running game points").format(evening=evening), _("deal"), _("game points")
    )
    _lines(axes, table, player_colours(frames.players), short_names(frames.players))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    _mark_voided(axes, frames.voided.loc[frames.voided["evening"] == evening, "number"])
    _legend_outside(figure, axes)
    return figure


def _running_totals(frames: Frames) -> tuple[int, pd.DataFrame]:
    """The evening the running chart shows, and each player's total after each deal of it (deal 0: none yet)."""
    _require(frames.deals, "running", frames)
    evening = frames.filters.evening or int(frames.deals["evening"].max())
    p = frames.payouts[frames.payouts["evening"] == evening]
    table = p.pivot_table(index="number", columns="player", values="points", aggfunc="sum", observed=True)
    table = pd.concat([pd.DataFrame(0, index=[0], columns=table.columns), table.cumsum()])
    return evening, table.reindex(range(int(table.index.max()) + 1)).ffill()  # a voided deal changes no total


def _mark_voided(axes: Axes, numbers: pd.Series) -> None:
    """A grey dotted vertical line at each voided deal's number, named in the axis label (never over a line)."""
    for number in numbers:
        axes.axvline(number, color="grey", linestyle=":", linewidth=1.5)
    if len(numbers):
        voided = ", ".join(str(number) for number in numbers)
        axes.set_xlabel(
            _wrapped(_("deal (dotted: voided {numbers})").format(numbers=voided), "axes.labelsize", AXES_WIDTH)
        )


def _lines(axes: Axes, table: pd.DataFrame, colours: dict[str, tuple[float, ...]], names: Mapping[str, str]) -> None:
    """One line per column (a player, or a player and a currency), in the player's colour, labelled with the name as
    `names` writes it; NaN leaves a gap."""
    styles = ("-", "--", ":", "-.")
    currencies = sorted({c[1] for c in table.columns}) if isinstance(table.columns, pd.MultiIndex) else []
    for order, column in enumerate(table.columns):
        player = str(column[0] if currencies else column)
        style = styles[currencies.index(column[1]) % len(styles)] if currencies else "-"
        label = _column_name(column, names)
        axes.plot(
            table.index,
            table[column],
            marker=MARKERS[order % len(MARKERS)],
            linestyle=style,
            label=label,
            color=colours[player],
            linewidth=max(3.5 - 0.6 * order, 1.2),  # each line thinner than the one under it, so both show
            markersize=max(8 - 1.2 * order, 4),
            zorder=2 + order,
        )
    axes.axhline(0, color="grey", linewidth=1)


MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
"""One marker per player line, so that lines drawn over each other still tell their players apart."""


def _legend_outside(figure: Figure, axes: Axes) -> None:
    """The legend under the axes, in as many columns as fit across the figure, so it never covers a line; the y
    axis's label wrapped again to the height the legend leaves the axes."""
    handles, labels = axes.get_legend_handles_labels()
    rc = matplotlib.rcParams
    beside = (rc["legend.handlelength"] + rc["legend.handletextpad"] + rc["legend.columnspacing"]) / EM
    fit = int(_characters(FIGSIZE[0], STYLE["legend.fontsize"]) // (max(len(label) for label in labels) + beside))
    columns = max(1, min(len(labels), fit))
    figure.legend(handles, labels, loc="outside lower center", ncols=columns)
    rows = -(-len(labels) // columns)
    legend = (rows * (1 + rc["legend.labelspacing"]) + 2 * rc["legend.borderpad"]) * STYLE["legend.fontsize"] / 72
    axes.set_ylabel(_wrapped(" ".join(axes.get_ylabel().split()), "axes.labelsize", FIGSIZE[1] * 0.8 - legend))


def money(frames: Frames) -> Figure:
    """Each player's money as a running total, evening by evening; an evening a player missed is a gap.

    The evenings are categories on the x axis, labelled with their number and date: each of them while the labels
    fit side by side, else as many evenly spaced ones as fit.
    """
    table, unit = _money_totals(frames)
    started = frames.evenings["started_at"].reindex(table.index)
    labels = [
        f"{number}\n{format_date(as_local(moment.to_pydatetime()).date())}"
        for number, moment in zip(table.index, started, strict=True)
    ]
    if len(table) == 1:
        number, date = labels[0].split("\n")
        title = _("Money in evening {number} ({date})").format(number=number, date=date)
        return _one_evening(table, title, unit, player_colours(frames.players), short_names(frames.players))
    figure, axes = _figure(_("Money across evenings"), _("evening"), _("money won so far ({unit})").format(unit=unit))
    _lines(axes, table.reset_index(drop=True), player_colours(frames.players), short_names(frames.players))
    _label_evenings(axes, labels)
    axes.set_xlim(-0.5, len(labels) - 0.5)
    _legend_outside(figure, axes)
    return figure


def _label_evenings(axes: Axes, labels: list[str]) -> None:
    """Ticks at the evenings' places on the x axis, labelled `labels`: at every evening while the labels fit side by
    side, else at evenly spaced ones, as many as fit."""
    room = _characters(AXES_WIDTH, STYLE["xtick.labelsize"]) // (
        max(len(line) for t in labels for line in t.split()) + 2
    )
    if len(labels) <= room:
        axes.set_xticks(range(len(labels)), labels)
        return
    axes.xaxis.set_major_locator(MaxNLocator(nbins=room, integer=True, min_n_ticks=1))
    axes.xaxis.set_major_formatter(FuncFormatter(lambda x, _: labels[int(x)] if 0 <= x < len(labels) else ""))


def _money_totals(frames: Frames) -> tuple[pd.DataFrame, str]:
    """Each player's money won so far after each evening (a column per player, or per player and currency when the
    evenings have more than one), and the unit it is in."""
    _require(frames.deals, "money", frames)
    currency = frames.deals.groupby("evening", observed=True)["currency"].first().astype(str)
    p = frames.payouts.assign(currency=frames.payouts["evening"].map(currency))
    currencies = sorted(currency.unique())
    columns = ["player", "currency"] if len(currencies) > 1 else "player"
    table = p.pivot_table(index="evening", columns=columns, values="money_cents", aggfunc="sum", observed=True)
    table = table.cumsum() / 100  # an absent player stays NaN; the running total carries on past the gap
    return table, currencies[0] if len(currencies) == 1 else _("in its currency")


def _one_evening(
    table: pd.DataFrame, title: str, unit: str, colours: dict[str, tuple[float, ...]], short: Mapping[str, str]
) -> Figure:
    """Money with one evening only: a bar per player (or player and currency), its amount written on it."""
    won = table.iloc[0].dropna()
    names = [_column_name(c, short) for c in won.index]
    figure, axes = _figure(title, "", _("money won ({unit})").format(unit=unit))
    player = [str(c[0] if isinstance(c, tuple) else c) for c in won.index]
    bars = axes.bar(range(len(won)), won.to_numpy(), color=[colours[p] for p in player])
    axes.bar_label(bars, [format_decimal(value, signed=True) for value in won], padding=3)
    axes.set_xticks(range(len(won)), _staggered(names))
    axes.axhline(0, color="grey", linewidth=1)
    axes.margins(y=0.2)
    _lay_out(figure)  # the y axis's labels narrow the axes: the names may need more lines
    axes.set_xticks(range(len(won)), _staggered(names, axes.get_position().width * FIGSIZE[0]))
    return figure


def contracts(frames: Frames) -> Figure:
    """How often each contract (and aggravation) was played, won and lost, with its success rate."""
    table = stats.contracts(frames)
    _require(table, "contracts", frames, N_("played deals"))
    names = list(zip(table["contract"], table["aggravation"], strict=True))
    labels = [f"{c}\n{a}" if a else str(c) for c, a in names]
    title = _("Contracts: deals played, and the declarer's win rate")
    figure, axes = _figure(title, _("deals"), _("contract"))
    y = np.arange(len(table))  # bars lying down: a contract's name and its rate each have a line of their own
    axes.barh(y, table["won"], color=WON, label=_("deals won"))
    axes.barh(y, table["deals"] - table["won"], left=table["won"], color=LOST, label=_("deals lost"))
    for i, (deals, rate) in enumerate(zip(table["deals"], table["success_rate"], strict=True)):
        axes.annotate(
            _("{rate} won").format(rate=format_percent(rate)),
            (deals, i),
            ha="left",
            va="center",
            xytext=(4, 0),
            textcoords="offset points",
        )
    axes.set_yticks(y, labels)
    axes.invert_yaxis()  # the lowest contract on top, as the ladder is read
    axes.set_xlim(0, table["deals"].max() * 1.6)
    axes.xaxis.set_major_locator(MaxNLocator(nbins="auto", integer=True))
    _legend_outside(figure, axes)
    if not _labels_apart(figure, axes):  # on two lines they would touch: a name and its aggravation on one line,
        axes.set_yticks(y, [f"{c} {a}" if a else str(c) for c, a in names])  # the title wrapped to the axes left
        _lay_out(figure)
        axes.set_title(_wrapped(title, "axes.titlesize", axes.get_position().width * FIGSIZE[0]))
    return figure


def _labels_apart(figure: Figure, axes: Axes) -> bool:
    """Whether the y axis's labels, once the figure is laid out, are half a line of the smallest type apart at
    least."""
    _lay_out(figure)
    renderer = FigureCanvasAgg(figure).get_renderer()
    boxes = sorted((label.get_window_extent(renderer) for label in axes.get_yticklabels()), key=lambda box: box.y0)
    half_a_line = SMALLEST_TEXT / 2 * figure.dpi / 72
    return all(upper.y0 - lower.y1 >= half_a_line for lower, upper in pairwise(boxes))


def thirds(frames: Frames) -> Figure:
    """Histogram of the declarer side's thirds, with the line at 18 where the declarer wins."""
    values = frames.deals["declarer_thirds"].dropna().astype(int)
    _require(values.to_frame(), "thirds", frames, N_("played deals"))
    figure, axes = _figure(_("Declarer side's thirds"), _("thirds taken by the declarer side (of 35)"), _("deals"))
    counts = np.bincount(values, minlength=DEAL_THIRDS + 1)
    axes.bar(np.arange(DEAL_THIRDS + 1), counts, width=0.8, color="#1565c0")
    axes.axvline(
        WIN_THIRDS - 0.5,
        color=LOST,
        linewidth=2,
        label=_("{thirds} and over: the declarer wins").format(thirds=WIN_THIRDS),
    )
    axes.set_xlim(-1, DEAL_THIRDS + 1)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    _legend_outside(figure, axes)
    return figure


def pairings(frames: Frames) -> Figure:
    """Heatmap: the row player's game points per deal when defending together with the column player.

    Cells with no deal (a player with themself, or a pair who never defended together) are grey and blank. Each
    cell says its points and deals while they fit in it; with too many players for that, a colour bar gives the scale.
    When the names along both axes would leave the cells too little of the figure (`ROOMY`), the rows are numbered
    and the columns say the numbers only.
    """
    table = stats.pairings(frames)
    _require(table, "pairings", frames, N_("pairs of defenders"))
    players = sorted(set(table["player_a"]) | set(table["player_b"]), key=frames.players.index)
    index = {name: i for i, name in enumerate(players)}
    written = short_names(frames.players)
    names = [written[name] for name in players]
    grid, count = np.full((len(names), len(names)), np.nan), np.zeros((len(names), len(names)), dtype=int)
    for row in table.itertuples(index=False):
        a, b = index[row.player_a], index[row.player_b]
        grid[a, b], grid[b, a] = row.points_a / row.deals, row.points_b / row.deals
        count[a, b] = count[b, a] = row.deals
    figure = _pairings(names, grid, count, numbered=False)
    if not _roomy(figure):
        figure = _pairings(names, grid, count, numbered=True)
    return figure


ROOMY = 0.4
"""The least share of the figure's width and of its height that a chart's axes keep."""


def _roomy(figure: Figure) -> bool:
    """Whether the figure's first axes, laid out, keep `ROOMY` of its width and of its height."""
    _lay_out(figure)
    box = figure.axes[0].get_position()
    return box.width >= ROOMY and box.height >= ROOMY


def _pairings(names: list[str], grid: np.ndarray, count: np.ndarray, *, numbered: bool) -> Figure:
    """The pairings' heatmap of `grid` (game points per deal) and `count` (deals), a row and a column per name; with
    `numbered`, each row's name after its number and the columns' numbers only."""
    rows = [f"{i} {name}" for i, name in enumerate(names, start=1)] if numbered else names
    columns = [str(i) for i in range(1, len(names) + 1)] if numbered else names
    width = FIGSIZE[0] - max(len(name) for name in rows) * STYLE["ytick.labelsize"] * EM / 72 - 0.7
    cell = _characters(width / len(names), SMALLEST_TEXT)
    words = [ngettext("{count} deal", "{count} deals", n).format(count=format_count(n)) for n in range(count.max() + 1)]
    short = max(len(word) for word in words) > cell  # too narrow for `3 deals`: `(3)`, and the label says so
    if numbered:
        partner = _("partner in defence, by number")
        xlabel = _("partner in defence, by number (in brackets: deals)") if short else partner
    else:
        partner = _("partner in defence")
        xlabel = _("partner in defence (in brackets: deals)") if short else partner
    figure, axes = _figure(_("Defending together: game points per deal"), xlabel, _("player"), width)
    axes.grid(False)
    limit = max(float(np.nanmax(np.abs(grid))), 0.5)
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad=NO_DATA)
    image = axes.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=-limit, vmax=limit, aspect="auto")
    axes.set_xticks(range(len(names)), _staggered(columns, width))
    axes.set_yticks(range(len(names)), rows)
    labels = {
        (a, b): f"{format_decimal(value, signed=True)}\n"
        + (f"({format_count(int(count[a, b]))})" if short else words[count[a, b]])
        for (a, b), value in np.ndenumerate(grid)
        if not np.isnan(value)
    }
    if _fit_in_cells(figure, axes, max(labels.values(), key=len), len(names)):
        for (a, b), text in labels.items():
            colour = "white" if abs(grid[a, b]) > limit * 0.6 else "black"
            axes.text(b, a, text, ha="center", va="center", fontsize=SMALLEST_TEXT, color=colour, in_layout=False)
    else:
        axes.set_xlabel(_wrapped(partner, "axes.labelsize", width))
        figure.colorbar(image, ax=axes, fraction=0.08 if numbered else 0.15)  # numbered: long names, a thin bar
        _lay_out(figure)  # the colour bar narrows the axes: the names may need more lines
        axes.set_xticks(range(len(names)), _staggered(columns, axes.get_position().width * FIGSIZE[0]))
    return figure


def _fit_in_cells(figure: Figure, axes: Axes, text: str, cells: int) -> bool:
    """Whether `text`, in the smallest type, fits in a cell of the axes once the figure is laid out, the axes being
    `cells` cells wide and high."""
    _lay_out(figure)
    renderer = FigureCanvasAgg(figure).get_renderer()
    probe = axes.text(0, 0, text, fontsize=SMALLEST_TEXT)
    box = probe.get_window_extent(renderer)
    probe.remove()
    area = axes.get_window_extent(renderer)
    return box.width <= area.width / cells and box.height <= area.height / cells


def _lay_out(figure: Figure) -> None:
    """Place the figure's axes, titles and labels as its layout engine will when the figure is saved."""
    engine = figure.get_layout_engine()
    if engine is not None:
        engine.execute(figure)


def _characters(inches: float, points: float) -> int:
    """How many characters of text `points` high a line `inches` long holds."""
    return int(inches * 72 / (points * EM))


def _staggered(names: list[str], inches: float = AXES_WIDTH) -> list[str]:
    """Names along an x axis `inches` long, each on as many lines lower than its neighbours as it takes for
    side by side names never to run into each other."""
    room = _characters(inches / max(len(names), 1), STYLE["xtick.labelsize"])
    levels = -(-(max(len(name) for name in names) + 1) // max(room, 1))
    return ["\n" * (i % levels) + name for i, name in enumerate(names)]


def _column_name(column: object, names: Mapping[str, str] | None = None) -> str:
    """`Anna`, or `Anna (CHF)` for a column of a player and a currency; the name as `names` writes it, if given."""
    player = str(column[0] if isinstance(column, tuple) else column)
    player = names.get(player, player) if names is not None else player
    return f"{player} ({column[1]})" if isinstance(column, tuple) else player


def _said_running(frames: Frames) -> str:
    evening, table = _running_totals(frames)
    last = table.iloc[-1].sort_values(ascending=False)
    totals = ", ".join(f"{name} {format_decimal(points, 0, signed=True)}" for name, points in last.items())
    return _("Evening {evening}, after deal {deal}: {totals}.").format(
        evening=evening, deal=int(table.index[-1]), totals=totals
    )


def _said_money(frames: Frames) -> str:
    table, unit = _money_totals(frames)
    last = table.ffill().iloc[-1].dropna().sort_values(ascending=False)
    totals = ", ".join(f"{_column_name(c)} {format_decimal(value, signed=True)}" for c, value in last.items())
    return _("Money won so far ({unit}): {totals}.").format(unit=unit, totals=totals)


def _said_contracts(frames: Frames) -> str:
    table = stats.contracts(frames)
    _require(table, "contracts", frames, N_("played deals"))
    return " · ".join(
        ngettext("{contract}: {count} deal, {rate} won", "{contract}: {count} deals, {rate} won", int(deals)).format(
            contract=f"{contract} {aggravation}" if aggravation else contract,
            count=format_count(int(deals)),
            rate=format_percent(rate),
        )
        for contract, aggravation, deals, rate in zip(
            table["contract"], table["aggravation"], table["deals"], table["success_rate"], strict=True
        )
    )


def _said_thirds(frames: Frames) -> str:
    values = frames.deals["declarer_thirds"].dropna().astype(int)
    _require(values.to_frame(), "thirds", frames, N_("played deals"))
    return ngettext(
        "The declarer side took {thirds} or more in {won} of {count} deal played.",
        "The declarer side took {thirds} or more in {won} of {count} deals played.",
        len(values),
    ).format(thirds=WIN_THIRDS, won=format_count(int((values >= WIN_THIRDS).sum())), count=format_count(len(values)))


def _said_pairings(frames: Frames) -> str:
    table = stats.pairings(frames)
    _require(table, "pairings", frames, N_("pairs of defenders"))
    table = table.assign(each=(table["points_a"] + table["points_b"]) / (2 * table["deals"]))
    best = table.sort_values(["each", "deals"], ascending=False).iloc[0]
    return ngettext(
        "Best together in defence: {a} and {b}, {points} game points each per deal over {count} deal.",
        "Best together in defence: {a} and {b}, {points} game points each per deal over {count} deals.",
        int(best["deals"]),
    ).format(
        a=best["player_a"],
        b=best["player_b"],
        points=format_decimal(float(best["each"]), signed=True),
        count=format_count(int(best["deals"])),
    )


SAID: dict[str, Callable[[Frames], str]] = {
    "running": _said_running,
    "money": _said_money,
    "contracts": _said_contracts,
    "thirds": _said_thirds,
    "pairings": _said_pairings,
}
"""What each chart shows, in one or two sentences: read while the chart loads, and by whoever cannot see it."""


def summary(kind: str, frames: Frames) -> str:
    """What the chart of this kind shows, in words, without drawing it; an error when it has nothing to show."""
    check_kind(kind)
    return SAID[kind](frames)


def summaries(frames: Frames) -> dict[str, str]:
    """Every chart that has something to show, with what it shows in words."""
    said = {}
    for kind in KINDS:
        try:
            said[kind] = summary(kind, frames)
        except LedgerError:
            continue
    return said


KINDS: dict[str, Callable[[Frames], Figure]] = {
    "running": running,
    "money": money,
    "contracts": contracts,
    "thirds": thirds,
    "pairings": pairings,
}
ONE_EVENING = ("running",)
"""The kinds that draw one evening: the latest played unless one is named (its frames are all that is read)."""


def check_kind(kind: str) -> Callable[[Frames], Figure]:
    """The drawing function for a chart kind, or an error listing the kinds (and the one meant, if close)."""
    if kind not in KINDS:
        close = difflib.get_close_matches(kind, KINDS, n=1)
        meant = _(" (did you mean {name}?)").format(name=close[0]) if close else ""
        raise LedgerError(
            _("chart kind {kind!r}: allowed are {kinds}{meant}").format(kind=kind, kinds=", ".join(KINDS), meant=meant)
        )
    return KINDS[kind]


class _SpokenTicks(ScalarFormatter):
    """Number tick labels as matplotlib writes them, with the decimal sign of the language in use."""

    def __init__(self, sign: str) -> None:
        super().__init__()
        self.sign = sign

    def __call__(self, x: float, pos: int | None = None) -> str:
        return str(super().__call__(x, pos)).replace(".", self.sign)


def _speak_numbers(figure: Figure) -> None:
    """Give every number axis of the figure (the colour bar's too) the language's decimal sign."""
    sign = decimal_sign()
    if sign == ".":
        return
    for axes in figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            if type(axis.get_major_formatter()) is ScalarFormatter:
                axis.set_major_formatter(_SpokenTicks(sign))


def draw(kind: str, frames: Frames) -> Figure:
    """The chart of this kind for the frames, drawn in the phone-readable style, its numbers in the language's
    format."""
    with matplotlib.rc_context(STYLE):
        figure = check_kind(kind)(frames)
        _speak_numbers(figure)
        return figure


def image_bytes(figure: Figure, fmt: str) -> bytes:
    """The figure as PNG or SVG (text kept as text, no timestamp).

    A PNG is laid out first, with the renderer it is drawn with, and then drawn once: left to `savefig`, a figure
    with a layout engine is drawn twice, the first time without output only to lay it out.
    """
    buffer = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    engine = figure.get_layout_engine()
    with matplotlib.rc_context(STYLE):
        if fmt == "png" and engine is not None:
            engine.execute(figure)
            figure.set_layout_engine(None)
        try:
            figure.savefig(buffer, format=fmt, dpi=DPI, metadata=metadata)
        finally:
            figure.set_layout_engine(engine)
    return buffer.getvalue()


def chart_image(kind: str, frames: Frames, fmt: str) -> bytes:
    """The chart of this kind as PNG or SVG, drawn while no other thread draws."""
    if fmt not in FORMATS:
        raise LedgerError(_("image format {fmt!r}: png or svg").format(fmt=fmt))
    with _DRAWING:
        return image_bytes(draw(kind, frames), fmt)
