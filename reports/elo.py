"""An Elo rating of declarer strength: each declared deal is one game of the declarer against the defenders.

Every player has a declarer rating and a defence rating, both starting at 1500. In a deal, the declarer (declarer
rating R) plays the average defence rating A of the defenders: the expected score is
E = 1 / (1 + 10 ** ((A - R) / 400)), the score S is 1 when the declarer won and 0 when lost, the declarer's rating
moves by K * (S - E) with K = 24, and the defenders share the opposite move equally.

Two ratings rather than one: declarers win most of the deals they choose to play, so with one rating pool the
declarers' gains would inflate everyone's rating without end; against a separate defence pool the usual edge of the
declarer settles into the gap between the pools, and a declarer rating compares players as declarers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

K = 24
START = 1500.0
SCALE = 400.0


@dataclass
class Rating:
    """A player's declarer and defence ratings, with the games seen in each role."""

    rating: float = START
    games: int = 0
    won: int = 0
    expected: float = 0.0
    defence: float = START
    defended: int = 0


def expected_score(rating: float, opposition: float) -> float:
    """The logistic expectation on the 400 scale: 0.5 at equal ratings, about 0.64 at +100."""
    return 1.0 / (1.0 + 10.0 ** ((opposition - rating) / SCALE))


def rate(games: Iterable[tuple[Hashable, Sequence[Hashable], bool]]) -> dict[Hashable, Rating]:
    """Ratings after the games (declarer, defenders, declarer won), taken in the order given."""
    ratings: defaultdict[Hashable, Rating] = defaultdict(Rating)
    for declarer, defenders, won in games:
        player = ratings[declarer]
        defence = [ratings[d] for d in defenders]
        expected = expected_score(player.rating, sum(d.defence for d in defence) / len(defence))
        change = K * (won - expected)
        player.rating += change
        player.games += 1
        player.won += won
        player.expected += expected
        for d in defence:
            d.defence -= change / len(defence)
            d.defended += 1
    return dict(ratings)
