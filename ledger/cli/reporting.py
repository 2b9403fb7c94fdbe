"""`calabresella stats|chart|report`: history in tables, charts and an evening report, as `Ledger` gives them
(pandas and matplotlib load inside its reporting methods, so other commands start without them)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.app import JsonFlag, print_json
from ledger.cli.session import open_ledger
from ledger.errors import LedgerError, system_reason
from ledger.fmt import format_cents, format_count, format_decimal, format_percent
from ledger.i18n import _, language
from ledger.values import Statistics, StatTable

if TYPE_CHECKING:
    from rich.table import Table

SHOW_AFTER_SECONDS = 1.0
"""A reporting command still working after this long shows a progress bar."""
PANEL = "Reports"
IMAGES = (".png", ".svg")

CHART_WORDS = {
    "andamento": "running",
    "soldi": "money",
    "contratti": "contracts",
    "terzi": "thirds",
    "coppie": "pairings",
}
"""The Italian word of each chart, which `chart` takes as well as the English one."""
EveningFilter = Annotated[int | None, typer.Option("--evening", "-e", help="Only this evening (its number).", min=1)]


@contextmanager
def _progress() -> Iterator[Callable[[str, float], None]]:
    """A transient progress bar on stderr that appears once the work has taken over a second, on a terminal only
    (elsewhere it would leave an empty line)."""
    import threading

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        transient=True,
        console=Console(stderr=True),
    )
    task = progress.add_task(_("reading the ledger"), total=1.0)
    timer = threading.Timer(SHOW_AFTER_SECONDS, progress.start if progress.console.is_terminal else lambda: None)
    timer.daemon = True

    def step(description: str, done: float) -> None:
        progress.update(task, completed=done, description=description)

    timer.start()
    try:
        yield step
    finally:
        timer.cancel()
        timer.join()
        if progress.live.is_started:  # stopping a bar never shown would still write a line
            progress.stop()


def stats(
    ctx: typer.Context,
    evening: EveningFilter = None,
    player: Annotated[
        str | None, typer.Option("--player", help="Only deals this player sat in, and this player's rows.")
    ] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="Evenings started on or after this date, YYYY-MM-DD.")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", help="Evenings started on or before this date, YYYY-MM-DD.")
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option("--profile", "-P", help="Only evenings scored with this profile: pagat, cavendish, tretre, ..."),
    ] = None,
    as_json: JsonFlag = False,
    csv: Annotated[
        Path | None,
        typer.Option(
            "--csv",
            help="Also write every table to this CSV file, one row per table row, with a `table` column.",
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Statistics over the deals that stand: current revisions only, voided deals never count.

    [b]Players[/b]: evenings, deals seated, as declarer, as opponent; average declarer thirds; biggest win and loss.

    Game points and money per deal: overall, as declarer, as opponent. Cappotto and stramazzo for and against.

    Streaks: the most consecutive deals a player sat in with positive (winning) or negative (losing) game points.

    Also: bids by contract and how often won; contracts and aggravations, with the declarer's average game points;
    called cards and who held them. Card points are counted in thirds (a deal holds 35).

    Seats relative to the dealer (1 speaks first, the dealer's seat last); pairs defending together; passed deals.

    [b]Declarer rating (Elo)[/b]: each player has a declarer rating and a defence rating, both starting at 1500.

    Each declared deal, in playing order, is a game of the declarer (rating R) against the defenders' mean defence A.

    Expected score E = 1 / (1 + 10^((A - R) / 400)); score S = 1 if the declarer won, else 0.

    The declarer's rating moves by K x (S - E) with K = 24; the defenders share the opposite move equally.

    A separate defence pool absorbs the declarer's usual edge, so nothing inflates. [i]expected wins[/i] = sum of E.

    [b]Examples[/b]

    calabresella stats

    calabresella stats --player Anna --since 2024-01-01 --json

    calabresella stats --evening 12 --csv evening12.csv
    """
    from ledger.clock import parse_date

    with open_ledger(ctx, create=False) as ledger, _progress() as step:
        result = ledger.stats(
            evening=evening,
            player=player,
            since=parse_date(since, "--since"),
            until=parse_date(until, "--until"),
            profile=profile,
            on_step=step,
        )
    if csv is not None:
        _write_csv(result, csv)
    if as_json:
        print_json(result)
    else:
        _print_tables(result)


