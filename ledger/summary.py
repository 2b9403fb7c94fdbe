"""One deal in words, the same in the terminal, on the web and in the report."""

from __future__ import annotations

from ledger.i18n import _, ngettext
from ledger.rules.contracts import Contract
from ledger.rules.profiles import Profile
from ledger.rules.scoring import DealResult, sitting_out_note
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
    points = (
        _("{thirds} of 35").format(thirds=thirds)
        if profile.american
        else ngettext("{thirds} third ({points})", "{thirds} thirds ({points})", thirds).format(
            thirds=thirds, points=profile.format_points(thirds)
        )
    )
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


def called_card(deal: DealView) -> str:
    """`3D@Anna`, `3D@monte`, `3D` (holder not known), `@Anna` (card not known), or nothing."""
    if deal.called is None and deal.holder is None:
        return ""
    return (deal.called or "") + (f"@{deal.holder}" if deal.holder else "")


def outcome(deal: DealView) -> str:
    """`won` or `lost` for the declarer side; nothing for a passed deal."""
    if deal.declarer_won is None:
        return ""
    return _("won") if deal.declarer_won else _("lost")


def sits_out(deal: DealView) -> bool:
    """The dealer held no cards and took no part in the payments."""
    return deal.roles.get(deal.dealer) == "out"


def note(deal: DealView) -> str:
    """The explanation for a row of deals: voided or amended first; the dealer sitting out left to the dealer column.

    >>> from datetime import datetime
    >>> deal = DealView(2, 2, "Dario", "Anna", None, "solo", None, None, None, (), 20, None, None, 0, True,
    ...                 None, 1, 2, "solo 2 = 2 from each opponent; Dario deals and sits out", {}, {"Dario": "out"},
    ...                 datetime(2026, 11, 21), reason="recount")
    >>> note(deal)
    'amended (recount): solo 2 = 2 from each opponent'
    """
    if deal.voided:
        return _("VOID: {reason}").format(reason=deal.void_reason)
    own = sitting_out_note(deal.dealer, shares=False)
    explanation = "; ".join(part for part in deal.explanation.split("; ") if part != own)
    if deal.amended:
        return _("amended ({reason}): {explanation}").format(reason=deal.reason, explanation=explanation)
    return explanation
