"""`calabresella stats|chart|report`: history in tables, charts and an evening report.

pandas, matplotlib and `reports` are imported inside the commands, so other commands start without them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli import loaded
from ledger.cli.app import JsonFlag, db_url, print_json
from ledger.errors import LedgerError
from ledger.fmt import format_cents
from ledger.i18n import _

if TYPE_CHECKING:
    import pandas as pd
    from sqlalchemy import Engine

SHOW_AFTER_SECONDS = 1.0
"""A reporting command still working after this long shows a progress bar."""
PANEL = "Reports"

EveningFilter = Annotated[int | None, typer.Option("--evening", "-e", help="Only this evening (its number).", min=1)]
OutFile = Annotated[Path, typer.Option("--out", "-O", help="The file to write.", dir_okay=False)]


@contextmanager
def _ledger(ctx: typer.Context) -> Iterator[Engine]:
    from ledger.store.engine import open_ledger

    engine = open_ledger(db_url(ctx))
    loaded()
    try:
        yield engine
    finally:
        engine.dispose()


@contextmanager
def _phases(phases: int) -> Iterator[Callable[[str], None]]:
    """A transient progress bar on stderr that appears once the work has taken over a second."""
    import threading

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), transient=True, console=Console(stderr=True)
    )
    task = progress.add_task("reading the ledger", total=phases)
    timer = threading.Timer(SHOW_AFTER_SECONDS, progress.start)
    timer.daemon = True
    done = [0]

    def step(description: str) -> None:
        progress.update(task, completed=done[0], description=description)
        done[0] += 1

    timer.start()
    try:
        yield step
    finally:
        timer.cancel()
        timer.join()
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

    Also: bids by contract and how often won; contracts and aggravations; called cards and who held them.

    Seats relative to the dealer (1 speaks first, the dealer's seat last); pairs defending together; passed deals.

    [b]Declarer rating (Elo)[/b]: each player has a declarer rating and a defence rating, both starting at 1500.

    Each declared deal, in playing order, is a game of the declarer (rating R) against the defenders' mean defence A.

    Expected score E = 1 / (1 + 10^((A - R) / 400)); score S = 1 if the declarer won, else 0.

    The declarer's rating moves by K x (S - E) with K = 24; the defenders share the opposite move equally.

    A separate defence pool absorbs the declarer's usual edge, so nothing inflates. [i]expected won[/i] = sum of E.

    [b]Examples[/b]

    calabresella stats

    calabresella stats --player Anna --since 2024-01-01 --json

    calabresella stats --evening 12 --csv evening12.csv
    """
    from ledger.clock import parse_date
    from reports.filters import Filters
    from reports.frames import load_frames
    from reports.stats import SECTIONS, statistics

    filters = Filters(
        evening=evening,
        player=player,
        since=parse_date(since, "--since"),
        until=parse_date(until, "--until"),
        profile=profile,
    )
    with _ledger(ctx) as engine, _phases(1 + len(SECTIONS)) as step:
        step(_("reading the deals"))
        frames = load_frames(engine, filters)
        tables = statistics(frames, on_section=step)
    if csv is not None:
        _write_csv(tables, csv)
    if as_json:
        print_json({"filters": frames.filters.describe(), **{name: _records(t) for name, t in tables.items()}})
    else:
        _print_tables(tables, frames.filters.describe())


def _records(table: pd.DataFrame) -> list[dict[str, object]]:
    """JSON-ready rows: numpy numbers as plain numbers, missing values as null."""
    import json

    return json.loads(table.to_json(orient="records", double_precision=6))


def _write_csv(tables: dict[str, pd.DataFrame], path: Path) -> None:
    import pandas as pd

    from ledger.spreadsheet import safe_cell

    stacked = pd.concat(
        [table.assign(table=name) for name, table in tables.items() if not table.empty], ignore_index=True
    ).convert_dtypes()
    columns = ["table", *[c for c in stacked.columns if c != "table"]]
    try:
        stacked[columns].map(safe_cell).to_csv(path, index=False)
    except OSError as error:
        raise LedgerError(
            _("--csv {path!r}: cannot write it ({strerror})").format(path=str(path), strerror=error.strerror)
        ) from None


