"""Everyday use, third pass: what a new user, an Italian table and a long evening still stumbled on, each held where a
test can hold it."""

from __future__ import annotations

import inspect
import json
import re
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from ledger.cli.main import app

runner = CliRunner()
ENV = {"CALABRESELLA_DB": None, "COLUMNS": "200"}
COMMAND_ROW = re.compile(r"│ (\S+)?\s+(.*?)\s*│$")


def cli(db: Path | str, *args: str, lang: str = "en", given: str | None = None, columns: int = 200) -> Result:
    """`calabresella --db DB --lang LANG ARGS...` in-process, with `given` as its standard input."""
    env = {**ENV, "COLUMNS": str(columns)}
    return runner.invoke(app, ["--db", str(db), "--lang", lang, *args], input=given, env=env)


def ok(db: Path, *args: str, lang: str = "en", given: str | None = None, columns: int = 200) -> str:
    done = cli(db, *args, lang=lang, given=given, columns=columns)
    assert done.exit_code == 0, (done.stdout, done.stderr, done.exception)
    return done.stdout


def refused(db: Path | str, *args: str, lang: str = "en", given: str | None = None) -> str:
    """A command refused with one line on stderr and exit code 2; that line."""
    done = cli(db, *args, lang=lang, given=given)
    assert done.exit_code == 2, (done.stdout, done.stderr, done.exception)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


@pytest.fixture
def db(sqlite_url: str) -> Path:
    ledger = Path(sqlite_url)
    ok(ledger, "evening", "start", "--players", "Anna,Bruno,Carla")
    return ledger


# The command line's help


def _listed_commands(shown: str) -> dict[str, list[str]]:
    """Each command of the root help's panels, with the lines of its description as drawn."""
    rows: dict[str, list[str]] = {}
    name, panel = "", ""
    for line in shown.splitlines():
        panel = line.split("─")[1].strip() if line.startswith("╭─") else panel
        found = COMMAND_ROW.match(line)
        if found is None or panel in ("Options", "Opzioni"):
            continue
        name = found.group(1) or name
        rows.setdefault(name, []).append(line)
    return rows


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_list_of_commands_wraps_each_description_at_word_boundaries(tmp_path: Path, lang: str) -> None:
    rows = _listed_commands(ok(tmp_path / "none.sqlite3", "--help", lang=lang, columns=80))
    assert {"undo", "demo", "record", "evening"} <= set(rows)
    for name, lines in rows.items():
        start = lines[0].index(name) + 11  # the description column, after the names' column
        cells = [line[start:-2] for line in lines]  # the column's padding and the border left out
        for here, after in pairwise(cells):
            word = after.split()[0]
            assert len(here.rstrip()) + 1 + len(word) > len(here), f"{name}: {here.rstrip()!r} had room for {word!r}"


# play


def play(db: Path, *lines: str, lang: str = "en") -> Result:
    """`play` with the lines piped in, one a line."""
    return cli(db, "play", lang=lang, given="".join(line + "\n" for line in lines))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Evening 1 stays open. To close it and settle up: calabresella evening close 1; to go on with it: "),
        ("it", "La serata 1 resta aperta. Per chiuderla e fare i conti: calabresella evening close 1; per "),
    ],
)
def test_leaving_play_with_the_evening_open_says_what_to_type_at_the_shell(db: Path, lang: str, said: str) -> None:
    for leaving in (["quit"], []):  # quit, or the end of the input (Ctrl-D)
        shown = " ".join(play(db, *leaving, lang=lang).stdout.split())
        assert said in shown and shown.endswith("calabresella play -e 1"), shown


# evenings


def test_evening_show_and_close_take_the_number_as_void_and_reopen_do(db: Path) -> None:
    ok(db, "evening", "start", "--players", "Dario,Elena,Fede")
    assert ok(db, "evening", "show", "1").startswith("Evening 1: Anna, Bruno, Carla; open")
    assert ok(db, "evening", "show", "-e", "2").startswith("Evening 2: Dario, Elena, Fede; open")
    assert refused(db, "evening", "show", "1", "-e", "2") == "Error: evening 1 and -e 2: name one evening\n"
    assert ok(db, "evening", "close", "1").startswith("Evening 1 closed.")
    assert json.loads(ok(db, "evening", "show", "2", "--json"))["closed"] is False
    assert ok(db, "evening", "close", "-e", "2").startswith("Evening 2 closed.")
    said = "Errore: serata 2 e -e 1: indica una serata sola\n"
    assert refused(db, "evening", "close", "2", "-e", "1", lang="it") == said


