"""`calabresella players add|list|rename`."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.app import JsonFlag, new_app, print_json
from ledger.cli.render import console
from ledger.cli.session import open_ledger
from ledger.i18n import _

players_app = new_app("players", "Add, list and rename players (names ignore case and accents).")


@players_app.command("add")
def add(
    ctx: typer.Context, names: Annotated[list[str], typer.Argument(help="One or more names, e.g. Anna Bruno.")]
) -> None:
    """Add players. Example: [b]calabresella players add Anna Bruno Carla[/b]"""
    with open_ledger(ctx) as ledger:
        added = ledger.add_players(names)
    console.print(_("Added {items}.").format(items=", ".join(p.name for p in added)))


@players_app.command("list")
def list_(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List every player. Example: [b]calabresella players list --json[/b]"""
    with open_ledger(ctx, create=False) as ledger:
        players = ledger.players()
    if as_json:
        print_json(players)
    elif not players:
        console.print(_("No players yet: calabresella players add Anna Bruno Carla"))
    else:
        console.print("\n".join(p.name for p in players))


@players_app.command("rename")
def rename(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(help="The current name.")],
    new: Annotated[str, typer.Argument(help="The new name.")],
) -> None:
    """Rename a player; every past deal follows. Example: [b]calabresella players rename nicco Niccolò[/b]"""
    with open_ledger(ctx) as ledger:
        before, after = ledger.rename_player(old, new)
    console.print(_("{before} is now {after}.").format(before=before, after=after))