def _write_csv(result: Statistics, path: Path) -> None:
    """Every table in one CSV file, one row per table row, with a `table` column; text never read as a formula."""
    import csv

    from ledger.spreadsheet import safe_cell

    columns = ["table", *dict.fromkeys(c for table in result.tables if table.rows for c in table.columns)]
    try:
        with path.open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow([safe_cell(column) for column in columns])
            for table in result.tables:
                for row in table.rows:
                    cells = {"table": table.name, **row}
                    writer.writerow([safe_cell(_csv_value(cells.get(column))) for column in columns])
    except OSError as error:
        raise LedgerError(
            _("--csv {path!r}: cannot write it ({strerror})").format(path=str(path), strerror=system_reason(error))
        ) from None


def _csv_value(value: object) -> object:
    """A cell as a spreadsheet reads it: nothing for a missing value, whole numbers without a decimal point."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _cell(column: str, value: object) -> str:
    """A value as shown in a table: rates in percent, cents in currency units, numbers in the language's format,
    text escaped from rich markup."""
    from rich.markup import escape

    if value is None:
        return "-"
    if not isinstance(value, int | float):
        return escape(str(value))
    if column.endswith("_rate") or column == "share":
        return format_percent(value)
    if column.endswith("_cents"):
        return format_cents(round(value))
    return format_decimal(value) if isinstance(value, float) else format_count(value)


def _print_tables(result: Statistics) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False)
    if result.deals == 0:
        console.print(_("No deals stand for {scope}.").format(scope=escape(result.scope)))
        return
    console.print(_("[bold]Statistics[/bold] · {scope}").format(scope=escape(result.scope)))
    for table in result.tables:
        if table.rows:
            console.print()
            console.print(_turned(table) if table.name in ("summary", "players") else _listed(table))


def _titled(table: StatTable) -> Table:
    """An empty rich table under the table's title, at least as wide as the title (so it is never wrapped)."""
    from rich.markup import escape
    from rich.table import Table

    return Table(
        title=escape(table.title), title_justify="left", show_edge=False, pad_edge=False, min_width=len(table.title)
    )


def _turned(table: StatTable) -> object:
    """A table shown on its side: one line per column, one column per row (per player, for `players`)."""
    from rich.markup import escape

    shown = _titled(table)
    shown.add_column("")
    heads = [row["player"] for row in table.rows] if table.name == "players" else [""]
    for head in heads:
        shown.add_column(escape(str(head)), justify="right")
    for column, header in zip(table.columns, table.headers, strict=True):
        if table.name == "players" and column == "player":
            continue
        shown.add_row(escape(header), *[_cell(column, row[column]) for row in table.rows])
    return shown


def _listed(table: StatTable) -> object:
    """A table as it is: one line per row."""
    from rich.markup import escape

    shown = _titled(table)
    for column, header in zip(table.columns, table.headers, strict=True):
        shown.add_column(escape(header), justify="right" if column in table.numeric else "left")
    for row in table.rows:
        shown.add_row(*[_cell(column, row[column]) for column in table.columns])
    return shown


