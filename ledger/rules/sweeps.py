"""Cappotto and stramazzo, decided from the declarer side's thirds exactly as the table in RULES §3."""

from __future__ import annotations

from enum import Enum

from ledger.errors import FactError, MissingFact
from ledger.i18n import _, ngettext
from ledger.rules.cards import DEAL_THIRDS, DECK, LAST_TRICK_THIRDS, MONTE_CARDS, most_thirds, thirds_held
from ledger.rules.contracts import Side
from ledger.rules.options import StramazzoCounts


class Sweep(Enum):
    """A side took every trick (cappotto), or the losers' tricks hold under 3 thirds (stramazzo)."""

    CAPPOTTO = "cappotto"
    STRAMAZZO = "stramazzo"


STRAMAZZO_BELOW = 3
"""A losing side whose counted points hold fewer thirds than this (one point) suffers a stramazzo."""


def within_reach(thirds: int, tricks: int, took_last: bool, all_tricks: int, monte: int = MONTE_CARDS) -> bool:
    """Whether a side with `tricks` of `all_tricks` tricks (and the last one, or not) can hold `thirds`.

    With the last trick a side also holds the monte (`monte` cards) and the 3 thirds of the bonus; at best its
    cards are the aces and then the figures, and at worst the other side's cards are.
    """
    if (took_last and tricks == 0) or (not took_last and tricks == all_tricks):
        return False
    trick_size = (len(DECK) - monte) // all_tricks

    def most(side_tricks: int, last: bool) -> int:
        cards = side_tricks * trick_size + (monte if last else 0)
        return most_thirds(cards) + (LAST_TRICK_THIRDS if last else 0)

    return DEAL_THIRDS - most(all_tricks - tricks, not took_last) <= thirds <= most(tricks, took_last)


def possible_tricks(thirds: int, last_trick: Side | None, all_tricks: int, monte: int = MONTE_CARDS) -> list[int]:
    """Every count of tricks in which the declarer side can hold `thirds` (with the last trick as given)."""
    lasts = [last_trick is Side.DECLARER] if last_trick else [True, False]
    return [
        tricks
        for tricks in range(all_tricks + 1)
        if any(within_reach(thirds, tricks, last, all_tricks, monte) for last in lasts)
    ]


def check_tricks(
    thirds: int, tricks: int | None, last_trick: Side | None, all_tricks: int, monte: int = MONTE_CARDS
) -> None:
    """Reject trick facts that contradict each other or the thirds; `monte` cards go with the last trick."""
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
        possible = possible_tricks(thirds, last_trick, all_tricks, monte)
        if tricks not in possible:
            fits = (
                _("{fewest} to {most} tricks").format(fewest=possible[0], most=possible[-1])
                if possible
                else _("no count of tricks")
            )
            raise FactError(
                "tricks",
                tricks,
                _("the cards holding {thirds} thirds fill {fits} of {all_tricks}").format(
                    thirds=thirds, fits=fits, all_tricks=all_tricks
                ),
            )
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
) -> Sweep | None:
    """The sweep for the declarer side's thirds, asking only for the facts the reading `counts` needs (RULES §3, §8).

    The losing side took `lost` thirds. With none: cappotto if it took no trick, else stramazzo. Otherwise no
    stramazzo for `all`; for `monte` and `tricks`, a stramazzo when the points that count hold under one point:
    without the last trick, its tricks hold all it took; with it, 3 thirds fewer (the bonus), and for `tricks`
    the monte's thirds fewer too (the monte's `monte` cards go with the last trick).

    >>> decide_sweep(10, None, Side.DECLARER, 12, StramazzoCounts.TRICKS, monte_thirds=6)  # 10 - 3 - 6 = 1 in tricks
    <Sweep.STRAMAZZO: 'stramazzo'>
    >>> decide_sweep(10, None, Side.DECLARER, 12, StramazzoCounts.MONTE) is None  # 10 - 3 = 7 in tricks and monte
    True
    """
    lost = min(thirds, DEAL_THIRDS - thirds)
    if lost == 0:
        if tricks is None:
            raise _need("tricks", thirds)
        cappotto = tricks == (0 if thirds == 0 else all_tricks)
        return Sweep.CAPPOTTO if cappotto else Sweep.STRAMAZZO
    if counts is StramazzoCounts.ALL:
        return None
    if lost < STRAMAZZO_BELOW:  # under the last trick's 3 too: the losing side's tricks hold all it took
        return Sweep.STRAMAZZO
    spare = lost - LAST_TRICK_THIRDS  # with the last trick: the losing side's tricks and the monte
    if counts is StramazzoCounts.MONTE:
        fewest = most = 0  # the monte counts with the tricks
    elif monte_thirds is not None:
        fewest = most = monte_thirds
    else:
        fewest, most = 0, max(m for m in thirds_held(monte) if m <= spare)
    # with the last trick, the losing side counts spare - most to spare - fewest
    if most > spare or spare - most >= STRAMAZZO_BELOW:
        return None
    if last_trick is None:
        raise _need("last_trick", thirds)
    if (last_trick is Side.DECLARER) != (thirds < DEAL_THIRDS - thirds):
        return None
    if spare - fewest < STRAMAZZO_BELOW:
        return Sweep.STRAMAZZO
    raise _need("monte_thirds", thirds)
