"""Frames and statistics against values computed by hand on a small ledger built for the purpose.

The ledger (game points per deal; seats in turn order; the first dealer is the last seated):

Evening 1, pagat, 0.10 EUR, Anna Bruno Carla, started 2024-01-05:
  1 (Carla deals)  Bruno solo 22                       Anna -2  Bruno +4   Carla -2
  2 (Anna deals)   Carla chiamo 3D held by Anna, 17     Anna +1  Bruno +1   Carla -2
  3 (Bruno deals)  Anna solissimo dividete 24           Anna +16 Bruno -8   Carla -8
  4 (Carla deals)  all passed
  5 (Anna deals)   Bruno solo 33: stramazzo             Anna -6  Bruno +12  Carla -6
  6 (Bruno deals)  VOIDED: Anna solo 30                 (Anna +4 Bruno -2 Carla -2 must not count)
  7 (Carla deals)  Carla chiamo 3S in the monte, 10 AMENDED to 20: Anna -1 Bruno -1 Carla +2
Evening 2, pagat, 0.20 EUR, Anna Bruno Carla Dario (the dealer sits out), started 2024-02-10:
  1 (Dario deals)  Anna solo 20                         Anna +4  Bruno -2  Carla -2  Dario 0
  2 (Anna deals)   all passed
  3 (Bruno deals)  Carla chiamo 3C held by Dario, 35 in 12 tricks: cappotto
                                                        Anna -2  Bruno 0   Carla +4  Dario -2
  4 (Carla deals)  Dario solo 2: stramazzo against      Anna +6  Bruno +6  Carla 0   Dario -12
Evening 3, tretre, 0.50 CHF, Anna Bruno Carla, started 2024-03-15:
  1 (Carla deals)  Bruno solo 25                        Anna -1  Bruno +2  Carla -1
Then Dario is renamed Davide: his history (and the called card he held) follows him.
"""

from __future__ import annotations

import shutil
from datetime import UTC, date, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from reports_support import frames_of
from sqlalchemy import text
from sqlmodel import Session

from ledger.clock import parse_date
from ledger.errors import LedgerError
from ledger.recording import amend as amend_deal
from ledger.recording import record as record_deal
from ledger.recording import void as void_deal
from ledger.reports import elo
from ledger.reports.filters import Filters
from ledger.reports.frames import load_frames, voided_deals
from ledger.reports.stats import statistics
from ledger.rules.build import DealInput
from ledger.service import Ledger
from ledger.store.engine import open_ledger, transaction
from ledger.store.evenings import Seating, start_evening
from ledger.store.players import rename_player
from ledger.values import Terms


def _evening(session: Session, players: tuple[str, ...], when: datetime, **options: Any) -> Seating:
    """Start an evening and date it, so the date filters have something to select."""
    table = start_evening(session, players, Terms(**options))
    table.evening.started_at = when
    session.add(table.evening)
    return table


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> str:
    """The ledger of the module docstring, as a SQLite file."""
    path = str(tmp_path_factory.mktemp("stats") / "t.sqlite3")
    shutil.copyfile(sqlite_template, path)
    engine = open_ledger(path)
    with transaction(engine) as s:
        one = _evening(s, ("Anna", "Bruno", "Carla"), datetime(2024, 1, 5, 12, tzinfo=UTC), stake="0.10")
        record_deal(s, one, DealInput(declarer="Bruno", contract="solo", thirds=22))
        record_deal(s, one, DealInput(declarer="Carla", contract="chiamo", called="3D", holder="Anna", thirds=17))
        record_deal(s, one, DealInput(declarer="Anna", contract="solissimo", aggravation="dividete", thirds=24))
        record_deal(s, one, DealInput(passed=True))
        record_deal(s, one, DealInput(declarer="Bruno", contract="solo", thirds=33))
        record_deal(s, one, DealInput(declarer="Anna", contract="solo", thirds=30, last_trick="declarer"))
        record_deal(s, one, DealInput(declarer="Carla", contract="chiamo", called="3S", holder="monte", thirds=10))
        void_deal(s, one, 6, "misdeal")
        amend_deal(s, one, 7, DealInput(thirds=20), "wrong thirds")
        two = _evening(s, ("Anna", "Bruno", "Carla", "Dario"), datetime(2024, 2, 10, 12, tzinfo=UTC), stake="0.20")
        record_deal(s, two, DealInput(declarer="Anna", contract="solo", thirds=20))
        record_deal(s, two, DealInput(passed=True))
        record_deal(
            s, two, DealInput(declarer="Carla", contract="chiamo", called="3C", holder="Dario", thirds=35, tricks=12)
        )
        record_deal(s, two, DealInput(declarer="Dario", contract="solo", thirds=2))
        three = _evening(
            s,
            ("Anna", "Bruno", "Carla"),
            datetime(2024, 3, 15, 12, tzinfo=UTC),
            stake="0.50",
            currency="CHF",
            profile="tretre",
        )
        record_deal(s, three, DealInput(declarer="Bruno", contract="solo", thirds=25))
        rename_player(s, "Dario", "Davide")
    engine.dispose()
    return path


