"""The count as it is made at the table: aces, figures and the last trick, turned into thirds (pure: no I/O).

`2a+10f+u` (or `2a10f+u`, `2 assi + 10 figure + ultima`, `2a+10f+last`): 2 aces, 10 figures and the last
trick, 2 x 3 + 10 + 3 = 19 thirds. Figures are the 3, 2, re, cavallo and fante (one third each); the
last trick is worth 3 and is written only when the declarer side took it, so the count says who did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledger.errors import LedgerError
from ledger.i18n import N_, _, ngettext
from ledger.rules.cards import ACE_THIRDS, ACES, FIGURES, LAST_TRICK_THIRDS
from ledger.rules.contracts import Side

ACE_WORDS = ("assi", "asso", "aces", "ace", "a")
FIGURE_WORDS = ("figures", "figure", "figura", "f")
LAST_WORDS = ("ultima", "last", "u")
COUNT_HELP = N_("aces, figures and the last trick, e.g. 2a+10f+u (at most {aces} aces and {figures} figures)")
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
        aces = ngettext("{n} ace x {thirds}", "{n} aces x {thirds}", self.aces)
        parts = [
            aces.format(n=self.aces, thirds=ACE_THIRDS),
            ngettext("{n} figure", "{n} figures", self.figures).format(n=self.figures),
        ]
        parts += [_("last trick {thirds}").format(thirds=LAST_TRICK_THIRDS)] if self.last else []
        total = ngettext("{parts} = {thirds} third", "{parts} = {thirds} thirds", self.thirds)
        return total.format(parts=" + ".join(parts), thirds=self.thirds)


def looks_like_count(text: str) -> bool:
    """A word written as a count (`2a10f+u`) rather than as points or thirds."""
    return bool(_COUNT.fullmatch(_squeezed(text)))


def parse_count(text: str) -> Count:
    """Aces, figures and the last trick from `2a+10f+u`; each at most once, within what the deck holds."""
    squeezed = _squeezed(text)
    if not squeezed or not _COUNT.fullmatch(squeezed):
        raise LedgerError(_("count {text!r}: write {help}").format(text=text, help=count_help()))
    aces = figures = None
    last = False
    for match in _TERM.finditer(squeezed):
        number, word, last_word = match.groups()
        if last_word:
            if last:
                raise LedgerError(_("count {text!r}: the last trick is written once").format(text=text))
            last = True
        elif word in ACE_WORDS:
            aces = _once(aces, int(number), N_("count {text!r}: the aces are written once"), text)
        else:
            figures = _once(figures, int(number), N_("count {text!r}: the figures are written once"), text)
    return _checked(Count(aces or 0, figures or 0, last), text)


def _squeezed(text: str) -> str:
    return "".join(text.lower().split())


def count_help() -> str:
    """How a count is written, in the language in use."""
    return _(COUNT_HELP).format(aces=ACES, figures=FIGURES)


def _once(before: int | None, number: int, message: str, text: str) -> int:
    if before is not None:
        raise LedgerError(_(message).format(text=text))
    return number


def _checked(count: Count, text: str) -> Count:
    if count.aces > ACES:
        raise LedgerError(
            _("count {text!r}: {aces} aces, but the deck has {deck}").format(text=text, aces=count.aces, deck=ACES)
        )
    if count.figures > FIGURES:
        raise LedgerError(
            _(
                "count {text!r}: {figures} figures, but the deck has {deck} (3, 2, re, cavallo and fante of each suit)"
            ).format(text=text, figures=count.figures, deck=FIGURES)
        )
    return count
