"""`calabresella score`: the calculator that stores nothing."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.app import JsonFlag, print_json
from ledger.cli.deal_options import with_deal_options
from ledger.cli.options import OptionsOption, ProfileOption, seated_players
from ledger.cli.render import print_count, print_deal
from ledger.rules.build import DealInput, build_facts
from ledger.rules.profiles import make_profile
from ledger.rules.scoring import score as score_deal
from ledger.rules.seats import resolve_player
from ledger.values import Scored


@with_deal_options
def score(
    typed: DealInput,
    players: Annotated[
        str,
        typer.Option(
            "--players", help="Seats in turn order (deal and play go right), e.g. [b]--players Anna,Bruno,Carla[/b]."
        ),
    ],
    dealer: Annotated[
        str | None,
        typer.Option(
            "--dealer", help="Who dealt this deal (default: the last player listed), e.g. [b]--dealer Carla[/b]."
        ),
    ] = None,
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
    seats = seated_players(players)
    rules = make_profile(profile, option or [])
    dealt_by = resolve_player(dealer, seats, "--dealer") if dealer else seats[-1]
    result = score_deal(build_facts(typed, rules, seats, dealt_by), rules)
    if as_json:
        print_json(Scored(rules, seats, dealt_by, result))
    else:
        print_count(typed.count)
        print_deal(result, rules, dealt_by)