@cache
def _stats(ledger: str, **filters: object) -> dict[str, dict[str, object]]:
    """Each section as {first column value: row}, or the one row for the summary."""
    tables = statistics(frames_of(ledger, **filters))
    return {name: table.to_dict("records") for name, table in tables.items()}  # type: ignore[misc]


def _by(rows: list[dict[str, object]], *keys: str) -> dict[object, dict[str, object]]:
    return {tuple(row[k] for k in keys) if len(keys) > 1 else row[keys[0]]: row for row in rows}


def test_frames_hold_current_revisions_of_standing_deals_only(ledger: str) -> None:
    frames = frames_of(ledger, evening=1)
    deals = frames.deals
    assert list(deals["number"]) == [1, 2, 3, 4, 5, 7]
    assert deals.set_index("number").loc[7, "declarer_thirds"] == 20
    assert bool(deals.set_index("number").loc[7, "declarer_won"])
    assert set(frames.payouts["number"]) == {1, 2, 3, 4, 5, 7}
    assert frames.payouts.groupby("player", observed=True)["points"].sum().to_dict() == {
        "Anna": 8,
        "Bruno": 8,
        "Carla": -16,
    }
    assert frames.payouts.groupby("player", observed=True)["money_cents"].sum().to_dict() == {
        "Anna": 80,
        "Bruno": 80,
        "Carla": -160,
    }
    assert set(deals.columns) >= {
        "evening",
        "number",
        "dealer",
        "declarer",
        "partner",
        "contract",
        "aggravation",
        "called",
        "holder",
        "declarer_thirds",
        "declarer_won",
        "sweep",
        "profile",
        "seats",
        "dealer_position",
        "stake_cents",
        "currency",
    }


def test_frames_follow_renames_and_seat_positions(ledger: str) -> None:
    frames = frames_of(ledger, evening=2)
    deals = frames.deals.set_index("number")
    assert deals.loc[3, "holder"] == "Davide"
    assert deals.loc[4, "declarer"] == "Davide"
    assert list(deals["dealer"]) == ["Davide", "Anna", "Bruno", "Carla"]
    assert list(deals["seats"]) == [4, 4, 4, 4]
    first = frames.payouts[frames.payouts["number"] == 1].set_index("player")
    assert first["seat"].to_dict() == {"Anna": 1, "Bruno": 2, "Carla": 3, "Davide": 4}
    assert first["role"].to_dict() == {"Anna": "declarer", "Bruno": "opponent", "Carla": "opponent", "Davide": "out"}


def test_summary_counts_passed_deals(ledger: str) -> None:
    assert _stats(ledger)["summary"] == [
        {"evenings": 3, "players": 4, "deals": 11, "played": 9, "passed": 2, "passed_rate": pytest.approx(2 / 11)}
    ]


