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

from array import array
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

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


@dataclass(frozen=True)
class Ratings:
    """Every player's figures as arrays indexed by player code."""

    rating: np.ndarray
    games: np.ndarray
    won: np.ndarray
    expected: np.ndarray
    defence: np.ndarray
    defended: np.ndarray


def expected_score(rating: float, opposition: float) -> float:
    """The logistic expectation on the 400 scale: 0.5 at equal ratings, about 0.64 at +100."""
    return 1.0 / (1.0 + 10.0 ** ((opposition - rating) / SCALE))


def rate_codes(
    players: int, declarers: np.ndarray, won: np.ndarray, defenders: np.ndarray, starts: np.ndarray
) -> Ratings:
    """Ratings after the games in order: game i is `declarers[i]` against `defenders[starts[i]:starts[i + 1]]`.

    The ratings move one game after the other (each expectation needs the ratings the games before left), so
    that walk is one tight loop over plain floats; every count and sum around it is done on whole arrays.
    """
    sizes = np.diff(starts)
    if len(sizes) and (sizes.min() < 1 or sizes.max() > 2):
        rating, defence, expected = _walk(players, declarers, won, defenders, starts)
    else:
        rating, defence, expected = _walk_pairs(players, declarers, won, defenders, starts, sizes)
    return Ratings(
        rating=np.array(rating),
        games=np.bincount(declarers, minlength=players),
        won=np.bincount(declarers, weights=won, minlength=players).astype(np.int64),
        expected=np.bincount(declarers, weights=expected, minlength=players),
        defence=np.array(defence),
        defended=np.bincount(defenders, minlength=players),
    )


def _walk(
    players: int, declarers: np.ndarray, won: np.ndarray, defenders: np.ndarray, starts: np.ndarray
) -> tuple[list[float], list[float], np.ndarray]:
    """The walk for teams of any size: the declarer and defence ratings after it, and each game's expectation."""
    rating, defence = [START] * players, [START] * players
    expected = [0.0] * len(declarers)
    team_of = defenders.tolist()
    bounds = starts.tolist()
    for i, (declarer, score) in enumerate(zip(declarers.tolist(), won.tolist(), strict=True)):
        team = team_of[bounds[i] : bounds[i + 1]]
        e = expected[i] = 1.0 / (1.0 + 10.0 ** ((sum(defence[d] for d in team) / len(team) - rating[declarer]) / SCALE))
        change = K * (score - e)
        rating[declarer] += change
        share = change / len(team)
        for d in team:
            defence[d] -= share
    return rating, defence, np.array(expected, dtype=np.float64)


WALK_GAMES = 65_536
"""The walk takes the games this many at a time, so its plain Python values stay few."""


def _walk_pairs(
    players: int, declarers: np.ndarray, won: np.ndarray, defenders: np.ndarray, starts: np.ndarray, sizes: np.ndarray
) -> tuple[list[float], list[float], np.ndarray]:
    """The same walk when every team is one or two defenders (the usual case), with the same arithmetic:
    (0 + a + b) / 2 is (a + b) / 2, a / 1 is a and True - e is 1.0 - e, so the ratings agree to the last bit."""
    rating, defence = [START] * players, [START] * players
    expected = array("d")
    note, scale, k = expected.append, SCALE, K
    second = np.where(sizes == 2, starts[:-1] + 1, -1)
    for begin in range(0, len(declarers), WALK_GAMES):
        games = slice(begin, begin + WALK_GAMES)
        seconds = second[games]
        team_b = np.where(seconds >= 0, defenders[np.maximum(seconds, 0)], -1)
        for declarer, score, a, b in zip(
            declarers[games].tolist(),
            won[games].tolist(),
            defenders[starts[:-1][games]].tolist(),
            team_b.tolist(),
            strict=True,
        ):
            if b < 0:
                e = 1.0 / (1.0 + 10.0 ** ((defence[a] - rating[declarer]) / scale))
                change = k * (score - e)
                rating[declarer] += change
                defence[a] -= change
            else:
                e = 1.0 / (1.0 + 10.0 ** (((defence[a] + defence[b]) / 2 - rating[declarer]) / scale))
                change = k * (score - e)
                rating[declarer] += change
                share = change / 2
                defence[a] -= share
                defence[b] -= share
            note(e)
    return rating, defence, np.frombuffer(expected, dtype=np.float64)


def rate(games: Iterable[tuple[Hashable, Sequence[Hashable], bool]]) -> dict[Hashable, Rating]:
    """Ratings after the games (declarer, defenders, declarer won), taken in the order given, by player."""
    codes: dict[Hashable, int] = {}
    declarers, won, defenders, starts = [], [], [], [0]
    for declarer, team, score in games:
        declarers.append(codes.setdefault(declarer, len(codes)))
        won.append(score)
        defenders += [codes.setdefault(d, len(codes)) for d in team]
        starts.append(len(defenders))
    r = rate_codes(
        len(codes),
        np.array(declarers, dtype=np.int64),
        np.array(won, dtype=bool),
        np.array(defenders, dtype=np.int64),
        np.array(starts, dtype=np.int64),
    )
    return {
        player: Rating(
            float(r.rating[c]),
            int(r.games[c]),
            int(r.won[c]),
            float(r.expected[c]),
            float(r.defence[c]),
            int(r.defended[c]),
        )
        for player, c in codes.items()
    }