def chart(
    ctx: typer.Context,
    kind: Annotated[
        str,
        typer.Argument(
            help="running (game points through an evening), money (across evenings), contracts (mix and success), "
            "thirds (histogram of the declarer's thirds), pairings (heatmap of pairs defending together)."
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-O",
            help="The image to write, ending in .png or .svg (default: KIND.png, or evening-N-KIND.png with --evening, "
            "in the current folder).",
            dir_okay=False,
        ),
    ] = None,
    evening: EveningFilter = None,
) -> None:
    """Draw a chart of the history as a PNG or SVG image (readable on a phone).

    [b]Examples[/b]

    calabresella chart running --evening 12 --out evening12.png

    calabresella chart money --out money.svg

    calabresella chart thirds --out thirds.png
    """
    kind = _chart_kind(kind)
    named = _chart_names().get(kind, kind)
    out = out or Path(
        _("evening-{number}-{chart}.png").format(number=evening, chart=named) if evening else f"{named}.png"
    )
    if out.suffix.lower() not in IMAGES:
        raise LedgerError(_("--out {out!r}: the file name must end in .png or .svg").format(out=str(out)))
    with open_ledger(ctx, create=False) as ledger, _progress() as step:
        step(_("drawing {kind}").format(kind=kind), 0.5)
        image = ledger.chart(kind, evening=evening, fmt=out.suffix.lower()[1:])
    _write(out, lambda path: path.write_bytes(image))
    typer.echo(_("Wrote {out}").format(out=out))


def _chart_kind(word: str) -> str:
    """The chart a word names, in English or in Italian; an error listing them in the language in use, with the one
    meant when the word is close to one."""
    kind = CHART_WORDS.get(word.lower(), word.lower())
    if kind not in CHART_WORDS.values():
        shown = _chart_names()
        kinds = [shown.get(each, each) for each in CHART_WORDS.values()]
        close = difflib.get_close_matches(word.lower(), [*shown.values(), *CHART_WORDS.values()], n=1)
        named = CHART_WORDS.get(close[0], close[0]) if close else None
        meant = _(" (did you mean {name}?)").format(name=shown.get(named, named)) if named else ""
        raise LedgerError(
            _("chart {word!r}: allowed are {kinds}{meant}").format(word=word, kinds=", ".join(kinds), meant=meant)
        )
    return kind


def _chart_names() -> dict[str, str]:
    """Each chart's name in the language in use where it is not its English one: `running` is `andamento`."""
    return dict(zip(CHART_WORDS.values(), CHART_WORDS, strict=True)) if language() == "it" else {}


def report(
    ctx: typer.Context,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-O",
            help="The page to write, ending in .html (default: evening-N.html in the current folder).",
            dir_okay=False,
        ),
    ] = None,
    evening: Annotated[
        int | None,
        typer.Option(
            "--evening", "-e", help="The evening's number (default: the open evening, else the most recent).", min=1
        ),
    ] = None,
) -> None:
    """Write one evening as a self-contained HTML page, to open on any phone or send around.

    It shows the seats, every deal explained (voided ones struck through with the reason), the standings, the
    settlement in the fewest payments, and charts.

    [b]Example[/b]

    calabresella report

    calabresella report --evening 12 --out evening12.html
    """
    if out is not None and out.suffix.lower() not in (".html", ".htm"):
        raise LedgerError(
            _("--out {out!r}: the report is an HTML page; give a file name ending in .html").format(out=str(out))
        )
    with open_ledger(ctx, create=False) as ledger, _progress() as step:
        step(_("writing the report"), 0.5)
        number = ledger.evening(evening, latest=True).number
        page = ledger.report(number)
    out = out or Path(_("evening-{number}.html").format(number=number))
    _write(out, lambda path: path.write_text(page, encoding="utf-8"))
    typer.echo(_("Wrote {out}").format(out=out))


def _write(out: Path, writer: Callable[[Path], object]) -> None:
    """Write a file, turning a missing folder or a permission problem into a one-line error."""
    try:
        writer(out)
    except OSError as error:
        raise LedgerError(
            _("--out {out!r}: cannot write it ({strerror})").format(out=str(out), strerror=system_reason(error))
        ) from None


def register(app: typer.Typer) -> None:
    """Add `stats`, `chart` and `report` to the root app."""
    app.command(rich_help_panel=PANEL)(stats)
    app.command(rich_help_panel=PANEL)(chart)
    app.command(rich_help_panel=PANEL)(report)
