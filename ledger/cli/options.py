"""Options several commands share, in one place so command modules never import each other."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.errors import LedgerError
from ledger.i18n import _

EveningOption = Annotated[
    int | None,
    typer.Option(
        "--evening",
        "-e",
        help="Evening number (default: the most recent open evening; commands that only read then fall back to the "
        "most recent evening).",
    ),
]
ProfileOption = Annotated[
    str,
    typer.Option(
        "--profile", "-P", help="pagat (default), cavendish, tretre, quartiglio or quintiglio, e.g. [b]-P tretre[/b]."
    ),
]
OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="A profile option as key=value, repeatable, e.g. [b]-o sweeps=off -o "
        "stramazzo_multiplier=4[/b]. Options: sweeps, cappotto_multiplier, stramazzo_multiplier, "
        "sweeps_on_loss, dealer_shares, declarer_always_leads, contract_multipliers, pot_carryover, "
        "stramazzo_counts, game_to, monte, mediatore_outbids_chiamo, mediatore (each profile has some; "
        "[b]calabresella evening start --help[/b] tells their defaults and meanings).",
    ),
]


def split_players(text: str) -> tuple[str, ...]:
    """`Anna,Bruno,Carla` in turn order (the next seat is the right-hand neighbour)."""
    players = tuple(name.strip() for name in text.split(","))
    if not text.strip() or not all(players):
        raise LedgerError(
            _("--players {text!r}: the names in turn order separated by commas, e.g. Anna,Bruno,Carla").format(
                text=text
            )
        )
    return players
