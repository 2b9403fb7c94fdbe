"""What the charts draw, read back from the matplotlib figures of a small real ledger.

Evening 1 (Anna, Bruno, Carla): 1 Bruno solo 22; 2 Carla chiamo 3D held by Anna, 17; 3 voided; 4 Anna solo 35
in 11 tricks, stramazzo (Anna +12). Evening 2 (Anna, Bruno, Dario): 1 Dario solo 20 (Dario +4, -2 each).
Money at 0.10 a game point: Anna 1.10 then 0.90, Carla -1.00, Dario 0.40. Carla misses evening 2 and Dario evening 1.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox
from reports_support import frames_of

from ledger.clock import as_local
from ledger.i18n import use_language
from ledger.recording import record as record_deal
from ledger.recording import void as void_deal
from ledger.reports import charts
from ledger.reports.frames import Frames
from ledger.rules.build import DealInput
from ledger.store.engine import open_ledger, transaction
from ledger.store.evenings import start_evening
from ledger.values import Terms

SHOTS = Path("/tmp/shots")
TWELVE = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Luca", "Marta", "Nico", "Olga", "Piero")


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("charts") / "t.sqlite3")
    engine = open_ledger(path)
    with transaction(engine) as s:
        one = start_evening(s, ("Anna", "Bruno", "Carla"), Terms(stake="0.10"))
        record_deal(s, one, DealInput(declarer="Bruno", contract="solo", thirds=22))
        record_deal(s, one, DealInput(declarer="Carla", contract="chiamo", called="3D", holder="Anna", thirds=17))
        record_deal(s, one, DealInput(declarer="Anna", contract="solo", thirds=30, last_trick="declarer"))
        void_deal(s, one, 3, "misdeal")
        record_deal(s, one, DealInput(declarer="Anna", contract="solo", thirds=35, tricks=11))
    with transaction(engine) as s:
        two = start_evening(s, ("Anna", "Bruno", "Dario"), Terms(stake="0.10"))
        record_deal(s, two, DealInput(declarer="Dario", contract="solo", thirds=20))
    engine.dispose()
    return path


@pytest.fixture(scope="module")
def frames(ledger: str) -> dict[int | None, Frames]:
    """The frames of the whole ledger (None) and of evening 1, read once for the module."""
    return {evening: frames_of(ledger, evening=evening) for evening in (None, 1)}


@pytest.fixture(scope="module")
def drawn(frames: dict[int | None, Frames]) -> Callable[..., Figure]:
    """A chart of the whole ledger or of one evening, drawn once for the module's tests (which only read it)."""

    @cache
    def draw(kind: str, evening: int | None = None) -> Figure:
        """Draw the chart, lay it out as it will be saved, and keep a PNG copy in /tmp/shots to look at."""
        figure = charts.draw(kind, frames[evening])
        SHOTS.mkdir(exist_ok=True)
        name = kind if evening is None else f"{kind}-evening-{evening}"
        (SHOTS / f"{name}.png").write_bytes(charts.image_bytes(figure, "png"))
        return figure

    return draw


def _lines(figure: Figure) -> dict[str, np.ndarray]:
    return {
        str(line.get_label()): np.asarray(line.get_ydata(), dtype=float)
        for line in figure.axes[0].get_lines()
        if not str(line.get_label()).startswith("_")
    }


def test_money_with_one_evening_is_a_bar_per_player_with_its_amount(
    frames: dict[int | None, Frames], drawn: Callable[..., Figure]
) -> None:
    axes = drawn("money", 1).axes[0]
    day = as_local(frames[1].evenings.loc[1, "started_at"].to_pydatetime()).strftime("%Y-%m-%d")  # the local day
    assert axes.get_title() == f"Money in evening 1 ({day})"
    assert [t.get_text() for t in axes.get_xticklabels()] == ["Anna", "Bruno", "Carla"]
    assert [round(bar.get_height(), 2) for bar in axes.patches] == [1.1, -0.1, -1.0]  # no column of dots
    assert [t.get_text() for t in axes.texts] == ["+1.10", "-0.10", "-1.00"]


