"""RULES §8, a game to N points: standings, `play`, the report and statistics show the games and who won them.

The evening of every test, pagat with game_to=5, worked by hand:
1. Anna solo 22 thirds, won: Anna +4, Bruno -2, Carla -2.
2. Bruno solo 22 thirds, won: Bruno +4, Anna -2, Carla -2 (game: Anna 2, Bruno 2, Carla -4).
3. Anna solo 33 thirds, stramazzo x3: 6 from each, Anna +12 (game: Anna 14, Bruno -4, Carla -10): Anna reaches 5,
   game 1 (deals 1-3) is hers.
4. Carla chiamo 20 thirds (3D from Anna): chiamo 1 from each, Carla +2, Anna -1, Bruno -1: game 2 goes on.
"""

from __future__ import annotations

import json
import re

from cli_support import calabresella
from typer.testing import CliRunner

from ledger import Ledger
from ledger.cli.main import app
from ledger.values import Terms

LINES = ("anna solo 22t", "bruno solo 22t", "anna solo 33t", "carla chiamo 3D@anna 20t last=opp")


def evening(db: str) -> None:
    with Ledger(db) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(options=["game_to=5"]))
        for line in LINES:
            ledger.record(line)


def run(db: str, *args: str) -> str:
    result = CliRunner().invoke(app, ["--db", db, *args], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_standings_hold_each_game_and_who_won_it(sqlite_url: str) -> None:
    evening(sqlite_url)
    with Ledger(sqlite_url) as ledger:
        standings = ledger.standings()
    assert [(g.first, g.last, dict(g.totals), g.winners) for g in standings.games] == [
        (1, 3, {"Anna": 14, "Bruno": -4, "Carla": -10}, ("Anna",)),
        (4, 4, {"Anna": -1, "Bruno": -1, "Carla": 2}, ()),
    ]
    assert dict(standings.games_won) == {"Anna": 1, "Bruno": 0, "Carla": 0}
    data = json.loads(run(sqlite_url, "standings", "--json"))
    assert data["game_to"] == 5 and data["games_won"] == {"Anna": 1, "Bruno": 0, "Carla": 0}
    assert data["games"][0] == {
        "first": 1,
        "last": 3,
        "totals": {"Anna": 14, "Bruno": -4, "Carla": -10},
        "winners": ["Anna"],
    }
    shown = run(sqlite_url, "standings")
    assert "Games to 5 points" in shown and "games won" in shown
    assert re.search(r"1\s+│\s+1-3\s+│\s+\+14\s+│\s+-4\s+│\s+-10\s+│\s+Anna", shown), shown
    assert re.search(r"2\s+│\s+4-4\s+│\s+-1\s+│\s+-1\s+│\s+\+2\s+│\s+going on", shown), shown


def test_an_evening_without_a_game_to_n_shows_no_games(sqlite_url: str) -> None:
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"])
        ledger.record("anna solo 33t")
        assert ledger.standings().games == ()
    assert "Games to" not in run(sqlite_url, "standings") and "games won" not in run(sqlite_url, "standings")


def test_play_says_when_a_deal_ends_a_game(sqlite_url: str) -> None:
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(options=["game_to=5"]))
    lines = "\n".join([*LINES, "standings", "quit"]) + "\n"
    done = calabresella("--db", sqlite_url, "play", input=lines, env={"CALABRESELLA_LANG": "en", "COLUMNS": "160"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Game 1 to 5 points won by Anna.") == 1
    assert "Game 2" not in done.stdout.split("standings")[0]
    assert "Games to 5 points" in done.stdout


def test_the_report_and_the_statistics_show_the_games(sqlite_url: str) -> None:
    evening(sqlite_url)
    with Ledger(sqlite_url) as ledger:
        page = ledger.report()
        stats = ledger.stats()
    assert 'id="games"' in page and "Games to 5 points" in page and "going on" in page
    assert list(stats.table("games").rows) == [
        {"player": "Anna", "games": 1, "games_won": 1},
        {"player": "Bruno", "games": 1, "games_won": 0},
        {"player": "Carla", "games": 1, "games_won": 0},
    ]


def test_the_evening_page_shows_the_games(sqlite_url: str) -> None:
    from test_web_support import viewer

    evening(sqlite_url)
    with viewer(sqlite_url) as phone:
        page = phone.get("/evenings/1").text
        italian = phone.get("/language/it", follow_redirects=True).text
    games = page.split('<table class="games">')[1].split("</table>")[0]
    assert "Games to 5 points" in page
    rows = re.findall(r"<tr><th>(\d) <small>(\d-\d)</small><br><small>([^<]*)</small></th>(.*?)</tr>", games, re.S)
    assert [(n, deals, said) for n, deals, said, _ in rows] == [("1", "1-3", "won by Anna"), ("2", "4-4", "going on")]
    assert re.findall(r'class="num">([^<]*)<', rows[0][3]) == ["+14", "-4", "-10"]
    assert re.findall(r'class="num">([^<]*)<', rows[1][3]) == ["-1", "-1", "+2"]
    assert "Partite a 5 punti" in italian and "vinta da Anna" in italian