def _cell(column: str, value: object) -> str:
    """A value as shown in a table: rates in percent, cents in currency units, text escaped from rich markup."""
    import pandas as pd
    from rich.markup import escape

    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return "-"
    if column.endswith("_rate") or column == "share":
        return f"{float(value):.0%}"  # type: ignore[arg-type]
    if column.endswith("_cents"):
        return format_cents(int(value))  # type: ignore[call-overload]
    if isinstance(value, float):
        return f"{value:.2f}"
    return escape(str(value))


def _header(column: str) -> str:
    """`per deal declarer` for `per_deal_declarer_cents`."""
    return column.removesuffix("_cents").replace("_", " ")


def _print_tables(tables: dict[str, pd.DataFrame], scope: str) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from reports.stats import SECTIONS

    console = Console(highlight=False)
    if tables["summary"]["deals"].iloc[0] == 0:
        console.print(_("No deals stand for {scope}.").format(scope=escape(scope)))
        return
    console.print(_("[bold]Statistics[/bold] · {scope}").format(scope=escape(scope)))
    for name, table in tables.items():
        if table.empty:
            continue
        shown = Table(title=SECTIONS[name][0], title_justify="left", show_edge=False, pad_edge=False)
        if name in ("summary", "players"):
            rows = table.set_index("player") if name == "players" else table
            shown.add_column("")
            for head in rows.index if name == "players" else [""]:
                shown.add_column(escape(str(head)), justify="right")
            for column in rows.columns:
                shown.add_row(_header(column), *[_cell(column, v) for v in rows[column]])
        else:
            for column in table.columns:
                numeric = table[column].dtype.kind in "iuf"
                label = escape(str(column)) if name == "called" else _header(column)  # holders are player names
                shown.add_column(label, justify="right" if numeric else "left")
            for row in table.itertuples(index=False):
                shown.add_row(*[_cell(column, value) for column, value in zip(table.columns, row, strict=True)])
        console.print()
        console.print(shown)


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
        Path | None, typer.Option("--out", "-O", help="The image to write, ending in .png or .svg.", dir_okay=False)
    ] = None,
    evening: EveningFilter = None,
) -> None:
    """Draw a chart of the history as a PNG or SVG image (readable on a phone).

    [b]Examples[/b]

    calabresella chart running --evening 12 --out evening12.png

    calabresella chart money --out money.svg

    calabresella chart thirds --out thirds.png
    """
    from reports.charts import check_kind, check_output, save
    from reports.filters import Filters
    from reports.frames import load_frames

    check_kind(kind)
    if out is None:
        raise LedgerError(_("chart {kind}: give the image to write, e.g. --out {kind}.png").format(kind=kind))
    check_output(out)
    with _ledger(ctx) as engine, _phases(2) as step:
        step(_("reading the deals"))
        frames = load_frames(engine, Filters(evening=evening))
        step(_("drawing {kind}").format(kind=kind))
        _write(out, lambda path: save(kind, frames, path))
    typer.echo(_("Wrote {out}").format(out=out))


def report(
    ctx: typer.Context,
    out: OutFile,
    evening: Annotated[
        int | None,
        typer.Option("--evening", "-e", help="The evening's number (default: the most recent evening).", min=1),
    ] = None,
) -> None:
    """Write one evening as a self-contained HTML page, to open on any phone or send around.

    It shows the seats, every deal explained (voided ones struck through with the reason), the standings, the
    settlement in the fewest payments, and charts.

    [b]Example[/b]

    calabresella report --evening 12 --out evening12.html
    """
    from reports.html import evening_report

    if out.suffix.lower() not in (".html", ".htm"):
        raise LedgerError(
            _("--out {out!r}: the report is an HTML page; give a file name ending in .html").format(out=str(out))
        )
    with _ledger(ctx) as engine, _phases(1) as step:
        step(_("writing the report"))
        page = evening_report(engine, evening)
    _write(out, lambda path: path.write_text(page, encoding="utf-8"))
    typer.echo(_("Wrote {out}").format(out=out))


def _write(out: Path, writer: Callable[[Path], object]) -> None:
    """Write a file, turning a missing folder or a permission problem into a one-line error."""
    try:
        writer(out)
    except OSError as error:
        raise LedgerError(
            _("--out {out!r}: cannot write it ({strerror})").format(out=str(out), strerror=error.strerror)
        ) from None


def register(app: typer.Typer) -> None:
    """Add `stats`, `chart` and `report` to the root app."""
    app.command(rich_help_panel=PANEL)(stats)
    app.command(rich_help_panel=PANEL)(chart)
    app.command(rich_help_panel=PANEL)(report)
