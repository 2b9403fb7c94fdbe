"""Matplotlib charts of the history, readable on a phone: large type, 8x5 inches at 150 dpi, PNG or SVG."""

from __future__ import annotations

import difflib
import io
import threading
from collections.abc import Callable
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, ScalarFormatter

from ledger.clock import as_local
from ledger.errors import LedgerError
from ledger.fmt import decimal_sign, format_count, format_date, format_decimal, format_percent
from ledger.i18n import N_, _, ngettext
from ledger.rules.cards import DEAL_THIRDS
from ledger.rules.scoring import WIN_THIRDS
from reports import stats
from reports.frames import Frames

matplotlib.use("Agg")  # never a GUI backend; figures are drawn without pyplot, so no global figure state

FIGSIZE = (6.4, 4.8)
DPI = 150
"""960 x 720 pixels: shown 390 CSS pixels wide on a phone, the smallest text (13 points) is 11 CSS pixels high."""
PIXELS = (round(FIGSIZE[0] * DPI), round(FIGSIZE[1] * DPI))
"""A chart's size in pixels, which a page gives its image so that the space is held while it loads."""
FORMATS = ("png", "svg")
SMALLEST_TEXT = 13
"""Points: no text of a chart is smaller."""
STYLE: Any = {
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


def player_colours(players: tuple[str, ...]) -> dict[str, tuple[float, ...]]:
    """One colour per player by the player's place in the ledger's name order, the same in every chart."""
    cmap = matplotlib.colormaps["tab10" if len(players) <= 10 else "tab20"]
    return {name: cmap(i % cmap.N) for i, name in enumerate(players)}


def _figure(title: str, xlabel: str, ylabel: str) -> tuple[Figure, Axes]:
    figure = Figure(figsize=FIGSIZE, dpi=DPI, layout="constrained")
    axes = figure.add_subplot()
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
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
    _require(frames.deals, "running", frames)
    evening = frames.filters.evening or int(frames.deals["evening"].max())
    p = frames.payouts[frames.payouts["evening"] == evening]
    table = p.pivot_table(index="number", columns="player", values="points", aggfunc="sum", observed=True)
    table = pd.concat([pd.DataFrame(0, index=[0], columns=table.columns), table.cumsum()])
    table = table.reindex(range(int(table.index.max()) + 1)).ffill()  # a voided deal changes nobody's total
    figure, axes = _figure(
        _("Evening {evening}: running game points").format(evening=evening), _("deal"), _("game points")
    )
    _lines(axes, table, player_colours(frames.players))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    _mark_voided(axes, frames.voided.loc[frames.voided["evening"] == evening, "number"])
    _legend_outside(figure, axes)
    return figure


def _mark_voided(axes: Axes, numbers: pd.Series) -> None:
    """A grey dotted vertical line at each voided deal's number, named in the axis label (never over a line)."""
    for number in numbers:
        axes.axvline(number, color="grey", linestyle=":", linewidth=1.5)
    if len(numbers):
        voided = ", ".join(str(number) for number in numbers)
        axes.set_xlabel(_("deal (dotted: voided {numbers})").format(numbers=voided))


def _lines(axes: Axes, table: pd.DataFrame, colours: dict[str, tuple[float, ...]]) -> None:
    """One line per column (a player, or a player and a currency), in the player's colour; NaN leaves a gap."""
    styles = ("-", "--", ":", "-.")
    currencies = sorted({c[1] for c in table.columns}) if isinstance(table.columns, pd.MultiIndex) else []
    for order, column in enumerate(table.columns):
        player = str(column[0] if currencies else column)
        style = styles[currencies.index(column[1]) % len(styles)] if currencies else "-"
        label = f"{player} ({column[1]})" if currencies else player
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
    """The legend under the axes, in as many columns as fit, so it never covers a line."""
    handles, labels = axes.get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 4))


def money(frames: Frames) -> Figure:
    """Each player's money as a running total, evening by evening; an evening a player missed is a gap.

    The evenings are categories on the x axis, labelled with their number and date.
    """
    _require(frames.deals, "money", frames)
    currency = frames.deals.groupby("evening", observed=True)["currency"].first().astype(str)
    p = frames.payouts.assign(currency=frames.payouts["evening"].map(currency))
    currencies = sorted(currency.unique())
    columns = ["player", "currency"] if len(currencies) > 1 else "player"
    table = p.pivot_table(index="evening", columns=columns, values="money_cents", aggfunc="sum", observed=True)
    table = table.cumsum() / 100  # an absent player stays NaN; the running total carries on past the gap
    unit = currencies[0] if len(currencies) == 1 else _("in its currency")
    started = frames.evenings["started_at"].reindex(table.index)
    labels = [
        f"{number}\n{format_date(as_local(moment.to_pydatetime()).date())}"
        for number, moment in zip(table.index, started, strict=True)
    ]
    if len(table) == 1:
        number, date = labels[0].split("\n")
        title = _("Money in evening {number} ({date})").format(number=number, date=date)
        return _one_evening(table, title, unit, player_colours(frames.players))
    figure, axes = _figure(_("Money across evenings"), _("evening"), _("money won so far ({unit})").format(unit=unit))
    _lines(axes, table.reset_index(drop=True), player_colours(frames.players))
    axes.set_xticks(range(len(labels)), labels)
    axes.set_xlim(-0.5, len(labels) - 0.5)
    _legend_outside(figure, axes)
    return figure


