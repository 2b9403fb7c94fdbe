"""What can answer a fact a deal still needs, the same for every front end: `play` asks with words, the phone with
buttons, a quick line reads them; each words them its own way."""

from __future__ import annotations

from collections.abc import Sequence

from ledger.rules.facts import DECLARER, MONTE
from ledger.rules.profiles import Profile


def tricks_in_deal(players: Sequence[str], profile: Profile) -> int:
    """How many tricks a deal has with these players seated (a dealer who sits out plays none): the most a side
    can take."""
    return profile.tricks_per_deal(min(profile.active_players, len(players)))


def holders(players: Sequence[str], profile: Profile) -> tuple[str, ...]:
    """Who may have held the called card: a player, the monte where there is one, the declarer where a declarer may
    call a card of their own hand."""
    return (*players, *((MONTE,) if profile.has_monte else ()), *((DECLARER,) if profile.call_own_card else ()))
