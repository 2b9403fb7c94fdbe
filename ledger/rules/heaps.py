"""What 40 cards allow a deal's facts to be, counted card by card.

A played deal leaves its cards in heaps: each side's tricks (the side that took the last trick holds the monte's
cards too) and, when its thirds are given, the monte apart. Each heap holds so many thirds of card points (the last
trick's 3 are no card's), and the deck has 4 aces (3 thirds each), 20 figures (1 each) and 16 blank cards. The sums
of thirds a number of cards can hold have gaps (4 cards hold 10 or 12, never 11), so a range is not enough.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import NamedTuple

from ledger.errors import FactError
from ledger.i18n import _, ngettext
from ledger.rules.cards import ACES, BLANKS, DEAL_THIRDS, DECK, LAST_TRICK_THIRDS, most_thirds, thirds_held
from ledger.rules.contracts import Side


@dataclass(frozen=True)
class Shape:
    """How a game deals: `tricks` tricks a deal, and a monte of `monte` cards (0: none)."""

    tricks: int
    monte: int

    @property
    def trick_cards(self) -> int:
        """The cards of one trick, one from each player who holds cards."""
        return (len(DECK) - self.monte) // self.tricks


class Heap(NamedTuple):
    """Cards that end a deal together: a side's tricks (with the monte's cards where `monte`), or the monte alone
    (`side` None), holding `thirds` thirds of card points in `cards` cards. The side that took the last trick
    (`last`) holds 3 thirds more, which are no card's, and the monte's thirds when the monte is a heap apart
    (`monte_apart`)."""

    side: Side | None
    tricks: int
    monte: bool
    cards: int
    thirds: int
    last: bool = False
    monte_apart: int | None = None

    @property
    def aces(self) -> range:
        """How many aces the heap can hold, the rest of its thirds in figures and the rest of its cards blank: at least
        one for every 2 thirds it holds beyond one a card (an ace is 3 thirds in one card), at most one for every 3."""
        return range(max(0, -((self.cards - self.thirds) // 2)), self.thirds // 3 + 1)

    @property
    def blanks(self) -> int:
        """The fewest blank cards the heap holds: those beside its fewest aces."""
        return self.cards - self.thirds + 2 * self.aces.start


class TrickFacts(NamedTuple):
    """The facts that decide a sweep besides the declarer side's thirds."""

    tricks: int
    """The declarer side's."""
    last_trick: Side
    monte_thirds: int


def dealt(heaps: tuple[Heap, ...]) -> bool:
    """Whether 40 cards can lie so: every heap can hold its thirds, and the aces the heaps need are not more than the
    deck's. Then the 4 aces can be shared out (the heaps hold all 32 thirds of the cards, so they have room for 8 or
    more), and the figures and blank cards left come to the deck's 20 and 16, as the heaps' cards and thirds add up."""
    return all(heap.aces for heap in heaps) and sum(heap.aces.start for heap in heaps) <= ACES


def split(shape: Shape, thirds: int, tricks: int, last_trick: Side, monte_thirds: int | None) -> tuple[Heap, ...]:
    """The heaps of a deal in which the declarer side took `thirds` thirds in `tricks` tricks: the declarer side's
    tricks, the monte when its thirds are given (and there is one), the opponents' tricks."""
    apart = monte_thirds if shape.monte else None
    heaps = []
    for side, count, held in (
        (Side.DECLARER, tricks, thirds),
        (Side.OPPONENTS, shape.tricks - tricks, DEAL_THIRDS - thirds),
    ):
        took_last = side is last_trick
        with_monte = took_last and apart is None and shape.monte > 0
        cards = count * shape.trick_cards + (shape.monte if with_monte else 0)
        if took_last:
            heaps.append(Heap(side, count, with_monte, cards, held - LAST_TRICK_THIRDS - (apart or 0), True, apart))
        else:
            heaps.append(Heap(side, count, with_monte, cards, held))
    if apart is not None:
        heaps.insert(1, Heap(None, 0, True, shape.monte, apart))
    return tuple(heaps)


@cache
def _deals(shape: Shape, thirds: int) -> frozenset[TrickFacts]:
    """Every deal 40 cards allow with `thirds` thirds to the declarer side (the last trick is a trick)."""
    return frozenset(
        TrickFacts(tricks, last, monte_thirds)
        for tricks in range(shape.tricks + 1)
        for last in Side
        for monte_thirds in thirds_held(shape.monte)
        if (tricks if last is Side.DECLARER else shape.tricks - tricks) > 0
        and dealt(split(shape, thirds, tricks, last, monte_thirds))
    )


@cache
def allowed(
    shape: Shape, thirds: int, tricks: int | None, last_trick: Side | None, monte_thirds: int | None
) -> frozenset[TrickFacts]:
    """Every deal 40 cards allow with `thirds` thirds to the declarer side and the other facts as given (None: not
    given, any)."""
    return frozenset(
        deal
        for deal in _deals(shape, thirds)
        if tricks in (None, deal.tricks)
        and last_trick in (None, deal.last_trick)
        and monte_thirds in (None, deal.monte_thirds)
    )


