"""Everyday use at the terminal: undo takes back the last change, a void says what no
longer counts and which deals it re-scored, lists write points as the evening's scale does, headers stay whole at
80 columns, and a deal recorded says how to take it back instead of a bare revision number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import Ran, calabresella


def run(db: Path, *args: str, lang: str = "en", columns: int = 200) -> Ran:
    env = {"CALABRESELLA_LANG": lang, "COLUMNS": str(columns), "CALABRESELLA_DB": str(db)}
    return calabresella(*args, env=env)


def ok(db: Path, *args: str, lang: str = "en", columns: int = 200) -> str:
    done = run(db, *args, lang=lang, columns=columns)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_undo_right_after_an_amendment_takes_back_the_amendment(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Marco,Luca,Giulia")
    ok(db, "record", "luca solo 7+1/3")  # won: Luca +4
    amended = ok(db, "amend", "1", "--thirds", "15", "--reason", "recount")  # lost: Luca -4
    assert "to take it back: calabresella undo --revision 2" in amended
    undone = ok(db, "undo")
    assert "Deal 1 back as before its amendment (revision 3)" in undone
    assert "Luca solo: 22 thirds (7+1/3), won" in undone and "voided" not in undone
    standings = json.loads(ok(db, "standings", "--json"))
    assert standings["points"] == {"Marco": -2, "Luca": 4, "Giulia": -2}
    again = ok(db, "undo")  # then the deal itself
    assert "Deal 1 undone (revision 3)" in again and "It no longer counts (undone)" in again
    assert json.loads(ok(db, "standings", "--json"))["points"] == {"Marco": 0, "Luca": 0, "Giulia": 0}


def test_a_void_does_not_echo_the_deal_and_names_every_deal_re_scored(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--profile", "tretre")
    ok(db, "record", "--passed")
    ok(db, "record", "anna solo 7+1/3")  # the pot of one passed deal doubles it: Anna +4
    ok(db, "record", "--passed")
    ok(db, "record", "bruno solo 7+1/3")  # pot of one: Bruno +4, Anna and Carla -2 each
    voided = ok(db, "void", "1", "--reason", "misdeal")
    assert "Deal 1 voided" in voided and "It no longer counts (misdeal); totals Anna 0, Bruno +3, Carla -3" in voided
    assert "Deal 2 re-scored: its pot of passed deals changed." in voided
    assert "no payment" not in voided  # the voided deal's explanation is not shown as if it counted
    solo = ok(db, "void", "2", "--reason", "wrong table")
    assert "solo 1" not in solo and "re-scored" not in solo  # deal 4's pot does not change


def test_lists_write_points_as_the_scale_does_and_the_confirmation_states_the_reading(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla")
    recorded = ok(db, "record", "anna solo 11")  # 11 points: a stramazzo win
    assert "Anna solo: 33 thirds (11), won, stramazzo" in recorded
    ok(db, "record", "bruno chiamo 3D@anna 4t last=opp")
    listed = ok(db, "deals")
    assert "Anna solo 11 stramazzo" in listed and "Bruno chiamo 1+1/3" in listed
    assert "Bruno chiamo 4 " not in listed  # typed back, 4 would be 4 points


@pytest.mark.parametrize("lang", ["en", "it"])
def test_deals_at_80_columns_keep_every_header_whole(sqlite_url: str, lang: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Marco,Luca,Giulia")
    ok(db, "record", "luca chiamo 3D@marco 6+2/3")
    ok(db, "record", "giulia solissimo scegliete 8")
    listed = ok(db, "deals", lang=lang, columns=80)
    assert "…" not in listed and max(len(line) for line in listed.splitlines()) <= 80
    headers = ["dealer", "called", "result"] if lang == "en" else ["mazziere", "carta chiamata", "esito"]
    assert all(header in listed.splitlines()[0] for header in [*headers, "Marco", "Luca", "Giulia"])
    explanation = "chiamo 1 = 1 from each opponent" if lang == "en" else "chiamo 1 = 1 da ciascun avversario"
    assert f"1: {explanation}" in listed  # the explanations follow the table, whole


def test_a_deal_recorded_does_not_end_with_a_bare_revision(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Marco,Luca,Giulia")
    recorded = ok(db, "record", "--passed")
    assert "evening revision" not in recorded and "to take it back: calabresella undo --revision 1" in recorded
    italian = ok(db, "record", "--passed", lang="it")
    assert "per ritirarla: calabresella undo --revision 2" in italian


def test_after_close_the_reads_show_the_latest_evening_and_say_which(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Marco,Luca,Giulia")
    ok(db, "record", "luca solo 7+1/3")
    ok(db, "evening", "close")
    for command in (["standings"], ["deals"], ["deal", "show", "1"]):
        shown = ok(db, *command)
        assert shown.startswith("No evening is open: this is the latest, evening 1, closed "), command
        assert "Luca" in shown and "no open evening" not in shown
    italian = ok(db, "deals", lang="it")
    assert italian.startswith("Nessuna serata aperta: questa è la più recente, la serata 1, chiusa il ")
    assert json.loads(ok(db, "standings", "--json"))["points"] == {"Marco": -2, "Luca": 4, "Giulia": -2}
    ok(db, "evening", "start", "--players", "Marco,Luca,Giulia")  # an open evening again: it is the one shown
    assert "No evening is open" not in ok(db, "deals") and "Evening 2 has no deals yet." in ok(db, "deals")


def play(db: Path, *lines: str, lang: str = "en") -> str:
    env = {"CALABRESELLA_LANG": lang, "COLUMNS": "200", "CALABRESELLA_DB": str(db)}
    done = calabresella("play", env=env, input="\n".join([*lines, "quit"]) + "\n")
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def test_play_speaks_of_this_table_and_resumes_with_the_totals(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Marco,Luca,Giulia")
    first = play(db, "help")
    assert "e.g. luca solo 7+1/3, or pass" in first and "Totals so far" not in first  # nothing recorded yet
    assert "e.g. luca solo 7+1/3, giulia chiamo 3D@marco 5+2/3 last=opp" in first and "bruno" not in first
    play(db, "luca solo 7+1/3")
    resumed = play(db)
    assert "Totals so far: Marco -2, Luca +4, Giulia -2" in resumed
    assert "Totali finora: Marco -2, Luca +4, Giulia -2" in play(db, lang="it")


def test_play_blames_a_mistyped_card_and_counts_one_third_as_one(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Marco,Luca,Giulia")
    said = play(db, "luca chiamo 3Z 20")
    assert "Error: called='3Z': write rank then suit" in said and "points" not in said.split("3Z")[1]
    counted = play(db, "luca solo 1a1f", "marco solo 1f")
    assert "count 1a1f: 1 ace x 3 + 1 figure = 4 thirds" in counted  # asked: the last trick, or an ace and a figure
    assert "count 1f: 0 aces x 3 + 1 figure = 1 third" in counted and "1 thirds" not in counted
    italian = play(db, "giulia solo 1f", lang="it")
    assert "conteggio 1f: 0 assi x 3 + 1 figura = 1 terzo" in italian


def test_report_without_out_writes_the_evening_named_after_it(tmp_path: Path, sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Marco,Luca,Giulia")
    ok(db, "record", "luca solo 7+1/3")
    ok(db, "evening", "close")
    ok(db, "evening", "start", "--players", "Marco,Luca,Giulia")
    env = {"CALABRESELLA_LANG": "en", "CALABRESELLA_DB": str(db)}
    for args, written in ((["report"], "evening-2.html"), (["report", "-e", "1"], "evening-1.html")):
        done = calabresella(*args, env=env, cwd=tmp_path)
        assert done.returncode == 0 and done.stdout == f"Wrote {written}\n", done.stderr
        assert "<html" in (tmp_path / written).read_text(encoding="utf-8")


def test_the_holder_question_offers_the_monte_only_where_there_is_one(tmp_path: Path) -> None:
    five, four = tmp_path / "five.sqlite3", tmp_path / "four.sqlite3"
    ok(five, "evening", "start", "--players", "Anna,Bruno,Carla,Dario,Elena", "--profile", "quintiglio")
    asked = run(five, "record", "anna chiamo 3D 7")
    assert asked.returncode == 2 and asked.stderr == "Error: who held the called three? (--holder NAME)\n"
    assert "Who held the called card? (a name) " in play(five, "anna chiamo 3D 7")
    ok(four, "evening", "start", "--players", "Anna,Bruno,Carla,Dario", "--profile", "quartiglio")
    asked = run(four, "record", "anna chiamo 3D 7")
    assert asked.stderr == "Error: who held the called three? (--holder NAME|monte)\n"
    assert "Who held the called card? (a name, or monte) " in play(four, "anna chiamo 3D 7")


def test_a_name_with_an_emoji_is_typed_without_it(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "😀Gigi,Luca,Giulia 👍🏽")
    recorded = json.loads(ok(db, "record", "gigi solo 7+1/3", "--json"))
    assert recorded["deal"]["declarer"] == "😀Gigi"
    by_flag = json.loads(ok(db, "record", "--declarer", "giulia", "--contract", "solo", "--thirds", "22", "--json"))
    assert by_flag["deal"]["declarer"] == "Giulia 👍🏽"
    assert "Deal 3 recorded · 😀Gigi solo" in play(db, "gig solo 22t")
    ambiguous = run(db, "record", "g solo 7")
    assert ambiguous.returncode == 2 and "ambiguous" in ambiguous.stderr


def test_tab_and_its_pairs_each_say_what_they_are_once_the_settlement_is_paid(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Paolo,Sandro,Ugo", "--stake", "0.10")
    for line in ("paolo solo 7+1/3", "sandro solo 7+1/3", "ugo chiamo 3D@paolo 7+1/3", "sandro solo 8"):
        ok(db, "record", line)
    ok(db, "evening", "close")
    ok(db, "evening", "start", "--players", "Paolo,Sandro,Ugo", "--stake", "0.10")
    ok(db, "record", "ugo solo 7+1/3")
    ok(db, "evening", "close")
    for payment in json.loads(ok(db, "settle", "--json"))["payments"]:  # the latest evening's settlement, paid
        ok(db, "paid", payment["payer"], payment["payee"], f"{payment['cents'] / 100:.2f}")
    for payment in json.loads(ok(db, "settle", "-e", "1", "--json"))["payments"]:  # and the first's
        ok(db, "paid", payment["payer"], payment["payee"], f"{payment['cents'] / 100:.2f}")
    assert ok(db, "tab") == "The tab is clear: nobody owes anything.\n"
    pairs = ok(db, "tab", "--pairs")
    assert pairs.startswith("The tab is clear: nobody owes anything.\n")
    assert "deal by deal over every evening, before any payment: the play, not a debt" in pairs
    assert " owes " not in pairs.split("\n", 1)[1]  # not a debt, once the tab is clear