def test_money_leaves_a_gap_for_an_absent_player_and_keeps_the_legend_off_the_data(
    drawn: Callable[..., Figure],
) -> None:
    figure = drawn("money")
    lines = _lines(figure)
    assert lines["Carla"][0] == pytest.approx(-1.0) and np.isnan(lines["Carla"][1])
    assert np.isnan(lines["Dario"][0]) and lines["Dario"][1] == pytest.approx(0.4)
    assert lines["Anna"].tolist() == pytest.approx([1.1, 0.9])
    axes = figure.axes[0]
    assert axes.get_legend() is None and len(figure.legends) == 1
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    assert not figure.legends[0].get_window_extent(renderer).overlaps(axes.get_window_extent(renderer))


def test_thirds_bars_are_centred_on_whole_thirds(drawn: Callable[..., Figure]) -> None:
    axes = drawn("thirds").axes[0]
    bars = axes.patches
    centres = [bar.get_x() + bar.get_width() / 2 for bar in bars]
    assert centres == list(range(36))
    heights = {centre: bar.get_height() for centre, bar in zip(centres, bars, strict=True) if bar.get_height()}
    assert heights == {17: 1, 20: 1, 22: 1, 35: 1}


def test_pairings_mask_the_diagonal(drawn: Callable[..., Figure]) -> None:
    axes = drawn("pairings").axes[0]
    image = axes.get_images()[0]
    grid = image.get_array()
    assert all(grid.mask[i, i] for i in range(grid.shape[0]))
    assert image.get_cmap().get_bad().tolist() == pytest.approx([208 / 255, 208 / 255, 208 / 255, 1.0])
    written = {(round(t.get_position()[1]), round(t.get_position()[0])) for t in axes.texts}
    assert not any(row == column for row, column in written)
    assert written


def test_running_marks_the_voided_deal_without_writing_over_the_lines(drawn: Callable[..., Figure]) -> None:
    axes = drawn("running", 1).axes[0]
    assert len(axes.texts) == 0 and axes.get_xlabel() == "deal (dotted: voided 3)"
    marks = [line for line in axes.get_lines() if line.get_linestyle() == ":"]
    assert [list(line.get_xdata()) for line in marks] == [[3, 3]]


def test_game_points_are_whole_and_overlapping_lines_stay_apart(drawn: Callable[..., Figure]) -> None:
    figure = drawn("running", 1)
    figure.draw(FigureCanvasAgg(figure).get_renderer())
    axes = figure.axes[0]
    assert all(float(tick).is_integer() for tick in axes.get_yticks())
    lines = [line for line in axes.get_lines() if not str(line.get_label()).startswith("_")]
    assert len({line.get_marker() for line in lines}) == len(lines)  # Bruno's line under Carla's still shows
    widths = [line.get_linewidth() for line in lines]
    assert widths == sorted(widths, reverse=True) and len(set(widths)) == len(widths)


def test_pairings_fill_the_figure_and_say_what_the_counts_are(drawn: Callable[..., Figure]) -> None:
    figure = drawn("pairings")
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    box = figure.axes[0].get_window_extent(renderer)
    width = figure.get_figwidth() * figure.dpi
    assert box.x0 < 0.2 * width  # not pushed off-centre by a square grid in a wide figure
    assert any(t.get_text().endswith("\n1 deal") for t in figure.axes[0].texts)


@pytest.mark.parametrize("kind", list(charts.KINDS))
def test_every_text_is_at_least_11_css_pixels_on_a_390_pixel_phone(drawn: Callable[..., Figure], kind: str) -> None:
    figure = drawn(kind)
    figure.draw(FigureCanvasAgg(figure).get_renderer())
    scale = 390 / (figure.get_figwidth() * figure.dpi)
    texts = [t for t in figure.findobj(lambda artist: hasattr(artist, "get_fontsize")) if t.get_text()]
    assert texts
    smallest = min(text.get_fontsize() * figure.dpi / 72 * scale for text in texts)
    assert smallest >= 11, f"{kind}: text of {smallest:.1f} CSS pixels"


def test_contract_percentages_say_they_are_win_rates(drawn: Callable[..., Figure]) -> None:
    axes = drawn("contracts").axes[0]
    assert sorted(t.get_text() for t in axes.texts) == ["0% won", "100% won"]
    assert "win rate" in axes.get_title()


