"""The options a table sets on a profile (RULES §6): the kind of value each takes, how it is read and shown."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ledger.errors import LedgerError
from ledger.i18n import _

OptionValue = bool | int | str | None

TRUE_WORDS = {"on", "true", "yes", "y", "1", "si", "sì"}
FALSE_WORDS = {"off", "false", "no", "n", "0"}
NONE_WORDS = {"none", "off", "no", "nessuno"}


MOST_MULTIPLIER = 100
"""The largest multiplier accepted."""
MOST_GAME_POINTS = 1000
"""The largest `game_to` accepted."""


class Kind(Enum):
    """What an option's value is."""

    SWITCH = "switch"
    """on or off"""
    NUMBER = "number"
    """a whole number from 1 to MOST_MULTIPLIER"""
    CHOICE = "choice"
    """one word of `choices`"""
    LIMIT = "limit"
    """a whole number from 1 to MOST_GAME_POINTS, or none"""


class StramazzoCounts(Enum):
    """Which points of the losing side decide a stramazzo (RULES §8)."""

    MONTE = "monte"
    """Its tricks, and the monte when it took the last trick (the last-trick bonus aside)."""
    TRICKS = "tricks"
    """The cards in its tricks only."""
    ALL = "all"
    """Every point it took, the last-trick bonus included: a stramazzo leaves it none."""


@dataclass(frozen=True)
class Option:
    """One option: its name, its kind of value and, for a choice, the words it may be."""

    name: str
    kind: Kind
    choices: tuple[str, ...] = ()

    def read(self, raw: OptionValue) -> OptionValue:
        """The value typed (`on`, `4`, `tricks`, `none`) or already read, checked; an error names what is allowed."""
        word = raw if isinstance(raw, bool) or raw is None else str(raw).strip().lower()
        if self.kind is Kind.SWITCH:
            if isinstance(word, bool):
                return word
            if word in TRUE_WORDS or word in FALSE_WORDS:
                return word in TRUE_WORDS
            raise LedgerError(_("option {option}={raw}: {option} is on or off").format(option=self.name, raw=raw))
        if self.kind is Kind.CHOICE:
            if word in self.choices:
                return str(word)
            choices = _(" or ").join([", ".join(self.choices[:-1]), self.choices[-1]])
            raise LedgerError(
                _("option {option}={raw}: {option} is {choices}").format(option=self.name, raw=raw, choices=choices)
            )
        if self.kind is Kind.LIMIT and (word is None or word in NONE_WORDS):
            return None
        most = MOST_GAME_POINTS if self.kind is Kind.LIMIT else MOST_MULTIPLIER
        number = _number(word)
        if number is not None and 1 <= number <= most:
            return number
        if self.kind is Kind.LIMIT:
            raise LedgerError(
                _("option {option}={raw}: {option} is none or a whole number from 1 to {most}").format(
                    option=self.name, raw=raw, most=most
                )
            )
        raise LedgerError(
            _("option {option}={raw}: {option} is a whole number from 1 to {most}").format(
                option=self.name, raw=raw, most=most
            )
        )


def _number(word: OptionValue) -> int | None:
    """A whole number, or None for anything else (a switch, a word, a fraction)."""
    if isinstance(word, bool) or word is None:
        return None
    try:
        return int(word)
    except ValueError:
        return None


def show(value: OptionValue) -> str:
    """An option's value as it is typed: `on`, `off`, `4`, `tricks`, `none`."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


OPTIONS: dict[str, Option] = {
    option.name: option
    for option in (
        Option("sweeps", Kind.SWITCH),
        Option("cappotto_multiplier", Kind.NUMBER),
        Option("stramazzo_multiplier", Kind.NUMBER),
        Option("sweeps_on_loss", Kind.SWITCH),
        Option("dealer_shares", Kind.SWITCH),
        Option("declarer_always_leads", Kind.SWITCH),
        Option("contract_multipliers", Kind.SWITCH),
        Option("pot_carryover", Kind.SWITCH),
        Option("stramazzo_counts", Kind.CHOICE, tuple(c.value for c in StramazzoCounts)),
        Option("game_to", Kind.LIMIT),
        Option("monte", Kind.SWITCH),
        Option("mediatore_outbids_chiamo", Kind.SWITCH),
        Option("mediatore", Kind.SWITCH),
        Option("call_own_card", Kind.SWITCH),
    )
}
"""Every option, in the order RULES §6 lists them (each profile has some)."""
