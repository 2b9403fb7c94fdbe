"""Numbers of evenings, deals and payments, and counts: whole numbers the ledger's columns can hold.

PostgreSQL's integer columns hold numbers below 2^31, so that is the limit everywhere, on SQLite too.
"""

from __future__ import annotations

from ledger.errors import LedgerError
from ledger.i18n import _

LARGEST = 2**31 - 1


def check_number(number: int, what: str, smallest: int = 1) -> int:
    """`number` if it lies from `smallest` to LARGEST; else an error naming `what` and the range."""
    if number < smallest:
        raise LedgerError(
            _("{what} {number}: a whole number, {smallest} or more").format(what=what, number=number, smallest=smallest)
        )
    if number > LARGEST:
        raise LedgerError(_("{what} {number}: too large").format(what=what, number=number))
    return number


def storable(number: int) -> bool:
    """Whether a column can hold `number` (a larger one names nothing stored, and the database refuses it)."""
    return -LARGEST <= number <= LARGEST


def read_number(text: str) -> int | None:
    """A number written in digits, from 0 to LARGEST; None for anything else (a sign, a word, thousands of digits,
    which Python refuses to read)."""
    digits = text.strip()
    if not digits.isdecimal() or len(digits) > len(str(LARGEST)) or int(digits) > LARGEST:
        return None
    return int(digits)


def shortened(text: str, most: int = 24) -> str:
    """Typed text as a message shows it: at most `most` characters."""
    return text if len(text) <= most else text[:most] + "..."
