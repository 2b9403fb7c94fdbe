"""Which command a line typed at `play`'s prompt is, in English or Italian, and when a command's word is a player."""

from __future__ import annotations

import pytest

from ledger.cli.play_commands import Said, command_in, commands, topic, topics
from ledger.i18n import speaking

TABLE = ("Anna", "Contini", "Amendola")


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("classifica", Said("standings", "classifica", "")),
        ("Standings", Said("standings", "Standings", "")),
        ("conti", Said("settle", "conti", "")),
        ("smazzate", Said("deals", "smazzate", "")),
        ("ritira", Said("undo", "ritira", "")),
        ("annulla 5 carte date male", Said("void", "annulla", "5 carte date male")),
        ("correggi 3 20 motivo=riconteggio", Said("amend", "correggi", "3 20 motivo=riconteggio")),
        ("amend 3 20", Said("amend", "amend", "3 20")),
        ("aiuto correggi", Said("help", "aiuto", "correggi")),
        ("? syntax", Said("help", "?", "syntax")),
        ("esci", Said("quit", "esci", "")),
        ("exit", Said("quit", "exit", "")),
        ("annulla", Said("void", "annulla", "")),  # the command says what it lacks
        ("deals now", Said("deals", "deals", "now")),  # no player is called Deals: the command refuses `now`
    ],
)
def test_a_command_in_either_language(line: str, said: Said) -> None:
    assert command_in(line, TABLE) == said


@pytest.mark.parametrize("line", ["conti solo 22", "conti 7+1/3", "amend solo 22", "anna solo 22", "annullamento"])
def test_a_line_that_begins_with_a_player_and_is_not_the_command_is_a_deal(line: str) -> None:
    assert command_in(line, TABLE) is None


def test_a_command_word_that_fits_two_players_is_a_deal_unless_it_is_the_command() -> None:
    players = ("Contini", "Contiero", "Bruno")
    assert command_in("conti solo 22", players) is None  # the deal line then says which players `conti` could be
    assert command_in("conti", players) == Said("settle", "conti", "")


def test_help_offers_the_words_of_the_language_in_use_and_understands_both() -> None:
    with speaking("it"):
        assert commands() == [
            "ritira",
            "correggi",
            "annulla",
            "smazzate",
            "classifica",
            "conti",
            "aiuto",
            "chiudi",
            "esci",
        ]
        assert topics()[0] == "sintassi"
        assert (topic("corr"), topic("sin"), topic("amend"), topic("syntax"), topic("c")) == (
            "amend",
            "syntax",
            "amend",
            "syntax",
            None,
        )
    with speaking("en"):
        assert commands() == ["undo", "amend", "void", "deals", "standings", "settle", "help", "close", "quit"]
        assert (topic("am"), topic("correggi"), topic("s")) == ("amend", "amend", None)
