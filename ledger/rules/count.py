"""The count as it is made at the table: aces, figures and the last trick, turned into thirds (pure: no I/O).

`2a+10f+u` (or `2a10f+u`, `2 assi + 10 figure + ultima`, `2a+10f+last`): 2 aces, 10 figures and the last
trick, 2 x 3 + 10 + 3 = 19 thirds. Figures are the 3, 2, re, cavallo and fante (one third each); the
last trick is worth 3 and is written only when the declarer side took it, so the count says who did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledger.errors import LedgerError
from ledger.rules.cards import ACE_THIRDS, ACES, FIGURES, LAST_TRICK_THIRDS
from ledger.rules.contracts import Side

ACE_WORDS = ("assi", "asso", "aces", "ace", "a")
FIGURE_WORDS = ("figures", "figure", "figura", "f")
LAST_WORDS = ("ultima", "last", "u")
COUNT_HELP = f"aces, figures and the last trick, e.g. 2a+10f+u (at most {ACES} aces and {FIGURES} figures)"
_TERM = re.compile(rf"\+?(?:(\d{{1,3}})({'|'.join(ACE_WORDS + FIGURE_WORDS)})|({'|'.join(LAST_WORDS)}))")
_COUNT = re.compile(rf"(?:{_TERM.pattern})+")


@dataclass(frozen=True)
class Count:
    """The declarer side's aces and figures, and whether it took the last trick."""

    aces: int
    figures: int
    last: bool

    @property
    def thirds(self) -> int:
        """Aces 3 each, figures 1 each, the last trick 3."""
        return ACE_THIRDS * self.aces + self.figures + (LAST_TRICK_THIRDS if self.last else 0)

    @property
    def last_trick(self) -> Side:
        """Who took the last trick: the declarer side when the count has it, else the opponents."""
        return Side.DECLARER if self.last else Side.OPPONENTS

    def __str__(self) -> str:
        """`2 aces x 3 + 10 figures + last trick 3 = 19 thirds`."""
        parts = [f"{self.aces} aces x {ACE_THIRDS}", f"{self.figures} figures"]
        parts += [f"last trick {LAST_TRICK_THIRDS}"] if self.last else []
        return f"{' + '.join(parts)} = {self.thirds} thirds"


def looks_like_count(text: str) -> bool:
    """A word written as a count (`2a10f+u`) rather than as points or thirds."""
    return bool(_COUNT.fullmatch(_squeezed(text)))


def parse_count(text: str) -> Count:
    """Aces, figures and the last trick from `2a+10f+u`; each at most once, within what the deck holds."""
    squeezed = _squeezed(text)
    if not squeezed or not _COUNT.fullmatch(squeezed):
        raise LedgerError(f"count {text!r}: write {COUNT_HELP}")
    aces = figures = None
    last = False
    for match in _TERM.finditer(squeezed):
        number, word, last_word = match.groups()
        if last_word:
            if last:
                raise LedgerError(f"count {text!r}: the last trick is written once")
            last = True
        elif word in ACE_WORDS:
            aces = _once(aces, int(number), "aces", text)
        else:
            figures = _once(figures, int(number), "figures", text)
    return _checked(Count(aces or 0, figures or 0, last), text)


def _squeezed(text: str) -> str:
    return "".join(text.lower().split())


def _once(before: int | None, number: int, what: str, text: str) -> int:
    if before is not None:
        raise LedgerError(f"count {text!r}: the {what} are written once")
    return number


def _checked(count: Count, text: str) -> Count:
    if count.aces > ACES:
        raise LedgerError(f"count {text!r}: {count.aces} aces, but the deck has {ACES}")
    if count.figures > FIGURES:
        raise LedgerError(f"count {text!r}: {count.figures} figures, but the deck has {FIGURES} "
                          "(3, 2, re, cavallo and fante of each suit)")
    return count
