"""The rules of an evening in players' words and in the reader's language, alike in the terminal, the report and
the web page.

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

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_web_support import start, viewer

from ledger.house_rules import describe_rules
from ledger.i18n import speaking
from ledger.rules.profiles import make_profile

CALABRESELLA = shutil.which("calabresella") or "calabresella"
ENV = {k: v for k, v in os.environ.items() if not k.startswith("CALABRESELLA_")} | {"COLUMNS": "200", "TZ": "UTC"}


def _run(db: Path, language: str, *args: str) -> str:
    """The installed command, in `language`, on the ledger `db`; its standard output."""
    done = subprocess.run(
        [CALABRESELLA, "--lang", language, "--db", str(db), *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("italian") / "ledger.sqlite3"

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


CHARTS: tuple[tuple[str, int | None], ...] = (
    ("running", 1),
    ("money", None),
    ("contracts", 1),
    ("thirds", 1),
    ("pairings", 1),
)


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
    assert "Terziglio (regole di pagat.com): cappotto x2, stramazzo x3, il mazziere sta fuori" in italian
    assert "Calabresella (pagat.com rules): cappotto x2, stramazzo x3, the dealer sits out" in english
    assert "pagat" not in _visible(english).replace("pagat.com", "")
