"""How much a request may carry: its body in bytes, and each field typed into a form or sent in the JSON API.

A body past `MOST_BYTES` is refused with 413 before it is read whole, and one slower than `BODY_SECONDS` with 408;
a field past its length, a list past `MOST_ITEMS`, or text that is not text (half of a surrogate pair, which JSON can
spell) is refused with 422 naming the field, its length and the most allowed. Nothing is stored or served past these
sizes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ledger.errors import LedgerError
from ledger.i18n import _

MOST_BYTES = 64 * 1024
"""A request body: the longest form or deal is well under a kilobyte."""
BODY_SECONDS = 10
"""How long a request body may take to come whole (a phone sends a form in a fraction of a second); a slower one
is refused with 408."""
MOST_CHARACTERS = {"note": 1000, "reason": 200, "place": 200, "line": 200, "players": 300, "key": 100, "csrf": 100}
"""The longest text per field; every other field (a name, a fact, a number) is at most `MOST_OTHER`."""
MOST_OTHER = 60
MOST_ITEMS = 20
"""The most items in a list (the players of an evening, options)."""
MOST_LISTED = {"players": 200, "arrived": 200, "left": 200, "tables": 60}
"""The most items in the lists of a club night: everyone present, everyone arriving or leaving, every table."""


def check_fields(fields: Iterable[tuple[str, object]]) -> None:
    """An error naming the first field (name, value) that is too long, holds too many items, or is not text."""
    for name, value in fields:
        _check_text(_("a field name"), name, MOST_OTHER)
        most = MOST_LISTED.get(name, MOST_ITEMS)
        if isinstance(value, list | dict) and len(value) > most:
            raise LedgerError(
                _("{field}: {count} items; at most {most}").format(field=name, count=len(value), most=most)
            )
        for text in _texts(value):
            _check_text(name, text, MOST_CHARACTERS.get(name, MOST_OTHER))


def _texts(value: object) -> Iterator[str]:
    """The text in a field: itself, the items of a list, the names and values of an object (one level deep: a
    deeper value is of a type no field takes, and is refused as such)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        yield from (item for item in value if isinstance(item, str))
    elif isinstance(value, dict):
        yield from (item for pair in value.items() for item in pair if isinstance(item, str))


def _check_text(field: str, text: str, most: int) -> None:
    if len(text) > most:
        raise LedgerError(
            _("{field}: {length} characters; at most {most}").format(field=field, length=len(text), most=most)
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise LedgerError(
            _("{field}: not text (it holds {code}, half of a character)").format(
                field=field, code=f"U+{ord(text[error.start]):04X}"
            )
        ) from None
