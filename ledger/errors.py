"""Errors a user can cause. Below the front ends an error names the fact and the value, never a command-line flag,
a key of `play` or a field of a page: each front end words the fact its own way (`FactError.worded`)."""

from __future__ import annotations

import errno
from collections.abc import Callable

from ledger.i18n import N_, _

FACTS = {
    "aggravation": N_("aggravation"),
    "auction": N_("auction"),
    "called": N_("called card"),
    "contract": N_("contract"),
    "count": N_("count"),
    "currency": N_("currency"),
    "db": N_("ledger"),
    "dealer": N_("dealer"),
    "declarer": N_("declarer"),
    "evening": N_("evening"),
    "format": N_("format"),
    "holder": N_("holder"),
    "key": N_("key"),
    "last_trick": N_("last trick"),
    "monte_thirds": N_("monte's thirds"),
    "note": N_("note"),
    "passed": N_("passed"),
    "passed_before": N_("passed deals before"),
    "place": N_("place"),
    "player": N_("player"),
    "points": N_("points"),
    "reason": N_("reason"),
    "round_to": N_("coin to round to"),
    "seen_revision": N_("revision seen"),
    "since": N_("since"),
    "stake": N_("stake"),
    "thirds": N_("thirds"),
    "tricks": N_("tricks"),
}
"""Each fact an error can name, in words: how an error names it where no front end words it otherwise."""
LONGEST_VALUE = 120
"""A value longer than this is cut (with `...`) where an error shows it."""


def fact_word(fact: str) -> str:
    """The fact in words, in the language in use: `tricks` -> `tricks` (`prese` in Italian)."""
    return _(FACTS[fact]) if fact in FACTS else fact


def shown(value: object) -> str:
    """A value as an error shows it: text quoted (cut when long), numbers as they are."""
    if isinstance(value, str):
        return repr(value if len(value) <= LONGEST_VALUE else value[:LONGEST_VALUE]) + (
            "..." if len(value) > LONGEST_VALUE else ""
        )
    return str(value)


SYSTEM_REASONS = {
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EROFS: N_("Read-only file system"),
    errno.ENOENT: N_("No such file or directory"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EEXIST: N_("File exists"),
}
"""The system's common refusals, as the system says them in English, and so in words of the language in use."""


def system_reason(error: BaseException) -> str:
    """Why the system refused, in the language in use where it is a common refusal, else in the system's words."""
    code = getattr(error, "errno", None)
    if code in SYSTEM_REASONS:
        return _(SYSTEM_REASONS[code])
    return getattr(error, "strerror", None) or str(error)


class LedgerError(Exception):
    """A user-caused error whose message names the value and what is allowed."""


class FactError(LedgerError):
    """A value given for one fact that cannot be: `fact` (`thirds`, `tricks`, `dealer`, ...) and `value` say which,
    `reason` why; shown as `thirds 36: a deal has only 35 thirds` unless a front end words the fact its own way."""

    def __init__(self, fact: str, value: object, reason: str) -> None:
        super().__init__(reason)
        self.fact, self.value, self.reason = fact, value, reason

    def worded(self, name: Callable[[str], str] = lambda fact: fact_word(fact) + " ") -> str:
        """The error with the fact named as the front end calls it, `name(fact)` written before the value:
        `--thirds 36: a deal has only 35 thirds` (`--thirds `), `prese=13: ...` (`prese=`)."""
        return f"{name(self.fact)}{shown(self.value)}: {self.reason}"

    def __str__(self) -> str:
        return self.worded()


class KeyTaken(FactError):
    """An idempotency key already holds another deal (or payment) than the one given with it: nothing written."""


class MissingFact(LedgerError):
    """The rules need one more fact of the deal (`tricks`, `last_trick`, `monte_thirds`, ...) to score it; the
    message asks for it, and each front end says how to give it."""

    def __init__(self, fact: str, question: str, choices: tuple[str, ...] = ()) -> None:
        super().__init__(question)
        self.fact = fact
        self.choices = choices
        """Words that answer besides a player's name (`monte`, `declarer` for the holder), where there are any."""


class NoOpenEvening(LedgerError):
    """There is no open evening to work on (none yet, or the one named is closed); each front end says how to start
    one."""


class Forbidden(LedgerError):
    """This writer may not make this change (a club table's key after its round, or at another table): nothing
    written; the message says why and whom to ask."""


class Stale(LedgerError):
    """A correction drawn from what is no longer so (another phone changed the evening or the deal since): refused,
    the message saying what happened since, nothing written."""


class UndoRefused(Stale):
    """Undo was refused: the change the scorekeeper saw as the last one is no longer the last (the message says what
    happened since)."""


class DealChanged(Stale):
    """An amendment was refused: the deal was corrected since the scorekeeper saw it (the message says how)."""


class DatabaseRefused(LedgerError):
    """The database refused to work (read-only, locked, unreachable): nothing was written."""


class DatabaseUnavailable(DatabaseRefused):
    """The database cannot work right now (its disk full, read-only, locked, restarting or out of reach): nothing was
    written, and the same request can succeed once it is back."""