def test_players(ledger: str) -> None:
    players = _by(_stats(ledger)["players"], "player")
    anna, bruno, carla, davide = players["Anna"], players["Bruno"], players["Carla"], players["Davide"]
    assert (anna["evenings"], anna["deals"], anna["declarer"], anna["opponent"], anna["partner"]) == (3, 11, 2, 7, 0)
    assert (bruno["deals"], bruno["declarer"], bruno["opponent"]) == (11, 3, 5)
    assert (davide["evenings"], davide["deals"], davide["declarer"], davide["opponent"]) == (1, 4, 1, 1)
    assert [players[p]["points"] for p in ("Anna", "Bruno", "Carla", "Davide")] == [15, 14, -15, -14]
    assert anna["avg_declarer_thirds"] == 22.0
    assert anna["points_per_deal"] == pytest.approx(15 / 11)
    assert anna["points_per_deal_declarer"] == 10.0
    assert anna["points_per_deal_opponent"] == pytest.approx(-5 / 7)
    assert (anna["cappotto_for"], anna["cappotto_against"], anna["stramazzo_for"], anna["stramazzo_against"]) == (
        0,
        1,
        1,
        1,
    )
    assert (carla["cappotto_for"], bruno["stramazzo_for"], davide["stramazzo_against"]) == (1, 2, 1)
    extremes = (anna["biggest_win"], anna["biggest_loss"], davide["biggest_win"], davide["biggest_loss"])
    assert extremes == (16, -6, 0, -12)
    streaks = {p: (row["winning_streak"], row["losing_streak"]) for p, row in players.items()}
    assert streaks == {"Anna": (2, 2), "Bruno": (2, 2), "Carla": (1, 3), "Davide": (0, 2)}


def test_money_per_currency(ledger: str) -> None:
    money = _by(_stats(ledger)["money"], "player", "currency")
    assert money["Anna", "EUR"]["money_cents"] == 8 * 10 + 8 * 20
    assert money["Anna", "EUR"]["deals"] == 10
    assert money["Anna", "EUR"]["per_deal_declarer_cents"] == (16 * 10 + 4 * 20) / 2
    assert money["Anna", "CHF"]["money_cents"] == -50
    assert money["Bruno", "CHF"]["per_deal_declarer_cents"] == 100


def test_bids_and_contracts(ledger: str) -> None:
    stats = _stats(ledger)
    bids = _by(stats["bids"], "player", "contract")
    assert (bids["Bruno", "solo"]["bids"], bids["Bruno", "solo"]["won"]) == (3, 3)
    assert (bids["Carla", "chiamo"]["bids"], bids["Carla", "chiamo"]["won"]) == (3, 2)
    assert (bids["Davide", "solo"]["bids"], bids["Davide", "solo"]["success_rate"]) == (1, 0.0)
    contracts = [(r["contract"], r["aggravation"], r["deals"], r["won"]) for r in stats["contracts"]]
    assert contracts == [("chiamo", None, 3, 2), ("solo", None, 5, 4), ("solissimo", "dividete", 1, 1)]
    chiamo, solo = stats["contracts"][0], stats["contracts"][1]
    assert chiamo["share"] == pytest.approx(3 / 9)
    assert chiamo["avg_declarer_points"] == pytest.approx((-2 + 2 + 4) / 3)
    assert solo["avg_declarer_points"] == pytest.approx((4 + 12 + 4 - 12 + 2) / 5)
    assert solo["success_rate"] == pytest.approx(4 / 5)


def test_called_cards_and_holders(ledger: str) -> None:
    called = _by(_stats(ledger)["called"], "card")
    assert called["3D"]["calls"] == 1 and called["3D"]["Anna"] == 1
    assert called["3S"]["monte"] == 1
    assert called["3C"]["Davide"] == 1


def test_seats_relative_to_the_dealer(ledger: str) -> None:
    seats = {
        key: (row["deals"], row["declarer"], row["won"])
        for key, row in _by(_stats(ledger)["seats"], "table_size", "seat").items()
    }
    assert seats == {
        (3, 1): (7, 1, 1),
        (3, 2): (7, 4, 3),
        (3, 3): (7, 1, 1),
        (4, 1): (4, 3, 2),
        (4, 2): (4, 0, 0),
        (4, 3): (4, 0, 0),
    }


def test_pairings_of_defenders(ledger: str) -> None:
    pairs = {
        key: (row["deals"], row["points_a"], row["points_b"], row["declarer_won"])
        for key, row in _by(_stats(ledger)["pairings"], "player_a", "player_b").items()
    }
    assert pairs == {
        ("Anna", "Bruno"): (3, 6, 6, 1),
        ("Anna", "Carla"): (3, -9, -9, 3),
        ("Anna", "Davide"): (1, -2, -2, 1),
        ("Bruno", "Carla"): (2, -10, -10, 2),
    }


