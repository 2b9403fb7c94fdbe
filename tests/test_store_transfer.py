"""Export, import and backup on a real SQLite file and a real PostgreSQL database.

The example evenings in `examples/` are imported into a fresh ledger, exported again and compared with the files;
a second import of the same evening and a tampered export are refused with nothing written.
"""

from __future__ import annotations

import copy
import io
import json
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, as_document, copy_ledger
from sqlalchemy import Engine, text

from ledger.clock import as_utc
from ledger.errors import LedgerError
from ledger.recording import amend as amend_deal
from ledger.recording import record as record_deal
from ledger.recording import void as void_deal
from ledger.rules.build import DealInput
from ledger.store.backup import backup_sqlite
from ledger.store.deals import deal_history, list_deals
from ledger.store.engine import HEAD, open_ledger, schema_info, transaction
from ledger.store.evenings import get_seating, start_evening
from ledger.store.export import stored_iso, write_csv, write_export
from ledger.store.players import add_player
from ledger.store.replay import import_data
from ledger.store.standings import standings
from ledger.values import Terms

TABLES = ("player", "player_rename", "evening", "seat", "deal", "deal_revision", "payout", "payment")
EXAMPLE_FILES = ("three_friends.json", "four_players.json")
TIME_KEYS = {"started_at", "closed_at", "created_at", "voided_at", "recorded_at", "superseded_at", "paid_at"}


def load(name: str) -> dict[str, Any]:
    """An example file as data."""
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def counts(engine: Engine) -> dict[str, int]:
    """Rows per ledger table."""
    with engine.connect() as connection:
        return {name: connection.execute(text(f"SELECT COUNT(*) FROM {name}")).scalar_one() for name in TABLES}


def export_text(engine: Engine, evening: int | None = None) -> str:
    """The ledger's export, as written."""
    buffer = io.StringIO()
    with transaction(engine) as session:
        write_export(session, buffer, evening)
    return buffer.getvalue()


def export_lines(engine: Engine) -> list[Any]:
    """The ledger's export as the values of its lines, as `import_data` takes them."""
    return [json.loads(line) for line in export_text(engine).split("\n") if line]


def export(engine: Engine, evening: int | None = None) -> dict[str, Any]:
    """The ledger's export as data, shaped as a version 2 document (`as_document`)."""
    return as_document(export_text(engine, evening))


def same_ledger(exported: dict[str, Any], example: dict[str, Any]) -> bool:
    """Whether an export read by `as_document` holds the evenings and payments of an example (version 2)."""
    return (exported["evenings"], exported["payments"]) == (example["evenings"], example["payments"])


def import_(engine: Engine, data: Any) -> list[int]:
    """Import an export in one transaction; the new evenings."""
    with transaction(engine) as session:
        return list(import_data(session, data).evenings)


def instant(value: str) -> datetime:
    """An ISO time as an instant; a time without an offset is UTC (the ledger stores UTC)."""
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def as_instants(data: Any) -> Any:
    """The same data with every timestamp replaced by the instant it names."""
    if isinstance(data, dict):
        return {k: (instant(v) if k in TIME_KEYS and isinstance(v, str) else as_instants(v)) for k, v in data.items()}
    if isinstance(data, list):
        return [as_instants(item) for item in data]
    return data


# --- round trip -------------------------------------------------------------------------------------------


def another_database(request: pytest.FixtureRequest, db_url: str, tmp_path: Path) -> str:
    """A second fresh ledger (no evening, no player) on the same backend as `db_url`."""
    if not db_url.startswith("postgresql"):
        return str(copy_ledger(request.getfixturevalue("sqlite_template"), tmp_path, "second.sqlite3"))
    return request.getfixturevalue("new_pg_ledger")()


