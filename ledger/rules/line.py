"""A deal's facts written back as a quick line, the inverse of `ledger.rules.quick` (pure: no I/O).

Read back at the same seats (`parse_quick_line`, then `build_facts`), the line gives the same facts:

>>> from ledger.rules.profiles import make_profile
>>> from ledger.rules.contracts import Contract, Side
>>> facts = DealFacts(("Anna", "Bruno", "Carla"), "Carla", "Bruno", Contract.SOLO, thirds=22, last_trick=Side.OPPONENTS)
>>> write_line(facts, make_profile())
'bruno solo 7+1/3 last=opp'
>>> write_line(facts, make_profile(), dealer=True)
'bruno solo 7+1/3 last=opp dealer=carla'
"""

from __future__ import annotations

from ledger.rules.cards import Card, Rank
from ledger.rules.contracts import PASS, Side
from ledger.rules.count import Count
from ledger.rules.facts import DECLARER, MONTE, DealFacts
from ledger.rules.profiles import Profile

LAST_TRICK = {Side.DECLARER: "decl", Side.OPPONENTS: "opp"}
"""How a line says who took the last trick."""


def write_line(facts: DealFacts, profile: Profile, *, dealer: bool = False) -> str:
    """The line a scorekeeper would type for the facts: `pass`, or the declarer, the contract (and aggravation), the
    called card and its holder and the points on the profile's scale; then each other fact recorded, as key=value;
    with `dealer`, who dealt too (`dealer=carla`), for a line read without the rotation.

    The pot of passed deals before this one is the evening's to count, not the line's to say.
    """
    keyed = {
        "tricks": facts.tricks,
        "last": LAST_TRICK[facts.last_trick] if facts.last_trick else None,
        "monte": None if facts.monte_thirds is None else profile.format_points(facts.monte_thirds),
        "auction": ",".join(profile.word(call) if call else PASS for _seat, call in facts.auction) or None,
        "dealer": name_word(facts.dealer) if dealer else None,
    }
    return " ".join(
        [*_played(facts, profile), *(f"{key}={value}" for key, value in keyed.items() if value is not None)]
    )


def _played(facts: DealFacts, profile: Profile) -> list[str]:
    """`pass`, or the words that come first in a line: `carla chiamo 3D@anna 5+2/3`."""
    if facts.passed:
        return [PASS]
    assert facts.declarer is not None and facts.contract is not None
    words = [name_word(facts.declarer), profile.word(facts.contract)]
    words += [facts.aggravation.value] if facts.aggravation else []
    words += [called_word(facts.called, facts.holder)] if facts.called or facts.holder else []
    return words + ([] if facts.thirds is None else [profile.format_points(facts.thirds)])


def name_word(player: str) -> str:
    """A player as a scorekeeper types them: the first word of the name, in lower case (`Gian Luca` is `gian`).

    A line cannot tell the player from another whose whole name is this word, nor, as its first word, a name that
    starts with a digit or is `pass` from points or a pass."""
    return player.split()[0].casefold()


def called_word(called: Card | Rank | None, holder: str | None) -> str:
    """`3D@anna`, `3@anna` (the rank alone called), `@anna` (the card not known), `3D@monte`, `3D@declarer`, or
    `called=3D` when the holder is not known."""
    if holder is None:
        return f"called={called}"
    return f"{called or ''}@{holder if holder in (MONTE, DECLARER) else name_word(holder)}"


def count_word(count: Count) -> str:
    """A count as made at the table, `2a10f+u`: the aces, the figures, and `+u` when the declarer side took the last
    trick."""
    return f"{count.aces}a{count.figures}f" + ("+u" if count.last else "")