def test_elo_by_hand() -> None:
    ratings = elo.rate([("B", ["A", "C"], True), ("C", ["A", "B"], False)])
    assert elo.expected_score(1500, 1500) == 0.5
    assert elo.expected_score(1600, 1500) == pytest.approx(0.640065, abs=1e-6)
    assert ratings["B"].rating == 1512 and ratings["C"].defence == 1494
    # game 2: Carla 1500 against the defence of Anna 1494 and Bruno 1500 (mean 1497): E = 0.504317
    assert ratings["C"].rating == pytest.approx(1500 - 24 * 0.504317, abs=1e-4)
    assert ratings["A"].defence == pytest.approx(1494 + 12 * 0.504317, abs=1e-4)
    assert (ratings["A"].games, ratings["A"].defended, ratings["C"].won) == (0, 2, 0)


def test_ratings_take_declared_deals_in_playing_order(ledger: str) -> None:
    games = [
        ("Bruno", ["Anna", "Carla"], True),
        ("Carla", ["Anna", "Bruno"], False),
        ("Anna", ["Bruno", "Carla"], True),
        ("Bruno", ["Anna", "Carla"], True),
        ("Carla", ["Anna", "Bruno"], True),
    ]
    expected = elo.rate(games)
    rows = _by(_stats(ledger, evening=1)["ratings"], "player")
    for name, rating in expected.items():
        assert rows[name]["rating"] == pytest.approx(rating.rating)
        assert rows[name]["defence_rating"] == pytest.approx(rating.defence)
        assert rows[name]["declarer_deals"] == rating.games
    assert [r["player"] for r in _stats(ledger, evening=1)["ratings"]] == sorted(
        expected, key=lambda n: -expected[n].rating
    )


@pytest.mark.parametrize(
    ("filters", "evenings"),
    [
        ({"evening": 2}, {2}),
        ({"since": date(2024, 2, 1)}, {2, 3}),
        ({"until": date(2024, 2, 28)}, {1, 2}),
        ({"since": date(2024, 2, 10), "until": date(2024, 2, 10)}, {2}),
        ({"profile": "tretre"}, {3}),
        ({"player": "davide"}, {2}),
    ],
)
def test_filters_select_evenings(ledger: str, filters: dict[str, object], evenings: set[int]) -> None:
    frames = frames_of(ledger, **filters)
    assert set(frames.deals["evening"]) == evenings
    assert set(frames.payouts["evening"]) == evenings


def test_player_filter_keeps_that_players_rows(ledger: str) -> None:
    stats = _stats(ledger, player="DAVIDE")
    assert [row["player"] for row in stats["players"]] == ["Davide"]
    assert {row["player"] for row in stats["bids"]} == {"Davide"}
    assert [(row["player_a"], row["player_b"]) for row in stats["pairings"]] == [("Anna", "Davide")]
    assert stats["summary"][0]["deals"] == 4


def test_empty_selection_gives_empty_tables(ledger: str) -> None:
    stats = _stats(ledger, since=date(2030, 1, 1))
    assert stats["summary"][0]["deals"] == 0
    assert all(not rows for name, rows in stats.items() if name != "summary")


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        ({"player": "Zoe"}, "unknown player 'Zoe': the players are Anna, Bruno, Carla, Davide"),
        ({"evening": 9}, "evening 9 does not exist (evenings are 1 to 3)"),
        ({"profile": "bridge"}, "profile 'bridge': allowed are pagat"),
        ({"since": date(2024, 3, 1), "until": date(2024, 2, 1)}, "--since 2024-03-01 is after --until 2024-02-01"),
    ],
)
def test_filter_errors_name_the_value(ledger: str, filters: dict[str, object], message: str) -> None:
    with pytest.raises(LedgerError, match=message.replace("(", r"\(").replace(")", r"\)")):
        frames_of(ledger, **filters)


def test_parse_date() -> None:
    assert parse_date("2024-03-01", "--since") == date(2024, 3, 1)
    assert parse_date(None, "--since") is None
    with pytest.raises(LedgerError, match=r"--until '1\.3\.2024': a date as YYYY-MM-DD"):
        parse_date("1.3.2024", "--until")


def test_a_new_ledger_has_nothing_to_report(sqlite_url: str) -> None:
    engine = open_ledger(sqlite_url)
    stats = statistics(load_frames(engine))
    engine.dispose()
    assert stats["summary"].iloc[0]["deals"] == 0


