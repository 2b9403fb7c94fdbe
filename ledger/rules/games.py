"""Games to N points (`game_to`, RULES §8): an evening's deals cut into games, each with its totals and winners.

After the deal in which a player's game points in the current game reach N, the game ends; the player with
the most game points wins it (a tie: the declarer of that deal if among them, else they share it). The next
game starts from zero with the next deal.

A worked case, a game to 5 between Anna, Bruno and Carla:

>>> deals = [
...     ({"Anna": 4, "Bruno": -2, "Carla": -2}, "Anna"),   # Anna solo won: Anna 4
...     ({"Anna": 0, "Bruno": 0, "Carla": 0}, None),       # all passed
...     ({"Anna": -1, "Bruno": 2, "Carla": -1}, "Bruno"),  # Bruno chiamo won: Anna 3, Bruno 0, Carla -3
...     ({"Anna": 2, "Bruno": -4, "Carla": 2}, "Bruno"),   # Bruno solo lost: Anna 5, Bruno -4, Carla -1
...     ({"Anna": -1, "Bruno": -1, "Carla": 2}, "Carla"),  # the next game: Carla chiamo won
... ]
>>> finished, current = games(deals, 5)
>>> finished
(Game(first=1, last=4, totals={'Anna': 5, 'Bruno': -4, 'Carla': -1}, winners=('Anna',)),)
>>> current
Game(first=5, last=5, totals={'Anna': -1, 'Bruno': -1, 'Carla': 2}, winners=())

Anna reached 5 in deal 4 and won the first game; deal 5 opens the second, which goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Played = tuple[Mapping[str, int], str | None]
"""A deal as games count it: every seated player's game points, and its declarer (None when all passed)."""


@dataclass(frozen=True)
class Game:
    """One game: its first and last deals (numbered from 1 in the evening), each player's game points in it, and
    who won it (none while it goes on)."""

    first: int
    last: int
    totals: dict[str, int]
    winners: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        """Somebody won it: a player reached the game's points."""
        return bool(self.winners)


def games(deals: Iterable[Played], game_to: int) -> tuple[tuple[Game, ...], Game | None]:
    """The finished games of an evening's deals, in order, and the game still going on (None when the last deal
    ended a game, or there is no deal).

    A tie for the most points in a game is won by the declarer of its last deal when among them, else shared:

    >>> games([({"Anna": 6, "Bruno": 6, "Carla": -12}, "Carla")], 5)[0][0].winners
    ('Anna', 'Bruno')
    >>> games([({"Anna": 6, "Bruno": 6, "Carla": -12}, "Bruno")], 5)[0][0].winners
    ('Bruno',)
    """
    finished: list[Game] = []
    totals: dict[str, int] = {}
    first = 1
    number = 0
    for number, (points, declarer) in enumerate(deals, start=1):
        for player, gained in points.items():
            totals[player] = totals.get(player, 0) + gained
        if max(totals.values(), default=0) >= game_to:
            finished.append(Game(first, number, totals, _winners(totals, declarer)))
            totals, first = {}, number + 1
    current = Game(first, number, totals) if first <= number else None
    return tuple(finished), current


def _winners(totals: Mapping[str, int], declarer: str | None) -> tuple[str, ...]:
    """The players with the most points; of a tie, the declarer alone when among them."""
    most = max(totals.values())
    leaders = tuple(player for player, points in totals.items() if points == most)
    return (declarer,) if declarer in leaders else leaders
