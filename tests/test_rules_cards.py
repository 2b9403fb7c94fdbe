"""RULES §1: the deck, rank order, card points in thirds, and card notation."""

from __future__ import annotations

import pytest

from ledger.errors import LedgerError
from ledger.rules.cards import DEAL_THIRDS, DECK, LAST_TRICK_THIRDS, Card, Rank, Suit, parse_card

D, C, S, B = Suit.DENARI, Suit.COPPE, Suit.SPADE, Suit.BASTONI


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("3D", Card(D, Rank.TRE)),
        ("RS", Card(S, Rank.RE)),
        ("AC", Card(C, Rank.ASSO)),
        ("kh", Card(C, Rank.RE)),
        ("KH", Card(C, Rank.RE)),
        ("Nd", Card(D, Rank.CAVALLO)),
        ("Qs", Card(S, Rank.CAVALLO)),
        ("CS", Card(S, Rank.CAVALLO)),
        ("CC", Card(C, Rank.CAVALLO)),
        ("Jb", Card(B, Rank.FANTE)),
        ("FB", Card(B, Rank.FANTE)),
        ("2b", Card(B, Rank.DUE)),
        ("7D", Card(D, Rank.SETTE)),
        ("4s", Card(S, Rank.QUATTRO)),
        ("  3d  ", Card(D, Rank.TRE)),
        ("tre di denari", Card(D, Rank.TRE)),
        ("Tre di Denari", Card(D, Rank.TRE)),
        ("asso di coppe", Card(C, Rank.ASSO)),
        ("re di spade", Card(S, Rank.RE)),
        ("cavallo di bastoni", Card(B, Rank.CAVALLO)),
        ("fante di coppe", Card(C, Rank.FANTE)),
        ("sette di denari", Card(D, Rank.SETTE)),
        ("three of hearts", Card(C, Rank.TRE)),
        ("ace of clubs", Card(B, Rank.ASSO)),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_card_aliases(text: str, card: Card) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_card_round_trips_through_its_notation(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "3",
        "D",
        "3X",
        "9D",
        "10D",
        "ZD",
        "3DD",
        "tre di",
        "tre di dollari",
        "uno di denari",
        "3 D S",
        "tre di denari di coppe",
    ],
    ids=repr,
)
def test_bad_cards_raise_a_ledger_error_that_shows_the_notation(text: str) -> None:
    with pytest.raises(LedgerError) as caught:
        parse_card(text)
    message = str(caught.value)
    assert repr(text) in message
    assert "rank then suit" in message and "3D" in message


def test_rank_order_high_to_low() -> None:
    high_to_low = [
        Rank.TRE,
        Rank.DUE,
        Rank.ASSO,
        Rank.RE,
        Rank.CAVALLO,
        Rank.FANTE,
        Rank.SETTE,
        Rank.SEI,
        Rank.CINQUE,
        Rank.QUATTRO,
    ]
    assert sorted(Rank, key=lambda rank: rank.strength, reverse=True) == high_to_low
    assert [rank.strength for rank in high_to_low] == list(range(9, -1, -1))


@pytest.mark.parametrize(
    ("rank", "thirds"),
    [
        (Rank.ASSO, 3),
        (Rank.TRE, 1),
        (Rank.DUE, 1),
        (Rank.RE, 1),
        (Rank.CAVALLO, 1),
        (Rank.FANTE, 1),
        (Rank.SETTE, 0),
        (Rank.SEI, 0),
        (Rank.CINQUE, 0),
        (Rank.QUATTRO, 0),
    ],
    ids=lambda value: value.name.lower() if isinstance(value, Rank) else str(value),
)
def test_thirds_per_rank(rank: Rank, thirds: int) -> None:
    assert rank.thirds == thirds
    assert all(Card(suit, rank).thirds == thirds for suit in Suit)


def test_deck_is_40_distinct_cards_worth_35_thirds_with_the_last_trick() -> None:
    assert len(DECK) == 40 and len(set(DECK)) == 40
    assert LAST_TRICK_THIRDS == 3
    assert sum(card.thirds for card in DECK) == 32
    assert DEAL_THIRDS == 4 * 3 + 20 * 1 + 3 == 35