def _drawn_for(folder: Path, names: tuple[str, ...], kind: str = "pairings") -> Figure:
    """The chart of a ledger where each three consecutive names (wrapping round) play one evening of one deal at 0.10
    a game point: the last of them declares a solo, so the first two defend together."""
    path = str(folder / f"pairs{len(names)}.sqlite3")
    engine = open_ledger(path)
    for i in range(0, len(names), 2):
        trio = tuple(names[(i + k) % len(names)] for k in range(3))
        with transaction(engine) as s:
            evening = start_evening(s, trio, Terms(stake="0.10"))
            record_deal(s, evening, DealInput(declarer=trio[2], contract="solo", thirds=18 + i))
    engine.dispose()
    figure = charts.draw(kind, frames_of(path))
    SHOTS.mkdir(exist_ok=True)
    (SHOTS / f"{kind}-{len(names)}-players.png").write_bytes(charts.image_bytes(figure, "png"))
    return figure


def _boxes_apart(boxes: list[Any]) -> bool:
    return not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def test_pairings_of_five_players_label_each_cell_inside_it(tmp_path: Path) -> None:
    figure = _drawn_for(tmp_path, ("Anna", "Bruno", "Carla", "Dario", "Elena"))
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    axes = figure.axes[0]
    cells = len(axes.get_yticks())
    area = axes.get_window_extent(renderer)
    boxes = [text.get_window_extent(renderer) for text in axes.texts]
    assert len(figure.axes) == 1 and len(boxes) == 6  # three pairs, each cell twice
    assert all(box.width <= area.width / cells and box.height <= area.height / cells for box in boxes)
    assert _boxes_apart(boxes)


def test_pairings_of_too_many_players_for_labels_show_a_colour_bar_and_names_apart(tmp_path: Path) -> None:
    figure = _drawn_for(tmp_path, TWELVE)
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    axes, scale = figure.axes
    assert not axes.texts and axes.get_xlabel() == "partner in defence"
    assert scale.get_ylim() == pytest.approx(axes.get_images()[0].get_clim())
    spans = sorted(
        (label.get_text().count("\n"), box.x0, box.x1)  # the line a name is staggered on, and where it runs
        for label in axes.get_xticklabels()
        if label.get_text()
        for box in [label.get_window_extent(renderer)]
    )
    assert len(spans) == 12
    assert all(left[2] < right[1] for left, right in pairwise(spans) if left[0] == right[0])


def test_a_legend_of_four_players_stays_within_the_figure(drawn: Callable[..., Figure]) -> None:
    figure = drawn("money")
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    box, edge = figure.legends[0].get_window_extent(renderer), figure.bbox
    assert len(figure.legends[0].get_texts()) == 4
    assert edge.x0 <= box.x0 and box.x1 <= edge.x1


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_money_axis_of_twelve_players_keeps_its_label_within_the_figure(tmp_path: Path, language: str) -> None:
    """Twelve players' legend takes four rows under the axes: the y axis's label is wrapped to the height left."""
    use_language(language)
    figure = _drawn_for(tmp_path, TWELVE, "money")
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    label, edge = figure.axes[0].yaxis.label, figure.bbox
    box = label.get_window_extent(renderer)
    assert len(figure.legends[0].get_texts()) == 12 and "\n" in label.get_text()
    assert edge.y0 <= box.y0 and box.y1 <= edge.y1 and edge.x0 <= box.x0


def test_contract_names_of_two_lines_never_touch_their_neighbours(tmp_path: Path) -> None:
    """Five contracts, two of them aggravated, in Italian (the longer title): the names half a line of type apart at
    least, each on one line (on two, "solissimo dividete" ran into "solissimo scegliete" under it), the title within
    the figure."""
    use_language("it")
    path = str(tmp_path / "contracts.sqlite3")
    engine = open_ledger(path)
    with transaction(engine) as s:
        evening = start_evening(s, ("Anna", "Bruno", "Carla"), Terms(stake="0.10"))
        record_deal(s, evening, DealInput(declarer="Carla", contract="chiamo", called="3D", holder="Anna", thirds=20))
        for contract, aggravation in (
            ("solo", None),
            ("solissimo", None),
            ("solissimo", "dividete"),
            ("solissimo", "scegliete"),
        ):
            record_deal(s, evening, DealInput(declarer="Bruno", contract=contract, aggravation=aggravation, thirds=22))
    engine.dispose()
    figure = charts.draw("contracts", frames_of(path))
    SHOTS.mkdir(exist_ok=True)
    (SHOTS / "contracts-five.png").write_bytes(charts.image_bytes(figure, "png"))
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    boxes = sorted(
        (label.get_window_extent(renderer) for label in figure.axes[0].get_yticklabels()), key=lambda box: box.y0
    )
    assert len(boxes) == 5
    half_a_line = charts.SMALLEST_TEXT / 2 * figure.dpi / 72
    gaps = [upper.y0 - lower.y1 for lower, upper in pairwise(boxes)]
    assert min(gaps) >= half_a_line, f"gaps of {[round(gap) for gap in gaps]} pixels"
    title, edge = figure.axes[0].title.get_window_extent(renderer), figure.bbox
    assert edge.x0 <= title.x0 and title.x1 <= edge.x1  # wrapped again over the axes the longer names leave


