"""`calabresella export|import|backup` and `calabresella db upgrade|info`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.app import JsonFlag, db_url, new_app, print_json
from ledger.cli.evenings import EveningOption
from ledger.cli.render import console
from ledger.cli.session import ledger_session
from ledger.errors import LedgerError

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
    from ledger.store.transfer import export_csv, export_data

    if fmt not in ("json", "csv"):
        raise LedgerError(f"--format {fmt!r}: json or csv")
    with ledger_session(ctx) as session:
        if evening is not None:
            from ledger.store.evenings import get_table

            get_table(session, evening)
        text = (json.dumps(export_data(session, evening), ensure_ascii=False, indent=1) + "\n" if fmt == "json"
                else export_csv(session, evening))
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        console.print(f"Wrote {out}.")


def import_(
    ctx: typer.Context,
    source: Annotated[Path, typer.Argument(help="A JSON file written by `calabresella export`.")],
    as_json: JsonFlag = False,
) -> None:
    """Import a JSON export: every deal is re-scored and must match, or nothing is written.

    Example: [b]calabresella import examples/three_friends.json[/b]
    """
    from ledger.store.transfer import import_data

    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LedgerError(f"{source}: no such file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LedgerError(f"{source}: not a JSON export ({error})") from None
    with ledger_session(ctx) as session:
        created = import_data(session, data)
    if as_json:
        print_json({"evenings": created})
    else:
        console.print(f"Imported {len(created)} evening(s): " + ", ".join(map(str, created)) + ".")


def backup(ctx: typer.Context, target: Annotated[str, typer.Argument(help="The new file to write.")]) -> None:
    """Copy a SQLite ledger safely while it is in use. Example: [b]calabresella backup ~/ledger-2026-11.sqlite3[/b]"""
    from ledger.store.engine import open_ledger
    from ledger.store.transfer import backup_sqlite

    engine = open_ledger(db_url(ctx))
    path = backup_sqlite(engine, target)
    engine.dispose()
    console.print(f"Backed up to {path}.")


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
