"""Cappotto and stramazzo, decided from the declarer side's thirds exactly as the table in RULES §3."""

from __future__ import annotations

from enum import Enum
from functools import cache

from ledger.errors import FactError, MissingFact
from ledger.i18n import _, ngettext
from ledger.rules.cards import DEAL_THIRDS, LAST_TRICK_THIRDS, MONTE_CARDS, thirds_held
from ledger.rules.contracts import Side
from ledger.rules.heaps import Shape, TrickFacts, allowed, check_cards
from ledger.rules.options import StramazzoCounts


class Sweep(Enum):
    """A side took every trick (cappotto), or the losers' tricks hold under 3 thirds (stramazzo)."""

    CAPPOTTO = "cappotto"
    STRAMAZZO = "stramazzo"


STRAMAZZO_BELOW = 3
"""A losing side whose counted points hold fewer thirds than this (one point) suffers a stramazzo."""


def check_sweep_facts(
    thirds: int,
    tricks: int | None,
    last_trick: Side | None,
    monte_thirds: int | None,
    all_tricks: int,
    monte: int = MONTE_CARDS,
    *,
    count_cards: bool = True,
) -> None:
    """Reject the facts of a played deal that contradict each other or what 40 cards allow: each fact against the
    thirds first, then every fact given counted card by card (`ledger.rules.heaps`), unless not `count_cards` (a deal
    a ledger stored before the cards were counted, read back as the rules read it then)."""
    check_tricks(thirds, tricks, last_trick, all_tricks)
    check_monte(thirds, last_trick, monte_thirds, monte)
    if count_cards:
        check_cards(Shape(all_tricks, monte), thirds, tricks, last_trick, monte_thirds)


def check_tricks(thirds: int, tricks: int | None, last_trick: Side | None, all_tricks: int) -> None:
    """Reject trick facts that contradict each other or the thirds."""
    if tricks is not None:
        if not 0 <= tricks <= all_tricks:
            raise FactError(
                "tricks", tricks, _("a deal has {all_tricks} tricks (0 to {all_tricks})").format(all_tricks=all_tricks)
            )
        if tricks == all_tricks and thirds < DEAL_THIRDS:
            raise FactError(
                "tricks",
                tricks,
                _("all {all_tricks} tricks hold all 35 thirds, not {thirds}").format(
                    thirds=thirds, all_tricks=all_tricks
                ),
            )
        if tricks == 0 and thirds > 0:
            raise FactError("tricks", 0, _("a side with no trick has no thirds, not {thirds}").format(thirds=thirds))
        if tricks == 0 and last_trick is Side.DECLARER:
            raise FactError("tricks", 0, _("the declarer side took the last trick, and the last trick is a trick"))
        if tricks == all_tricks and last_trick is Side.OPPONENTS:
            raise FactError("tricks", tricks, _("every trick, but the opponents took the last trick"))
    if last_trick is Side.DECLARER and thirds < LAST_TRICK_THIRDS:
        raise FactError(
            "thirds",
            thirds,
            _("the declarer side took the last trick, which alone is 3 thirds"),
        )
    if last_trick is Side.OPPONENTS and thirds > DEAL_THIRDS - LAST_TRICK_THIRDS:
        raise FactError(
            "thirds",
            thirds,
            _(
                "the opponents took the last trick, so they have at least 3 thirds, leaving the declarer side at most "
                "{number}"
            ).format(number=DEAL_THIRDS - LAST_TRICK_THIRDS),
        )


def check_monte(thirds: int, last_trick: Side | None, monte_thirds: int | None, monte: int = MONTE_CARDS) -> None:
    """Reject thirds in the monte that its `monte` cards cannot hold, or that the side taking it cannot."""
    if monte_thirds is None:
        return
    if not monte:
        raise FactError("monte_thirds", monte_thirds, _("this game has no monte"))
    held = thirds_held(monte)
    if not 0 <= monte_thirds <= max(held):
        raise FactError(
            "monte_thirds",
            monte_thirds,
            _("the monte's {cards} cards hold 0 to {most} thirds").format(cards=monte, most=max(held)),
        )
    if monte_thirds not in held:
        raise FactError(
            "monte_thirds",
            monte_thirds,
            _("{cards} cards hold {fewest} to {most} thirds, never {monte_thirds}").format(
                monte_thirds=monte_thirds, cards=monte, fewest=min(held), most=max(held)
            ),
        )
    sides = [last_trick] if last_trick else list(Side)
    spare = max((thirds if side is Side.DECLARER else DEAL_THIRDS - thirds) - LAST_TRICK_THIRDS for side in sides)
    if monte_thirds > spare:
        raise FactError(
            "monte_thirds",
            monte_thirds,
            _(
                "the monte goes with the last trick, and with {thirds} thirds to the declarer side the side that took "
                "it holds at most {spare} thirds besides the last trick's 3"
            ).format(thirds=thirds, spare=spare),
        )


def _need(fact: str, thirds: int) -> MissingFact:
    if fact == "tricks":
        return MissingFact(
            "tricks",
            ngettext(
                "{thirds} third: how many tricks did the declarer side take?",
                "{thirds} thirds: how many tricks did the declarer side take?",
                thirds,
            ).format(thirds=thirds),
        )
    if fact == "monte_thirds":
        return MissingFact(
            "monte_thirds",
            ngettext(
                "{thirds} third: how many thirds were in the monte?",
                "{thirds} thirds: how many thirds were in the monte?",
                thirds,
            ).format(thirds=thirds),
        )
    return MissingFact(
        "last_trick",
        ngettext(
            "{thirds} third: who took the last trick?", "{thirds} thirds: who took the last trick?", thirds
        ).format(thirds=thirds),
    )


