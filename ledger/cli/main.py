"""The `calabresella` command: registers every subcommand; heavy modules load only when used."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from ledger.cli import deals, play, reporting, serve
from ledger.cli.app import new_app
from ledger.cli.demo import demo
from ledger.cli.evenings import evening_app
from ledger.cli.money import paid, settle, tab
from ledger.cli.players import players_app
from ledger.cli.score import score
from ledger.cli.transfer import backup, db_app, export, import_
from ledger.i18n import LANG_VARIABLE, LANGUAGES

app = new_app(
    "calabresella",
    "Scorekeeping ledger for Calabresella (Terziglio), Quartiglio and Quintiglio.\n\n"
    "Record each deal as it was played; see every player's game points, the running totals, the "
    "settlement in money and the history.\n\n"
    "[b]Examples[/b]\n\n"
    "calabresella score --players Anna,Bruno,Carla --declarer Bruno --contract solo --thirds 22",
)

Language = Enum("Language", {code: code for code in LANGUAGES}, type=str)  # type: ignore[misc]


@app.callback()
def main(
    ctx: typer.Context,
    lang: Annotated[Language | None, typer.Option(
        "--lang", envvar=LANG_VARIABLE, show_envvar=True,
        help="Language: it (Italiano) or en (English). Default: the locale (LC_ALL, LC_MESSAGES, LANG), "
             "else English.")] = None,
    db: Annotated[str | None, typer.Option(
        "--db", envvar="CALABRESELLA_DB", show_envvar=True,
        help="Database: a SQLite file path or a URL (sqlite:///x.db, postgresql+psycopg://user@host/db). "
             "Default: ledger.sqlite3 in your user data directory.")] = None,
) -> None:
    """Scorekeeping ledger for Calabresella."""
    ctx.obj = {"db": db}  # `lang` has been read before parsing, so that help texts too are translated


app.add_typer(evening_app, rich_help_panel="Setting up")
app.add_typer(players_app, rich_help_panel="Setting up")
app.command(rich_help_panel="At the table")(play.play)
app.command(rich_help_panel="At the table")(deals.record)
app.command(rich_help_panel="At the table")(deals.undo)
app.command(rich_help_panel="At the table")(deals.standings)
app.command(rich_help_panel="At the table")(score)
app.command(rich_help_panel="At the table")(serve.serve)
app.command(rich_help_panel="Corrections")(deals.amend)
app.command(rich_help_panel="Corrections")(deals.void)
app.command(rich_help_panel="Money")(settle)
app.command(rich_help_panel="Money")(paid)
app.command(rich_help_panel="Money")(tab)
app.command(rich_help_panel="Looking back")(deals.deals)
app.add_typer(deals.deal_app, rich_help_panel="Looking back")
reporting.register(app)
app.command(rich_help_panel="Data")(export)
app.command("import", rich_help_panel="Data")(import_)
app.command(rich_help_panel="Data")(backup)
app.add_typer(db_app, rich_help_panel="Data")
app.command(rich_help_panel="Data")(demo)


def run() -> None:
    """Console-script entry point."""
    app()
