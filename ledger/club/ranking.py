"""Places on a leaderboard: players level on what orders it share a place, and the next place skips (1, 2, 2, 4),
the same on the terminal, the phones, the screen at the bar and the printed results."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from ledger.club.values import LeagueLine, PlayerLine

T = TypeVar("T")


def ranks(lines: Sequence[T], key: Callable[[T], object]) -> list[int]:
    """Each line's place, best first: lines with the same `key` share a place, the next one skips.

    >>> ranks([5, 3, 3, 1], lambda points: points)
    [1, 2, 2, 4]
    """
    result: list[int] = []
    for index, line in enumerate(lines):
        same = index and key(line) == key(lines[index - 1])
        result.append(result[-1] if same else index + 1)
    return result


def event_key(line: PlayerLine) -> object:
    """What orders an event's leaderboard: game points, then points per deal (none yet counts as 0)."""
    return (line.points, line.per_deal or 0)


def season_key(line: LeagueLine) -> object:
    """What orders the ranked players of a league table: points per deal, then game points."""
    return (line.per_deal or 0, line.points)


def event_places(standings: Sequence[PlayerLine]) -> list[int]:
    """The place of each line of an event's leaderboard (in its order, best first)."""
    return ranks(standings, event_key)
