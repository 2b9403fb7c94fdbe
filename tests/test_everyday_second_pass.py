"""Everyday use, second pass: `play` closes the evening, its questions can be left and are asked again alike,
a mistyped ledger is never made, and the messages a table reads say what to do next, in either language."""

from __future__ import annotations

import json
import secrets
import sqlite3
from pathlib import Path

import pytest
from cli_support import calabresella
from conftest import copy_ledger
from typer.testing import CliRunner, Result

from ledger.cli.main import app
from ledger.errors import LedgerError
from ledger.web.access import check_token

runner = CliRunner()
ENV = {"CALABRESELLA_DB": None, "COLUMNS": "200"}


def cli(db: Path, *args: str, lang: str = "en", given: str | None = None, columns: int = 200) -> Result:
    """`calabresella --db DB --lang LANG ARGS...` in-process, with `given` as its standard input."""
    env = {**ENV, "COLUMNS": str(columns)}
    return runner.invoke(app, ["--db", str(db), "--lang", lang, *args], input=given, env=env)


def ok(db: Path, *args: str, lang: str = "en", given: str | None = None, columns: int = 200) -> str:
    done = cli(db, *args, lang=lang, given=given, columns=columns)
    assert done.exit_code == 0, (done.stdout, done.stderr, done.exception)
    return done.stdout


def refused(db: Path, *args: str, lang: str = "en", given: str | None = None) -> str:
    """A command refused with one line on stderr and exit code 2; that line."""
    done = cli(db, *args, lang=lang, given=given)
    assert done.exit_code == 2, (done.stdout, done.stderr, done.exception)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


def play(db: Path, *lines: str, lang: str = "en") -> Result:
    """`play` with the lines piped in, one a line."""
    return cli(db, "play", lang=lang, given="".join(line + "\n" for line in lines))


def points(db: Path) -> dict[str, int]:
    return json.loads(ok(db, "standings", "--json"))["points"]


@pytest.fixture
def db(sqlite_url: str) -> Path:
    ledger = Path(sqlite_url)
    ok(ledger, "evening", "start", "--players", "Anna,Bruno,Carla")
    return ledger


def test_play_closes_the_evening_after_a_yes_and_prints_the_settlement(db: Path) -> None:
    kept = play(db, "bruno solo 22", "close", "no", "quit")
    assert "Evening 1 stays open." in kept.stdout
    assert "Evening 1 stays open. To close it and settle up: calabresella evening close 1;" in kept.stdout
    closed = play(db, "chiudi", "sì", lang="it")
    assert "Serata 1 chiusa." in closed.stdout and "Bruno" in closed.stdout
    assert "resta aperta" not in closed.stdout  # play ends with the evening
    assert json.loads(ok(db, "evening", "show", "--json", "-e", "1"))["closed"]


def test_a_question_is_left_with_cancel_and_nothing_is_recorded(db: Path) -> None:
    left = play(db, "bruno chiamo 3D@anna 4t", "lascia", "quit", lang="it")
    assert "Lascio stare la smazzata: non ho segnato niente." in left.stdout
    assert "Deal 1" not in ok(db, "deals")


def test_a_wrong_number_of_tricks_is_asked_again_as_a_wrong_last_trick_is(db: Path) -> None:
    done = play(db, "anna solo 35", "13", "12", "bruno chiamo 3D@anna 4t", "nobody", "opp", "quit")
    assert done.stderr.count("Error:") == 2, done.stderr
    assert points(db) == {"Anna": 8 + 1, "Bruno": -4 - 2, "Carla": -4 + 1}  # a cappotto, then no sweep


def test_enter_at_the_number_of_tricks_is_no_answer(db: Path) -> None:
    done = play(db, "anna solo 35", "", "11", "quit")
    assert "How many tricks did the declarer side take? (0 to 12, or all) \n" in done.stdout  # no default offered
    assert "no answer" in done.stderr
    assert points(db) == {"Anna": 12, "Bruno": -6, "Carla": -6}  # a stramazzo, not the cappotto of 12 tricks


def test_a_piped_question_never_takes_the_lines_after_it(db: Path) -> None:
    done = play(db, "bruno chiamo 3D@anna 4t", "carla solo 22", "deals", "quit")
    assert "Deal left: nothing recorded; the line is read again as a deal or a command." in done.stdout
    listed = ok(db, "deals")
    assert "Carla solo" in listed and "Bruno" not in listed.split("Carla solo")[0].splitlines()[-1]


