"""`calabresella export|import|backup` and `calabresella db upgrade|info`."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli import collector_paused
from ledger.cli.app import JsonFlag, db_url, new_app, print_json
from ledger.cli.options import EveningOption
from ledger.cli.session import open_ledger
from ledger.errors import LedgerError, system_reason
from ledger.fmt import format_count
from ledger.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from ledger.values import ImportSummary

db_app = new_app("db", "Where the ledger is, and its schema.")
INFO_LABELS = {
    "url": N_("where"),
    "backend": N_("database"),
    "revision": N_("schema revision"),
    "head": N_("newest schema revision"),
}
"""How `db info` names each of its lines (its JSON keeps the keys)."""


def export(
    ctx: typer.Context,
    evening: EveningOption = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="[b]json[/b] (JSON Lines: everything, re-importable) or [b]csv[/b] (one row per player per deal).",
        ),
    ] = "json",
    out: Annotated[Path | None, typer.Option("--out", "-O", help="File to write (default: standard output).")] = None,
) -> None:
    """Export the whole ledger, or one evening, with every revision and void.

    [b]Examples[/b]

    calabresella export --out ledger.jsonl

    calabresella export --evening 3 --format csv --out evening3.csv
    """
    with open_ledger(ctx, create=False) as ledger, collector_paused():
        if out is None:
            ledger.export_to(sys.stdout, evening=evening, fmt=fmt)
            return
        partial = out.with_name(out.name + ".part")
        try:
            with partial.open("w", encoding="utf-8", newline="") as stream:
                ledger.export_to(stream, evening=evening, fmt=fmt)
            partial.replace(out)
        except OSError as error:
            raise LedgerError(
                _("--out {out!r}: cannot write it ({strerror})").format(out=str(out), strerror=system_reason(error))
            ) from None
        finally:
            with suppress(OSError):  # a read-only folder refuses even to look for the partial file
                partial.unlink(missing_ok=True)
    typer.echo(_("Wrote {out}.").format(out=out))


def import_(
    ctx: typer.Context,
    source: Annotated[
        Path,
        typer.Argument(help="A file written by `calabresella export` (JSON Lines, or the JSON of older versions)."),
    ],
    as_json: JsonFlag = False,
) -> None:
    """Import an export: every deal is re-scored and must match, or nothing of its evening is written.

    Evenings already in the ledger are skipped, so an interrupted import resumes when run again.

    Example: [b]calabresella import examples/three_friends.json[/b]
    """
    with open_ledger(ctx) as ledger, _import_progress(source) as progress, collector_paused():
        summary = ledger.import_file(source, progress=progress)
    if as_json:
        print_json(summary)
    else:
        for line in summary_lines(summary):
            typer.echo(line)


def summary_lines(summary: ImportSummary) -> list[str]:
    """One line per outcome of an import, e.g. `imported 97 evenings (2,910 deals)`."""
    lines = []
    if summary.evenings or not summary.skipped:
        evenings = len(summary.evenings)
        lines.append(
            _("imported {evenings} ({deals})").format(
                evenings=ngettext("{n} evening", "{n} evenings", evenings).format(n=format_count(evenings)),
                deals=ngettext("{n} deal", "{n} deals", summary.deals).format(n=format_count(summary.deals)),
            )
        )
    if summary.skipped:
        skipped = len(summary.skipped)
        lines.append(
            ngettext(
                "skipped {n} evening already in this ledger", "skipped {n} evenings already in this ledger", skipped
            ).format(n=format_count(skipped))
        )
    if summary.payments:
        lines.append(
            ngettext("imported {n} payment", "imported {n} payments", summary.payments).format(
                n=format_count(summary.payments)
            )
        )
    if summary.payments_skipped:
        lines.append(
            ngettext(
                "skipped {n} payment already in this ledger",
                "skipped {n} payments already in this ledger",
                summary.payments_skipped,
            ).format(n=format_count(summary.payments_skipped))
        )
    lines += _club_lines(summary)
    return lines


def _club_lines(summary: ImportSummary) -> list[str]:
    """The club nights and seasons an import wrote, skipped or joined to the ledger's own."""
    counted = (
        (summary.seasons, ngettext("imported {n} season", "imported {n} seasons", summary.seasons)),
        (summary.events, ngettext("imported {n} club night", "imported {n} club nights", summary.events)),
        (
            summary.events_skipped,
            ngettext(
                "skipped {n} club night already in this ledger",
                "skipped {n} club nights already in this ledger",
                summary.events_skipped,
            ),
        ),
    )
    lines = [said.format(n=format_count(count)) for count, said in counted if count]
    return lines + [
        _("season {name!r} joined this ledger's season of that name (the same minimum of deals)").format(name=name)
        for name in summary.seasons_joined
    ]


@contextmanager
def _import_progress(source: Path) -> Iterator[Callable[[int, int], None]]:
    """A transient progress bar over the file's bytes on a terminal's stderr, with deals imported and deals/s."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    size = source.stat().st_size if source.is_file() else None
    err = Console(stderr=True)
    progress = Progress(
        TextColumn(_("importing")),
        BarColumn(),
        TextColumn(_("{task.fields[deals]:,} deals")),
        TextColumn(_("{task.fields[rate]:,.0f} deals/s")),
        TimeElapsedColumn(),
        transient=True,
        console=err,
        disable=not err.is_terminal,
    )
    task = progress.add_task("import", total=size, deals=0, rate=0.0)
    start = time.monotonic()

    def advance(position: int, deals: int) -> None:
        rate = deals / max(time.monotonic() - start, 1e-6)
        progress.update(task, completed=position, deals=deals, rate=rate)

    with progress:
        yield advance


def backup(ctx: typer.Context, target: Annotated[str, typer.Argument(help="The new file to write.")]) -> None:
    """Copy a SQLite ledger safely while it is in use, into a new file in an existing folder.

    Example: [b]calabresella backup ~/ledger-2026-11.sqlite3[/b]
    """
    with open_ledger(ctx) as ledger:
        path = ledger.backup(target)
    typer.echo(_("Backed up to {path}.").format(path=path))


@db_app.command("info")
def info(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Where the ledger is and its schema revision. Example: [b]calabresella db info[/b]"""
    from ledger.database import database_info

    details = database_info(db_url(ctx))
    if as_json:
        print_json(details)
    else:
        for key, value in details.items():
            typer.echo(_("{label}: {value}").format(label=_(INFO_LABELS.get(key, key)), value=value))


@db_app.command("upgrade")
def upgrade(ctx: typer.Context) -> None:
    """Create the schema or bring it to the newest revision (SQLite: a backup copy first)."""
    from ledger.database import upgrade_database

    backup_path = upgrade_database(db_url(ctx))
    done = _("The ledger is at the newest schema.")
    typer.echo(_("{done} Backup: {path}").format(done=done, path=backup_path) if backup_path else done)
