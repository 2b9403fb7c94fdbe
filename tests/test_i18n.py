"""Italian as a language of the whole ledger: the catalog is complete and compiled, every user-facing string is
marked for translation, and the command line, `play`, the report and the charts speak Italian when asked."""

from __future__ import annotations

import ast
import functools
import io
import re
import string
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from decimal import Decimal
from pathlib import Path

import pytest
import test_play
from cli_support import Ran, calabresella
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from ledger.cli.main import app
from ledger.fmt import format_cents
from ledger.i18n import SOURCE_LANGUAGE, _, choose_language, speaking, use_language
from ledger.rules.profiles import make_profile
from ledger.rules.quick import parse_quick_line
from tools import catalog

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Anna", "Bruno", "Carla")
runner = CliRunner()
ITALIAN = {"CALABRESELLA_DB": None, "CALABRESELLA_LANG": "it", "COLUMNS": "200"}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


PERCENT = re.compile(r"%(?:\(\w+\))?[sdr]")


def _percent_fields(text: str) -> list[str]:
    """The %-placeholders of a string (the pages' templates use `%(name)s`), sorted."""
    return sorted(PERCENT.findall(text))


# The catalog


def test_every_string_of_the_code_has_an_italian_translation() -> None:
    template, italian = catalog.template(), catalog.read("it")
    untranslated = []
    for message in template:
        if not message.id:
            continue
        found = italian.get(message.id)
        strings = () if found is None else (found.string,) if isinstance(found.string, str) else found.string
        if found is None or found.fuzzy or not all(strings):
            untranslated.append(message.id)
    assert not untranslated, f"{len(untranslated)} strings lack an Italian translation, e.g. {untranslated[:3]}"


def test_translations_keep_the_placeholders_of_the_english() -> None:
    for message in catalog.read("it"):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        allowed = set().union(*map(_fields, ids))
        for text in strings:
            assert _fields(text) <= allowed, f"{message.id!r}: {text!r} has placeholders the English lacks"
            if "python-format" in message.flags:
                assert _percent_fields(text) == _percent_fields(ids[0]), f"{message.id!r}: {text!r}"


def test_every_string_of_the_page_templates_is_in_the_catalog_and_translated() -> None:
    shown, italian = catalog.template_strings(), catalog.read("it")
    assert {"Record the deal", "Evening %(number)s", "<b>%(payer)s</b> pays <b>%(payee)s</b>"} <= shown
    untranslated = [text for text in shown if italian.get(text) is None or not italian.get(text).string]
    assert not untranslated, f"template strings lacking an Italian translation: {untranslated}"


def test_the_shipped_mo_is_the_compiled_po() -> None:
    """Message by message (the bytes also name the Babel version that compiled them)."""
    from babel.messages.catalog import Message
    from babel.messages.mofile import read_mo

    def messages(found: Iterable[Message]) -> dict[object, object]:
        def key(text: object) -> object:  # a plural's forms come as a list
            return tuple(text) if isinstance(text, list | tuple) else text

        return {key(message.id): key(message.string) for message in found if message.id and not message.fuzzy}

    mo = catalog.po_path("it").with_suffix(".mo")
    shipped = read_mo(io.BytesIO(mo.read_bytes()))
    fresh = read_mo(io.BytesIO(catalog.compiled(catalog.read("it"))))
    assert messages(shipped) == messages(fresh), "run: python -m tools.catalog compile"


def test_the_catalogs_are_package_data() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"ledger" = ["locale/*/LC_MESSAGES/*.po", "locale/*/LC_MESSAGES/*.mo"]' in pyproject
    assert '"babel>=2.14"' in pyproject


# Every user-facing string is marked

MARKERS = {"_", "ngettext"}
SHOWN = {"console.print", "typer.echo", "_error", "Text", "self.ask", "print_money", "RichTable", "Table", "_figure"}
MARKUP = re.compile(r"\[/?[a-z ]+\]")


