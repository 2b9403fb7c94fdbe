"""Statistics, the evening report, the charts and the rules of an evening in the reader's language: Italian words
and Italian numbers (`2,60`, `+1,50`, `14/11/2026`) when the language is Italian, English ones otherwise; JSON keeps
its English keys.

The ledger, recorded in Italian with the real command line (pagat, 0.10 EUR; Anna, Bruno, Carla; Carla deals first):
  1 Bruno solo 22: Bruno +4, Anna -2, Carla -2      2 Carla chiamo 3D@anna 17, last trick to the opponents: -2, +1 each
  3 Anna solo 33 (stramazzo, 2 x3): +12, -6 each    4 Carla solo 15: Carla -4, +2 each      5 all passed
  6 Bruno solo 20, voided.
Totals: Anna +13, Bruno +1, Carla -14; per deal over the 5 that stand: 2.60, 0.20, -2.80; as opponent: Anna
(-2 +1 +2) / 3 = 0.33, Bruno (+1 -6 +2) / 3 = -1.00, Carla (-2 -6) / 2 = -4.00. One deal of five passed: 20%.
Defending together: Anna and Bruno in deals 2 and 4, +1 +2 each: +1.50 a deal; Anna and Carla (deal 1) -2.00;
Bruno and Carla (deal 3) -6.00. Solo: 3 deals of 4 played (75%), 2 won (67%).
Evening 2 (pagat, 0.50 CHF, four seated, Dario deals first): one passed deal, so nobody owes anybody.
Evening 3 (quartiglio): Anna chiamo 3D@bruno 20 wins: Anna and Bruno +1, Carla and Dario -1.
"""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from cli_support import calabresella
from test_web_support import start, viewer

from ledger.house_rules import describe_rules
from ledger.i18n import speaking
from ledger.rules.profiles import make_profile
from ledger.service import Ledger

SVG_TEXT = "{http://www.w3.org/2000/svg}text"
TICK = re.compile("[\u2212-]?\\d+[.,]\\d+")
"""A tick label with decimals (matplotlib writes a minus sign, U+2212)."""
STATS_ENGLISH = (
    "Summary",
    "Players",
    "Money",
    "evenings",
    "deals",
    "declarer",
    "opponent",
    "biggest win",
    "winning streak",
    "losing streak",
    "per deal",
    "Bids by contract",
    "Contracts and aggravations",
    "Called cards",
    "Seats relative to the dealer",
    "Pairs defending together",
    "Declarer rating",
    "success rate",
    "share",
    "calls",
    "card",
    "wins",
    "rating",
    "player",
    "points",
    "currency",
)
REPORT_ENGLISH = (
    "first dealer",
    "Nobody",
    "all passed",
    "All passed",
    "Winner",
    "Standings",
    "Settlement",
    "Seats",
    "Deals",
    "Charts",
    "dealer",
    "explanation",
    "stake",
    "game point",
    "held by",
    "voided",
    "from each opponent",
    "closed",
    "sweeps",
    "cappotto_multiplier",
    "pagat (",
    "Calabresella",
    "player",
    "money",
    "who pays",
)
CHART_ENGLISH = (
    "game points",
    "deal",
    "deals",
    "Evening",
    "evening",
    "won",
    "lost",
    "voided",
    "Money",
    "money",
    "Contracts",
    "contract",
    "thirds",
    "declarer",
    "Defending",
    "partner",
    "player",
    "per deal",
    "in its currency",
    "and over",
)