def test_changing_a_closed_evening_says_how_to_reopen_it(db: Path) -> None:
    ok(db, "record", "bruno solo 22")
    ok(db, "evening", "close")
    said = "evening 1 is closed; to change it: calabresella evening reopen 1"
    for command in (
        ["amend", "1", "-e", "1", "--thirds", "15", "--reason", "recount"],
        ["void", "1", "-e", "1", "--reason", "misdeal"],
        ["record", "-e", "1", "pass"],
        ["play", "-e", "1"],
    ):
        assert said in refused(db, *command), command
    assert "calabresella evening reopen 1" in refused(db, "play", "-e", "1", lang="it")


def test_a_new_evening_at_play_offers_the_last_ones_rules_and_stake_in_words(db: Path) -> None:
    ok(db, "evening", "close")
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla", "-o", "sweeps=off", "--stake", "0.50")
    ok(db, "evening", "close")
    started = play(db, "", "", "quit")
    assert (
        "Play as evening 2: Calabresella (pagat.com rules): no cappotto or stramazzo; stake 0.50 EUR" in started.stdout
    )
    assert "sweeps=off" not in started.stdout
    shown = json.loads(ok(db, "evening", "show", "--json"))
    assert shown["players"] == ["Anna", "Bruno", "Carla"] and shown["stake_cents"] == 50
    assert shown["profile"] == "pagat" and shown["options"]["sweeps"] is False


def test_a_mistyped_ledger_is_never_made_and_a_failed_start_leaves_no_file(db: Path) -> None:
    folder = db.parent
    before = sorted(path.name for path in folder.iterdir())
    wrong = folder / "ledgr.sqlite3"
    for command in (
        ["record", "pass"],
        ["amend", "1", "-t", "20", "-r", "recount"],
        ["void", "1", "-r", "misdeal"],
        ["players", "add", "Zeno"],
        ["players", "rename", "Anna", "Annalisa"],
        ["paid", "Anna", "Bruno", "1"],
        ["evening", "close"],
        ["backup", str(folder / "copy.sqlite3")],
    ):
        said = refused(wrong, *command)
        assert said == f"Error: --db '{wrong}': no ledger there; did you mean {db}?\n", command
    assert refused(wrong, "evening", "start", "--players", "Anna,anna,Bruno").startswith("Error: players: ")
    assert play(wrong).exit_code == 1  # the end of input at the first question: no evening started
    assert sorted(path.name for path in folder.iterdir()) == before
    ok(wrong, "evening", "start", "--players", "Anna,Bruno,Carla")
    assert wrong.exists()


def test_version_and_a_mistyped_start(tmp_path: Path) -> None:
    from importlib.metadata import version

    assert ok(tmp_path / "none.sqlite3", "--version") == f"calabresella {version('calabresella-ledger')}\n"
    said = cli(tmp_path / "none.sqlite3", "start").stderr
    assert "Did you mean 'evening start', 'event start', 'play'?" in said


def test_help_names_values_in_words_of_the_language_in_use(tmp_path: Path) -> None:
    shown = ok(tmp_path / "none.sqlite3", "paid", "--help", lang="it")
    assert "<str>" not in shown and "<int" not in shown and "x>=1" not in shown
    assert "<testo>" in shown and "<numero> [1 o più]" in shown


def test_two_aggravations_are_refused(tmp_path: Path) -> None:
    args = ["score", "--players", "Anna,Bruno,Carla", "-d", "Anna", "-c", "solissimo", "-t", "20"]
    said = refused(tmp_path / "none.sqlite3", *args, "-a", "dividete", "-a", "scegliete")
    assert said == "Error: --aggravation 'dividete scegliete': a solissimo is raised once: dividete or scegliete\n"


def test_charts_take_their_italian_names_and_reports_leave_stderr_empty(db: Path) -> None:
    ok(db, "record", "bruno solo 22")
    out = db.parent / "soldi.png"
    for command in (["chart", "soldi", "--out", str(out)], ["stats"], ["report", "--out", str(db.parent / "r.html")]):
        done = cli(db, *command, lang="it")
        assert done.exit_code == 0 and done.stderr == "", (command, done.stderr)
    assert out.read_bytes().startswith(b"\x89PNG")
    assert "andamento, soldi, contratti, terzi, coppie" in refused(db, "chart", "grafico", lang="it")