@functools.cache
def _sources() -> list[tuple[Path, list[ast.AST]]]:
    """Every module of the code (migrations aside), with its syntax tree's nodes: parsed once for the tests that
    read them."""
    return [
        (path.relative_to(ROOT), list(ast.walk(ast.parse(path.read_text()))))
        for folder in ("ledger", "reports")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def _words(node: ast.expr) -> bool:
    """A literal (or f-string) with words a person reads, markup aside."""
    parts = (
        [node.value]
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        else ([v.value for v in node.values if isinstance(v, ast.Constant)] if isinstance(node, ast.JoinedStr) else [])
    )
    return any(re.search(r"[A-Za-z]{2}", MARKUP.sub("", part)) for part in parts)


def _marked(node: ast.expr) -> bool:
    """`_(...)`, `ngettext(...)`, or `_(...).format(...)`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        node = node.func.value
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS


def test_every_ledger_error_message_is_marked_for_translation() -> None:
    unmarked = []
    for path, nodes in _sources():
        for node in nodes:
            is_error = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "LedgerError"
            if is_error and node.args and not _marked(node.args[0]):
                unmarked.append(f"{path}:{node.lineno}")
    assert not unmarked, f"LedgerError messages not marked with _(): {unmarked}"


def _dotted(node: ast.expr) -> str | None:
    """`console.print` for a name or a chain of attributes, else None (nothing else is a function that shows)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        owner = _dotted(node.value)
        return f"{owner}.{node.attr}" if owner else None
    return None


def test_dotted_names_the_function_called() -> None:
    calls = [ast.parse(code, mode="eval").body for code in ("console.print(x)", "Text(x)", "a.b.c()", "f()()")]
    assert [_dotted(call.func) for call in calls if isinstance(call, ast.Call)] == [
        "console.print",
        "Text",
        "a.b.c",
        None,
    ]


def test_nothing_shown_is_an_unmarked_literal() -> None:
    unmarked = []
    for path, nodes in _sources():
        for node in nodes:
            if isinstance(node, ast.Call) and _dotted(node.func) in SHOWN:
                shown = [*node.args, *(k.value for k in node.keywords if k.arg == "title")]
                unmarked += [f"{path}:{arg.lineno}" for arg in shown if _words(arg)]
            if isinstance(node, ast.FormattedValue) and any(_marked(n) for n in ast.walk(node.value)):
                unmarked.append(f"{path}:{node.lineno} (_() inside an f-string is not extracted)")
    assert not unmarked, f"shown without _(): {unmarked}"


def test_every_help_text_is_in_the_catalog() -> None:
    import typer.main

    italian = catalog.read("it")
    for text, where in catalog.help_texts(typer.main.get_command(app)):
        assert italian.get(text) is not None and italian.get(text).string, f"{where}: {text[:60]!r}"


def test_the_check_can_fail() -> None:
    tree = ast.parse('raise LedgerError(f"bad {x}")\nraise LedgerError(_("good {x}").format(x=1))')
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "LedgerError"]
    assert [_marked(call.args[0]) for call in calls] == [False, True]


# The language choice and the formats


@pytest.mark.parametrize(
    ("option", "env", "expected"),
    [
        (None, {}, "en"),
        (None, {"LANG": "it_IT.UTF-8"}, "it"),
        (None, {"LC_ALL": "C", "LANG": "it_IT.UTF-8"}, "en"),
        (None, {"LC_MESSAGES": "it_CH", "LANG": "en_GB"}, "it"),
        (None, {"CALABRESELLA_LANG": "it", "LANG": "en_US"}, "it"),
        ("en", {"CALABRESELLA_LANG": "it"}, "en"),
        ("it", {}, "it"),
        (None, {"LANG": "fr_FR.UTF-8"}, "en"),
    ],
)
def test_the_language_is_the_option_then_the_variable_then_the_locale(
    option: str | None, env: dict[str, str], expected: str
) -> None:
    assert choose_language(option, env) == expected


def test_money_and_numbers_in_italian_and_english() -> None:
    assert (format_cents(750, "EUR"), format_cents(-10, "EUR"), format_cents(150, signed=True)) == (
        "7.50 EUR",
        "-0.10 EUR",
        "+1.50",
    )
    use_language("it")
    assert format_cents(750, "EUR") == "7,50\xa0€"
    assert format_cents(123450) == "1.234,50"
    assert format_cents(-10, "EUR") == "-0,10\xa0€"
    assert format_cents(150, signed=True) == "+1,50"


