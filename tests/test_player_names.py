"""A seat cannot pass for someone else's: names with invisible or direction characters, names mixing alphabets,
and names that look like a player's name are refused with the reason, on SQLite and PostgreSQL, from the service,
the command line and the evening form; names in any one script are kept; two names compare with case and accents
ignored."""

from __future__ import annotations

import re
import unicodedata

import pytest
from cli_support import calabresella
from hypothesis import given
from hypothesis import strategies as st
from test_web_support import csrf, scorekeeper

from ledger import Ledger
from ledger.errors import LedgerError
from ledger.rules.seats import name_key

CYRILLIC_ANNA = "\u0410nna"
HIDDEN = {
    "zero-width space": "An\u200bna",
    "zero-width joiner": "Anna\u200d",
    "right-to-left mark": "\u200fAnna",
    "left-to-right mark": "Anna\u200e",
    "Arabic letter mark": "Anna\u061c",
    "soft hyphen": "An\u00adna",
    "word joiner": "An\u2060na",
    "byte order mark": "\ufeffAnna",
    "Hangul filler": "Anna\u3164",
    "variation selector": "An\ufe00na",
    "private use": "Anna\ue000",
}


def _names(ledger: Ledger) -> list[str]:
    return [p.name for p in ledger.players()]


@pytest.mark.parametrize("what", sorted(HIDDEN))
def test_a_name_with_a_character_that_shows_as_nothing_is_refused(what: str, db_url: str) -> None:
    name = HIDDEN[what]
    code = next(f"U+{ord(ch):04X}" for ch in name if ch not in "Anna")
    with Ledger(db_url) as ledger:
        with pytest.raises(LedgerError, match=re.escape(code) + " .*shows as nothing or turns the text around"):
            ledger.start_evening([name, "Bruno", "Carla"])
        ledger.add_players(["Dora"])
        with pytest.raises(LedgerError, match=re.escape(code)):
            ledger.rename_player("Dora", name)
        assert _names(ledger) == ["Dora"] and ledger.evenings() == []


def test_a_name_mixing_alphabets_is_refused_even_alone(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        with pytest.raises(LedgerError, match=r"'\u0410nna' mixes alphabets \(Cyrillic, Latin\)"):
            ledger.add_players([CYRILLIC_ANNA])
        with pytest.raises(LedgerError, match="mixes alphabets"):
            ledger.add_players(["Bruno", "Brun\u03bf"])  # a Greek omicron
        assert _names(ledger) == []


def test_a_name_that_looks_like_a_players_name_is_refused_with_whom_it_passes_for(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        ledger.start_evening(["Anna", "Papa", "Carla"])
        ledger.add_players(["Anna Carla"])
        for look_alike, player in (
            ("\u0420\u0430\u0440\u0430", "Papa"),
            ("CarIa", "Carla"),
            ("Anna Car1a", "Anna Carla"),
        ):
            with pytest.raises(LedgerError, match=f"'{look_alike}' looks like '{player}', a player already"):
                ledger.start_evening([look_alike, "Dora", "Elio"])
        with pytest.raises(LedgerError, match="looks like 'Carla'"):
            ledger.rename_player("Papa", "CarIa")
        assert _names(ledger) == ["Anna", "Anna Carla", "Carla", "Papa"] and len(ledger.evenings()) == 1
        ledger.rename_player("Papa", "PAPA")  # the same name, written otherwise, is no look-alike of itself
        ledger.start_evening(["Anne", "Carlo", "Dora"])
        assert len(ledger.evenings()) == 2


def test_names_in_any_one_script_are_kept(sqlite_url: str) -> None:
    kept = ["Niccolò", "Ελένη", "佐藤さくら", "김민준", "Олег", "O'Brien", "Jean-Luc", "👨‍👩‍👧 family", "Anna 2", "Zoë"]
    with Ledger(sqlite_url) as ledger:
        ledger.add_players(kept)
        assert sorted(_names(ledger)) == sorted(kept)


def test_the_command_line_refuses_a_look_alike_in_one_line(sqlite_url: str) -> None:
    with Ledger(sqlite_url) as ledger:
        ledger.add_players(["Anna"])
    ran = calabresella("--db", sqlite_url, "players", "add", "\u0391nna")
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert ran.stderr.strip().splitlines() == [
        "Error: player name '\u0391nna' mixes alphabets (Greek, Latin): one "
        "letter can pass for another; write it in one alphabet"
    ]


def test_the_evening_form_says_why_a_name_is_refused(sqlite_url: str) -> None:
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"])
    with scorekeeper(sqlite_url) as phone:
        answer = phone.post("/evenings", data={"csrf": csrf(phone), "players": "CarIa, Dora, Elio"})
    assert answer.status_code == 422
    assert "looks like &#39;Carla&#39;, a player already" in answer.text
    with Ledger(sqlite_url) as ledger:
        assert len(ledger.evenings()) == 1


def _key_by_decomposing(name: str) -> str:
    """A name's key as Unicode spells it out: decomposed, its accents dropped, its case folded."""
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


@pytest.mark.parametrize(
    ("typed", "key"),
    [("Niccolò", "niccolo"), ("  ANNA ", "anna"), ("Zoë", "zoe"), ("Straße", "strasse"), ("d'Artagnan", "d'artagnan")],
)
def test_two_names_compare_with_case_and_accents_ignored(typed: str, key: str) -> None:
    assert name_key(typed) == key


@given(st.text(alphabet=st.characters(max_codepoint=0x7F)) | st.text())
def test_a_names_key_is_the_one_unicode_spells_out_whatever_its_letters(name: str) -> None:
    """Plain ASCII names (most of them) take a shorter way to their key: the same key."""
    assert name_key(name) == _key_by_decomposing(name)
