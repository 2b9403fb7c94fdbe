"""The `calabresella` command: every subcommand is registered by name and imported only when it runs or is listed."""

from __future__ import annotations

import importlib
from difflib import get_close_matches
from enum import Enum
from typing import Annotated, Any

import typer

from ledger.cli.app import LedgerGroup, new_app, translate_help
from ledger.cli.italian import ITALIAN
from ledger.i18n import LANG_VARIABLE, LANGUAGES, _

COMMANDS: dict[str, tuple[str, str, str]] = {
    "play": ("ledger.cli.play", "play", "At the table"),
    "record": ("ledger.cli.deals", "record", "At the table"),
    "undo": ("ledger.cli.deals", "undo", "At the table"),
    "standings": ("ledger.cli.deals", "standings", "At the table"),
    "score": ("ledger.cli.score", "score", "At the table"),
    "serve": ("ledger.cli.serve", "serve", "At the table"),
    "amend": ("ledger.cli.deals", "amend", "Corrections"),
    "void": ("ledger.cli.deals", "void", "Corrections"),
    "settle": ("ledger.cli.money", "settle", "Money"),
    "paid": ("ledger.cli.money", "paid", "Money"),
    "tab": ("ledger.cli.money", "tab", "Money"),
    "deals": ("ledger.cli.deals", "deals", "Looking back"),
    "stats": ("ledger.cli.reporting", "stats", "Reports"),
    "chart": ("ledger.cli.reporting", "chart", "Reports"),
    "report": ("ledger.cli.reporting", "report", "Reports"),
    "export": ("ledger.cli.transfer", "export", "Data"),
    "import": ("ledger.cli.transfer", "import_", "Data"),
    "backup": ("ledger.cli.transfer", "backup", "Data"),
    "demo": ("ledger.cli.demo", "demo", "Data"),
    "evening": ("ledger.cli.evenings", "evening_app", "Setting up"),
    "players": ("ledger.cli.players", "players_app", "Setting up"),
    "deal": ("ledger.cli.deals", "deal_app", "Looking back"),
    "db": ("ledger.cli.transfer", "db_app", "Data"),
    "event": ("ledger.cli.club", "event_app", "Club nights"),
    "season": ("ledger.cli.club", "season_app", "Club nights"),
}
"""Each subcommand (commands, then groups, as help lists them): its module, its function or Typer app, its panel."""
ALIASES = {italian: english for english, italian in ITALIAN.items() if english in COMMANDS}
"""The Italian word of each command that `play` takes in Italian too, and the command it names: `classifica` is
`standings`."""
ENGLISH = {italian: english for english, italian in ITALIAN.items()}
"""Every Italian word of `play`, and its command in English (`chiudi` is `close`, which is `evening close` here)."""
UsageError: Any = typer.BadParameter.__mro__[1]
"""Click's usage error, from the copy of Click that Typer runs on."""
GROUPS = ("evening", "event", "players", "deal", "db")
"""The subcommands that are groups of their own."""


class LazyGroup(LedgerGroup):
    """The root group: a subcommand's module is imported when the command runs or help lists it."""

    def list_commands(self, ctx: Any) -> list[str]:
        """Every subcommand's name, in the order of `COMMANDS`."""
        return [*COMMANDS, *(name for name in super().list_commands(ctx) if name not in COMMANDS)]

    def get_command(self, ctx: Any, name: str) -> Any:
        """The subcommand (its Italian word too), built from its module on first use."""
        name = ALIASES.get(name, name)
        if name in COMMANDS and name not in self.commands:
            command = _load(name)
            translate_help(command)
            self.add_command(command, name)
        return super().get_command(ctx, name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """A command by its name or its Italian word (`classifica`, run as `standings`); before an unknown name, the
        commands close to it are loaded, so that the error suggests them; a name (or Italian word) that is a group's
        subcommand (`start`, `chiudi`) suggests it under its group (`evening start`, `evening close`; `play` too,
        which starts one), and `aiuto` suggests `--help`."""
        args = [ALIASES.get(args[0], args[0]), *args[1:]] if args else args
        if args and args[0] not in COMMANDS:
            for name in get_close_matches(args[0], list(COMMANDS)):
                self.get_command(ctx, name)
        try:
            return super().resolve_command(ctx, args)
        except UsageError as error:
            word = ENGLISH.get(args[0], args[0]) if args else ""
            nested = [f"{group} {word}" for group in GROUPS if word in self._subcommands(ctx, group)]
            nested += ["--help"] if word == "help" else []
            if nested:
                starts = ["play"] if "evening start" in nested else []
                suggestions = ", ".join(repr(name) for name in [*nested, *starts])
                error.message = f"{error.message.split('. Did you mean')[0].rstrip('.')}. Did you mean {suggestions}?"
            raise

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """Help, ending with the Italian words the command line takes for its commands."""
        aliases = ", ".join(f"{italian} ({english})" for italian, english in ALIASES.items())
        self.epilog = _("The commands take their Italian words too: {aliases}.").format(aliases=aliases)
        super().format_help(ctx, formatter)

    def _subcommands(self, ctx: Any, group: str) -> list[str]:
        """The names of a group's subcommands."""
        command = self.get_command(ctx, group)
        return list(getattr(command, "commands", ()))


def _load(name: str) -> Any:
    """Import the subcommand's module and build its Click command, registered under its name and panel in a Typer
    of its own as `app.command` or `add_typer` would."""
    module, attribute, panel = COMMANDS[name]
    target = getattr(importlib.import_module(module), attribute)
    holder = typer.Typer(add_completion=False, rich_markup_mode="rich")
    if not isinstance(target, typer.Typer):
        holder.command(name, rich_help_panel=panel)(target)
        return typer.main.get_command(holder)
    holder.add_typer(target, name=name, rich_help_panel=panel)
    return typer.main.get_command(holder).commands[name]  # type: ignore[attr-defined]


app = new_app(
    "calabresella",
    "Scorekeeping ledger for Calabresella (Terziglio), Quartiglio and Quintiglio.\n\n"
    "Record each deal as it was played; see every player's game points, the running totals, the "
    "settlement in money and the history.\n\n"
    "[b]Examples[/b]\n\n"
    "calabresella score --players Anna,Bruno,Carla --declarer Bruno --contract solo --thirds 22",
    cls=LazyGroup,
)


def _print_version(given: bool) -> None:
    """`calabresella 0.1.0`, then exit."""
    if given:
        from importlib.metadata import version

        typer.echo(_("calabresella {version}").format(version=version("calabresella-ledger")))
        raise typer.Exit


Language = Enum("Language", {code: code for code in LANGUAGES}, type=str)  # type: ignore[misc]
"""The languages a server's pages may be told to speak (`serve --lang`)."""


@app.callback()
def main(
    ctx: typer.Context,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            envvar=LANG_VARIABLE,
            show_envvar=True,
            metavar=f"<{'|'.join(LANGUAGES)}>",
            autocompletion=lambda: list(LANGUAGES),
            help="Language: it (Italiano) or en (English). Default: the locale (LC_ALL, LC_MESSAGES, LANG), "
            "else English.",
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="CALABRESELLA_DB",
            show_envvar=True,
            help="Database: a SQLite file path or a URL (sqlite:///x.db, postgresql+psycopg://user@host/db). "
            "Default: ledger.sqlite3 in your user data directory.",
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=_print_version, help="Show the version and exit."),
    ] = False,
) -> None:
    """Scorekeeping ledger for Calabresella."""
    ctx.obj = {"db": db}  # `lang` has been read and checked before parsing, so that help texts too are translated