@settings(max_examples=300, deadline=None)
@given(
    cents=st.integers(-(10**15), 10**15),
    number=st.floats(-1e9, 1e9, allow_nan=False),
    places=st.integers(0, 3),
)
def test_italian_numbers_are_babels_italian_numbers(cents: int, number: float, places: int) -> None:
    from babel.numbers import format_currency
    from babel.numbers import format_decimal as babel_decimal

    from ledger.fmt import format_count, format_decimal

    amount = Decimal(abs(cents)) / 100
    sign = "-" if cents < 0 else ""
    with speaking("it"):
        written = (format_cents(cents), format_cents(cents, "EUR"), format_count(cents), format_decimal(number, places))
    pattern = "#,##0" + ("." + "0" * places if places else "")
    assert written == (
        sign + babel_decimal(amount, "#,##0.00", locale="it_IT"),
        sign + format_currency(amount, "EUR", locale="it_IT"),
        babel_decimal(cents, "#,##0", locale="it_IT"),
        babel_decimal(number, pattern, locale="it_IT"),
    )


def test_the_quick_syntax_reads_italian_keys_and_sides() -> None:
    profile = make_profile("pagat", [])
    deal = parse_quick_line("carla chiamo carta=3D aveva=anna terzi=17 ultima=avversari", PLAYERS, profile)
    assert (deal.deal.called, deal.deal.holder, deal.deal.thirds, deal.deal.last_trick) == (
        "3D",
        "Anna",
        17,
        "opponents",
    )
    deal = parse_quick_line("anna solissimo scegliete punti=11+2/3 prese=12 mazziere=bruno", PLAYERS, profile)
    assert (deal.deal.points, deal.deal.tricks, deal.dealer) == ("11+2/3", 12, "Bruno")
    deal = parse_quick_line("bruno chiamo 3D@chiamante 4 ultima=chiamante", PLAYERS, profile)
    assert (deal.deal.holder, deal.deal.last_trick) == ("declarer", "declarer")
    deal = parse_quick_line("licitazione=passo,solo,passo 22", PLAYERS, profile)
    assert deal.deal.auction == "pass,solo,pass"


# The command line in Italian


def _it(db: Path, *args: str) -> Result:
    return runner.invoke(app, ["--db", str(db), *args], env=ITALIAN)


def test_score_explains_the_deal_in_italian() -> None:
    result = runner.invoke(
        app, ["score", "--players", "Anna,Bruno,Carla", "-d", "Bruno", "-c", "solo", "-t", "33"], env=ITALIAN
    )
    assert result.exit_code == 0, result.output
    assert "Bruno solo: 33 terzi (11), vinta, stramazzo" in result.stdout
    assert "solo 2 x stramazzo 3 = 6 da ciascun avversario" in result.stdout
    assert "giocatore" in result.stdout and "punti partita" in result.stdout and "avversario, mazziere" in result.stdout


