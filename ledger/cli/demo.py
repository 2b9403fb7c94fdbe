"""`calabresella demo`: record an example evening, print its standings and settlement, draw its charts."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.render import print_standings
from ledger.cli.session import open_ledger
from ledger.errors import LedgerError, system_reason
from ledger.i18n import _

if TYPE_CHECKING:
    from ledger.service import Ledger

CHARTS = ("running", "contracts", "thirds", "pairings", "money")
SHIPPED = files("ledger") / "examples"
"""The example evenings installed with the package (the top-level `examples/` folder of the source)."""


def demo(
    ctx: typer.Context,
    example: Annotated[
        str,
        typer.Option("--example", help="An example evening shipped with calabresella: three_friends or four_players."),
    ] = ("three_friends"),
    source: Annotated[
        Path | None, typer.Option("--file", help="An evening exported as JSON, instead of a shipped example.")
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", help="Folder for the demo's own ledger (demo.sqlite3), its charts and report.")
    ] = Path("calabresella-demo"),
) -> None:
    """Record the example evening (once) into a ledger of its own, print its standings and settlement, write its
    charts and report. The demo's ledger is demo.sqlite3 in the --out folder, apart from your evenings, unless --db
    (or CALABRESELLA_DB) names one.

    [b]Example[/b]

    calabresella demo --example four_players --out demo-four

    calabresella demo --file my-evening.json
    """
    path = source or _shipped(example)
    label = str(source) if source else _("the example {example}").format(example=example)
    if not path.is_file():
        raise LedgerError(
            _("--file {source}: no such file (without --file, demo records a shipped example)").format(source=source)
        )
    _folder(out)
    with open_ledger(ctx, default=str(out / "demo.sqlite3")) as ledger:
        imported = ledger.import_file(path)
        if imported.evenings:
            evening = imported.evenings[0]
            typer.echo(
                _("Recorded {source} as evening {evening} in {info}.").format(
                    source=label, evening=evening, info=ledger.info()["url"]
                )
            )
        else:
            evening = imported.skipped[0]
            typer.echo(_("{source} is already evening {evening} of this ledger.").format(source=label, evening=evening))
        print_standings(ledger.standings(evening))
        _draw(ledger, evening, out)


def _folder(out: Path) -> None:
    """The demo's folder, made if needed; one line when it cannot be."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise LedgerError(
            _("--out {out}: cannot write into it ({strerror})").format(out=out, strerror=system_reason(error))
        ) from None


def _shipped(name: str) -> Path:
    """A shipped example evening's file, by name."""
    names = sorted(item.name.removesuffix(".json") for item in SHIPPED.iterdir() if item.name.endswith(".json"))
    if name not in names:
        raise LedgerError(
            _("--example {name!r}: the shipped examples are {names}").format(name=name, names=", ".join(names))
        )
    return Path(str(SHIPPED / f"{name}.json"))


def _draw(ledger: Ledger, evening: int, out: Path) -> None:
    """The evening's charts and its HTML report, which shows the charts written beside it (drawn once)."""
    written = [out / f"{kind}.png" for kind in CHARTS]
    images = [ledger.chart(kind, evening=evening) for kind in CHARTS]
    page = ledger.report(evening, charts="{kind}.png")
    report = out / f"evening-{evening}.html"
    try:
        for path, image in zip(written, images, strict=True):
            path.write_bytes(image)
        report.write_text(page, encoding="utf-8")
    except OSError as error:
        raise LedgerError(
            _("--out {out}: cannot write into it ({strerror})").format(out=out, strerror=system_reason(error))
        ) from None
    typer.echo(
        _("Wrote {items} and {name} into {out}/.").format(
            items=", ".join(p.name for p in written), name=report.name, out=out
        )
    )