def check_cards(
    shape: Shape, thirds: int, tricks: int | None, last_trick: Side | None, monte_thirds: int | None
) -> None:
    """Refuse a trick count that 40 cards do not allow with the other facts, saying why. Without a trick count the
    checks of the facts one by one (`ledger.rules.sweeps`) leave no impossible deal, as tests/test_rules_card_count.py
    counts for every game."""
    if tricks is None or allowed(shape, thirds, tricks, last_trick, monte_thirds):
        return
    if last_trick is not None:
        raise FactError("tricks", tricks, why_not(split(shape, thirds, tricks, last_trick, monte_thirds)))
    fitting = sorted({deal.tricks for deal in allowed(shape, thirds, None, None, monte_thirds)})
    fewest, most = fitting[0], fitting[-1]
    fits = (
        ngettext("{n} trick", "{n} tricks", most).format(n=most)
        if fewest == most
        else _("{fewest} to {most} tricks").format(fewest=fewest, most=most)
    )
    said = {"thirds": thirds, "fits": fits, "all_tricks": shape.tricks, "monte_thirds": monte_thirds}
    raise FactError(
        "tricks",
        tricks,
        _("the cards holding {thirds} thirds fill {fits} of {all_tricks}").format(**said)
        if monte_thirds is None
        else _(
            "with {monte_thirds} thirds in the monte, the cards holding {thirds} thirds fill {fits} of {all_tricks}"
        ).format(**said),
    )


def why_not(heaps: tuple[Heap, ...]) -> str:
    """Why 40 cards cannot lie in these heaps, in one line, about the fewest heaps that show it (the declarer side's
    and the monte before the opponents'): a heap that cannot hold its thirds, or heaps that need more blank cards or
    more aces than the deck has."""
    groups = sorted(
        (group for size in range(1, len(heaps) + 1) for group in combinations(heaps, size)),
        key=lambda group: (any(heap.side is Side.OPPONENTS for heap in group), len(group)),
    )
    *fewer, every = groups  # all the heaps, last: they need more aces than the deck has, if nothing before shows it
    for group in fewer:
        if len(group) == 1 and not group[0].aces:
            return _cannot_hold(group[0])
        if sum(heap.blanks for heap in group) > BLANKS:
            return _("at least {count} blank cards for {heaps}; the deck has {deck}").format(
                count=sum(heap.blanks for heap in group), heaps=_listed(group), deck=BLANKS
            )
        if sum(heap.aces.start for heap in group) > ACES:
            return _aces(group)
    return _aces(every)


def _cannot_hold(heap: Heap) -> str:
    most = most_thirds(heap.cards)
    said = {"heap": _named(heap), "thirds": _held(heap), "cards": heap.cards, "most": most, "n": heap.thirds}
    if heap.thirds > most:
        return _("{heap} would hold {thirds}; {cards} cards hold at most {most}").format(**said)
    return _("{heap} would hold {thirds}; {cards} cards hold at most {most}, and never {n}").format(**said)


def _aces(group: tuple[Heap, ...]) -> str:
    return _("at least {count} aces for {heaps}; the deck has {deck}").format(
        count=sum(heap.aces.start for heap in group), heaps=_listed(group), deck=ACES
    )


def _named(heap: Heap) -> str:
    """`the declarer side's 5 tricks and the monte (19 cards)`."""
    if heap.side is None:
        name = _("the monte")
    else:
        tricks = (
            ngettext("the declarer side's {n} trick", "the declarer side's {n} tricks", heap.tricks)
            if heap.side is Side.DECLARER
            else ngettext("the opponents' {n} trick", "the opponents' {n} tricks", heap.tricks)
        ).format(n=heap.tricks)
        name = _("{tricks} and the monte").format(tricks=tricks) if heap.monte else tricks
    return _("{heap} ({cards} cards)").format(heap=name, cards=heap.cards)


def _held(heap: Heap, monte_named: bool = False) -> str:
    """`6 thirds besides the last trick's 3 and the monte's 9` (the monte's unless `monte_named` beside it)."""
    n = heap.thirds
    if not heap.last:
        return ngettext("{n} third", "{n} thirds", n).format(n=n)
    if heap.monte_apart is None or monte_named:
        return ngettext("{n} third besides the last trick's 3", "{n} thirds besides the last trick's 3", n).format(n=n)
    return ngettext(
        "{n} third besides the last trick's 3 and the monte's {monte}",
        "{n} thirds besides the last trick's 3 and the monte's {monte}",
        n,
    ).format(n=n, monte=heap.monte_apart)


def _listed(group: tuple[Heap, ...]) -> str:
    """`the declarer side's 5 tricks (15 cards) with 0 thirds and the monte (4 cards) with 0 thirds`."""
    monte = any(heap.side is None for heap in group)
    named = [_("{heap} with {thirds}").format(heap=_named(heap), thirds=_held(heap, monte)) for heap in group]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + _(" and ") + named[-1]