LONG = (
    "Alessandra Benedetta Caterina Dellapiana",
    "Bartolomeo Cristoforo Domenico Esposito1",
    "Costanza Donatella Eleonora Fiorentiniss",
    "Donatello Emanuele Francesco Gherardesca",
    "Eleonora Federica Gabriella Hohenzoller1",
)
"""Five names of 40 characters, the ledger's longest."""


@pytest.fixture(scope="module")
def long_named(tmp_path_factory: pytest.TempPathFactory) -> dict[int | None, Frames]:
    """Two quintiglio evenings of the five long names, six deals each: the whole ledger (None) and evening 1."""
    path = str(tmp_path_factory.mktemp("long") / "long.sqlite3")
    engine = open_ledger(path)
    for e in range(2):
        with transaction(engine) as s:
            evening = start_evening(s, LONG, Terms(profile="quintiglio", stake="0.10"))
            for i in range(6):
                record_deal(s, evening, DealInput(declarer=LONG[(i + e) % 5], contract="solo", thirds=14 + 3 * i))
    engine.dispose()
    return {evening: frames_of(path, evening=evening) for evening in (None, 1)}


@pytest.mark.parametrize(("kind", "evening"), [(kind, None) for kind in charts.KINDS] + [("money", 1)])
def test_five_names_of_40_characters_leave_the_plot_its_room(
    long_named: dict[int | None, Frames], kind: str, evening: int | None
) -> None:
    """No warning from matplotlib (constrained_layout once collapsed the axes to nothing); the plot keeps 40% of the
    figure's width and height at least (the pairings' heatmap with its colour bar: a third by itself); every name is
    cut to `NAME_ROOM` characters with an ellipsis, alike in every chart."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figure = charts.draw(kind, long_named[evening])
        png = charts.image_bytes(figure, "png")
    SHOTS.mkdir(exist_ok=True)
    (SHOTS / f"{kind}-long-names{'' if evening is None else f'-evening-{evening}'}.png").write_bytes(png)
    box = figure.axes[0].get_position()
    if kind == "pairings" and len(figure.axes) > 1:
        assert min(box.width, box.height) >= 1 / 3
        box = Bbox.union([box, figure.axes[1].get_position()])
    assert box.width >= 0.4 and box.height >= 0.4, f"the axes keep {box.width:.0%} x {box.height:.0%} of the figure"
    short = charts.short_names(LONG)
    assert all(len(name) == charts.NAME_ROOM and name.endswith(charts.ELLIPSIS) for name in short.values())
    texts = {text.get_text().strip() for text in figure.findobj(Text)}
    shown = {name for name in short.values() if any(name in text for text in texts)}
    assert not any(name in text for name in LONG for text in texts), "a name of 40 characters is written whole"
    if kind in ("running", "money", "pairings"):
        assert shown == set(short.values())


def test_long_names_are_cut_alike_and_told_apart() -> None:
    names = ("Giovanni Battista Rossi", "Giovanni Battista Russo", "Anna", "Maria Antonietta")
    short = charts.short_names(names)
    assert short["Anna"] == "Anna" and short["Maria Antonietta"] == "Maria Antoniet\u2026"
    assert short["Giovanni Battista Rossi"] == "Giovanni Battista Ro\u2026"
    assert short["Giovanni Battista Russo"] == "Giovanni Battista Ru\u2026"
    assert charts.short_names(reversed(names)) == short
