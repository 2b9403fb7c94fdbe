"""Options several commands share, in one place so command modules never import each other."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.errors import LedgerError
from ledger.i18n import _, ngettext

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


def seated_players(text: str) -> tuple[str, ...]:
    """The players of one table in turn order (`split_players`), refused at once when no game is played by that
    many (the game chosen checks its own count)."""
    from ledger.rules.seats import check_seats

    players = split_players(text)
    check_seats(players, (len(players),), "")  # a name blank or given twice, said first as the games say it
    counts = seat_counts()
    if len(players) not in counts:
        allowed = _("{counts} or {last}").format(counts=", ".join(map(str, counts[:-1])), last=counts[-1])
        raise LedgerError(
            ngettext(
                "{count} player: the games are played by {allowed} seated players",
                "{count} players: the games are played by {allowed} seated players",
                len(players),
            ).format(count=len(players), allowed=allowed)
        )
    return players


def seat_counts() -> tuple[int, ...]:
    """How many players sit at some game, fewest first."""
    from ledger.rules.profiles import DEFAULTS, make_profile

    return tuple(sorted({count for name in DEFAULTS for count in make_profile(name).seat_counts}))
