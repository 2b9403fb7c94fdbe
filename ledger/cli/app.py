"""The root Typer application, its error handling and the options every command shares."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from ledger.errors import LedgerError

USER_ERROR = 2


class LedgerGroup(TyperGroup):
    """Print a user's error as one line on stderr and exit with code 2, never a traceback."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """Run the command; usage errors too become one `Error:` line instead of a box."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except Exception as error:
            sys.exit(_usage_error(error))
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except LedgerError as error:
            typer.echo(f"Error: {error}", err=True)
            raise typer.Exit(USER_ERROR) from None


def _usage_error(error: Exception) -> int:
    """Print a command-line parsing error (Click's, whichever copy Typer uses) as one line; its exit code."""
    kind = type(error).__name__
    if kind == "NoArgsIsHelpError":
        return 0
    if kind == "Abort":
        typer.echo("Aborted.", err=True)
        return 1
    message, code = getattr(error, "format_message", None), getattr(error, "exit_code", None)
    if message is None or not isinstance(code, int):
        raise error
    ctx = getattr(error, "ctx", None)
    hint = f" (see: {ctx.command_path} --help)" if ctx is not None else ""
    typer.echo(f"Error: {message()}{hint}", err=True)
    return code


def new_app(name: str, help_text: str, cls: type[LedgerGroup] = LedgerGroup) -> typer.Typer:
    """A (sub)command group with the ledger's error handling."""
    return typer.Typer(
        name=name, help=help_text, cls=cls, no_args_is_help=True, rich_markup_mode="rich", add_completion=False,
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
