"""What players type (names, notes, reasons, keys) is shown as typed: nothing in it may act on a screen instead."""

from __future__ import annotations

import unicodedata

from ledger.errors import FactError
from ledger.i18n import _
from ledger.rules.numbers import shortened

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them on screen: a name holding one would show as another."""
LINES = frozenset("\t\n")


def acts_on_screen(text: str, *, lines: bool = False) -> bool:
    """Whether the text holds a character a terminal or a page acts on instead of showing it: a control character
    such as ESC or NUL (tab and new line aside, with `lines`), or a direction override."""
    return any((unicodedata.category(ch) == "Cc" and not (lines and ch in LINES)) or ch in BIDI_CONTROLS for ch in text)


def check_plain(text: str | None, fact: str) -> None:
    """An error naming the free text (`note`, `reason`, `key`, `place`) when it `acts_on_screen`."""
    if text is not None and acts_on_screen(text, lines=True):
        raise FactError(fact, shortened(text), _("no control characters, except tab and new line"))
