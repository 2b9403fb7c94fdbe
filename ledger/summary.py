"""One deal in words, the same in the terminal, on the web and in the report."""

from __future__ import annotations

from ledger.i18n import _
from ledger.rules.contracts import Contract
from ledger.rules.profiles import Profile
from ledger.rules.scoring import DealResult
from ledger.values import DealView


def _word(value: object) -> str | None:
    """An enum's value or a stored word, alike."""
    return None if value is None else str(getattr(value, "value", value))


def headline(deal: DealView | DealResult, profile: Profile) -> str:
    """`Bruno solo: 22 thirds (7+1/3), won, stramazzo`, or `All passed.`, for a stored or a scored deal.

    >>> from ledger.rules.profiles import make_profile
    >>> from datetime import datetime
    >>> deal = DealView(1, 1, "Carla", "Bruno", None, "solo", None, None, None, (), 33, None, None, 0, True,
    ...                 "stramazzo", 3, 6, "", {}, {}, datetime(2026, 11, 21))
    >>> headline(deal, make_profile("pagat"))
    'Bruno solo: 33 thirds (11), won, stramazzo'
    """
    if deal.passed:
        return _("All passed.")
    assert deal.contract is not None and deal.declarer_thirds is not None
    aggravation = _word(deal.aggravation)
    contract = profile.word(Contract(_word(deal.contract))) + (f" {aggravation}" if aggravation else "")
    if len(profile.bids) == 1:
        contract += "s"  # the one bid of the game: `Anna plays`
    thirds = deal.declarer_thirds
    points = (_("{thirds} of 35").format(thirds=thirds) if profile.american else
              _("{thirds} thirds ({points})").format(thirds=thirds, points=profile.format_points(thirds)))
    sweep = f", {_word(deal.sweep)}" if deal.sweep else ""
    outcome = _("won") if deal.declarer_won else _("lost")
    return f"{deal.declarer} {contract}: {points}, {outcome}{sweep}"


def brief(deal: DealView) -> str:
    """`Bruno solo 22 stramazzo` for a row of a table, or `all passed`."""
    if deal.passed:
        return _("all passed")
    contract = " ".join(part for part in (deal.contract, deal.aggravation) if part)
    parts = (deal.declarer, contract, deal.declarer_thirds, deal.sweep)
    return " ".join(str(part) for part in parts if part is not None)
