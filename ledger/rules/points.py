"""Card points on the profile's display scale: Italian whole points and thirds, or American 0..35."""

from __future__ import annotations

import re

from ledger.errors import FactError
from ledger.i18n import _
from ledger.rules.cards import DEAL_THIRDS

_ITALIAN = re.compile(r"^\s*(\d+)?\s*(?:\+?\s*(?<!\d)([12])\s*/\s*3)?\s*$")


def check_thirds(thirds: int, fact: str = "thirds") -> int:
    """Reject a count of thirds outside 0..35 (given as `fact`: the thirds, or points on the American scale)."""
    if thirds < 0:
        raise FactError(fact, thirds, _("thirds cannot be negative (0 to {thirds2})").format(thirds2=DEAL_THIRDS))
    if thirds > DEAL_THIRDS:
        raise FactError(fact, thirds, _("a deal has only {thirds2} thirds").format(thirds2=DEAL_THIRDS))
    return thirds


def parse_points(text: str, american: bool = False) -> int:
    """Thirds from `7`, `7+1/3`, `2/3` (Italian) or `22` of 35 (American)."""
    if len(text) > 20:
        raise FactError(
            "points", text, _("too long; the declarer side's points are 0 to {thirds}").format(thirds=DEAL_THIRDS)
        )
    if american:
        if not text.strip().isdecimal():
            raise FactError(
                "points", text, _("write the declarer side's points, 0 to {thirds}").format(thirds=DEAL_THIRDS)
            )
        return check_thirds(int(text), "points")
    match = _ITALIAN.match(text)
    if not text.strip() or not match or not any(match.groups()):
        raise FactError("points", text, _("write whole points and thirds, e.g. 7, 7+1/3 or 5+2/3"))
    whole, thirds = match.groups()
    total = int(whole or 0) * 3 + int(thirds or 0)
    if total > DEAL_THIRDS:
        raise FactError("points", text, _("a deal has only 11+2/3 points ({thirds} thirds)").format(thirds=DEAL_THIRDS))
    return total


def format_points(thirds: int, american: bool = False) -> str:
    """`7+1/3` on the Italian scale, `22` on the American."""
    if american:
        return str(thirds)
    whole, rest = divmod(thirds, 3)
    if not rest:
        return str(whole)
    return f"{rest}/3" if not whole else f"{whole}+{rest}/3"
