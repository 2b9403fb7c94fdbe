"""Contracts, aggravations and sides, with the Italian and English words that name them."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import TypeVar

from ledger.errors import LedgerError
from ledger.i18n import _


class Contract(Enum):
    """What the declarer undertakes; `play` (Cavendish) is stored as chiamo."""

    CHIAMO = "chiamo"
    MEDIATORE = "mediatore"
    SOLO = "solo"
    SOLISSIMO = "solissimo"


class Aggravation(Enum):
    """A solissimo raised before play: not a bid, it outbids nothing."""

    DIVIDETE = "dividete"
    SCEGLIETE = "scegliete"


class Side(Enum):
    """Who took the last trick."""

    DECLARER = "declarer"
    OPPONENTS = "opponents"


PASS = "pass"
T = TypeVar("T")

CONTRACT_WORDS: dict[str, Contract] = {
    "chiamo": Contract.CHIAMO,
    "call": Contract.CHIAMO,
    "chiamata": Contract.CHIAMO,
    "play": Contract.CHIAMO,
    "gioco": Contract.CHIAMO,
    "mediatore": Contract.MEDIATORE,
    "mediator": Contract.MEDIATORE,
    "solo": Contract.SOLO,
    "alone": Contract.SOLO,
    "solissimo": Contract.SOLISSIMO,
    "solissima": Contract.SOLISSIMO,
}
PASS_WORDS = {"pass", "passo", "p", "-"}
AGGRAVATION_WORDS: dict[str, Aggravation] = {
    "dividete": Aggravation.DIVIDETE,
    "divide": Aggravation.DIVIDETE,
    "divided": Aggravation.DIVIDETE,
    "scegliete": Aggravation.SCEGLIETE,
    "sceliete": Aggravation.SCEGLIETE,
    "choose": Aggravation.SCEGLIETE,
    "scegli": Aggravation.SCEGLIETE,
}
SIDE_WORDS: dict[str, Side] = {
    "declarer": Side.DECLARER,
    "decl": Side.DECLARER,
    "d": Side.DECLARER,
    "dichiarante": Side.DECLARER,
    "opponents": Side.OPPONENTS,
    "opp": Side.OPPONENTS,
    "o": Side.OPPONENTS,
    "defenders": Side.OPPONENTS,
    "avversari": Side.OPPONENTS,
    "chiamante": Side.DECLARER,
    "avv": Side.OPPONENTS,
}


def _lookup(kind: str, text: str, words: dict[str, T], allowed: str) -> T:
    value = words.get(text.strip().lower())
    if value is None:
        raise LedgerError(_("{kind} {text!r}: allowed are {allowed}").format(kind=kind, text=text, allowed=allowed))
    return value


def parse_contract(text: str, calls: Sequence[str]) -> Contract:
    """`chiamo`/`call`/`play`, `mediatore`, `solo`, `solissimo`; an error lists the `calls` of the table."""
    return _lookup(_("contract"), text, CONTRACT_WORDS, ", ".join(calls))


def parse_call(text: str, calls: Sequence[str]) -> Contract | None:
    """One call of an auction: a contract, or None for a pass (`pass`, `passo`); an error lists the `calls` of the
    table."""
    if text.strip().lower() in PASS_WORDS:
        return None
    return _lookup(_("call"), text, CONTRACT_WORDS, _("pass (passo), {calls}").format(calls=", ".join(calls)))


def parse_aggravation(text: str) -> Aggravation:
    """`dividete` or `scegliete` (English: divide, choose; `sceliete` as the English sources spell it)."""
    return _lookup(_("aggravation"), text, AGGRAVATION_WORDS, _("dividete (divide), scegliete (choose)"))


def parse_side(text: str) -> Side:
    """`declarer` or `opponents` (short: `decl`, `opp`; Italian: `chiamante`, `avversari`)."""
    return _lookup(_("last trick"), text, SIDE_WORDS, _("declarer (decl), opponents (opp)"))
