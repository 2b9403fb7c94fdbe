"""`call_own_card` as RULES §6 and §8 say: off in tretre, quartiglio and quintiglio (the Italian site's games), on in
pagat and cavendish; an evening keeps the value it was started with, so one started before this default, and its
export, still score a card called from the declarer's own hand."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from cli_support import Ran, calabresella
from conftest import copy_ledger

from ledger.rules.profiles import make_profile
from ledger.web.guided import question

FOUR, FIVE = "Anna,Bruno,Carla,Dario", "Anna,Bruno,Carla,Dario,Elena"
OWN_CALL = "anna chiamo 3D@declarer 20"


def run(db: Path, *args: str, lang: str = "en") -> Ran:
    return calabresella("--db", str(db), "--lang", lang, *args)


def ok(db: Path, *args: str) -> str:
    done = run(db, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def deals(db: Path, evening: int = 1) -> list[object]:
    listed: list[object] = json.loads(ok(db, "deals", "-e", str(evening), "--json"))["deals"]
    return listed


@pytest.mark.parametrize(("profile", "players"), [("quartiglio", FOUR), ("quintiglio", FIVE)])
def test_the_italian_sites_games_refuse_a_card_of_the_declarers_own_hand(
    tmp_path: Path, sqlite_template: Path, profile: str, players: str
) -> None:
    db = copy_ledger(sqlite_template, tmp_path)
    ok(db, "evening", "start", "--players", players, "-P", profile)
    refused = run(db, "record", OWN_CALL)
    assert (refused.returncode, refused.stderr) == (
        2,
        "Error: --holder 'declarer': the declarer may not call a card of their own hand at this table "
        "(call_own_card=off)\n",
    )
    in_italian = run(db, "record", OWN_CALL, lang="it")
    assert in_italian.returncode == 2 and in_italian.stderr.startswith("Errore: --holder ")
    assert in_italian.stderr.endswith(
        ": il chiamante non può chiamare una carta che ha in mano a questo tavolo (call_own_card=off)\n"
    )
    assert deals(db) == []
    ok(db, "evening", "start", "--players", players, "-P", profile, "-o", "call_own_card=on")
    ok(db, "record", "-e", "2", OWN_CALL)
    assert len(deals(db, 2)) == 1


@pytest.mark.parametrize(("profile", "players"), [("quartiglio", FOUR), ("quintiglio", FIVE)])
def test_the_holder_asked_for_offers_no_declarer_where_it_is_refused(
    tmp_path: Path, sqlite_template: Path, profile: str, players: str
) -> None:
    db = copy_ledger(sqlite_template, tmp_path)
    ok(db, "evening", "start", "--players", players, "-P", profile)
    asked = run(db, "record", "anna chiamo 3D 20")
    holders = "NAME|monte" if profile == "quartiglio" else "NAME"
    assert (asked.returncode, asked.stderr) == (2, f"Error: who held the called three? (--holder {holders})\n")


def _started_with_own_calls(db: Path, stored: dict[str, object] | None) -> None:
    """A quartiglio evening as one started under the old default stored it (`stored`: call_own_card on; None: as
    before the option existed), with a card called from the declarer's own hand."""
    ok(db, "evening", "start", "--players", FOUR, "-P", "quartiglio")
    with sqlite3.connect(db) as connection:
        (options,) = connection.execute("SELECT options FROM evening").fetchone()
        kept = {key: value for key, value in json.loads(options).items() if key != "call_own_card"}
        connection.execute("UPDATE evening SET options = ?", (json.dumps({**kept, **(stored or {})}),))
    connection.close()
    ok(db, "record", OWN_CALL)


@pytest.mark.parametrize(
    "stored", [{"call_own_card": True}, None], ids=["started-under-the-old-default", "started-before-the-option"]
)
def test_an_evening_started_before_keeps_its_rule_and_its_export_imports(
    tmp_path: Path, sqlite_template: Path, stored: dict[str, object] | None
) -> None:
    db, again = copy_ledger(sqlite_template, tmp_path), copy_ledger(sqlite_template, tmp_path, "again.sqlite3")
    _started_with_own_calls(db, stored)
    ok(db, "record", "bruno chiamo 3S@declarer 22")
    standings = json.loads(ok(db, "standings", "--json"))["points"]
    assert standings == {"Anna": 3 - 1, "Bruno": -1 + 3, "Carla": -2, "Dario": -2}  # each played alone and won
    export = tmp_path / "old.jsonl"
    ok(db, "export", "--out", str(export))
    ok(again, "import", str(export))
    assert json.loads(ok(again, "standings", "--json"))["points"] == standings


def test_an_export_whose_evening_says_call_own_card_off_is_refused_whole(tmp_path: Path, sqlite_template: Path) -> None:
    """The import re-scores every deal with the evening's own options: the rule is checked, not taken on trust."""
    db, again = copy_ledger(sqlite_template, tmp_path), copy_ledger(sqlite_template, tmp_path, "again.sqlite3")
    _started_with_own_calls(db, {"call_own_card": True})
    export = tmp_path / "old.jsonl"
    ok(db, "export", "--out", str(export))
    export.write_text(export.read_text().replace('"call_own_card": true', '"call_own_card": false'))
    refused = run(again, "import", str(export))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "call_own_card=off" in refused.stderr
    assert json.loads(ok(again, "evening", "list", "--json"))["evenings"] == []


@pytest.mark.parametrize(
    ("profile", "options", "own"),
    [
        ("quartiglio", {}, False),
        ("quintiglio", {}, False),
        ("quartiglio", {"call_own_card": "on"}, True),
        ("pagat", {}, True),
    ],
)
def test_the_phones_pad_offers_the_declarers_hand_only_where_it_may_be_called(
    profile: str, options: dict[str, str], own: bool
) -> None:
    choices = question("holder", ("Anna", "Bruno", "Carla", "Dario"), make_profile(profile, options)).choices
    assert ("declarer" in [choice.value for choice in choices]) is own