def test_same_results_on_sqlite_and_postgresql(db_url: str) -> None:
    engine = open_ledger(db_url)
    with transaction(engine) as s:
        table = start_evening(s, ("Anna", "Bruno", "Carla"), Terms(stake="0.10"))
        record_deal(s, table, DealInput(declarer="Bruno", contract="solo", thirds=22))
        record_deal(s, table, DealInput(declarer="Carla", contract="chiamo", called="3D", holder="Anna", thirds=17))
        record_deal(s, table, DealInput(declarer="Anna", contract="solo", thirds=30, last_trick="declarer"))
        void_deal(s, table, 3, "misdeal")
    today = date.today()
    try:
        stats = statistics(
            load_frames(
                engine,
                Filters(
                    since=today - timedelta(days=1), until=today + timedelta(days=1), player="anna", profile="pagat"
                ),
            )
        )
        with Ledger(db_url) as book:
            page = book.report(charts="charts/{kind}.svg")
    finally:
        engine.dispose()
    assert {row["player"]: row["points"] for row in stats["players"].to_dict("records")} == {"Anna": -1}
    assert stats["summary"].iloc[0]["deals"] == 2
    assert stats["called"].to_dict("records") == [{"card": "3D", "calls": 1, "Anna": 1}]
    assert "voided: misdeal" in page


def test_calls_of_cavendish_and_calls_by_rank_alone_are_counted(db_url: str) -> None:
    """Cavendish's play calls a card as chiamo does, and a call may name the rank only: both are statistics."""
    engine = open_ledger(db_url)
    with transaction(engine) as s:
        american = start_evening(s, ("Anna", "Bruno", "Carla"), Terms(profile="cavendish"))
        record_deal(s, american, DealInput(declarer="Bruno", contract="play", called="3D", holder="Anna", thirds=22))
        record_deal(s, american, DealInput(declarer="Carla", contract="play", called="3", holder="monte", thirds=9))
        italian = start_evening(s, ("Anna", "Bruno", "Carla"))
        record_deal(s, italian, DealInput(declarer="Anna", contract="chiamo", called="tre", holder="Bruno", thirds=19))
    try:
        stats = statistics(load_frames(engine))
    finally:
        engine.dispose()
    assert stats["called"].to_dict("records") == [
        {"card": "3", "calls": 2, "Anna": 0, "Bruno": 1, "monte": 1},
        {"card": "3D", "calls": 1, "Anna": 1, "Bruno": 0, "monte": 0},
    ]


def test_a_word_the_rules_do_not_list_is_still_counted(db_url: str) -> None:
    """A stored word the rules do not write (an older or hand-edited ledger) is counted as it is, not lost."""
    from sqlalchemy import update

    from ledger.store.models import DealRevision

    engine = open_ledger(db_url)
    with transaction(engine) as s:
        table = start_evening(s, ("Anna", "Bruno", "Carla"), Terms(stake="0.10"))
        record_deal(s, table, DealInput(declarer="Carla", contract="chiamo", called="3D", holder="Anna", thirds=17))
        record_deal(s, table, DealInput(declarer="Bruno", contract="chiamo", called="3C", holder="monte", thirds=20))
    with engine.begin() as connection:
        connection.execute(
            update(DealRevision.__table__)
            .where(  # type: ignore[attr-defined]
                DealRevision.__table__.c.called == "3C"
            )
            .values(called="ZZ", holder="elsewhere")
        )  # type: ignore[attr-defined]
    try:
        stats = statistics(load_frames(engine))
    finally:
        engine.dispose()
    assert stats["called"].to_dict("records") == [
        {"card": "3D", "calls": 1, "Anna": 1, "elsewhere": 0},
        {"card": "ZZ", "calls": 1, "Anna": 0, "elsewhere": 1},
    ]
    assert {(r["player"], r["contract"]): r["bids"] for r in stats["bids"].to_dict("records")} == {
        ("Bruno", "chiamo"): 1,
        ("Carla", "chiamo"): 1,
    }