def decide_sweep(
    thirds: int,
    tricks: int | None,
    last_trick: Side | None,
    all_tricks: int,
    counts: StramazzoCounts = StramazzoCounts.MONTE,
    monte_thirds: int | None = None,
    monte: int = MONTE_CARDS,
    *,
    count_cards: bool = True,
) -> Sweep | None:
    """The sweep for the declarer side's thirds, asking for a fact only when the deals 40 cards allow with the facts
    given (`ledger.rules.heaps`) end in more than one sweep, and that fact's answer tells them apart (RULES §3, §8).

    Not `count_cards`, facts 40 cards do not allow (a deal a ledger stored before the cards were counted) end as the
    rules ended them then: in the sweep of every deal the checks of the facts one by one accept.

    >>> decide_sweep(10, None, Side.DECLARER, 12, StramazzoCounts.TRICKS, monte_thirds=6)  # 10 - 3 - 6 = 1 in tricks
    <Sweep.STRAMAZZO: 'stramazzo'>
    >>> decide_sweep(10, None, Side.DECLARER, 12, StramazzoCounts.MONTE) is None  # 10 - 3 = 7 in tricks and monte
    True
    """
    decided = _decided(Shape(all_tricks, monte), thirds, tricks, last_trick, monte_thirds, counts, count_cards)
    if isinstance(decided, str):
        raise _need(decided, thirds)
    return decided


@cache
def _decided(
    shape: Shape,
    thirds: int,
    tricks: int | None,
    last_trick: Side | None,
    monte_thirds: int | None,
    counts: StramazzoCounts,
    count_cards: bool,
) -> Sweep | str | None:
    """The sweep of every deal the facts allow, or the fact to ask for. Where the losing side took no third, the
    sweep reads the tricks alone; elsewhere the last trick and (for `tricks`) the monte's thirds: the last trick is
    asked first when its answer leaves fewer sweeps open, else the monte's thirds, which then do (only the losing
    side's taking the last trick can make a stramazzo). Not `count_cards`, facts no deal of 40 cards fits are read
    as every deal the checks of the facts one by one accept."""
    deals = allowed(shape, thirds, tricks, last_trick, monte_thirds)
    if not deals and not count_cards:
        deals = _uncounted(shape, thirds, tricks, last_trick, monte_thirds)
    sweeps = {deal: sweep_of(thirds, deal, shape.tricks, counts) for deal in deals}
    open_ = set(sweeps.values())
    if len(open_) <= 1:
        return next(iter(open_), None)
    if min(thirds, DEAL_THIRDS - thirds) == 0:
        return "tricks"
    sides = {deal.last_trick for deal in sweeps}
    narrowed = ({sweep for deal, sweep in sweeps.items() if deal.last_trick is side} for side in sides)
    return "last_trick" if any(left != open_ for left in narrowed) else "monte_thirds"


def _uncounted(
    shape: Shape, thirds: int, tricks: int | None, last_trick: Side | None, monte_thirds: int | None
) -> frozenset[TrickFacts]:
    """Every deal with `thirds` thirds to the declarer side and the other facts as given (None: any) that the checks
    of the facts one by one (`check_tricks`, `check_monte`) accept, the cards not counted: the deals the rules saw
    before they counted cards."""
    return frozenset(
        TrickFacts(count, last, monte)
        for count in (range(shape.tricks + 1) if tricks is None else (tricks,))
        for last in ((last_trick,) if last_trick else Side)
        for monte in (thirds_held(shape.monte) if monte_thirds is None else (monte_thirds,))
        if _accepted(shape, thirds, count, last, monte)
    )


def _accepted(shape: Shape, thirds: int, tricks: int, last_trick: Side, monte_thirds: int) -> bool:
    """Whether the checks of the facts one by one accept a deal whose facts are all known."""
    try:
        check_tricks(thirds, tricks, last_trick, shape.tricks)
        check_monte(thirds, last_trick, monte_thirds if shape.monte else None, shape.monte)
    except FactError:
        return False
    return True


def sweep_of(thirds: int, deal: TrickFacts, all_tricks: int, counts: StramazzoCounts) -> Sweep | None:
    """The sweep of a deal whose facts are all known, under the reading `counts` (RULES §3, §8).

    The losing side took `lost` thirds. With none: cappotto if it took no trick, else stramazzo. Otherwise no
    stramazzo for `all`; for `monte` and `tricks`, a stramazzo when the points that count hold under one point:
    without the last trick, its tricks hold all it took; with it, 3 thirds fewer (the bonus), and for `tricks`
    the monte's thirds fewer too (the monte goes with the last trick).
    """
    lost = min(thirds, DEAL_THIRDS - thirds)
    if lost == 0:
        cappotto = deal.tricks == (0 if thirds == 0 else all_tricks)
        return Sweep.CAPPOTTO if cappotto else Sweep.STRAMAZZO
    if counts is StramazzoCounts.ALL:
        return None
    if (deal.last_trick is Side.DECLARER) == (thirds < DEAL_THIRDS - thirds):  # the losing side took the last trick
        lost -= LAST_TRICK_THIRDS + (deal.monte_thirds if counts is StramazzoCounts.TRICKS else 0)
    return Sweep.STRAMAZZO if lost < STRAMAZZO_BELOW else None
