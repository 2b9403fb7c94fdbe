"""`calabresella demo`: record an example evening, print its standings and settlement, draw its charts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.render import console
from ledger.cli.session import open_ledger
from ledger.errors import LedgerError

CHARTS = ("running", "contracts", "thirds", "pairings", "money")


def demo(
    ctx: typer.Context,
    source: Annotated[Path, typer.Option(
        "--file", help="An evening exported as JSON.")] = Path("examples/three_friends.json"),
    out: Annotated[Path, typer.Option("--out", help="Folder for the charts and the HTML report.")] = Path(
        "calabresella-demo"),
) -> None:
    """Record the example evening into the ledger (once), print its standings and settlement, write its charts.

    [b]Example[/b]

    calabresella demo --file examples/four_players.json --out demo-four
    """
    from ledger.cli.deals import standings

    if not source.is_file():
        raise LedgerError(f"--file {source}: no such file (run the demo from the checkout, or give --file)")
    with open_ledger(ctx) as ledger:
        imported = ledger.import_file(source)
        if imported.evenings:
            evening = imported.evenings[0]
            console.print(f"Recorded {source} as evening {evening} in {ledger.info()['url']}.")
        else:
            evening = imported.skipped[0]
            console.print(f"{source} is already evening {evening} of this ledger.")
        standings(ctx, evening=evening)
        _draw(ledger.engine, evening, out)


def _draw(engine: object, evening: int, out: Path) -> None:
    """The evening's charts and its HTML report."""
    from reports.charts import save
    from reports.filters import Filters
    from reports.frames import load_frames
    from reports.html import evening_report

    out.mkdir(parents=True, exist_ok=True)
    frames = load_frames(engine, Filters(evening=evening))  # type: ignore[arg-type]
    written = [save(kind, frames, out / f"{kind}.png") for kind in CHARTS]
    page = out / f"evening-{evening}.html"
    page.write_text(evening_report(engine, evening), encoding="utf-8")  # type: ignore[arg-type]
    console.print(f"Wrote {', '.join(p.name for p in written)} and {page.name} into {out}/.")
