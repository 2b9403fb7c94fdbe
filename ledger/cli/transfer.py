"""`calabresella export|import|backup` and `calabresella db upgrade|info`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.app import JsonFlag, db_url, new_app, print_json
from ledger.cli.options import EveningOption
from ledger.cli.render import console
from ledger.cli.session import open_ledger
from ledger.errors import LedgerError
from ledger.i18n import _

db_app = new_app("db", "Where the ledger is, and its schema.")


def export(
    ctx: typer.Context,
    evening: EveningOption = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="[b]json[/b] (everything, re-importable) or [b]csv[/b] "
                                                            "(one row per player per deal).")] = "json",
    out: Annotated[Path | None, typer.Option("--out", "-O", help="File to write (default: standard output).")] = None,
) -> None:
    """Export the whole ledger, or one evening, with every revision and void.

    [b]Examples[/b]

    calabresella export --out ledger.json

    calabresella export --evening 3 --format csv --out evening3.csv
    """
    with open_ledger(ctx) as ledger:
        text = ledger.export(evening=evening, fmt=fmt)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        console.print(_("Wrote {out}.").format(out=out))


def import_(
    ctx: typer.Context,
    source: Annotated[Path, typer.Argument(help="A JSON file written by `calabresella export`.")],
    as_json: JsonFlag = False,
) -> None:
    """Import a JSON export: every deal is re-scored and must match, or nothing is written.

    Example: [b]calabresella import examples/three_friends.json[/b]
    """
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LedgerError(_("{source}: no such file").format(source=source)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LedgerError(_("{source}: not a JSON export ({error})").format(source=source, error=error)) from None
    with open_ledger(ctx) as ledger:
        created = ledger.import_data(data)
    if as_json:
        print_json({"evenings": created})
    else:
        console.print(f"Imported {len(created)} evening(s): " + ", ".join(map(str, created)) + ".")


def backup(ctx: typer.Context, target: Annotated[str, typer.Argument(help="The new file to write.")]) -> None:
    """Copy a SQLite ledger safely while it is in use. Example: [b]calabresella backup ~/ledger-2026-11.sqlite3[/b]"""
    with open_ledger(ctx) as ledger:
        path = ledger.backup(target)
    console.print(_("Backed up to {path}.").format(path=path))


@db_app.command("info")
def info(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Where the ledger is and its schema revision. Example: [b]calabresella db info[/b]"""
    from ledger.store.engine import make_engine, resolve_url, schema_info

    engine = make_engine(resolve_url(db_url(ctx)))
    details = schema_info(engine)
    engine.dispose()
    if as_json:
        print_json(details)
    else:
        for key, value in details.items():
            console.print(f"{key}: {value}", markup=False)


@db_app.command("upgrade")
def upgrade(ctx: typer.Context) -> None:
    """Create the schema or bring it to the newest revision (SQLite: a backup copy first)."""
    from ledger.store.engine import make_engine, resolve_url, upgrade

    engine = make_engine(resolve_url(db_url(ctx)))
    backup_path = upgrade(engine)
    engine.dispose()
    console.print("The ledger is at the newest schema." + (f" Backup: {backup_path}" if backup_path else ""))
