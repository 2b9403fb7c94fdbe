"""`calabresella demo`: record an example evening, print its standings and settlement, draw its charts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.render import console
from ledger.cli.session import open_ledger
from ledger.errors import LedgerError
from ledger.i18n import _

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
    from ledger.store.transfer import AlreadyImported

    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LedgerError(_("--file {source}: no such file (run the demo from the checkout, or give --file)").format(
            source=source)) from None
    with open_ledger(ctx) as ledger:
        try:
            evening = ledger.import_data(data)[0]
            console.print(_("Recorded {source} as evening {evening} in {info}.").format(
                source=source, evening=evening, info=ledger.info()['url']))
        except AlreadyImported as already:
            evening = already.evening
            console.print(_("{source} is already evening {evening} of this ledger.").format(
                source=source, evening=evening))
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
    console.print(_("Wrote {items} and {name} into {out}/.").format(
        items=', '.join(p.name for p in written), name=page.name, out=out))