def test_examples_round_trip_exactly(
    engine: Engine, db_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Import both examples into a fresh ledger, export: the same data (times as the instants they name)."""
    three, four = load("three_friends.json"), load("four_players.json")
    assert import_(engine, three) == [1]
    assert import_(engine, four) == [2]
    exported = export(engine)
    assert (exported["format"], exported["version"]) == ("calabresella-ledger", 3)
    assert as_instants(export(engine, 1)) == as_instants({**three, "version": 3})
    alone = export(engine, 2)
    assert alone["evenings"][0]["number"] == 2
    alone["evenings"][0]["number"] = 1
    assert as_instants(alone) == as_instants({**four, "version": 3})
    assert as_instants(exported["evenings"]) == as_instants(
        [three["evenings"][0], {**four["evenings"][0], "number": 2}]
    )
    assert counts(engine)["player"] == 4  # the players are shared by the two evenings
    # the ledger's own export goes through a second fresh ledger of the same backend to the character
    text_ = export_text(engine)
    second = open_ledger(another_database(request, db_url, tmp_path))
    try:
        assert import_(second, export_lines(engine)) == [1, 2]
        assert export_text(second) == text_
    finally:
        second.dispose()


def test_the_variants_facts_round_trip(
    engine: Engine, db_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The monte's thirds, a call by rank alone and cavendish's called card go out and come back as they were."""
    with transaction(engine) as session:
        table = start_evening(session, ("Anna", "Bruno", "Carla"), Terms(options=["stramazzo_counts=tricks"]))
        record_deal(
            session,
            table,
            DealInput(declarer="Anna", contract="chiamo", called="3", holder="Bruno", thirds=26, last_trick="decl"),
        )
        record_deal(
            session, table, DealInput(declarer="Bruno", contract="solo", thirds=26, last_trick="opp", monte_thirds=6)
        )
        american = start_evening(session, ("Anna", "Bruno", "Carla"), Terms(profile="cavendish"))
        record_deal(
            session, american, DealInput(declarer="Carla", contract="play", called="AC", holder="Anna", thirds=9)
        )
    asked = pytest.raises(LedgerError, match="how many thirds were in the monte")
    with asked, transaction(engine) as session:
        typed = DealInput(declarer="Anna", contract="solo", thirds=26, last_trick="opp")
        record_deal(session, get_seating(session, 1), typed)
    exported = export(engine)
    facts = [rev["facts"] for e in exported["evenings"] for deal in e["deals"] for rev in deal["revisions"]]
    assert [(f["called"], f["holder"], f["monte_thirds"]) for f in facts] == [
        ("3", "Bruno", None),
        (None, None, 6),
        ("AC", "Anna", None),
    ]
    assert exported["evenings"][0]["options"]["stramazzo_counts"] == "tricks"
    text_ = export_text(engine)
    second = open_ledger(another_database(request, db_url, tmp_path))
    try:
        assert import_(second, export_lines(engine)) == [1, 2]
        assert export_text(second) == text_
    finally:
        second.dispose()


def test_example_round_trip_is_verbatim(engine: Engine) -> None:
    original = load("three_friends.json")
    import_(engine, original)
    assert same_ledger(export(engine), original)


def test_imported_standings_csv_and_history(engine: Engine) -> None:
    data = load("three_friends.json")
    import_(engine, data)
    import_(engine, load("four_players.json"))
    expected = {"Anna": 0, "Bruno": 0, "Carla": 0}
    for deal in data["evenings"][0]["deals"]:
        if deal["voided_at"]:
            continue
        current = next(r for r in deal["revisions"] if r["superseded_at"] is None)
        for player, points in current["payouts"].items():
            expected[player] += points
    with transaction(engine) as session:
        table = get_seating(session, 1)
        result = standings(session, table)
        views = list_deals(session, table)
        history = deal_history(session, table, 16)
        buffer = io.StringIO()
        write_csv(session, buffer, 2)
        lines = buffer.getvalue().splitlines()
    assert result.points == expected and sum(expected.values()) == 0
    assert result.cents == {p: v * 10 for p, v in expected.items()}
    assert result.closed
    assert len(views) == 30
    assert [(v.number, v.void_reason) for v in views if v.voided] == [(24, "misdeal: Anna had 13 cards")]
    assert [(v.revision, v.declarer_thirds, v.superseded_at is None) for v in history] == [
        (1, 12, False),
        (2, 13, True),
    ]
    assert history[1].reason == "recounted: the last trick was Carla's"
    assert lines[0].startswith("evening,deal,revision,voided,dealer,declarer")
    assert len(lines) == 1 + 12 * 4
    first = dict(zip(lines[0].split(","), lines[1].split(","), strict=False))
    assert (first["evening"], first["deal"], first["player"], first["points"], first["money_cents"]) == (
        "2",
        "1",
        "Anna",
        "4",
        "80",
    )


# --- refusals -----------------------------------------------------------------------------------------------


def _tampered_current(data: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    changed["evenings"][0]["deals"][4]["revisions"][0]["payouts"] = {"Anna": -2, "Bruno": 1, "Carla": 1}
    return changed


def _tampered_superseded(data: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    deal = next(d for d in changed["evenings"][0]["deals"] if len(d["revisions"]) > 1)
    deal["revisions"][0]["payouts"] = {"Anna": 4, "Bruno": -8, "Carla": 4}
    return changed


def _tampered_last(data: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    changed["evenings"][0]["deals"][-1]["revisions"][-1]["payouts"]["Anna"] += 1
    return changed


def test_tampered_export_is_refused_and_nothing_is_written(engine: Engine) -> None:
    original = load("three_friends.json")
    for tamper in (_tampered_current, _tampered_superseded, _tampered_last):
        with pytest.raises(LedgerError, match=r"the export says .* but the rules give"):
            import_(engine, tamper(original))
        assert counts(engine) == dict.fromkeys(TABLES, 0)
    for data, message in (
        ({"format": "something-else", "version": 1}, "not a calabresella-ledger export"),
        ({"format": "calabresella-ledger", "version": 4, "evenings": []}, "export version 4"),
        ({"format": "calabresella-ledger", "version": 3, "evenings": []}, "version 3 is JSON Lines"),
        ([{"format": "calabresella-ledger", "version": 3}, [1]], "line 2: not a valid export: a line that is not"),
        ([1, 2, 3], "not a calabresella-ledger export"),
    ):
        with pytest.raises(LedgerError, match=message):
            import_(engine, data)
    assert counts(engine) == dict.fromkeys(TABLES, 0)


def test_importing_twice_skips_what_is_in_and_a_tampered_export_leaves_the_ledger_as_it_was(engine: Engine) -> None:
    data = load("four_players.json")
    import_(engine, data)
    before, exported = counts(engine), export(engine)
    with transaction(engine) as session:
        again = import_data(session, data)
    assert (again.evenings, again.deals, again.skipped) == ((), 0, (1,))
    assert counts(engine) == before
    with pytest.raises(LedgerError, match="the rules give"):
        import_(engine, _tampered_last(load("three_friends.json")))
    assert counts(engine) == before
    assert export(engine) == exported
    # both examples together: the first is new, the second is in already
    both = {**data, "evenings": load("three_friends.json")["evenings"] + data["evenings"]}
    with transaction(engine) as session:
        resumed = import_data(session, both)
    assert (len(resumed.evenings), resumed.deals, resumed.skipped) == (1, 30, (1,))


# --- a ledger built by the library round-trips too -------------------------------------------------------------


def test_recorded_corrected_ledger_round_trips(engine: Engine, tmp_path: Path, sqlite_template: Path) -> None:
    with transaction(engine) as session:
        table = start_evening(session, ("Anna", "Bruno", "Carla"), Terms(profile="tretre", stake="0.50"))
    with transaction(engine) as session:
        table = get_seating(session)
        record_deal(session, table, DealInput(passed=True), key="a")
        record_deal(session, table, DealInput(declarer="Anna", contract="solo", thirds=20), key="b")
        record_deal(session, table, DealInput(declarer="Bruno", contract="solo", thirds=10))
    with transaction(engine) as session:
        table = get_seating(session)
        amend_deal(session, table, 3, DealInput(thirds=25), "recount")
        void_deal(session, table, 1, "misdeal")
    first = export(engine)
    shutil.copyfile(sqlite_template, tmp_path / "other.sqlite3")
    other = open_ledger(str(tmp_path / "other.sqlite3"))
    try:
        import_(other, export_lines(engine))
        assert as_instants(export(other)) == as_instants(first)
        with transaction(other) as session:
            assert standings(session, get_seating(session, 1)).points == {"Anna": 1, "Bruno": 1, "Carla": -2}
            deals = list_deals(session, get_seating(session, 1))
            first_of_two = deal_history(session, get_seating(session, 1), 2)[0]
        # voiding the passed deal 1 re-scored deal 2 without the pot (revision 2); deal 3 was amended
        assert [(d.number, d.revision, d.voided, d.key) for d in deals] == [
            (1, 1, True, "a"),
            (2, 2, False, "b"),
            (3, 2, False, None),
        ]
        assert deals[1].payouts == {"Anna": 2, "Bruno": -1, "Carla": -1}
        assert first_of_two.payouts == {"Anna": 4, "Bruno": -2, "Carla": -2}
    finally:
        other.dispose()


def test_an_export_read_in_chunks_has_every_evening_as_the_ledger_shows_it(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Evenings read two at a time: the whole export is the single evenings' exports, each deal's revisions are
    its history (payouts in seat order, players by name, passes in the auction as null)."""
    monkeypatch.setattr("ledger.store.export.CHUNK", 2)
    four, three = load("four_players.json"), load("three_friends.json")
    for number in range(5):
        evening = copy.deepcopy((three if number % 2 else four)["evenings"][0])
        evening["started_at"] = f"2026-01-{number + 1:02d}T20:00:00+00:00"
        import_(engine, {**three, "evenings": [evening]})
    exported = export(engine)["evenings"]
    assert [e["number"] for e in exported] == [1, 2, 3, 4, 5]
    assert [export(engine, number)["evenings"][0] for number in range(1, 6)] == exported
    with transaction(engine) as session:
        for evening in exported:
            table = get_seating(session, evening["number"])
            for deal in evening["deals"]:
                history = deal_history(session, table, deal["number"])
                assert [
                    (
                        r["revision"],
                        r["dealer"],
                        list(r["payouts"].items()),
                        r["facts"]["declarer"],
                        r["facts"]["auction"],
                    )
                    for r in deal["revisions"]
                ] == [
                    (
                        v.revision,
                        v.dealer,
                        list(v.payouts.items()),
                        v.declarer,
                        [[seat, None if call == "pass" else call] for seat, call in v.auction],
                    )
                    for v in history
                ]


@pytest.mark.parametrize(
    "stored",
    [
        "2026-11-21 20:00:00.000000",
        "2026-11-21 20:00:00.120000",
        "2026-01-02 03:04:05.000001",
        "2026-11-21 20:00:00",
        "2026-11-21T20:00:00+01:00",
    ],
)
def test_an_export_writes_a_stored_time_as_the_instant_it_names(stored: str) -> None:
    assert stored_iso(stored) == as_utc(datetime.fromisoformat(stored)).isoformat()


# --- backup and schema ------------------------------------------------------------------------------------------


def test_backup_writes_a_sqlite_ledger_with_the_same_deals(sqlite_url: str, tmp_path: Path) -> None:
    engine = open_ledger(sqlite_url)
    try:
        import_(engine, load("three_friends.json"))
        (tmp_path / "backups").mkdir()
        target = tmp_path / "backups" / "copy.sqlite3"
        assert backup_sqlite(engine, str(target)) == target.resolve()
        with pytest.raises(LedgerError, match="the file exists"):
            backup_sqlite(engine, str(target))
        original = export(engine)
    finally:
        engine.dispose()
    copy_engine = open_ledger(str(target))
    try:
        assert schema_info(copy_engine)["revision"] == HEAD
        assert export(copy_engine) == original
    finally:
        copy_engine.dispose()


def test_backup_of_postgresql_is_refused(pg_url: str) -> None:
    engine = open_ledger(pg_url)
    try:
        with pytest.raises(LedgerError, match="pg_dump"):
            backup_sqlite(engine, "/nonexistent/never-written.sqlite3")
    finally:
        engine.dispose()
    assert not Path("/nonexistent/never-written.sqlite3").exists()


def test_an_empty_file_and_a_new_file_become_ledgers(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    fresh = tmp_path / "new.sqlite3"
    for path in (empty, fresh):
        engine = open_ledger(str(path))
        try:
            assert schema_info(engine)["revision"] == HEAD
            assert counts(engine) == dict.fromkeys(TABLES, 0)
        finally:
            engine.dispose()
        assert path.exists()
    with sqlite3.connect(fresh) as connection:
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert set(TABLES) | {"alembic_version"} <= names


def test_sqlite_url_and_path_name_the_same_ledger(sqlite_url: str) -> None:
    path = Path(sqlite_url)
    by_path = open_ledger(str(path))
    try:
        import_(by_path, load("four_players.json"))
    finally:
        by_path.dispose()
    by_url = open_ledger(f"sqlite:///{path}")
    try:
        assert counts(by_url)["deal"] == 12
        assert schema_info(by_url)["backend"] == "sqlite"
    finally:
        by_url.dispose()


def test_sqlite_runs_in_wal_mode_with_foreign_keys(sqlite_url: str) -> None:
    engine = open_ledger(sqlite_url)
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000
    finally:
        engine.dispose()


# --- known defects --------------------------------------------------------------------------------------------


@pytest.mark.postgres
def test_times_without_offset_are_utc_on_a_server_in_another_zone(pg_url: str) -> None:
    engine = open_ledger(f"{pg_url}?options=-c%20timezone%3DEurope/Rome")
    try:
        original = load("three_friends.json")
        import_(engine, original)
        assert as_instants(export(engine)) == as_instants({**original, "version": 3})
    finally:
        engine.dispose()


def test_importing_a_deal_key_already_used_is_a_ledger_error(sqlite_url: str) -> None:
    engine = open_ledger(sqlite_url)
    try:
        with transaction(engine) as session:
            table = start_evening(session, ("Anna", "Bruno", "Carla"))
            record_deal(session, table, DealInput(passed=True), key="tablet-1")
        data = export_lines(engine)
        data[1]["evening"]["started_at"] = "2026-12-01T20:00:00+00:00"  # another evening, same key
        before = counts(engine)
        with pytest.raises(LedgerError, match="tablet-1"):
            import_(engine, data)
        assert counts(engine) == before
    finally:
        engine.dispose()


def test_import_matches_existing_players_regardless_of_case(sqlite_url: str) -> None:
    engine = open_ledger(sqlite_url)
    try:
        with transaction(engine) as session:
            add_player(session, "anna")
        assert import_(engine, load("three_friends.json")) == [1]
        assert counts(engine)["deal"] == 30
    finally:
        engine.dispose()


def test_a_version_1_export_reads_as_the_same_deals(engine: Engine) -> None:
    """Version 1 kept what was typed (`points`, prefixes, an auction as text); it is parsed and gives the facts
    that version 2 writes."""
    old = json.loads((Path(__file__).with_name("data") / "three_friends_v1.json").read_text(encoding="utf-8"))
    assert old["version"] == 1 and "typed" in old["evenings"][0]["deals"][0]["revisions"][0]
    import_(engine, old)
    assert same_ledger(export(engine), load("three_friends.json"))
