"""`calabresella score`: the calculator that stores nothing."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.app import JsonFlag, print_json
from ledger.cli.deal_options import with_deal_options
from ledger.cli.render import print_deal
from ledger.errors import LedgerError
from ledger.rules.build import DealInput, build_facts
from ledger.rules.profiles import make_profile
from ledger.rules.scoring import score as score_deal
from ledger.rules.seats import resolve_player

ProfileOption = Annotated[str, typer.Option(
    "--profile", "-P", help="pagat (default), cavendish, tretre, quartiglio or quintiglio, e.g. [b]-P tretre[/b].")]
OptionsOption = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="A profile option as key=value, repeatable, e.g. [b]-o sweeps=off -o "
                           "stramazzo_multiplier=4[/b]. Options: sweeps, cappotto_multiplier, stramazzo_multiplier, "
                           "sweeps_on_loss, dealer_shares, declarer_always_leads, contract_multipliers, "
                           "pot_carryover, monte, mediatore_outbids_chiamo, mediatore (each profile has some).")]


def split_players(text: str) -> tuple[str, ...]:
    """`Anna,Bruno,Carla` in turn order (the next seat is the right-hand neighbour)."""
    players = tuple(name.strip() for name in text.split(","))
    if not text.strip() or not all(players):
        raise LedgerError(f"--players {text!r}: the names in turn order separated by commas, e.g. Anna,Bruno,Carla")
    return players


@with_deal_options
def score(
    typed: DealInput,
    players: Annotated[str, typer.Option(
        "--players", help="Seats in turn order (deal and play go right), e.g. [b]--players Anna,Bruno,Carla[/b].")],
    dealer: Annotated[str | None, typer.Option(
        "--dealer", help="Who dealt this deal (default: the last player listed), e.g. [b]--dealer Carla[/b].")] = None,
    profile: ProfileOption = "pagat",
    option: OptionsOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Score one deal without storing it: every player's game points and how they were reached.

    [b]Examples[/b]

    calabresella score --players Anna,Bruno,Carla -d Bruno -c solo --thirds 22

    calabresella score --players Anna,Bruno,Carla -d Carla -c chiamo --called 3D --holder Anna -p 5+2/3 -l opp

    calabresella score --players Anna,Bruno,Carla --auction pass,pass,solissimo -a scegliete -t 35 --tricks 12

    calabresella score --players Anna,Bruno,Carla -P cavendish -d Anna -c play -p 22

    calabresella score --players Anna,Bruno,Carla,Dario -d Anna -c solo -t 20   (Dario deals and sits out)
    """
    seats = split_players(players)
    rules = make_profile(profile, option or [])
    dealt_by = resolve_player(dealer, seats, "--dealer") if dealer else seats[-1]
    result = score_deal(build_facts(typed, rules, seats, dealt_by), rules)
    if as_json:
        print_json({"profile": rules.name, "options": dict(rules.options), "players": list(seats),
                    "dealer": dealt_by, **result.to_dict()})
    else:
        print_deal(result, rules, dealt_by)
