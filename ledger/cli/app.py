"""The root Typer application, its error handling and the options every command shares."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import click
import typer
from typer.core import TyperGroup

from ledger.errors import LedgerError

USER_ERROR = 2


class LedgerGroup(TyperGroup):
    """Print a user's error as one line on stderr and exit with code 2, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except LedgerError as error:
            typer.echo(f"Error: {error}", err=True)
            raise typer.Exit(USER_ERROR) from None


def new_app(name: str, help_text: str) -> typer.Typer:
    """A (sub)command group with the ledger's error handling."""
    return typer.Typer(
        name=name, help=help_text, cls=LedgerGroup, no_args_is_help=True, rich_markup_mode="rich",
        pretty_exceptions_show_locals=False, context_settings={"help_option_names": ["-h", "--help"]},
    )


JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]


def print_json(data: object) -> None:
    """One JSON document on stdout."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def db_url(ctx: typer.Context) -> str | None:
    """The `--db` given to the root command, if any."""
    root = ctx.find_root()
    return (root.obj or {}).get("db")