def test_elo_walk_for_one_or_two_defenders_agrees_to_the_last_bit() -> None:
    import numpy as np

    rng = np.random.default_rng(3)
    games, players = 2 * elo.WALK_GAMES + 5000, 9  # more than one stretch of the walk
    sizes = rng.integers(1, 3, games)
    starts = np.r_[0, np.cumsum(sizes)]
    defenders = rng.integers(0, players, int(starts[-1]))
    declarers, won = rng.integers(0, players, games), rng.random(games) < 0.6
    rating, defence, expected = elo._walk_pairs(players, declarers, won, defenders, starts, sizes)
    slow = elo._walk(players, declarers, won, defenders, starts)
    assert (rating, defence, expected.tolist()) == (slow[0], slow[1], slow[2].tolist())
    r = elo.rate_codes(players, declarers, won, defenders, starts)
    assert r.rating.tolist() == rating and r.defence.tolist() == defence


def test_voided_deals_are_listed_in_playing_order(db_url: str) -> None:
    """Two evenings open at once, their deals recorded in turns: ids run across evenings, the list does not."""
    engine = open_ledger(db_url)
    with transaction(engine) as s:
        first = start_evening(s, ("Anna", "Bruno", "Carla"), Terms(stake="0.10"))
        second = start_evening(s, ("Dario", "Elena", "Fabio"), Terms(stake="0.10"))
        for _ in range(3):
            record_deal(s, second, DealInput(passed=True))
            record_deal(s, first, DealInput(passed=True))
        for table, number in ((second, 1), (first, 3), (first, 1), (second, 2)):
            void_deal(s, table, number, "misdeal")
    try:
        frames = load_frames(engine)
    finally:
        engine.dispose()
    evenings = (first.number, second.number)
    assert frames.voided[["evening", "number"]].values.tolist() == [
        [evenings[0], 1],
        [evenings[0], 3],
        [evenings[1], 1],
        [evenings[1], 2],
    ]
    assert frames.deals[["evening", "number"]].values.tolist() == [[evenings[0], 2], [evenings[1], 3]]


def test_the_voided_deals_are_found_through_their_partial_index_not_by_walking_every_deal(sqlite_url: str) -> None:
    engine = open_ledger(sqlite_url)
    query = voided_deals(Filters())
    compiled = query.compile(engine, compile_kwargs={"literal_binds": True})
    with engine.connect() as connection:
        plan = [row[-1] for row in connection.execute(text(f"EXPLAIN QUERY PLAN {compiled}"))]
    engine.dispose()
    assert any("ix_deal_voided" in step for step in plan), plan
    assert not any(step.startswith("SCAN deal_revision") for step in plan), plan


def test_ids_billions_apart_give_the_same_statistics(ledger: str, tmp_path: Path) -> None:
    """A database whose ids jumped (sequences moved on, rows copied in) is read without tables the size of its
    largest id, and gives the same statistics as the same deals under small ids."""
    import sqlite3

    far = tmp_path / "far.sqlite3"
    shutil.copy(ledger, far)
    jump = {"player": 5_000_000_000, "evening": 4_000_000_000, "deal": 3_000_000_000, "deal_revision": 6_000_000_000}
    connection = sqlite3.connect(far)
    try:
        connection.execute("PRAGMA foreign_keys = OFF")
        tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        # every column that points at a moved id, as the schema declares it (tables added later move along)
        pointers = {
            (table, key[3], key[2])
            for table in tables
            for key in connection.execute(f"PRAGMA foreign_key_list('{table}')")
            if key[2] in jump
        }
        assert ("evening_change", "evening_id", "evening") in pointers
        with connection:
            for table, step in jump.items():
                connection.execute(f"UPDATE {table} SET id = id + {step}")
                for other, column in sorted((other, column) for other, column, to in pointers if to == table):
                    connection.execute(f"UPDATE {other} SET {column} = {column} + {step} WHERE {column} IS NOT NULL")
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        assert connection.execute("SELECT min(id) FROM player").fetchone()[0] > 5_000_000_000
    finally:
        connection.close()
    near, apart = statistics(frames_of(ledger)), statistics(frames_of(str(far)))
    assert list(apart) == list(near)
    for name, table in near.items():
        assert apart[name].equals(table), (name, apart[name], table)


