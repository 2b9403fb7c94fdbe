"""The season's skill rating, apart from game points: every deal is one side beating the other, rated with openskill.

A deal pits sides of uneven size (1 v 2, 2 v 2, 1 v 3, 2 v 3, 1 v 4), which a two-player Elo does not model; the
maintained `openskill` library's Plackett-Luce model rates teams of any size, so a side is rated as a team and each
player's share follows their own uncertainty. A player's `rating` is a conservative figure: the rating the player is
very likely at least as good as (`mu - 3 * sigma`); it starts at 0 and rises as deals show skill.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

ROLES = frozenset({"declarer", "partner", "opponent", "out", "passed"})


@dataclass(frozen=True)
class Side:
    """One deal as two sides: the winners and the losers (a passed deal is not given)."""

    winners: tuple[str, ...]
    losers: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.winners or not self.losers:
            raise ValueError("a deal needs a player on each side")
        names = (*self.winners, *self.losers)
        if len(set(names)) != len(names):
            raise ValueError("a player is named twice in one deal")


@dataclass(frozen=True)
class Skill:
    """A player's skill after the season's deals."""

    player: str
    mu: float  # the estimate
    sigma: float  # its uncertainty
    rating: float  # the conservative figure shown: mu - 3*sigma, on openskill's default scale (mu 25, sigma 25/3)
    deals: int  # deals this player played in (sat out not counted)


def season_skill(deals: Iterable[Side]) -> list[Skill]:
    """Every player's skill after the deals in order, best `rating` first (ties by name)."""
    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    played: dict[str, int] = {}
    for deal in deals:
        teams = [[_rating(model, ratings, name) for name in side] for side in (deal.winners, deal.losers)]
        rated = model.rate(teams, ranks=[0, 1])
        for side, new in zip((deal.winners, deal.losers), rated, strict=True):
            for name, rating in zip(side, new, strict=True):
                ratings[name] = rating
                played[name] = played.get(name, 0) + 1
    skills = [
        Skill(player=name, mu=r.mu, sigma=r.sigma, rating=r.ordinal(), deals=played[name])
        for name, r in ratings.items()
    ]
    return sorted(skills, key=lambda s: (-s.rating, s.player))


def sides(roles: Mapping[str, str], points: Mapping[str, int]) -> Side | None:
    """The two sides of one stored deal from each seated player's role ("declarer", "partner", "opponent", "out",
    "passed") and game points: the declarer's side is the declarer and the partner (when one); the other side is
    every "opponent"; "out" (the dealer sitting the deal out) plays no part; None for a passed deal or one whose
    declarer side neither won nor lost (points 0). The declarer side won when the declarer's points are > 0."""
    unknown = set(roles.values()) - ROLES
    if unknown:
        raise ValueError(f"unknown role {sorted(unknown)[0]!r}")
    if "passed" in roles.values():
        return None
    declarers = [name for name, role in roles.items() if role == "declarer"]
    if len(declarers) != 1:
        raise ValueError(f"a played deal has one declarer, not {len(declarers)}")
    declarer = declarers[0]
    if declarer not in points:
        raise ValueError("the declarer's game points are missing")
    side = (declarer, *(name for name, role in roles.items() if role == "partner"))
    others = tuple(name for name, role in roles.items() if role == "opponent")
    if points[declarer] > 0:
        return Side(winners=side, losers=others)
    if points[declarer] < 0:
        return Side(winners=others, losers=side)
    return None


def _rating(model: PlackettLuce, ratings: Mapping[str, PlackettLuceRating], name: str) -> PlackettLuceRating:
    """The player's rating so far, or a new one at the model's start."""
    found = ratings.get(name)
    return found if found is not None else model.rating(name=name)