def _run(db: Path, language: str, *args: str) -> str:
    """The command, in `language`, on the ledger `db`; its standard output."""
    done = calabresella("--lang", language, "--db", str(db), *args, env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    path = tmp_path_factory.mktemp("italian") / "ledger.sqlite3"
    shutil.copyfile(sqlite_template, path)

    def it(*args: str) -> str:
        return _run(path, "it", *args)

    it("evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.10")
    for line in ("bruno solo 22", "carla chiamo 3D@anna 17 ultima=avv", "anna solo 33", "carla solo 15"):
        it("record", line)
    it("record", "--passed")
    it("record", "bruno solo 20")
    it("void", "6", "-r", "carte mal date")
    it("evening", "close")
    it("evening", "start", "--players", "Anna,Bruno,Carla,Dario", "--stake", "0.50", "--currency", "CHF")
    it("record", "--passed")
    it("evening", "close")
    it("evening", "start", "--players", "Anna,Bruno,Carla,Dario", "-P", "quartiglio")
    it("record", "anna chiamo 3D@bruno 20")
    return path


def _english_words(text: str, words: tuple[str, ...]) -> list[str]:
    return [word for word in words if re.search(rf"(?<![\w=]){re.escape(word)}(?!\w)", text)]


def _row(out: str, header: str) -> list[str]:
    """The cells after a row's header in a table on its side."""
    line = next(line for line in out.splitlines() if line.startswith(header + " "))
    return [cell.strip() for cell in line.split("│")[1:]]


def test_stats_in_italian_have_italian_titles_headers_and_numbers(db: Path) -> None:
    out = _run(db, "it", "stats", "--evening", "1")
    for title in (
        "Riepilogo",
        "Giocatori",
        "Soldi",
        "Dichiarazioni per contratto",
        "Contratti e rilanci",
        "Carte chiamate e chi le aveva",
        "Posti rispetto al mazziere",
        "Coppie in difesa",
        "Punteggio Elo da chiamante",
    ):
        assert f"\n{title}" in out, title
    assert not _english_words(out, STATS_ENGLISH), _english_words(out, STATS_ENGLISH)
    assert "Statistiche · serata 1" in out
    assert _row(out, "smazzate") == ["5"] and _row(out, "% passate") == ["20%"]
    assert _row(out, "punti partita a smazzata") == ["2,60", "0,20", "-2,80"]
    assert _row(out, "a smazzata da avversario") == ["0,33", "-1,00", "-4,00"]
    solo = next(line for line in out.splitlines() if line.startswith("solo "))
    assert [cell.strip() for cell in solo.split("│")][2:6] == ["3", "75%", "2", "67%"]


def test_stats_in_english_keep_english_words_and_numbers(db: Path) -> None:
    out = _run(db, "en", "stats", "--evening", "1")
    assert "\nSummary" in out and "\nDeclarer rating (Elo)" in out and "Riepilogo" not in out
    assert _row(out, "game points per deal") == ["2.60", "0.20", "-2.80"]
    assert _row(out, "per deal as opponent") == ["0.33", "-1.00", "-4.00"] and _row(out, "share passed out") == ["20%"]


def test_stats_json_keeps_its_english_keys_in_italian(db: Path) -> None:
    italian = json.loads(_run(db, "it", "stats", "--evening", "1", "--json"))
    english = json.loads(_run(db, "en", "stats", "--evening", "1", "--json"))
    assert italian.pop("filters") == "serata 1" and english.pop("filters") == "evening 1"
    assert italian == english
    assert set(italian["players"][0]) >= {"player", "points_per_deal", "biggest_win", "winning_streak"}
    assert set(italian["called"][0]) == {"card", "calls", "Anna"}


def test_evening_list_and_show_say_the_rules_in_players_words(db: Path) -> None:
    listed = _run(db, "it", "evening", "list")
    assert "chiusa" in listed and "aperta" in listed and "closed" not in listed and "open" not in listed
    assert "Terziglio (regole di pagat.com): cappotto x2, stramazzo x3" in listed
    shown = _run(db, "it", "evening", "show", "-e", "2")
    assert "Terziglio (regole di pagat.com): cappotto x2, stramazzo x3, il mazziere sta fuori; posta 0,50" in shown
    english = _run(db, "en", "evening", "show", "-e", "3")
    assert "Quartiglio, four players: no cappotto or stramazzo, with a monte; stake 0.00 EUR" in english


def _visible(page: str) -> str:
    """The text a reader sees on a page, its spaces collapsed: no style, no embedded images, no tags."""
    page = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def _report(db: Path, language: str, evening: int) -> str:
    """The evening's report, its charts loaded from an address as on the phone (their words are read below)."""
    with speaking(language), Ledger(str(db)) as ledger:
        return ledger.report(evening, charts="charts/{kind}.svg")


def test_the_report_in_italian_has_no_english_and_says_the_rules_in_players_words(db: Path) -> None:
    pages = {evening: _visible(_report(db, "it", evening)) for evening in (1, 2, 3)}
    for evening, text in pages.items():
        assert not _english_words(text, REPORT_ENGLISH), (evening, _english_words(text, REPORT_ENGLISH))
    first, second, third = pages[1], pages[2], pages[3]
    assert "Terziglio (regole di pagat.com): cappotto x2, stramazzo x3 ·" in first
    assert "Carla (primo mazziere)" in first and "annullata: carte mal date" in first
    assert "Vincitore: Anna (+13 punti partita)" in first
    assert "Terziglio (regole di pagat.com): cappotto x2, stramazzo x3, il mazziere sta fuori ·" in second
    assert "Nessuno deve niente." in second
    assert "Quartiglio, in quattro: senza cappotto né stramazzo, con il monte ·" in third
    assert "Vincitori: Anna, Bruno (+1 punto partita)" in third


def test_the_report_in_english_says_the_same_in_english(db: Path) -> None:
    first, second, third = (_visible(_report(db, "en", evening)) for evening in (1, 2, 3))
    assert "Calabresella (pagat.com rules): cappotto x2, stramazzo x3 ·" in first and "sweeps=on" not in first
    assert "Carla (first dealer)" in first and "Winner: Anna (+13 game points)" in first
    assert "Nobody owes anything." in second and "the dealer sits out" in second
    assert "Winners: Anna, Bruno (+1 game point)" in third


@cache
def _texts(db: Path, language: str, kind: str, evening: int | None) -> tuple[str, ...]:
    """The words of a chart, each drawn once for the module."""
    with speaking(language), Ledger(str(db)) as ledger:
        svg = ledger.chart(kind, evening=evening, fmt="svg").decode()
    return tuple("".join(text.itertext()).strip() for text in ET.fromstring(svg).iter(SVG_TEXT))


CHARTS: tuple[tuple[str, int | None], ...] = (
    ("running", 1),
    ("money", None),
    ("contracts", 1),
    ("thirds", 1),
    ("pairings", 1),
)


def test_every_chart_in_italian_has_no_english_words(db: Path) -> None:
    for kind, evening in CHARTS:
        texts = _texts(db, "it", kind, evening)
        assert not _english_words("\n".join(texts), CHART_ENGLISH), (kind, texts)


def test_chart_numbers_and_dates_in_italian(db: Path) -> None:
    pairings = _texts(db, "it", "pairings", 1)
    assert pairings.count("+1,50") == 2 and pairings.count("-2,00") == 2 and pairings.count("-6,00") == 2
    assert "punti partita a smazzata" in " ".join(pairings)  # the title, on lines of its own
    money = _texts(db, "it", "money", None)
    assert "totale soldi vinti (nella sua valuta)" in " ".join(money)  # on lines of its own
    assert any(re.fullmatch(r"\d\d/\d\d/\d{4}", text) for text in money)
    ticks = [text for text in (*money, *_texts(db, "it", "money", 1)) if TICK.fullmatch(text)]
    assert ticks and all("," in tick for tick in ticks), money
    assert "67% vinte" in _texts(db, "it", "contracts", 1)
    assert "smazzata (tratteggiate: annullate 6)" in " ".join(_texts(db, "it", "running", 1))


def test_chart_numbers_in_english(db: Path) -> None:
    assert _texts(db, "en", "pairings", 1).count("+1.50") == 2
    money = _texts(db, "en", "money", None)
    ticks = [text for text in (*money, *_texts(db, "en", "money", 1)) if TICK.fullmatch(text)]
    assert ticks and all("." in tick for tick in ticks)
    assert "money won so far (in its currency)" in " ".join(money)
    assert any(re.fullmatch(r"\d{4}-\d\d-\d\d", text) for text in money)


@pytest.mark.parametrize(
    ("name", "options", "seated", "italian", "english"),
    [
        ("pagat", [], 3, "Terziglio (regole di pagat.com): cappotto x2, stramazzo x3", None),
        (
            "pagat",
            ["dealer_shares=on", "stramazzo_multiplier=4", "sweeps_on_loss=off", "stramazzo_counts=tricks"],
            4,
            "Terziglio (regole di pagat.com): cappotto x2, stramazzo x4, cappotto e stramazzo solo se vince il "
            "chiamante, stramazzo contato sulle sole prese, il mazziere sta fuori ma paga e incassa come un "
            "avversario",
            "Calabresella (pagat.com rules): cappotto x2, stramazzo x4, sweeps count only when the declarer wins, "
            "stramazzo on the tricks alone, the dealer sits out and pays like an opponent",
        ),
        (
            "tretre",
            ["game_to=21", "contract_multipliers=on"],
            3,
            "Terziglio a partita lunga: senza cappotto né stramazzo, solo x2, solissimo x4, il chiamante è sempre di "
            "mano, piatto delle smazzate passate, partite ai 21",
            "Terziglio, long game: no cappotto or stramazzo, solo x2, solissimo x4, the declarer always leads, "
            "pot of passed deals, games to 21",
        ),
        ("cavendish", [], 3, "Calabrasella americana (Cavendish)", "American Calabrasella (Cavendish)"),
        (
            "quartiglio",
            ["monte=off", "sweeps=on", "stramazzo_counts=all"],
            4,
            "Quartiglio, in quattro: cappotto x2, stramazzo x3, stramazzo solo se chi perde non fa punti, "
            "senza monte, 10 carte a testa",
            None,
        ),
        (
            "quintiglio",
            ["mediatore=on", "mediatore_outbids_chiamo=on"],
            5,
            "Quintiglio, in cinque: senza cappotto né stramazzo, con il mediatore, il mediatore supera il chiamo",
            "Quintiglio, five players: no cappotto or stramazzo, with the mediatore, mediatore outbids chiamo",
        ),
    ],
)
def test_the_rules_in_players_words(
    name: str, options: list[str], seated: int, italian: str, english: str | None
) -> None:
    profile = make_profile(name, options)
    with speaking("it"):
        assert describe_rules(profile, seated) == italian
    if english:
        with speaking("en"):
            assert describe_rules(profile, seated) == english


def test_the_evening_page_says_the_rules_in_the_phones_language(db_url: str) -> None:
    start(db_url, ("Anna", "Bruno", "Carla", "Dario"))
    with viewer(db_url) as phone:
        italian = phone.get("/evenings/1", headers={"Accept-Language": "it"}).text
        english = phone.get("/evenings/1", headers={"Accept-Language": "en"}).text
        listed = phone.get("/evenings", headers={"Accept-Language": "it"}).text
    assert "Terziglio (regole di pagat.com): cappotto x2, stramazzo x3, il mazziere sta fuori" in italian
    assert "Terziglio (regole di pagat.com): cappotto x2, stramazzo x3, il mazziere sta fuori · aperta" in listed
    assert "Calabresella (pagat.com rules): cappotto x2, stramazzo x3, the dealer sits out" in english
    assert "pagat" not in _visible(english).replace("pagat.com", "")
