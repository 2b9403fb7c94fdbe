"""A recorded auction: each seat speaks once, in turn, higher than every bid before it."""

from __future__ import annotations

from collections.abc import Sequence

from ledger.errors import LedgerError
from ledger.rules.contracts import Contract
from ledger.rules.facts import Call
from ledger.rules.profiles import Profile


def _label(call: Contract | None) -> str:
    return call.value if call else "pass"


def check_auction(calls: Sequence[Call], speakers: Sequence[str], profile: Profile) -> tuple[str, Contract] | None:
    """Validate calls made in speaking order; return (declarer, contract), or None when all passed.

    `speakers` are the active seats from the seat after the dealer. After solissimo nobody else may speak;
    after another top bid (quintiglio's solo, cavendish's play) the others may only pass, and need not be recorded.
    """
    top = len(profile.ladder) - 1
    best: tuple[str, Contract] | None = None
    for index, (seat, call) in enumerate(calls):
        if index >= len(speakers):
            raise LedgerError(f"auction: {len(calls)} calls, but only {len(speakers)} players speak")
        if best and best[1] is Contract.SOLISSIMO:
            raise LedgerError(f"auction: {seat} cannot speak after {best[0]}'s {best[1].value}")
        if seat != speakers[index]:
            raise LedgerError(f"auction: call {index + 1} ({_label(call)}) is {speakers[index]}'s, not {seat}'s")
        if call is None:
            continue
        if call not in profile.contracts:
            allowed = ", ".join(c.value for c in profile.bids)
            raise LedgerError(f"auction: {seat} bids {call.value}, but {profile.name} bids are pass, {allowed}")
        if best and profile.level(call) <= profile.level(best[1]):
            raise LedgerError(f"auction: {seat}'s {call.value} does not outbid {best[0]}'s {best[1].value}")
        best = (seat, call)
    ended = best is not None and profile.level(best[1]) == top
    if len(calls) < len(speakers) and not ended:
        raise LedgerError(f"auction: {speakers[len(calls)]} has not spoken (every player speaks once)")
    return best