def test_record_standings_and_settle_in_italian(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    assert _it(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "1.25").exit_code == 0
    recorded = _it(db, "record", "carla chiamo 3D@anna 4 ultima=avversari")
    assert recorded.exit_code == 0, recorded.output
    assert "Smazzata 1 registrata" in recorded.stdout and "mazziere Carla" in recorded.stdout
    assert "chiamo 1 = 1 a ciascun avversario" in recorded.stdout
    assert _it(db, "record", "bruno solo 22").exit_code == 0
    standings = _it(db, "standings")
    assert "Classifica" in standings.stdout and "totali progressivi" in standings.stdout
    assert "+6,25" in standings.stdout  # Bruno: +1 and +4 game points at 1,25 € per punto
    settle = _it(db, "settle")
    assert "Conti della serata 1" in settle.stdout
    assert "Carla dà 5,00\xa0€ a Bruno" in settle.stdout


def test_the_italian_reads_as_players_say_it(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    twice = _it(db, "evening", "start", "--players", "Anna,anna,Bruno")
    assert (
        twice.stderr
        == "Errore: giocatori: Anna e anna sono lo stesso nome (i nomi non distinguono maiuscole e accenti)\n"
    )
    assert _it(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.50").exit_code == 0
    assert "Hanno passato tutti." in _it(db, "record", "--passed").stdout
    assert _it(db, "record", "b s 7").stderr == (
        "Errore: parola 's': non si capisce quale, potrebbe essere scegliete, solissimo, solo\n"
    )
    assert _it(db, "record", "-d", "Bruno", "-c", "chiamo", "--called", "ZZ", "-t", "17").stderr == (
        "Errore: --called 'ZZ': scrivi valore e seme, per esempio 3D, RS, AC, KH oppure 'tre di denari' "
        "(valori 3 2 A R C F 7 6 5 4, semi D C S B), oppure il solo valore (3, tre) quando il seme non è stato detto\n"
    )
    assert _it(db, "record", "bruno solo 22").exit_code == 0  # Bruno +4 game points: 1,00 € from each opponent
    assert "Registrato il pagamento 1: Anna ha pagato Bruno 1,00\xa0€." in _it(db, "paid", "Anna", "Bruno", "1").stdout
    tab = _it(db, "tab").stdout
    assert "Carla dà 1,00\xa0€ a Bruno" in tab and "paga Bruno" not in tab
    assert "Carla è in debito con Bruno di 1,00\xa0€" in _it(db, "settle", "--pairs").stdout
    voided = _it(db, "paid", "--void", "1", "--reason", "doppio").stdout
    assert "Pagamento 1 annullato (doppio): 1,00\xa0€ da Anna per Bruno, non conta più." in voided
    assert "pagat (se non si indica altro)" in _it(db, "evening", "start", "--help").stdout
    one = runner.invoke(
        app,
        ["score", "--players", "Anna,Bruno,Carla", "-d", "Carla", "-c", "solo", "-t", "1", "-l", "opponents"],
        env={"CALABRESELLA_LANG": "en"},
    )
    assert "Carla solo: 1 third (1/3), lost, stramazzo" in one.stdout


def test_an_error_is_one_italian_line_with_exit_code_2() -> None:
    result = runner.invoke(
        app, ["score", "--players", "Anna,Bruno,Carla", "-d", "Bruno", "-c", "solo", "-t", "40"], env=ITALIAN
    )
    assert result.exit_code == 2
    assert result.stderr == "Errore: --thirds 40: una smazzata ha solo 35 terzi\n"


SCORE = ["score", "--players", "Anna,Bruno,Carla", "-d", "Bruno", "-c", "solo", "-t", "22"]
NO_LANGUAGE = dict.fromkeys(("CALABRESELLA_LANG", "LC_ALL", "LC_MESSAGES", "LANG"))
"""No variable that names a language: each test sets the one it reads."""


def _run(*args: str, **env: str) -> Ran:
    return calabresella(*args, env={**NO_LANGUAGE, "COLUMNS": "120", **env})


def test_the_locale_makes_it_italian_and_lang_en_overrides_it() -> None:
    italian = _run(*SCORE, LANG="it_IT.UTF-8")
    assert italian.returncode == 0, italian.stderr
    assert "solo 2 = 2 da ciascun avversario" in italian.stdout and "vinta" in italian.stdout
    english = _run("--lang", "en", *SCORE, LANG="it_IT.UTF-8")
    assert "solo 2 = 2 from each opponent" in english.stdout and "won" in english.stdout


def test_help_is_italian_from_the_locale_and_from_lang() -> None:
    root = _run("--help", LANG="it_IT.UTF-8").stdout
    assert "Il registro dei punti per Calabresella" in root and "Al tavolo" in root and "Opzioni" in root
    record = _run("--lang", "it", "record", "--help").stdout
    assert "Registra una smazzata come è stata giocata" in record and "Dati della smazzata" in record
    assert "Record a deal as played" in _run("record", "--help", LANG="en_US.UTF-8").stdout


def test_click_s_own_help_texts_are_italian() -> None:
    record = _run("--lang", "it", "record", "--help").stdout
    assert "Uso: calabresella record [OPZIONI]" in record and "Mostra questo aiuto ed esce." in record
    assert "Usage:" not in record and "Show this message and exit." not in record and "[OPTIONS]" not in record
    root = _run("--help", LANG="it_IT.UTF-8").stdout
    assert "Uso: calabresella [OPZIONI] COMANDO [ARGOMENTI]..." in root and "Mostra questo aiuto ed esce." in root
    english = _run("--lang", "en", "record", "--help").stdout
    assert "Usage: calabresella record [OPTIONS]" in english and "Show this message and exit." in english


CLICK_ERRORS = [
    (
        ["recrod"],
        "Errore: Il comando 'recrod' non esiste. Forse intendevi 'record'? (vedi: calabresella --help)",
        "Error: No such command 'recrod'. Did you mean 'record'? (see: calabresella --help)",
    ),
    (
        ["start"],
        "Errore: Il comando 'start' non esiste. Forse intendevi 'evening start', 'event start', 'play'? "
        "(vedi: calabresella --help)",
        "Error: No such command 'start'. Did you mean 'evening start', 'event start', 'play'? "
        "(see: calabresella --help)",
    ),
    (
        ["evening", "strat"],
        "Errore: Il comando 'strat' non esiste. Forse intendevi 'start'? (vedi: calabresella evening --help)",
        "Error: No such command 'strat'. Did you mean 'start'? (see: calabresella evening --help)",
    ),
    (
        ["evening", "start"],
        "Errore: Manca l'opzione '--players'. (vedi: calabresella evening start --help)",
        "Error: Missing option '--players'. (see: calabresella evening start --help)",
    ),
    (
        ["void"],
        "Errore: Manca l'argomento 'numero'. (vedi: calabresella void --help)",
        "Error: Missing argument 'number'. (see: calabresella void --help)",
    ),
    (
        ["score", "--thirds", "abc"],
        "Errore: Valore non valido per '--thirds' / '-t': ci vuole un numero intero (vedi: calabresella score --help)",
        "Error: Invalid value for '--thirds' / '-t': Input should be a valid integer, unable to parse string as an "
        "integer (see: calabresella score --help)",
    ),
    (
        ["record", "--passed-before", "-1"],
        "Errore: Valore non valido per '--passed-before': ci vuole un numero da 0 in su "
        "(vedi: calabresella record --help)",
        "Error: Invalid value for '--passed-before': Input should be greater than or equal to 0 "
        "(see: calabresella record --help)",
    ),
    (
        ["record", "--pas"],
        "Errore: L'opzione --pas non esiste (forse una di queste: --passed, --points) "
        "(vedi: calabresella record --help)",
        "Error: No such option: --pas (Possible options: --passed, --points) (see: calabresella record --help)",
    ),
    (
        ["record", "--passed-before"],
        "Errore: L'opzione '--passed-before' vuole un valore.",
        "Error: Option '--passed-before' requires an argument.",
    ),
    (
        ["record", "--passed=3"],
        "Errore: L'opzione '--passed' non prende valori.",
        "Error: Option '--passed' does not take a value.",
    ),
    (
        ["deals", "1", "2"],
        "Errore: Argomenti in più, che il comando non prevede (1 2) (vedi: calabresella deals --help)",
        "Error: Got unexpected extra argument(s) (1 2) (see: calabresella deals --help)",
    ),
    (
        ["chart", "--out", "."],
        "Errore: Valore non valido per '--out' / '-O': '.' è una cartella, qui ci vuole un file. "
        "(vedi: calabresella chart --help)",
        "Error: Invalid value for '--out' / '-O': file '.' is a directory. (see: calabresella chart --help)",
    ),
    (
        ["--db", "x.sqlite3"],
        "Errore: Manca il comando. (vedi: calabresella --help)",
        "Error: Missing command. (see: calabresella --help)",
    ),
]


@pytest.mark.parametrize(("args", "italian", "english"), CLICK_ERRORS, ids=[" ".join(a) for a, *_ in CLICK_ERRORS])
def test_a_command_line_that_does_not_parse_is_one_line_in_the_language_in_use(
    args: list[str], italian: str, english: str, tmp_path: Path
) -> None:
    for lang, expected in (("it", italian), ("en", english)):
        result = calabresella(
            "--lang",
            lang,
            *args,
            cwd=tmp_path,
            env={"CALABRESELLA_DB": str(tmp_path / "ledger.sqlite3"), "COLUMNS": "200"},
        )
        assert (result.returncode, result.stderr) == (2, expected + "\n")
    assert list(tmp_path.iterdir()) == []


def test_a_language_the_ledger_does_not_speak_is_refused_in_the_language_of_the_locale() -> None:
    refused = _run("--lang", "fr", *SCORE, LANG="it_IT.UTF-8")
    assert refused.returncode == 2
    assert refused.stderr == "Errore: --lang 'fr': il registro parla en (English), it (italiano)\n"
    english = _run("--lang", "fr", *SCORE, LANG="fr_FR.UTF-8")  # a locale the ledger does not speak: English
    assert (english.returncode, english.stderr) == (
        2,
        "Error: --lang 'fr': the ledger speaks en (English), it (italiano)\n",
    )
    variable = _run(*SCORE, CALABRESELLA_LANG="de", LANG="it_IT.UTF-8")
    assert variable.stderr == "Errore: CALABRESELLA_LANG 'de': il registro parla en (English), it (italiano)\n"
    assert _run("--lang", "it_IT.UTF-8", *SCORE).returncode == 0  # what the locale would say is taken as it


# play, the report and the charts


def test_play_in_italian_in_a_terminal(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    db = Path(sqlite_url)
    assert _it(db, "evening", "start", "--players", "Anna,Bruno,Carla").exit_code == 0
    monkeypatch.setattr(test_play, "ENV", {**test_play.ENV, "CALABRESELLA_LANG": "it"})
    table = test_play.Table(db)
    assert "Prossima smazzata: Carla dà le carte, Anna è di mano." in table.opening
    assert "Chi ha fatto l'ultima presa?" in table.send("bruno chiamo 3D@anna 4t")
    shown = table.send("avversari")
    assert "Smazzata 1 registrata" in shown and "chiamo 1 = 1 a ciascun avversario" in shown
    assert "Errore: punti '12+1/3'" in table.send("bruno solo 12+1/3")
    assert "Perché?" in table.send("amend 1 5")
    assert "Smazzata 1 corretta (revisione 2)" in table.send("riconteggio")
    assert "Smazzata 1 corretta (revisione 3)" in table.send("amend 1 4 ultima=avv motivo=di nuovo")
    table.close_with("quit")


def _exchanges(db: Path, lines: list[str]) -> tuple[list[str], str]:
    """`play` in Italian with these lines piped in (in-process): what it printed after each line (the last one
    with what it printed on leaving), and its errors."""
    done = calabresella(
        "--db", str(db), "play", env={"CALABRESELLA_LANG": "it", "COLUMNS": "160"}, input="\n".join(lines) + "\n"
    )
    assert done.returncode == 0
    shown = done.stdout.split("\n> ")[1:]  # each line is echoed after the prompt
    said = [exchange.partition("\n") for exchange in shown]
    assert [line for line, _newline, _after in said] == lines
    return [after for _line, _newline, after in said], done.stderr


def test_play_takes_its_commands_in_italian(sqlite_url: str) -> None:
    """The commands as they are read from any input (the terminal's own prompts in Italian: the test above)."""
    db = Path(sqlite_url)
    assert _it(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.10").exit_code == 0
    lines = [
        *("aiuto", "aiuto correggi", "aiuto sintassi", "bruno solo 22", "carla solo 1t ultima=avv", "classifica"),
        *("conti", "smazzate", "correggi 2 20 motivo=riconteggio", "annulla 1 carte date male"),
        *("ritira", "ritira", "ritira", "ritira", "ritira", "annulla uno", "annulla"),
        *("settle", "standings", "help", "esci"),
    ]
    shown, errors = _exchanges(db, lines)
    said = dict(enumerate(shown))
    listed = said[0]
    assert "Comandi: ritira, correggi, annulla, smazzate, classifica, conti, aiuto, chiudi, esci" in listed
    assert "aiuto PAROLA" in listed and "undo" not in listed
    assert "correggi N FATTI [motivo=PERCHÉ]" in said[1]
    assert "CHIAMANTE CONTRATTO" in said[2]
    assert "Smazzata 1 registrata · Bruno solo: 22 terzi (7+1/3), vinta" in said[3]
    assert "Smazzata 2 registrata · Carla solo: 1 terzo (1/3), persa" in said[4]
    standings = said[5]  # Carla's stramazzo: 6 to each opponent
    assert re.search(r"Bruno\s+│\s+\+10 │\s+\+1,00", standings) and re.search(r"Carla\s+│\s+-14 │\s+-1,40", standings)
    settled = said[6]
    assert "Conti della serata 1" in settled
    assert "Carla dà 1,00\xa0€ a Bruno" in settled and "Carla dà 0,40\xa0€ ad Anna" in settled
    assert re.search(r"2 │ Anna\s+│ Carla solo 1/3 stramazzo", said[7])
    assert "Smazzata 2 corretta (revisione 2) · Carla solo: 20 terzi (6+2/3), vinta" in said[8]
    assert "Smazzata 1 annullata (carte date male). Totali: Anna -2, Bruno -2, Carla +4" in said[9]
    undone = said[10]  # the last change: the void of deal 1
    assert "Tolto l'ultimo cambiamento: smazzata 1 annullata (carte date male)" in undone
    assert "Smazzata 1 conta di nuovo · Bruno solo: 22 terzi (7+1/3), vinta" in undone
    undone = said[11]  # then the amendment of deal 2
    assert "Tolto l'ultimo cambiamento: smazzata 2 corretta (riconteggio)" in undone
    assert "Smazzata 2 tornata com'era prima della correzione (revisione 3) · Carla solo: 1 terzo (1/3)" in undone
    undone = said[12]  # then the deals, the last first
    assert "Smazzata 2 ritirata" in undone and "Totali: Anna -2, Bruno +4, Carla -2" in undone
    assert "Smazzata 1 ritirata" in said[13] and "Totali: Anna 0, Bruno 0, Carla 0" in said[13]
    assert said[14] == said[15] == said[16] == ""  # three refusals, each one line of the errors
    assert errors.splitlines() == [
        "Errore: ritira: la serata 1 non ha nessun cambiamento da ritirare",
        "Errore: annulla 'uno': prima il numero della smazzata, per esempio annulla 5 carte date male",
        "Errore: annulla '': prima il numero della smazzata, per esempio annulla 5 carte date male",
    ]
    # the English commands stay understood
    assert "Conti della serata 1" in said[17]
    assert re.search(r"Anna\s+│\s+0 │", said[18])
    assert "Comandi: ritira" in said[19]
    assert "La serata 1 resta aperta. Per chiuderla e fare i conti: calabresella evening close 1;" in said[20]
    deals = test_play._ledger(db)[1]
    assert [(d.number, d.revision, d.voided, d.void_reason, d.void_cause) for d in deals] == [
        (1, 1, True, None, "undo"),
        (2, 3, True, None, "undo"),
    ]


def test_a_command_word_that_names_a_player_still_starts_a_deal(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    assert _it(db, "evening", "start", "--players", "Anna,Conti,Amendola").exit_code == 0
    done = test_play._piped(db, ["conti solo 22", "amend solo 8", "conti", "amend 1 20 motivo=riconteggio"])
    assert done.returncode == 0, done.stderr
    assert "Deal 1 recorded · Conti solo: 22 thirds (7+1/3), won" in done.stdout
    assert "Deal 2 recorded · Amendola solo: 24 thirds (8), won" in done.stdout
    assert "Settlement of evening 1" in done.stdout
    assert "Deal 1 amended (revision 2) · Conti solo: 20 thirds (6+2/3), won" in done.stdout
    assert done.stderr == ""


def test_the_report_and_a_chart_in_italian(tmp_path: Path) -> None:
    from ledger.service import Ledger

    db = tmp_path / "report.sqlite3"
    assert _it(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.10").exit_code == 0
    assert _it(db, "record", "bruno solo 33").exit_code == 0
    use_language("it")
    with Ledger(str(db)) as ledger:
        page = ledger.report()
        assert '<html lang="it">' in page and "Classifica" in page and "Conti" in page
        assert "6 da ciascun avversario" in page
        svg = ledger.chart("running", fmt="svg").decode()
    texts = " ".join("".join(t.itertext()) for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text"))
    assert "punti partita" in texts and "smazzata" in texts and "Serata 1" in texts


def test_english_stays_the_source_language() -> None:
    assert SOURCE_LANGUAGE == "en" and _("game points") == "game points"


def test_the_italian_readme_has_the_same_two_set_up_commands() -> None:
    def blocks(name: str) -> list[str]:
        return re.findall(r"```bash\n(.*?)```", (ROOT / name).read_text(), re.S)[:2]

    assert len(blocks("README.md")) == 2 and blocks("README.it.md") == blocks("README.md")