def test_undo_with_a_revision_that_never_was_says_where_the_evening_is(db: Path) -> None:
    ok(db, "record", "bruno solo 22")  # revision 1 of the evening
    assert refused(db, "undo", "--revision", "9") == (
        "Error: --revision 9: evening 1 is at revision 1; no change has that number\n"
    )
    assert refused(db, "undo", "--revision", "2", lang="it") == (
        "Errore: --revision 2: la serata 1 è alla revisione 1; nessun cambiamento ha quel numero\n"
    )
    ok(db, "record", "carla solo 22")
    behind = refused(db, "undo", "--revision", "1")
    assert behind.startswith("Error: undo refused: evening 1 changed since you saw it (revision 1, now 2): deal 2 ")
    assert "): :" not in behind
    assert behind.endswith(
        "; see them with calabresella deals, then calabresella void N --reason WHY for the one you mean\n"
    )
    assert "Deal 2 undone" in ok(db, "undo", "--revision", "2")


# What the ledger says


@pytest.mark.parametrize(
    ("lang", "alone", "partners"),
    [
        ("en", "the declarer held the called three: plays alone", "Dario held the called three and partners Anna"),
        ("it", "il chiamante aveva in mano il tre chiamato: gioca senza socio", "Dario aveva il tre chiamato e fa "),
    ],
)
def test_explanations_assume_no_gender(tmp_path: Path, lang: str, alone: str, partners: str) -> None:
    seated = ["--players", "Anna,Bruno,Carla,Dario", "-P", "quartiglio", "-o", "call_own_card=on"]
    none = tmp_path / "none.sqlite3"
    own = " ".join(
        ok(none, "score", *seated, "-d", "Anna", "-c", "chiamo", "--holder", "Anna", "-t", "20", lang=lang).split()
    )
    partner = ok(none, "score", *seated, "-d", "Anna", "-c", "chiamo", "--holder", "Dario", "-t", "20", lang=lang)
    assert alone in own and partners in " ".join(partner.split())
    for said in (own, partner):
        assert not re.search(r"\b(he|she|him|her|himself|herself|his|lui|lei|da solo|da sola|socio di)\b", said), said


def test_stats_says_the_contracts_average_is_of_game_points_and_card_points_are_thirds(db: Path) -> None:
    ok(db, "record", "bruno solo 22")
    shown = ok(db, "stats")
    contracts = shown[shown.index("Contracts and aggravations") :]
    assert "avg declarer game points" in contracts and "avg declarer points" not in shown
    assert "avg declarer thirds" in shown
    assert "punti partita medi da chiamante" in ok(db, "stats", lang="it")
    helped = " ".join(ok(db, "stats", "--help").split())
    assert "with the declarer's average game points" in helped and "Card points are counted in thirds" in helped


# Where the ledger is


@pytest.mark.parametrize("command", [["standings"], ["evening", "start", "--players", "A,B,C"], ["db", "info"]])
def test_a_postgresql_ledger_without_psycopg_is_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as where it is not installed: importing it fails
    url = "postgresql+psycopg://nobody@localhost/none"
    said = refused(url, *command)
    assert said.startswith("Error: a PostgreSQL ledger needs psycopg, which is not installed here: install ")
    assert "postgres extra (pip install -e '.[postgres]' in its folder)" in said
    assert refused(url, *command, lang="it").startswith("Errore: un registro PostgreSQL ha bisogno di psycopg")


# The README's set-up


ROOT = Path(__file__).resolve().parent.parent