def test_calling_a_card_of_ones_own_hand_is_refused_where_call_own_card_is_off(
    tmp_path: Path, sqlite_template: Path
) -> None:
    tretre, pagat = (
        copy_ledger(sqlite_template, tmp_path, "tretre.sqlite3"),
        copy_ledger(sqlite_template, tmp_path, "pagat.sqlite3"),
    )
    ok(tretre, "evening", "start", "--players", "Anna,Bruno,Carla", "-P", "tretre")
    said = refused(tretre, "record", "anna chiamo 3D@declarer 20")
    assert (
        said == "Error: --holder 'declarer': the declarer may not call a card of their own hand at this table "
        "(call_own_card=off)\n"
    )
    assert "Deal 1" not in ok(tretre, "deals")
    ok(tretre, "evening", "start", "--players", "Dario,Elena,Fede", "-P", "tretre", "-o", "call_own_card=on")
    ok(tretre, "record", "-e", "2", "dario chiamo 3D@declarer 20")
    ok(pagat, "evening", "start", "--players", "Anna,Bruno,Carla")
    ok(pagat, "record", "anna chiamo 3D@declarer 20")


def test_an_evening_started_before_call_own_card_keeps_it_on(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla", "-P", "tretre")
    with sqlite3.connect(db) as connection:
        (stored,) = connection.execute("SELECT options FROM evening").fetchone()
        options = {key: value for key, value in json.loads(stored).items() if key != "call_own_card"}
        connection.execute("UPDATE evening SET options = ?", (json.dumps(options),))
    ok(db, "record", "anna chiamo 3D@declarer 20")
    assert json.loads(ok(db, "standings", "--json"))["points"]["Anna"] == 2


@pytest.mark.parametrize("token", ["x" * 40, "ab" * 16, "Tok3n-" * 6, "abcdefghijklmnopqrstuvwxyz", "0123456789" * 4])
def test_a_long_but_guessable_write_token_is_refused(token: str) -> None:
    with pytest.raises(LedgerError, match="repeats a short pattern"):
        check_token(token)


def test_random_write_tokens_of_the_documented_alphabet_are_taken() -> None:
    for _ in range(200):
        check_token(secrets.token_urlsafe(16))  # 22 characters of A-Z a-z 0-9 - _
        check_token(secrets.token_hex(16))
    check_token("q8Z-d0_LrM3vTwxA9bKe2N")


def test_tab_pairs_after_the_settlement_is_paid_never_read_as_the_winner_owing(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.10")
    for line in ("anna solo 22", "bruno solo 22", "carla chiamo 3D@anna 22", "bruno solo 24"):
        ok(db, "record", line)
    ok(db, "evening", "close")
    settled = json.loads(ok(db, "settle", "--json", "--pairs"))
    for payment in settled["payments"]:
        ok(db, "paid", payment["payer"], payment["payee"], f"{payment['cents'] / 100:.2f}")
    clear, *pairs = ok(db, "tab", "--pairs").splitlines()
    assert clear == "The tab is clear: nobody owes anything." and not any(" owes " in line for line in pairs)
    lost = [f"  {p['payer']} lost {p['cents'] / 100:.2f} EUR to {p['payee']}" for p in settled["pairs"]]
    assert lost and all(line in pairs for line in lost)


def test_paid_takes_prefixes_suggests_names_and_refuses_a_negative_amount_in_one_line(db: Path) -> None:
    assert "Recorded payment 1: Anna paid Bruno 0.50 EUR." in ok(db, "paid", "an", "br", "0.50")
    assert "(did you mean Anna?)" in refused(db, "paid", "Ana", "Bruno", "1")
    said = refused(db, "paid", "Anna", "Bruno", "-1")
    assert said.startswith("Error: a negative number: amounts and counts are never negative here")
    assert "No such option" not in said
    assert len(json.loads(ok(db, "paid", "--list", "--json"))) == 1


@pytest.mark.parametrize("lang", ["en", "it"])
def test_money_is_written_one_way_and_nobody_wins_plus_nothing(tmp_path: Path, sqlite_url: str, lang: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.10")
    ok(db, "record", "bruno solo 22")
    won, lost = ("+0.40 EUR", "-0.20 EUR") if lang == "en" else ("+0,40\xa0€", "-0,20\xa0€")
    for command in (["standings"], ["settle"]):
        shown = ok(db, *command, lang=lang)
        assert won in shown and lost in shown, command
    ok(db, "report", "--out", str(tmp_path / "report.html"), lang=lang)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert won in page and lost in page
    ok(db, "evening", "close")
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla")
    ok(db, "record", "bruno solo 22")
    for command in (["standings"], ["settle"]):
        shown = ok(db, *command, lang=lang)
        assert "+0.00" not in shown and "+0,00" not in shown and "-0" not in shown, command


@pytest.fixture(scope="module")
def five_seats(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    """An evening of quintiglio with 11 deals, the first and the last called (only read); a card of the declarer's
    own hand may be called (call_own_card=on)."""
    db = copy_ledger(sqlite_template, tmp_path_factory.mktemp("five"))
    seated = ("--players", "Anna,Bruno,Carla,Dario,Elena", "-P", "quintiglio", "-o", "call_own_card=on")
    ok(db, "evening", "start", *seated)
    ok(db, "record", "bruno chiamo 3B@declarer 20")
    for _ in range(9):
        ok(db, "record", "pass")
    ok(db, "record", "anna chiamo 3D@elena 22")
    return db


@pytest.mark.parametrize("lang", ["en", "it"])
def test_deals_of_five_seats_stay_readable_at_80_columns(five_seats: Path, lang: str) -> None:
    db = five_seats
    shown = calabresella("--db", str(db), "deals", env={"COLUMNS": "80", "CALABRESELLA_LANG": lang})
    listed, lines = shown.stdout, shown.stdout.splitlines()
    assert "…" not in listed and max(map(len, lines)) <= 80
    assert any(line.startswith("10 │") for line in lines) and any(line.startswith("11: ") for line in lines)
    called = "3B@declarer" if lang == "en" else "3B@chiamante"
    assert any(line.startswith(f"1: Bruno chiamo 6+2/3 · {called} · chiamo 1 = 1 ") for line in lines), listed


def test_play_help_wraps_at_the_terminals_width_not_where_the_source_breaks(tmp_path: Path) -> None:
    wide = ok(tmp_path / "none.sqlite3", "play", "--help", columns=200)
    sentence = "Points on the profile's scale: Italian 7, 7+1/3, 5+2/3 (0 to 11+2/3; a whole number from 12 to 35 can"
    assert sentence in wide
    narrow = ok(tmp_path / "none.sqlite3", "play", "--help", lang="it", columns=60)
    assert max(map(len, narrow.splitlines())) <= 60 and "chiudi (dopo un sì" in " ".join(narrow.split())


def test_the_italian_says_no_english_word_where_players_read_it(tmp_path: Path, sqlite_url: str) -> None:
    db = Path(sqlite_url)
    players = ["--players", "Anna,Bruno,Carla"]
    american = ok(db, "score", *players, "-P", "cavendish", "-d", "Anna", "-c", "play", "-t", "22", lang="it")
    assert american.startswith("Anna gioca: 22 su 35, vinta")
    asked = refused(db, "score", *players, "-d", "Anna", "-c", "solo", "-t", "4", lang="it")
    assert asked.endswith("(--last-trick chiamante|avversari)\n")
    sides = refused(db, "score", *players, "-d", "Anna", "-c", "solo", "-t", "4", "-l", "xx", lang="it")
    assert "decl" not in sides and "opp" not in sides
    ok(db, "score", *players, "-d", "Anna", "-c", "chiamo", "--called", "3D", "--holder", "chiamante", "-t", "20")
    ok(db, "evening", "start", *players)
    info = ok(db, "db", "info", lang="it")
    assert info.startswith("dove: ") and "revisione dello schema: " in info and "backend" not in info
    bad = tmp_path / "bad.json"
    bad.write_text('{"x" 1}\n', encoding="utf-8")
    assert refused(db, "import", str(bad), lang="it").endswith("non è JSON (mancano i due punti alla colonna 6)\n")
    assert refused(db, "export", "--out", str(tmp_path), lang="it").endswith("(è una cartella)\n")


def test_a_name_of_mixed_alphabets_names_them_in_italian(db: Path) -> None:
    said = refused(db, "players", "add", "\u0410nna", lang="it")
    assert "mescola alfabeti (cirillico, latino)" in said


def test_player_renames_go_out_with_an_export_and_come_back_once(tmp_path: Path, sqlite_template: Path) -> None:
    db, copy = copy_ledger(sqlite_template, tmp_path), copy_ledger(sqlite_template, tmp_path, "copy.sqlite3")
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla")
    ok(db, "record", "anna solo 22")
    ok(db, "players", "rename", "Anna", "Annalisa")

    def renames(ledger: Path) -> list[dict[str, str]]:
        lines = [json.loads(line) for line in ok(ledger, "export").splitlines()]
        return [line["rename"] for line in lines if "rename" in line]

    exported = renames(db)
    assert [(r["player"], r["old_name"], r["new_name"]) for r in exported] == [("Annalisa", "Anna", "Annalisa")]
    path = tmp_path / "ledger.jsonl"
    path.write_text(ok(db, "export"), encoding="utf-8")
    ok(copy, "import", str(path))
    ok(copy, "import", str(path))
    assert renames(copy) == exported
