"""The 40-card Italian deck: suits, ranks, card points in thirds, and card notation."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from ledger.errors import FactError, LedgerError
from ledger.i18n import N_, _


class Suit(Enum):
    """Italian suits; the value is the notation letter."""

    DENARI = "D"
    COPPE = "C"
    SPADE = "S"
    BASTONI = "B"


class Rank(Enum):
    """Ranks, declared high to low; the value is the notation letter."""

    TRE = "3"
    DUE = "2"
    ASSO = "A"
    RE = "R"
    CAVALLO = "C"
    FANTE = "F"
    SETTE = "7"
    SEI = "6"
    CINQUE = "5"
    QUATTRO = "4"

    def __str__(self) -> str:
        """The notation letter: a card called by its rank alone is written so (`3`)."""
        return self.value

    @property
    def strength(self) -> int:
        """Higher beats lower inside a suit: the 3 is 9, the 4 is 0."""
        return len(Rank) - 1 - list(Rank).index(self)

    @property
    def thirds(self) -> int:
        """Card points in thirds: ace 3; 3, 2, re, cavallo, fante 1; the rest 0."""
        if self is Rank.ASSO:
            return 3
        return 1 if self.strength >= Rank.FANTE.strength else 0


SUIT_WORDS: dict[str, Suit] = {
    "d": Suit.DENARI,
    "denari": Suit.DENARI,
    "denaro": Suit.DENARI,
    "coins": Suit.DENARI,
    "diamonds": Suit.DENARI,
    "carreau": Suit.DENARI,
    "quadri": Suit.DENARI,
    "c": Suit.COPPE,
    "coppe": Suit.COPPE,
    "coppa": Suit.COPPE,
    "cups": Suit.COPPE,
    "h": Suit.COPPE,
    "hearts": Suit.COPPE,
    "coeur": Suit.COPPE,
    "cuori": Suit.COPPE,
    "s": Suit.SPADE,
    "spade": Suit.SPADE,
    "spada": Suit.SPADE,
    "swords": Suit.SPADE,
    "spades": Suit.SPADE,
    "pique": Suit.SPADE,
    "picche": Suit.SPADE,
    "b": Suit.BASTONI,
    "bastoni": Suit.BASTONI,
    "bastone": Suit.BASTONI,
    "batons": Suit.BASTONI,
    "clubs": Suit.BASTONI,
    "trefle": Suit.BASTONI,
    "fiori": Suit.BASTONI,
}

RANK_WORDS: dict[str, Rank] = {
    "3": Rank.TRE,
    "tre": Rank.TRE,
    "three": Rank.TRE,
    "2": Rank.DUE,
    "due": Rank.DUE,
    "two": Rank.DUE,
    "a": Rank.ASSO,
    "1": Rank.ASSO,
    "asso": Rank.ASSO,
    "ace": Rank.ASSO,
    "r": Rank.RE,
    "k": Rank.RE,
    "re": Rank.RE,
    "king": Rank.RE,
    "roi": Rank.RE,
    "c": Rank.CAVALLO,
    "n": Rank.CAVALLO,
    "q": Rank.CAVALLO,
    "cavallo": Rank.CAVALLO,
    "cavall": Rank.CAVALLO,
    "knight": Rank.CAVALLO,
    "queen": Rank.CAVALLO,
    "f": Rank.FANTE,
    "j": Rank.FANTE,
    "fante": Rank.FANTE,
    "jack": Rank.FANTE,
    "valet": Rank.FANTE,
    "7": Rank.SETTE,
    "sette": Rank.SETTE,
    "seven": Rank.SETTE,
    "6": Rank.SEI,
    "sei": Rank.SEI,
    "six": Rank.SEI,
    "5": Rank.CINQUE,
    "cinque": Rank.CINQUE,
    "five": Rank.CINQUE,
    "4": Rank.QUATTRO,
    "quattro": Rank.QUATTRO,
    "four": Rank.QUATTRO,
}

CARD_HELP = N_("rank then suit, e.g. 3D, RS, AC, KH or 'tre di denari' (ranks 3 2 A R C F 7 6 5 4, suits D C S B)")


@dataclass(frozen=True, order=True)
class Card:
    """One card of the 40-card deck."""

    suit: Suit
    rank: Rank

    @property
    def thirds(self) -> int:
        """Card points in thirds."""
        return self.rank.thirds

    def __str__(self) -> str:
        return self.rank.value + self.suit.value


DECK: tuple[Card, ...] = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
LAST_TRICK_THIRDS = 3
DEAL_THIRDS = sum(card.thirds for card in DECK) + LAST_TRICK_THIRDS
MONTE_CARDS = 4
ACE_THIRDS = Rank.ASSO.thirds
ACES = sum(1 for card in DECK if card.rank is Rank.ASSO)
FIGURES = sum(1 for card in DECK if card.thirds == 1)
"""The 3, 2, re, cavallo and fante of each suit: one third each."""
BLANKS = sum(1 for card in DECK if card.thirds == 0)
"""The 7, 6, 5 and 4 of each suit: no points."""


def most_thirds(cards: int) -> int:
    """The most thirds `cards` cards can hold: the aces first, then the figures."""
    aces = min(cards, ACES)
    return ACE_THIRDS * aces + min(cards - aces, FIGURES)


@cache
def thirds_held(cards: int) -> frozenset[int]:
    """Every count of thirds exactly `cards` cards can hold: 11 is not among a monte's 4 cards' (3+3+3+1 is 10).

    >>> sorted(thirds_held(4))
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12]
    """
    return frozenset(
        ACE_THIRDS * aces + figures
        for aces in range(min(cards, ACES) + 1)
        for figures in range(min(cards - aces, FIGURES) + 1)
    )


def parse_called(text: str) -> Card | Rank:
    """The card a chiamo names (`3D`, `tre di denari`), or its rank alone (`3`, `tre`) when the suit was not said."""
    rank = RANK_WORDS.get(text.strip().lower())
    if rank is not None:
        return rank
    try:
        return parse_card(text)
    except LedgerError:
        raise FactError(
            "called",
            text,
            _("write {card_help}, or the rank alone (3, tre) when the suit was not said").format(
                card_help=_(CARD_HELP)
            ),
        ) from None


def rank_of(called: Card | Rank) -> Rank:
    """The rank of a called card, whether its suit was said or not."""
    return called if isinstance(called, Rank) else called.rank


def parse_card(text: str) -> Card:
    """Read a card from `3D`, `kh`, `10`-free French notation or Italian words (`tre di denari`)."""
    words = text.strip().lower().replace(" di ", " ").replace(" of ", " ").split()
    if len(words) == 2:
        rank_word, suit_word = words
    elif len(words) == 1 and len(words[0]) >= 2:
        rank_word, suit_word = words[0][:-1], words[0][-1]
    else:
        raise FactError("called", text, _("write {card_help}").format(card_help=_(CARD_HELP)))
    rank, suit = RANK_WORDS.get(rank_word), SUIT_WORDS.get(suit_word)
    if rank is None or suit is None:
        raise FactError("called", text, _("write {card_help}").format(card_help=_(CARD_HELP)))
    return Card(suit, rank)