def test_the_readmes_install_what_exists_and_the_demos_folder_stays_out_of_git() -> None:
    import tomllib

    from ledger.cli.demo import demo

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for name in ("README.md", "README.it.md"):
        readme = (ROOT / name).read_text(encoding="utf-8")
        installs = re.findall(r"pip install (?:-q )?(?:-e )?'?([^'\s`]+)'?", readme)
        assert installs and all(
            target in (".", ".[test]")
            or re.fullmatch(r"(\.|calabresella_ledger-[\d.]+-py3-none-any\.whl)\[(\w+)\]", target)
            for target in installs
        ), installs
        assert {extra for _, extra in re.findall(r"(\.|\.whl)\[(\w+)\]", readme)} <= set(extras)
        assert "'calabresella-ledger[" not in readme and "nginx-light" in readme
    folder = inspect.signature(demo).parameters["out"].default
    assert f"/{folder}/" in (ROOT / ".gitignore").read_text().splitlines()


def test_plays_set_up_checks_each_answer_when_it_is_given_and_keeps_the_answers_before_it(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite3"
    lines = ["Anna", "Anna,Bruno,Carla", "quintiglio", "pagat sweeps=off", "abc CHF", "0.20 CHF", "quit"]
    done = play(db, *lines)
    assert done.exit_code == 0, done.stderr
    assert done.stderr.splitlines() == [
        "Error: 1 player: the games are played by 3, 4 or 5 seated players",
        "Error: 3 players: quintiglio is played by 5 seated players",
        "Error: stake 'abc': money per game point, 0 to 100000 with at most 2 decimals, e.g. 0.10",
    ]
    asked = [
        done.stdout.count(question)
        for question in ("Players, in turn order", "Profile (and options", "Stake per game point and its currency")
    ]
    assert asked == [2, 2, 2]  # each asked again once, the answers before it kept
    shown = json.loads(ok(db, "evening", "show", "--json"))
    assert (shown["players"], shown["stake_cents"], shown["currency"]) == (["Anna", "Bruno", "Carla"], 20, "CHF")
    assert shown["options"]["sweeps"] is False


def test_the_set_up_offers_the_game_for_that_many_players_and_speaks_of_one_player_in_the_singular(
    tmp_path: Path,
) -> None:
    db = tmp_path / "ledger.sqlite3"
    done = play(db, "Anna", "Anna,Bruno,Carla,Dario,Elena", "", "", "quit", lang="it")
    assert done.stderr == "Errore: 1 giocatore: si gioca in 3, 4 o 5\n"
    assert "Regole (e opzioni, per esempio pagat sweeps=off): [quintiglio]" in done.stdout
    assert json.loads(ok(db, "evening", "show", "--json"))["profile"] == "quintiglio"


@pytest.mark.parametrize("leaving", ["quit", "esci", "cancel"])
def test_quit_at_a_question_of_the_set_up_leaves_with_nothing_started(tmp_path: Path, leaving: str) -> None:
    db = tmp_path / "ledger.sqlite3"
    done = play(db, "Anna,Bruno,Carla", "", leaving, *[""] * 5, "quit")  # the stake: the lines after it are not read
    assert done.exit_code == 1 and "No evening started." in done.stdout
    assert not db.exists()


def test_a_yes_or_no_question_asks_again_on_an_answer_it_does_not_know(db: Path) -> None:
    ok(db, "evening", "close")
    done = play(db, "", "forse", "yess", "no", "tretre", "", "quit", lang="it")
    assert done.stderr.splitlines() == ["Errore: 'forse': rispondi sì o no", "Errore: 'yess': rispondi sì o no"]
    assert json.loads(ok(db, "evening", "show", "--json"))["profile"] == "tretre"
    kept = play(db, "close", "forse", "", "quit")
    assert kept.stderr == "Error: 'forse': answer yes or no\n" and "Evening 2 stays open." in kept.stdout
    closed = play(db, "chiudi", "sì", lang="it")
    assert "Serata 2 chiusa." in closed.stdout


# deals at any width


LONG = ("Maria Annunziata Bellini Castiglioni Dor", "Maria Annunziata Bellini Castiglioni Dal")
"""Two names of the most characters a name may have, alike but for their end."""


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    """An evening of two long names and Carla: a solo voided, a chiamo (only read)."""
    from conftest import copy_ledger

    db = copy_ledger(sqlite_template, tmp_path_factory.mktemp("long"))
    ok(db, "evening", "start", "--players", f"{LONG[0]},{LONG[1]},Carla")
    ok(db, "record", "-d", LONG[0], "-c", "solo", "-t", "22")
    ok(db, "record", "-d", "Carla", "-c", "chiamo", "--called", "3D", "--holder", LONG[1], "-t", "17", "-l", "opp")
    ok(db, "void", "1", "-r", "misdeal")
    return db


@pytest.mark.parametrize("columns", [200, 120, 100, 80, 60, 40, 24])
def test_deals_keep_each_number_and_its_words_at_any_width_with_the_longest_names(
    long_names: Path, columns: int
) -> None:
    shown = ok(long_names, "deals", columns=columns)
    lines = shown.splitlines()
    assert max(map(len, lines)) <= columns, shown
    unspaced = "".join(shown.split())
    for number, words in ((1, f"{LONG[0]} solo 7+1/3"), (2, "Carla chiamo 5+2/3")):
        assert re.search(rf"^\s*{number} │|^{number}: ", shown, re.M), (number, shown)
        assert "".join(words.split()) in unspaced, (words, shown)
    if any("│" in line for line in lines):  # a table: the voided deal's row says so
        assert re.search(r"^\s*1 │.*│ void\s+│", shown, re.M), shown
        assert all(
            line.startswith(("#", "━", " 1 │", "1 │", " 2 │", "2 │", "1: ", "2: ")) for line in lines if "│" in line
        )
    else:
        assert "· void ·" in " ".join(shown.split())
    if columns == 80:  # the names in the table shortened, still told apart by their ends
        assert "Dor ┃" in lines[0] and "Dal ┃" in lines[0] and "Bellini Castiglioni" not in lines[0]


def test_a_voided_deal_and_a_superseded_revision_say_so_in_words(db: Path) -> None:
    ok(db, "record", "bruno solo 22")
    ok(db, "amend", "1", "-t", "20", "-r", "recount")
    ok(db, "record", "carla solo 22")
    ok(db, "void", "2", "-r", "misdeal")
    assert re.search(r"^2 │ Anna\s+│ Carla solo 7\+1/3 │\s+│ void\s+│", ok(db, "deals"), re.M)
    history = ok(db, "deal", "show", "1")
    assert re.search(r"^\s+1 │ Carla\s+│ Bruno solo 7\+1/3 │\s+│ superseded │", history, re.M), history
    assert re.search(r"^2 │ Anna\s+│ Carla solo 7\+1/3 │\s+│ annullata", ok(db, "deals", lang="it"), re.M)


# Errors say what was typed


def test_a_refused_call_of_ones_own_card_echoes_what_was_typed(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla,Dario", "-P", "quartiglio", "-o", "call_own_card=off")
    reason = "the declarer may not call a card of their own hand at this table (call_own_card=off)"
    own = ["-d", "Anna", "-c", "chiamo", "--called", "3D", "-t", "20"]
    assert refused(db, "record", *own, "--holder", "anna") == f"Error: --holder 'anna': {reason}\n"
    assert refused(db, "record", *own, "--holder", "decl") == f"Error: --holder 'decl': {reason}\n"
    italian = refused(db, "record", "anna chiamo 3D@chiamante 20", lang="it")
    assert (
        italian.startswith("Errore: --holder 'chiamante': il chiamante non può chiamare") and "declarer" not in italian
    )
    asked = play(db, "anna chiamo 3D 20", "decl", "bruno", "quit")
    assert asked.stderr == f"Error: holder='decl': {reason}\n"
    assert "Deal 1 recorded · Anna chiamo: 20 thirds (6+2/3), won" in asked.stdout  # Bruno held it


# Italian as an Italian table says it


def test_the_italian_wording_of_a_table(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    seated = ["--players", "Anna,Bruno,Carla"]
    ok(db, "evening", "start", *seated, "--stake", "0.10")
    ok(db, "record", "bruno solo 22")
    assert "Carla dà 0,20\xa0€ a Bruno" in ok(db, "settle", lang="it")
    ok(db, "record", "anna solo 26")  # Anna +4 in all: Carla owes her
    settled = ok(db, "settle", lang="it")
    assert "dà 0,20\xa0€ ad Anna" in settled and " a Anna" not in settled
    assert "Carla pays Anna 0.20 EUR" in ok(db, "settle")
    said = refused(db, "score", *seated, "-P", "cavendish", "-d", "Anna", "-c", "solo", "-t", "20", lang="it")
    assert said == "Errore: contratto solo: in cavendish si gioca play\n"
    four = ["--players", "Anna,Bruno,Carla,Dario", "-d", "Anna", "-c", "chiamo", "--called", "3D", "-t", "20"]
    said = refused(db, "score", *four, "--holder", "Dario", lang="it")
    assert said.startswith(
        "Errore: chi aveva la carta: 'Dario', ma la carta chiamata era di uno fra Anna, Bruno, Carla"
    )
    said = refused(db, "record", "anna solo 4t ultima=xx", lang="it")
    assert said.endswith(": sono ammessi chiamante o avversari (anche chiam, avv)\n"), said
    pot = ok(
        db, "score", *seated, "-P", "tretre", "--passed-before", "1", "-d", "Anna", "-c", "solo", "-t", "20", lang="it"
    )
    assert "piatto (1 passata) 2 = 2" in pot, pot


def test_the_number_of_tricks_takes_all_and_cancel_is_lascia_where_annulla_voids(db: Path) -> None:
    done = play(db, "anna solo 35", "tutte", "carla solo 35", "all", "bruno solo 35", "lascia", "esci", lang="it")
    assert done.stderr == ""
    assert "Quante prese ha fatto il chiamante? (da 0 a 12, oppure tutte) tutte" in done.stdout
    assert "Anna solo: 35 terzi (11+2/3), vinta, cappotto" in done.stdout
    assert "Carla solo: 35 terzi (11+2/3), vinta, cappotto" in done.stdout
    assert "Lascio stare la smazzata: non ho segnato niente." in done.stdout
    voided = play(db, "carla solo 35", "annulla 1 carte date male", "ritira", "esci", lang="it")
    assert "Lascio stare la smazzata: non ho segnato niente; rileggo la riga come una smazzata nuova o un comando." in (
        voided.stdout
    )
    assert "Smazzata 1 annullata (carte date male)." in voided.stdout
    assert "Tolto l'ultimo cambiamento: smazzata 1 annullata (carte date male)" in voided.stdout


# The command line in Italian


def test_the_commands_take_the_italian_words_play_takes(db: Path) -> None:
    ok(db, "record", "bruno solo 22")
    assert ok(db, "classifica") == ok(db, "standings")
    assert ok(db, "smazzate", lang="it") == ok(db, "deals", lang="it")
    assert "It no longer counts (misdeal)" in ok(db, "annulla", "1", "-r", "misdeal")
    assert "Taken back: deal 1 voided (misdeal)" in ok(db, "ritira")
    assert refused(db, "chiudi", lang="it") == (
        "Errore: Il comando 'chiudi' non esiste. Forse intendevi 'evening close', 'event close'? "
        "(vedi: calabresella --help)\n"
    )
    assert "Did you mean '--help'?" in refused(db, "aiuto")
    listed = " ".join(ok(db, "--help", lang="it", columns=100).split())
    assert "I comandi si scrivono anche in italiano: ritira (undo), correggi (amend), annulla (void)," in listed
    assert "classifica (standings), conti (settle)." in listed


def test_usage_lines_argument_names_and_examples_are_italian(tmp_path: Path) -> None:
    none = tmp_path / "none.sqlite3"
    voiding = ok(none, "void", "--help", lang="it", columns=80)
    assert "Uso: calabresella void [OPZIONI] {numero}" in voiding and re.search(r"│ \*\s+numero\s+<numero>", voiding)
    assert "Uso: calabresella record [OPZIONI] [riga]" in ok(none, "record", "--help", lang="it")
    assert "Uso: calabresella paid [OPZIONI] [chi paga] [chi riceve] [importo]" in ok(none, "paid", "--help", lang="it")
    assert "Uso: calabresella players rename [OPZIONI] {vecchio} {nuovo}" in ok(
        none, "players", "rename", "--help", lang="it"
    )
    assert "Usage: calabresella void [OPTIONS] {number}" in ok(none, "void", "--help")
    assert refused(none, "void", lang="it").startswith("Errore: Manca l'argomento 'numero'.")
    recording = ok(none, "record", "--help", lang="it")
    assert "-p 5+2/3 -l avv" in recording and "--auction passo,passo,solissimo" in recording
    charting = ok(none, "chart", "--help", lang="it")
    assert "calabresella chart andamento --evening 12" in charting and "chart soldi --out soldi.svg" in charting


def test_charts_and_reports_are_written_under_italian_names_in_italian(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ok(db, "record", "bruno solo 22")
    monkeypatch.chdir(db.parent)
    assert ok(db, "chart", "andamento", lang="it") == "Scritto andamento.png\n"
    assert ok(db, "chart", "money", "-e", "1", lang="it") == "Scritto serata-1-soldi.png\n"
    assert ok(db, "report", lang="it") == "Scritto serata-1.html\n"
    assert ok(db, "chart", "andamento") == "Wrote running.png\n"
    assert ok(db, "report") == "Wrote evening-1.html\n"
    written = {"andamento.png", "serata-1-soldi.png", "serata-1.html", "running.png", "evening-1.html"}
    assert written <= {path.name for path in db.parent.iterdir()}


def test_every_argument_has_a_name_in_each_language() -> None:
    import typer.main

    from ledger.cli.app import ARGUMENTS

    def arguments(command: Any) -> set[str]:
        found = {param.name for param in command.params if param.param_type_name == "argument"}
        for name in command.list_commands(None) if hasattr(command, "list_commands") else ():
            found |= arguments(command.get_command(None, name))
        return found

    assert arguments(typer.main.get_command(app)) == set(ARGUMENTS)


# The report at desktop width

BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (const word of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(`${node.parentElement.tagName}: ${word[0]}`);
    }
  }
  return broken;
}"""
"""Every word of the page's main part drawn over more than one line: a name, a heading or a word broken inside."""


@pytest.mark.parametrize(("width", "lang"), [(1280, "en"), (1024, "it")])
def test_the_report_at_desktop_width_never_breaks_a_name_or_a_heading_inside_a_word(
    tmp_path: Path, chromium: Any, width: int, lang: str
) -> None:
    names = ["Annamaria" + "x" * 31, "Maria Annunziata Bellini Castiglioni Dor", "Bartolomeo" + "y" * 30, "Elena"]
    names.append("Costanza" + "z" * 32)
    db = tmp_path / "ledger.sqlite3"
    ok(db, "evening", "start", "--players", ",".join(names), "-P", "quintiglio")
    ok(db, "record", "-d", names[0], "-c", "chiamo", "--called", "3D", "--holder", names[2], "-t", "20")
    ok(db, "record", "-d", names[1], "-c", "solo", "-t", "22")
    ok(db, "void", "1", "-r", "miscounted")
    ok(db, "report", "--out", str(tmp_path / "report.html"), lang=lang)
    page = chromium.new_context(viewport={"width": width, "height": 900}).new_page()
    page.set_content((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert page.evaluate(BROKEN_WORDS) == []
    assert page.evaluate("document.documentElement.scrollWidth") == width  # a wide table scrolls on its own


def test_one_player_is_one_player_in_each_language(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite3"
    said = "1 player: the games are played by 3, 4 or 5 seated players\n"
    assert refused(db, "evening", "start", "--players", "Anna") == f"Error: {said}"
    assert refused(db, "score", "--players", "Anna", "-d", "Anna", "-c", "solo", "-t", "20") == f"Error: {said}"
    assert (
        refused(db, "evening", "start", "--players", "Anna", lang="it") == "Errore: 1 giocatore: si gioca in 3, 4 o 5\n"
    )
    assert (
        refused(db, "evening", "start", "--players", "A,B", lang="it") == "Errore: 2 giocatori: si gioca in 3, 4 o 5\n"
    )
    assert not db.exists()
