"""Cappotto and stramazzo, decided from the declarer side's thirds exactly as the table in RULES §3."""

from __future__ import annotations

from enum import Enum

from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.rules.cards import DEAL_THIRDS, LAST_TRICK_THIRDS
from ledger.rules.contracts import Side


class Sweep(Enum):
    """A side took every trick (cappotto), or the losers' tricks hold under 3 thirds (stramazzo)."""

    CAPPOTTO = "cappotto"
    STRAMAZZO = "stramazzo"


class MissingFact(LedgerError):
    """The rules need one more fact of the deal (`tricks` or `last_trick`) to score it."""

    def __init__(self, fact: str, message: str) -> None:
        super().__init__(message)
        self.fact = fact


def check_tricks(thirds: int, tricks: int | None, last_trick: Side | None, all_tricks: int, fewest: int = 1) -> None:
    """Reject trick facts that contradict each other or the thirds; `fewest` tricks hold all 35 thirds."""
    if tricks is not None:
        if not 0 <= tricks <= all_tricks:
            raise LedgerError(_("--tricks {tricks}: a deal has {all_tricks} tricks (0 to {all_tricks})").format(
                tricks=tricks, all_tricks=all_tricks))
        if tricks == all_tricks and thirds < DEAL_THIRDS:
            raise LedgerError(_("--tricks {tricks} with {thirds} thirds: all {all_tricks} tricks hold all 35 "
                                "thirds").format(
                tricks=tricks, thirds=thirds, all_tricks=all_tricks))
        if tricks == 0 and thirds > 0:
            raise LedgerError(_("--tricks 0 with {thirds} thirds: a side with no trick has no thirds").format(
                thirds=thirds))
        if tricks == 0 and last_trick is Side.DECLARER:
            raise LedgerError(_("--tricks 0 with the last trick to the declarer: the last trick is a trick"))
        if tricks == all_tricks and last_trick is Side.OPPONENTS:
            raise LedgerError(_("--tricks {tricks} with the last trick to the opponents: they took no trick").format(
                tricks=tricks))
        if thirds == DEAL_THIRDS and tricks < fewest:
            raise LedgerError(_("--tricks {tricks} with all 35 thirds: the counting cards fill at least {fewest} "
                                "tricks").format(
                tricks=tricks, fewest=fewest))
        if thirds == 0 and tricks > all_tricks - fewest:
            raise LedgerError(_("--tricks {tricks} with 0 thirds: the opponents' 35 thirds fill at least {fewest} "
                                "tricks, leaving at most {number}").format(
                tricks=tricks, fewest=fewest, number=all_tricks - fewest))
    if last_trick is Side.DECLARER and thirds < LAST_TRICK_THIRDS:
        raise LedgerError(_("{thirds} thirds with the last trick to the declarer: the last trick alone is 3 "
                            "thirds").format(
            thirds=thirds))
    if last_trick is Side.OPPONENTS and thirds > DEAL_THIRDS - LAST_TRICK_THIRDS:
        raise LedgerError(
            _("{thirds} thirds with the last trick to the opponents: they would have at least 3 thirds, leaving the "
              "declarer at most {number}").format(
                thirds=thirds, number=DEAL_THIRDS - LAST_TRICK_THIRDS)
        )


def _need(fact: str, thirds: int) -> MissingFact:
    if fact == "tricks":
        return MissingFact("tricks", f"{thirds} thirds: how many tricks did the declarer side take? (--tricks N)")
    return MissingFact(
        "last_trick", f"{thirds} thirds: who took the last trick? (--last-trick declarer|opponents)"
    )


def decide_sweep(thirds: int, tricks: int | None, last_trick: Side | None, all_tricks: int) -> Sweep | None:
    """The sweep for the declarer side's thirds, asking only for the fact that row of the table needs."""
    if thirds in (0, DEAL_THIRDS):
        if tricks is None:
            raise _need("tricks", thirds)
        swept = tricks == (0 if thirds == 0 else all_tricks)
        return Sweep.CAPPOTTO if swept else Sweep.STRAMAZZO
    if thirds < LAST_TRICK_THIRDS or thirds > DEAL_THIRDS - LAST_TRICK_THIRDS:
        return Sweep.STRAMAZZO
    low = 2 * LAST_TRICK_THIRDS
    if low <= thirds <= DEAL_THIRDS - low:
        return None
    if last_trick is None:
        raise _need("last_trick", thirds)
    losers_took_last = (last_trick is Side.DECLARER) == (thirds < low)
    return Sweep.STRAMAZZO if losers_took_last else None
