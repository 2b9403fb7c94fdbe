"""`calabresella event ...` and `calabresella season ...`: club nights seated at several tables, round after round.

The figures the commands print are checked against sums made here from each table's deals as `deals --json` lists
them (payouts summed by hand; a deal counts as played for a player who held cards: not a passed deal, and not the
dealer who sits out at a table of four). The tests run the Typer app in-process on real SQLite files; one night runs
the installed console script in real processes.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from conftest import copy_ledger, ready_to_copy
from test_cli_ledger import assert_user_error
from typer.testing import CliRunner, Result

from ledger.cli.main import app

runner = CliRunner()
CLEAN_ENV = {"CALABRESELLA_DB": None, "CALABRESELLA_LANG": None, "COLUMNS": "200"}
SEVEN = "Anna,Bruno,Carla,Dario,Elena,Franco,Gina"
HOSTILE_EVENT = "=cmd|' /C calc'!A0"
HOSTILE_PLAYER = "+cmd|' /C calc'!A0"  # `=` may not start a player's name; `+` may


def cli(db: Path, *args: str, env: Mapping[str, str | None] | None = None) -> Result:
    """`calabresella --db DB ARGS...` in-process."""
    return runner.invoke(app, ["--db", str(db), *args], env={**CLEAN_ENV, **(env or {})})


def ok(db: Path, *args: str) -> Result:
    """A command that must succeed."""
    result = cli(db, *args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr, result.exception)
    return result


def ok_json(db: Path, *args: str) -> Any:
    """A `--json` command that must succeed, its standard output parsed."""
    return json.loads(ok(db, *args, "--json").stdout)


def command() -> list[str]:
    """The installed console script (next to this interpreter, else on PATH), or its entry point run by Python."""
    beside = Path(sys.executable).with_name("calabresella")
    script = str(beside) if beside.is_file() else shutil.which("calabresella")
    return [script] if script else [sys.executable, "-c", "from ledger.cli import run; run()"]


def run(db: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real `calabresella --db DB ARGS...` in a subprocess."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CALABRESELLA_")} | {"COLUMNS": "200"}
    return subprocess.run(
        [*command(), "--db", str(db), *args],
        capture_output=True,
        text=True,
        env=environment | (env or {}),
        timeout=120,
    )


# --- figures by hand -----------------------------------------------------------------------------------------


def deals_of(db: Path, evening: int) -> list[dict[str, Any]]:
    """The deals of one table (an evening) as `calabresella deals --json` lists them."""
    listed = ok_json(db, "deals", "--evening", str(evening))
    assert listed["evening"] == evening
    return list(listed["deals"])


def by_hand(deals: list[dict[str, Any]]) -> tuple[Counter[str], Counter[str]]:
    """Game points summed per player, and deals played per player: a passed deal is played by nobody, and at a
    table of four (pagat) the dealer sits out."""
    points: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for deal in deals:
        assert not deal["voided"]
        for player, payout in deal["payouts"].items():
            points[player] += payout
            sits_out = len(deal["payouts"]) == 4 and player == deal["dealer"]
            if deal["declarer"] is not None and not sits_out:
                played[player] += 1
    return points, played


def record_at(db: Path, table: dict[str, Any], lines: list[str]) -> None:
    """Record deals at a table: `{seat}` in a line is the player in that seat (1 deals first) -- the declarer is
    chosen among those who hold cards."""
    for line in lines:
        players = table["players"]
        filled = line.format(*(name.lower() for name in players))
        ok(db, "record", "--evening", str(table["evening"]), filled)


def pairs_of(tables: list[dict[str, Any]]) -> set[frozenset[str]]:
    return {frozenset(pair) for table in tables for pair in combinations(table["players"], 2)}


# --- a whole club night --------------------------------------------------------------------------------------


def test_a_club_night_of_seven_players(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    started = ok_json(db, "event", "start", "Friday club", "--players", SEVEN, "--deals", "2", "--stake", "0.10")
    assert started["event"] == 1 and started["name"] == "Friday club"
    assert started["present"] == SEVEN.split(",") and started["rounds"] == []
    assert (started["round_deals"], started["stake_cents"], started["pairing"]) == (2, 10, "random")

    seated = ok_json(db, "event", "seat", "--seed", "7")
    first = seated["rounds"][-1]  # the event seated, as the API answers
    assert seated["event"] == 1 and first["round"] == 1
    assert sorted(len(t["players"]) for t in first["tables"]) == [3, 4]
    assert sorted(p for t in first["tables"] for p in t["players"]) == sorted(SEVEN.split(","))
    assert first["sitting_out"] == [] and first["by_hand"] is False
    four = next(t for t in first["tables"] if len(t["players"]) == 4)
    three = next(t for t in first["tables"] if len(t["players"]) == 3)
    assert four["evening"] != three["evening"]

    # Dealers rotate from seat 1: deal k is dealt by seat k, so the seat after the dealer holds cards.
    record_at(db, four, ["{1} solo 22", "{2} solo 5"])
    record_at(db, three, ["pass", "{2} solo 24"])

    points, played = Counter[str](), Counter[str]()
    for table in (four, three):
        table_points, table_played = by_hand(deals_of(db, table["evening"]))
        points.update(table_points)  # not `+=`: a Counter's sum drops players at zero or below
        played.update(table_played)
    assert sum(played.values()) == 2 * 3 + 1 * 3  # three players hold cards in each deal; the pass is played by none

    shown = ok_json(db, "event", "show")
    standings = {line["player"]: line for line in shown["standings"]}
    assert set(standings) == set(SEVEN.split(","))
    for name, line in standings.items():
        assert line["points"] == points[name], name
        assert line["deals"] == played[name], name
        assert line["per_deal"] == (round(points[name] / played[name], 2) if played[name] else None), name
        table = four if name in four["players"] else three
        assert (line["table"], table["players"][line["seat"] - 1]) == (table["table"], name)
    listed = [line["points"] for line in shown["standings"]]
    assert listed == sorted(listed, reverse=True)

    text = ok(db, "event", "show").stdout
    assert "Event 1" in text and "Friday club" in text
    for heading in ("rank", "player", "game points", "deals", "points per deal", "table now"):
        assert heading in text
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if "━" in line)
    rows = [line.split() for line in lines[header + 1 : header + 8]]
    assert [row[2] for row in rows] == [line["player"] for line in shown["standings"]]
    for row in rows:  # competition ranking: level players share a rank, the next rank skips
        line = standings[row[2]]
        better = [
            o for o in standings.values() if (o["points"], o["per_deal"] or 0) > (line["points"], line["per_deal"] or 0)
        ]
        assert row[0] == str(1 + len(better)), row
    assert len({row[0] for row in rows}) < 7  # some players are level (with 7 players, 4 deals, at most 4 at 0)

    under_way = ok_json(db, "event", "round")
    assert under_way["under_way"] is True and under_way["seconds_left"] is None
    assert {t["evening"]: t["deals"] for t in under_way["round"]["tables"]} == {four["evening"]: 2, three["evening"]: 2}
    round_text = ok(db, "event", "round").stdout
    assert round_text.count("2 of 2") == 2 and "Every table has played its deals" in round_text

    # Round 2: Gina leaves, Nino arrives; the round before ends first.
    second_text = ok(db, "event", "seat", "--arrive", "Nino", "--leave", "Gina", "--seed", "3").stdout
    after = ok_json(db, "event", "show")
    assert [r["round"] for r in after["rounds"]] == [1, 2]
    ended, second = after["rounds"]
    assert ended["ended_at"] is not None and all(t["closed"] for t in ended["tables"])
    seated_now = sorted(p for t in second["tables"] for p in t["players"])
    assert seated_now == sorted([*SEVEN.split(",")[:-1], "Nino"])
    gina = next(line for line in after["standings"] if line["player"] == "Gina")
    assert (gina["present"], gina["table"], gina["points"]) == (False, None, points["Gina"])  # her deals stand
    repeats = len(pairs_of(second["tables"]) & pairs_of(ended["tables"]))
    assert repeats >= 1  # a table of four among two tables of round 1 and one newcomer must repeat a pair
    assert second["repeats"] == repeats
    if second["exact"]:
        assert f"{repeats} pair" in second_text and "fewest possible" in second_text
    else:
        assert "not proven the fewest possible" in second_text
    refused = cli(db, "record", "--evening", str(four["evening"]), "pass")
    assert_user_error(refused.exit_code, refused.stderr, "closed")

    # Seating by hand: someone seated twice, or someone absent, is refused and nothing changes.
    one, other = (table["players"] for table in second["tables"])
    twice = [",".join(one), ",".join([one[0], *other[1:]])]
    absent = [",".join(one), ",".join(["Gina", *other[1:]])]
    unknown = [",".join(one), ",".join(["Zeno", *other[1:]])]
    for tables, fragment in ((twice, "sits at two tables"), (absent, "Gina"), (unknown, "Zeno")):
        done = cli(db, "event", "seat", *(arg for t in tables for arg in ("--table", t)))
        assert_user_error(done.exit_code, done.stderr, fragment)
        assert done.stdout == ""
        assert ok_json(db, "event", "show") == after

    by_hand_seating = [",".join(other), ",".join(one)]
    seated3 = ok_json(db, "event", "seat", *(arg for t in by_hand_seating for arg in ("--table", t)))["rounds"][-1]
    assert seated3["by_hand"] is True and seated3["round"] == 3
    assert [t["players"] for t in seated3["tables"]] == [other, one]
    assert seated3["repeats"] == len(
        pairs_of(seated3["tables"]) & (pairs_of(ended["tables"]) | pairs_of(second["tables"]))
    )

    closed = ok_json(db, "event", "close")
    assert closed["closed"] is True and closed["rounds"][-1]["ended_at"] is not None
    again = cli(db, "event", "seat")
    assert_user_error(again.exit_code, again.stderr, "no open event")
    listed_events = ok_json(db, "event", "list")
    assert [(e["event"], e["closed"], e["rounds"]) for e in listed_events["events"]] == [(1, True, 3)]
    assert listed_events["next"] is None


def set_round_start(db: Path, started: datetime) -> None:
    """Move the start of the round under way back in time, as the ledger stores times (naive UTC in SQLite)."""
    connection = sqlite3.connect(db)
    try:
        with connection:
            stored = started.astimezone(UTC).replace(tzinfo=None).isoformat(" ")
            changed = connection.execute("UPDATE club_round SET started_at = ? WHERE ended_at IS NULL", (stored,))
            assert changed.rowcount == 1
    finally:
        connection.close()


def test_a_round_ends_by_hand_and_a_timed_round_tells_the_time_left(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "event", "start", "Cup", "--players", "A,B,C,D,E,F", "--minutes", "30")
    none_yet = ok(db, "event", "round").stdout
    assert "seated no round yet" in none_yet
    ok(db, "event", "seat", "--table", "A,B,C", "--table", "D,E,F")
    timed = ok_json(db, "event", "round")
    assert timed["round_minutes"] == 30 and 29 * 60 < timed["seconds_left"] <= 30 * 60
    started = datetime.now(UTC) - timedelta(minutes=10, seconds=30)
    set_round_start(db, started)
    assert "Time left: 20 minutes" in ok(db, "event", "round").stdout  # 19 minutes 30 seconds, rounded up
    set_round_start(db, started - timedelta(minutes=35))
    up = ok(db, "event", "round").stdout
    assert "The round's time is up: 15 minutes ago" in up  # 15 minutes 30 seconds ago, rounded down
    assert ok_json(db, "event", "round")["seconds_left"] in range(-15 * 60 - 35, -15 * 60 - 25)
    ended = ok_json(db, "event", "round", "--end")  # the event, as the API answers the end of a round
    assert ended["event"] == 1 and ended["rounds"][-1]["ended_at"] is not None
    assert all(t["closed"] for t in ended["rounds"][-1]["tables"])
    assert ok_json(db, "event", "round")["under_way"] is False
    twice = cli(db, "event", "round", "--end")
    assert_user_error(twice.exit_code, twice.stderr, "no round under way")


def test_the_events_come_a_page_at_a_time_newest_first(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    for name in ("One", "Two", "Three"):
        ok(db, "event", "start", name, "--players", "A,B,C")
    listed = ok(db, "event", "list", "--limit", "2").stdout
    assert listed.index("Three") < listed.index("Two") and "One" not in listed
    assert "Older events: calabresella event list --before 2 --limit 2" in listed
    older = ok_json(db, "event", "list", "--before", "2", "--limit", "2")
    assert [e["event"] for e in older["events"]] == [1] and older["next"] is None
    assert "No events before event 1." in ok(db, "event", "list", "--before", "1").stdout
    italian = cli(db, "--lang", "it", "event", "list", "--limit", "1").stdout
    assert "Le serate al circolo più vecchie: calabresella event list --before 3 --limit 1" in italian
    refused = cli(db, "event", "list", "--limit", "0")
    assert refused.exit_code == 2 and refused.stdout == ""


# --- CSV -----------------------------------------------------------------------------------------------------


def test_the_csv_opens_with_its_header_and_neutralises_formulas(tmp_path: Path, sqlite_url: str) -> None:
    db = Path(sqlite_url)
    ok(db, "event", "start", HOSTILE_EVENT, "--players", f"Anna,Bruno,{HOSTILE_PLAYER}")
    table = ok_json(db, "event", "seat", "--table", f"Anna,Bruno,{HOSTILE_PLAYER}")["rounds"][-1]["tables"][0]
    ok(db, "record", "--evening", str(table["evening"]), "bruno solo 22")
    out = tmp_path / "event.csv"
    ok(db, "event", "show", "--csv", str(out))
    text = out.read_text(encoding="utf-8")
    assert text.startswith("event,rank,player,points,deals,per_deal,present,table,seat\n")
    rows = list(csv.reader(text.splitlines()))
    assert len(rows) == 4
    assert {row[0] for row in rows[1:]} == {"'" + HOSTILE_EVENT}
    hostile = next(row for row in rows if row[2].endswith(HOSTILE_PLAYER))
    assert hostile[2] == "'" + HOSTILE_PLAYER
    assert hostile[3] == "-2"  # a number stays a number, its sign kept
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)
    bruno = next(row for row in rows if row[2] == "Bruno")
    assert bruno[1:7] == ["1", "Bruno", "4", "1", "4.0", "true"]

    unwritable = cli(db, "event", "show", "--csv", str(tmp_path / "missing" / "x.csv"))
    assert_user_error(unwritable.exit_code, unwritable.stderr, "cannot write it")


# --- seasons -------------------------------------------------------------------------------------------------


def test_a_season_of_two_events_sums_their_tables_and_ranks_by_its_minimum(tmp_path: Path, sqlite_url: str) -> None:
    db = Path(sqlite_url)
    season = ok_json(db, "season", "start", "Autumn", "--min-deals", "3")
    assert (season["name"], season["min_deals"], season["table"]) == ("Autumn", 3, [])

    deals: list[dict[str, Any]] = []
    attended: Counter[str] = Counter()
    for name, players, lines in (
        ("Friday", "Anna,Bruno,Carla", ["{1} solo 22", "{2} solo 5", "{0} solo 25"]),
        ("Saturday", "Anna,Bruno,Dario", ["{1} solo 24", "pass"]),
    ):
        ok(db, "event", "start", name, "--players", players, "--season", "Autumn")
        table = ok_json(db, "event", "seat", "--table", players)["rounds"][-1]["tables"][0]
        record_at(db, table, lines)
        deals += deals_of(db, table["evening"])
        attended.update(players.split(","))
        ok(db, "event", "close")
    outside = ok_json(db, "event", "start", "Not in a season", "--players", "Anna,Bruno,Carla")
    assert outside["season"] is None
    table = ok_json(db, "event", "seat")["rounds"][-1]["tables"][0]
    record_at(db, table, ["{1} solo 26"])

    points, played = by_hand(deals)
    assert played == Counter({"Anna": 4, "Bruno": 4, "Carla": 3, "Dario": 1})
    league = ok_json(db, "season", "show")
    assert [e["name"] for e in league["events"]] == ["Friday", "Saturday"]
    by_player = {line["player"]: line for line in league["table"]}
    assert set(by_player) == set(points)
    for name, line in by_player.items():
        assert (line["points"], line["deals"], line["events"]) == (points[name], played[name], attended[name]), name
        assert line["ranked"] is (played[name] >= 3), name
    order = [line["player"] for line in league["table"]]
    assert order[-1] == "Dario"  # short of the minimum: after every ranked player
    ranked = [line for line in league["table"] if line["ranked"]]
    assert [line["per_deal"] for line in ranked] == sorted((line["per_deal"] for line in ranked), reverse=True)
    assert ok_json(db, "season", "show", "1") == ok_json(db, "season", "show", "autumn") == league

    text = ok(db, "season", "show").stdout
    rule = text.index("fewer than 3 deals: not ranked yet")
    assert all(text.index(f" {line['player']} ") < rule for line in ranked)
    assert text.index(" Dario ") > rule
    assert "skill" in text.lower() and "apart from game points" in text
    for line in ranked:
        row = next(r for r in text.splitlines() if f" {line['player']} " in r)
        assert row.split()[0].isdigit()  # a rank
    dario = next(r for r in text.splitlines() if " Dario " in r)
    assert not dario.split()[0].isdigit()  # no rank

    out = tmp_path / "season.csv"
    ok(db, "season", "show", "--csv", str(out))
    rows = list(csv.reader(out.read_text(encoding="utf-8").splitlines()))
    assert rows[0] == ["season", "rank", "player", "points", "deals", "per_deal", "events", "skill", "ranked"]
    assert [(row[2], row[1], row[8]) for row in rows[1:]][-1] == ("Dario", "", "false")

    exists = cli(db, "season", "start", "autumn")
    assert_user_error(exists.exit_code, exists.stderr, "exists already")


# --- errors --------------------------------------------------------------------------------------------------

ERRORS = [
    ("unknown-event", ["event", "show", "9"], "event 9 does not exist"),
    ("unknown-event-seat", ["event", "seat", "9"], "event 9 does not exist"),
    ("deals-0", ["event", "start", "X", "--players", "A,B,C", "--deals", "0"], "--deals"),
    ("minutes-0", ["event", "start", "X", "--players", "A,B,C", "--minutes", "0"], "--minutes"),
    ("unknown-pairing", ["event", "start", "X", "--players", "A,B,C", "--pairing", "swiss"], "--pairing 'swiss'"),
    ("unknown-season", ["event", "start", "X", "--players", "A,B,C", "--season", "Winter"], "season"),
    ("too-few", ["event", "start", "X", "--players", "A,B"], "2 players"),
    ("empty-name", ["event", "start", " ", "--players", "A,B,C"], "NAME"),
    ("min-deals", ["season", "start", "S", "--min-deals", "-1"], "--min-deals"),
    ("empty-table", ["event", "seat", "--table", "A,,B"], "--table 'A,,B'"),
]


@pytest.fixture(scope="module")
def one_event(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    """A ledger with event 1 (Existing: Anna, Bruno, Carla), built once and copied by each test."""
    db = copy_ledger(sqlite_template, tmp_path_factory.mktemp("one-event"))
    ok(db, "event", "start", "Existing", "--players", "Anna,Bruno,Carla")
    return ready_to_copy(db)


@pytest.fixture
def existing(one_event: Path, tmp_path: Path) -> Path:
    """A copy of the ledger with event 1 for one test."""
    return copy_ledger(one_event, tmp_path)


@pytest.mark.parametrize(("args", "fragment"), [case[1:] for case in ERRORS], ids=[case[0] for case in ERRORS])
def test_an_error_is_one_line_with_exit_code_2(existing: Path, args: list[str], fragment: str) -> None:
    db = existing
    result = cli(db, *args)
    assert_user_error(result.exit_code, result.stderr, fragment)
    assert result.stdout == ""
    assert [e["event"] for e in ok_json(db, "event", "list")["events"]] == [1]  # no event started by a refused command


def test_refusals_quote_the_value_given(existing: Path) -> None:
    db = existing
    for args, fragment in (
        (["event", "show", "7"], "event 7 does not exist"),
        (["event", "start", "X", "--players", "A,B,C", "--deals", "0"], "--deals '0'"),
        (["event", "start", "X", "--players", "A,B,C", "--pairing", "elo"], "--pairing 'elo'"),
    ):
        done = cli(db, *args)
        assert_user_error(done.exit_code, done.stderr, fragment)
        assert done.stdout == ""


# --- the real console script on a real file ------------------------------------------------------------------


def test_the_console_script_runs_a_night_on_a_sqlite_file(tmp_path: Path) -> None:
    """The installed script makes the ledger and starts the night, and shows it with its CSV; the commands between
    run in-process (each a real process would repeat the same start-up)."""
    db = tmp_path / "night.sqlite3"
    assert run(db, "event", "start", "Night", "--players", SEVEN, "--deals", "1").returncode == 0
    seated = ok(db, "event", "seat", "--seed", "1")
    assert "Round 1" in seated.stdout and "Seat 1 deals first" in seated.stdout
    tables = ok_json(db, "event", "show")["rounds"][0]["tables"]
    for table in tables:
        ok(db, "record", "--evening", str(table["evening"]), f"{table['players'][1].lower()} solo 22")
    out = tmp_path / "night.csv"
    shown = run(db, "event", "show", "--csv", str(out), "--json")
    assert shown.returncode == 0, shown.stderr
    standings = json.loads(shown.stdout)["standings"]
    winners = {table["players"][1] for table in tables}
    # Each declarer won a solo at 22 thirds: 2 from each opponent, two opponents at either table.
    assert {line["player"]: line["points"] for line in standings if line["points"] > 0} == dict.fromkeys(winners, 4)
    assert sum(line["points"] for line in standings) == 0
    rows = list(csv.reader(out.read_text(encoding="utf-8").splitlines()))
    assert rows[0][:3] == ["event", "rank", "player"] and len(rows) == 8
    assert {row[2] for row in rows[1:] if row[3] == "4"} == winners
    closed = ok(db, "event", "close")
    assert "Event 1 (Night) closed after 1 round." in closed.stdout


# --- Italian -------------------------------------------------------------------------------------------------


def test_the_italian_ui_runs_every_command(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    italian = {"CALABRESELLA_LANG": "it"}
    for args in (
        ["season", "start", "Autunno", "--min-deals", "2"],
        ["event", "start", "Venerdì", "--players", SEVEN, "--season", "Autunno", "--minutes", "40"],
        ["event", "seat", "--seed", "2"],
        ["event", "round"],
        ["event", "show"],
        ["event", "list"],
        ["season", "show"],
        ["event", "round", "--end"],
        ["event", "close"],
        ["event", "--help"],
        ["season", "show", "--help"],
    ):
        result = cli(db, *args, env=italian)
        assert result.exit_code == 0, (args, result.stdout, result.stderr, result.exception)
        assert "Traceback" not in result.stdout + result.stderr
    shown = cli(db, "event", "show", env=italian).stdout
    assert "giocatore" in shown and "punti partita" in shown  # words the catalog already translates
    refused = cli(db, "--lang", "it", "event", "show", "12")
    assert refused.exit_code == 2 and refused.stderr.startswith("Errore: ") and refused.stderr.count("\n") == 1
    assert "Traceback" not in refused.stderr
