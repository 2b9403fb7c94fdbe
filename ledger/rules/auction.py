"""A recorded auction: each seat speaks once, in turn, higher than every bid before it."""

from __future__ import annotations

from collections.abc import Sequence

from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.rules.contracts import Contract
from ledger.rules.facts import Call
from ledger.rules.profiles import Profile


def _label(call: Contract | None) -> str:
    return call.value if call else "pass"


def check_auction(calls: Sequence[Call], speakers: Sequence[str], profile: Profile) -> tuple[str, Contract] | None:
    """Validate calls made in speaking order; return (declarer, contract), or None when all passed.

    `speakers` are the active seats from the seat after the dealer. After the top bid (solissimo, quintiglio's solo,
    cavendish's play) the others may only pass, and their passes need not be recorded.
    """
    top = len(profile.ladder) - 1
    best: tuple[str, Contract] | None = None
    for index, (seat, call) in enumerate(calls):
        if index >= len(speakers):
            raise LedgerError(
                _("auction: {n_calls} calls, but only {n_speakers} players speak").format(
                    n_calls=len(calls), n_speakers=len(speakers)
                )
            )
        if seat != speakers[index]:
            raise LedgerError(
                _("auction: call {number} ({label}) is {speakers}'s, not {seat}'s").format(
                    number=index + 1, label=_label(call), speakers=speakers[index], seat=seat
                )
            )
        if call is None:
            continue
        if best and best[1] is Contract.SOLISSIMO:
            raise LedgerError(
                _(
                    "auction: {seat} bids {call} after {rival}'s {bid}; after a solissimo the others may only pass"
                ).format(seat=seat, call=call.value, rival=best[0], bid=best[1].value)
            )
        if call not in profile.contracts:
            allowed = ", ".join(c.value for c in profile.bids)
            raise LedgerError(
                _("auction: {seat} bids {call}, but {name} bids are pass, {allowed}").format(
                    seat=seat, call=call.value, name=profile.name, allowed=allowed
                )
            )
        if best and profile.level(call) <= profile.level(best[1]):
            raise LedgerError(
                _("auction: {seat}'s {call} does not outbid {rival}'s {bid}").format(
                    seat=seat, call=call.value, rival=best[0], bid=best[1].value
                )
            )
        best = (seat, call)
    ended = best is not None and profile.level(best[1]) == top
    if len(calls) < len(speakers) and not ended:
        raise LedgerError(
            _("auction: {speakers} has not spoken (every player speaks once)").format(speakers=speakers[len(calls)])
        )
    return best