def _one_evening(table: pd.DataFrame, title: str, unit: str, colours: dict[str, tuple[float, ...]]) -> Figure:
    """Money with one evening only: a bar per player (or player and currency), its amount written on it."""
    won = table.iloc[0].dropna()
    names = [f"{c[0]} ({c[1]})" if isinstance(c, tuple) else str(c) for c in won.index]
    figure, axes = _figure(title, "", _("money won ({unit})").format(unit=unit))
    player = [str(c[0] if isinstance(c, tuple) else c) for c in won.index]
    bars = axes.bar(range(len(won)), won.to_numpy(), color=[colours[p] for p in player])
    axes.bar_label(bars, [format_decimal(value, signed=True) for value in won], padding=3)
    axes.set_xticks(range(len(won)), names)
    _slant_long_names(axes)
    axes.axhline(0, color="grey", linewidth=1)
    axes.margins(y=0.2)
    return figure


def contracts(frames: Frames) -> Figure:
    """How often each contract (and aggravation) was played, won and lost, with its success rate."""
    table = stats.contracts(frames)
    _require(table, "contracts", frames, N_("played deals"))
    labels = [f"{c}\n{a}" if a else str(c) for c, a in zip(table["contract"], table["aggravation"], strict=True)]
    figure, axes = _figure(_("Contracts: deals played, and the declarer's win rate"), _("contract"), _("deals"))
    x = np.arange(len(table))
    axes.bar(x, table["won"], color=WON, label=_("deals won"))
    axes.bar(x, table["deals"] - table["won"], bottom=table["won"], color=LOST, label=_("deals lost"))
    for i, (deals, rate) in enumerate(zip(table["deals"], table["success_rate"], strict=True)):
        axes.annotate(
            _("{rate} won").format(rate=format_percent(rate)),
            (i, deals),
            ha="center",
            va="bottom",
            xytext=(0, 3),
            textcoords="offset points",
        )
    axes.set_xticks(x, labels)
    axes.set_ylim(0, table["deals"].max() * 1.15)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    _legend_outside(figure, axes)
    return figure


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

    Cells with no deal (a player with themself, or a pair who never defended together) are grey and blank.
    """
    table = stats.pairings(frames)
    _require(table, "pairings", frames, N_("pairs of defenders"))
    names = sorted(set(table["player_a"]) | set(table["player_b"]), key=frames.players.index)
    index = {name: i for i, name in enumerate(names)}
    grid, count = np.full((len(names), len(names)), np.nan), np.zeros((len(names), len(names)), dtype=int)
    for row in table.itertuples(index=False):
        a, b = index[row.player_a], index[row.player_b]
        grid[a, b], grid[b, a] = row.points_a / row.deals, row.points_b / row.deals
        count[a, b] = count[b, a] = row.deals
    figure, axes = _figure(_("Defending together: points per deal"), _("partner in defence"), _("player"))
    axes.grid(False)
    limit = max(float(np.nanmax(np.abs(grid))), 0.5)
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad=NO_DATA)
    image = axes.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=-limit, vmax=limit, aspect="auto")
    for (a, b), value in np.ndenumerate(grid):
        if not np.isnan(value):
            colour = "white" if abs(value) > limit * 0.6 else "black"
            deals = ngettext("{count} deal", "{count} deals", int(count[a, b])).format(
                count=format_count(int(count[a, b]))
            )
            text = f"{format_decimal(value, signed=True)}\n{deals}"
            axes.text(b, a, text, ha="center", va="center", fontsize=SMALLEST_TEXT, color=colour)
    axes.set_xticks(range(len(names)), names)
    axes.set_yticks(range(len(names)), names)
    _slant_long_names(axes)
    figure.colorbar(image, ax=axes, label=_("game points per deal"))
    return figure


def _slant_long_names(axes: Axes) -> None:
    """Names along the x axis slanted when they are long, so that neighbours never run into each other."""
    if max((len(label.get_text()) for label in axes.get_xticklabels()), default=0) > 8:
        axes.tick_params(axis="x", labelrotation=30)
        for label in axes.get_xticklabels():
            label.set_horizontalalignment("right")


KINDS: dict[str, Callable[[Frames], Figure]] = {
    "running": running,
    "money": money,
    "contracts": contracts,
    "thirds": thirds,
    "pairings": pairings,
}


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
    """The figure as PNG or SVG (text kept as text, no timestamp)."""
    buffer = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    with matplotlib.rc_context(STYLE):
        figure.savefig(buffer, format=fmt, dpi=DPI, metadata=metadata)
    return buffer.getvalue()


def chart_image(kind: str, frames: Frames, fmt: str) -> bytes:
    """The chart of this kind as PNG or SVG, drawn while no other thread draws."""
    if fmt not in FORMATS:
        raise LedgerError(_("image format {fmt!r}: png or svg").format(fmt=fmt))
    with _DRAWING:
        return image_bytes(draw(kind, frames), fmt)
