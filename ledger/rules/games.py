"""Games to N points (`game_to`, RULES §8): an evening's deals cut into games, each with its totals and winners.

After the deal in which a player's game points in the current game reach N, the game ends; the player with
the most game points wins it (a tie: the declarer of that deal if among them, else they share it). The next
game starts from zero with the next deal.

A worked case, a game to 5 between Anna, Bruno and Carla:

>>> deals = [
...     (1, {"Anna": 4, "Bruno": -2, "Carla": -2}, "Anna"),   # Anna solo won: Anna 4
...     (2, {"Anna": 0, "Bruno": 0, "Carla": 0}, None),       # all passed
...     (3, {"Anna": -1, "Bruno": 2, "Carla": -1}, "Bruno"),  # Bruno chiamo won: Anna 3, Bruno 0, Carla -3
...     (5, {"Anna": 2, "Bruno": -4, "Carla": 2}, "Bruno"),   # Bruno solo lost (deal 4 was voided): Anna 5
...     (6, {"Anna": -1, "Bruno": -1, "Carla": 2}, "Carla"),  # the next game: Carla chiamo won
... ]
>>> finished, current = games(deals, 5)
>>> finished
(Game(first=1, last=5, totals={'Anna': 5, 'Bruno': -4, 'Carla': -1}, winners=('Anna',)),)
>>> current
Game(first=6, last=6, totals={'Anna': -1, 'Bruno': -1, 'Carla': 2}, winners=())

Anna reached 5 in deal 5 and won the first game; deal 6 opens the second, which goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ledger.frozen import freeze

Played = tuple[int, Mapping[str, int], str | None]
"""A deal that stands as games count it: its number, every seated player's game points, and its declarer (None
when all passed)."""


@dataclass(frozen=True)
class Game:
    """One game: the numbers of its first and last deals, each player's game points in it, and who won it (none
    while it goes on)."""

    first: int
    last: int
    totals: Mapping[str, int]
    winners: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        freeze(self, "totals")

    @property
    def finished(self) -> bool:
        """Somebody won it: a player reached the game's points."""
        return bool(self.winners)


def games(deals: Iterable[Played], game_to: int) -> tuple[tuple[Game, ...], Game | None]:
    """The finished games of an evening's deals, in order, and the game still going on (None when the last deal
    ended a game, or there is no deal).

    A tie for the most points in a game is won by the declarer of its last deal when among them, else shared:

    >>> games([(1, {"Anna": 6, "Bruno": 6, "Carla": -12}, "Carla")], 5)[0][0].winners
    ('Anna', 'Bruno')
    >>> games([(1, {"Anna": 6, "Bruno": 6, "Carla": -12}, "Bruno")], 5)[0][0].winners
    ('Bruno',)
    """
    finished: list[Game] = []
    totals: dict[str, int] = {}
    first: int | None = None
    number = 0
    for number, points, declarer in deals:
        first = number if first is None else first
        for player, gained in points.items():
            totals[player] = totals.get(player, 0) + gained
        if max(totals.values(), default=0) >= game_to:
            finished.append(Game(first, number, totals, _winners(totals, declarer)))
            totals, first = {}, None
    current = Game(first, number, totals) if first is not None else None
    return tuple(finished), current


def _winners(totals: Mapping[str, int], declarer: str | None) -> tuple[str, ...]:
    """The players with the most points; of a tie, the declarer alone when among them."""
    most = max(totals.values())
    leaders = tuple(player for player, points in totals.items() if points == most)
    return (declarer,) if declarer in leaders else leaders