def test_words_first_missing_for_thousands_of_deals_are_read_when_they_come(tmp_path: Path) -> None:
    """Words that no deal had for a long while are read when they come: a ledger that opens with 1,500 solos (no
    called card, no holder, no aggravation, no sweep) and only then has a chiamo, a solissimo dividete and a stramazzo
    is read whole, the words of its last deals included."""
    import sqlite3

    from ledger.store.evenings import get_seating

    path = str(tmp_path / "solos.sqlite3")
    engine = open_ledger(path)
    with transaction(engine) as s:
        first = _evening(s, ("Anna", "Bruno", "Carla"), datetime(2024, 1, 5, 12, tzinfo=UTC))
        record_deal(s, first, DealInput(declarer="Bruno", contract="solo", thirds=22))
    connection = sqlite3.connect(path)
    try:  # deals 2 to 1,500: copies of the first, its revision and its payouts
        with connection:
            connection.execute(
                "WITH RECURSIVE n(k) AS (SELECT 2 UNION ALL SELECT k + 1 FROM n WHERE k < 1500) "
                "INSERT INTO deal (evening_id, number, created_at) SELECT evening_id, k, created_at FROM deal, n"
            )
            for table, pointer, source in (
                ("deal_revision", "deal_id", "deal"),
                ("payout", "revision_id", "deal_revision"),
            ):
                kept = [
                    row[1] for row in connection.execute(f"PRAGMA table_info({table})") if row[1] not in ("id", pointer)
                ]
                connection.execute(
                    f"INSERT INTO {table} ({pointer}, {', '.join(kept)}) "
                    f"SELECT {source}.id, {', '.join(f'{table}.{name}' for name in kept)} FROM {source}, {table} "
                    f"WHERE {source}.id > 1 AND {table}.{pointer} = 1"
                )
    finally:
        connection.close()
    with transaction(engine) as s:
        table = get_seating(s, 1)
        record_deal(s, table, DealInput(declarer="Carla", contract="chiamo", called="3D", holder="Anna", thirds=17))
        record_deal(s, table, DealInput(declarer="Anna", contract="solissimo", aggravation="dividete", thirds=24))
        record_deal(s, table, DealInput(declarer="Bruno", contract="solo", thirds=33))
    engine.dispose()
    frames = frames_of(path)
    assert len(frames.deals) == 1_503 and len(frames.payouts) == 3 * 1_503
    last = frames.deals.set_index("number").loc[1_501:, ["contract", "called", "holder", "aggravation", "sweep"]]
    assert last.astype(object).where(last.notna(), None).values.tolist() == [
        ["chiamo", "3D", "Anna", None, None],
        ["solissimo", None, None, "dividete", None],
        ["solo", None, None, None, "stramazzo"],
    ]
    called = _by(statistics(frames)["called"].to_dict("records"), "card")
    assert called["3D"]["calls"] == 1 and called["3D"]["Anna"] == 1


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
def test_a_ledger_damaged_where_its_payouts_lie_is_one_line_from_stats(ledger: str, tmp_path: Path) -> None:
    """The payouts are read from the driver's cursor; a damaged page there is told as the ledger's other commands
    tell it: one line, exit code 2, no traceback (and none printed later, when the cursor is dropped)."""
    import sqlite3

    from cli_support import calabresella
    from conftest import copy_ledger, ready_to_copy

    damaged = copy_ledger(ready_to_copy(Path(ledger)), tmp_path)
    connection = sqlite3.connect(damaged)
    try:
        (root,) = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'payout'").fetchone()
        (size,) = connection.execute("PRAGMA page_size").fetchone()
    finally:
        connection.close()
    with damaged.open("r+b") as file:  # a leaf page's header, then nothing but 0xff
        file.seek((root - 1) * size)
        file.write(b"\x0d" + b"\xff" * (size - 1))
    ran = calabresella("--db", str(damaged), "stats")
    assert ran.returncode == 2
    assert ran.stderr.strip().splitlines() == [
        f"Error: sqlite:///{damaged}: cannot open it as a ledger database: the file is damaged; go back to a backup"
        " copy"
    ]


def test_a_ledger_whose_path_holds_what_a_uri_escapes_is_read(ledger: str, tmp_path: Path) -> None:
    """A folder and a name with spaces, '#', '?', '%' and an accent are the very file read."""
    from conftest import copy_ledger, ready_to_copy

    folder = tmp_path / "serate è #1?"
    folder.mkdir()
    odd = copy_ledger(ready_to_copy(Path(ledger)), folder, "club 50%20.sqlite3")
    assert statistics(frames_of(str(odd)))["players"].equals(statistics(frames_of(ledger))["players"])
    assert [path.name for path in tmp_path.iterdir()] == [folder.name]  # no file made at a part of the path
