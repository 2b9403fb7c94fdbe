"""Schema migrations: the models and the migrations agree, and an older ledger is upgraded after a backup."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from conftest import as_document
from sqlalchemy import Engine, inspect, text
from sqlmodel import SQLModel

import ledger.store.tables  # noqa: F401  (registers every table)
from ledger import Ledger
from ledger.errors import LedgerError
from ledger.i18n import speaking
from ledger.rules.contracts import Contract
from ledger.store.engine import HEAD, MIGRATIONS, make_engine, open_ledger, resolve_url
from ledger.summary import explanation, why, why_voided
from ledger.values import Terms


def _migrated_from_nothing(url: str) -> Engine:
    """The database at `url`, empty, taken through every migration in turn, as an older ledger is."""
    engine = make_engine(resolve_url(url))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    return engine


def test_the_migrations_build_exactly_the_tables_of_the_models(empty_db_url: str) -> None:
    engine = _migrated_from_nothing(empty_db_url)
    try:
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
    finally:
        engine.dispose()


def _schema(engine: Engine) -> dict[str, Any]:
    """Everything a ledger's schema says, table by table, in an order of its own: columns (type, null, default),
    primary key, unique and check constraints, foreign keys, indexes with the rows they hold; and how many rows each
    table holds."""
    found = inspect(engine)
    with engine.connect() as connection:
        rows = {
            table: connection.execute(text(f'SELECT COUNT(*) FROM "{table}"')).scalar_one()
            for table in found.get_table_names()
        }

    def said(rows: list[dict[str, Any]]) -> list[str]:
        return sorted(repr({key: str(value) for key, value in sorted(row.items())}) for row in rows)

    return {
        table: {
            "rows": rows[table],
            "columns": said(found.get_columns(table)),
            "primary key": found.get_pk_constraint(table)["constrained_columns"],
            "unique": said(found.get_unique_constraints(table)),
            "checks": said(found.get_check_constraints(table)),
            "foreign keys": said(found.get_foreign_keys(table)),
            "indexes": said(
                [
                    {**index, "dialect_options": sorted(map(str, index.get("dialect_options", {}).values()))}
                    for index in found.get_indexes(table)
                ]
            ),
        }
        for table in sorted(found.get_table_names())
    }


def test_a_new_ledger_is_built_in_one_step_exactly_as_the_migrations_build_it(
    empty_db_url: str, tmp_path: Path
) -> None:
    """A new ledger is made from the models at once, not migration by migration: its schema is the one an empty
    database taken through every migration has, partial indexes included, on both databases."""
    other = str(tmp_path / "migrated.sqlite3") if "://" not in empty_db_url else None
    migrated = _migrated_from_nothing(other or empty_db_url)
    try:
        by_migrations = _schema(migrated)
    finally:
        migrated.dispose()
    if other is None:  # PostgreSQL: the same database, emptied, made new
        with migrated.begin() as connection:
            connection.execute(text("DROP SCHEMA public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
        migrated.dispose()
    made = open_ledger(empty_db_url)
    try:
        assert _schema(made) == by_migrations
        found = inspect(made)
        partial = {
            index["name"]: str(index["dialect_options"][f"{made.dialect.name}_where"]).strip("()")
            for index in found.get_indexes("deal") + found.get_indexes("evening")
            if index["name"].startswith("ix_")
        }
        assert partial == {"ix_deal_voided": "voided_at IS NOT NULL", "ix_evening_open": "closed_at IS NULL"}
        with made.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [HEAD]
    finally:
        made.dispose()


FIXTURE = Path(__file__).with_name("data") / "ledger_0002.json"
"""Every row of a ledger written by the code of schema 0002 (every profile, an amend, voids, an undo, the
tretre pot, a rename, payments), with what that code showed of it: standings, revisions, reasons, payouts."""


def _older_ledger(path: Path, rows: dict[str, Any]) -> Engine:
    """A SQLite ledger at schema 0002 holding the fixture's rows exactly."""
    older = make_engine(resolve_url(str(path)))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with older.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        for table in ("player", "player_rename", "evening", "seat", "deal", "deal_revision", "payout", "payment"):
            columns = rows[table]["columns"]
            statement = text(
                f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({", ".join(":" + c for c in columns)})'
            )
            for values in rows[table]["rows"]:
                connection.execute(statement, dict(zip(columns, values, strict=True)))
    return older


def test_an_older_ledger_is_backed_up_then_upgraded_losing_nothing(tmp_path: Path) -> None:
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    path = tmp_path / "older.sqlite3"
    _older_ledger(path, fixture["rows"]).dispose()

    with Ledger(str(path)) as ledger:
        with ledger.engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == HEAD
        for expected in fixture["expect"]:
            standing = ledger.standings(expected["evening"])
            assert (standing.points, standing.cents) == (expected["points"], expected["cents"])
            _, deals = ledger.deals(expected["evening"])
            assert [(d.number, d.voided, why_voided(d), d.key) for d in deals] == [
                (d["number"], d["voided"], UNDONE.get(d["void_reason"], d["void_reason"]), d["key"])
                for d in expected["deals"]
            ]
            for deal in expected["deals"]:
                history = ledger.deal(deal["number"], expected["evening"]).revisions
                for revision in deal["revisions"]:  # the sentences stored then named players as they were called
                    revision["explanation"] = renamed(revision["explanation"], fixture["rows"]["player_rename"])
                assert [
                    {
                        "revision": v.revision,
                        "reason": why(v),
                        "payouts": v.payouts,
                        "roles": v.roles,
                        "superseded": v.superseded_at is not None,
                        "explanation": explanation(v),
                        "dealer": v.dealer,
                        "passed_before": v.passed_before,
                    }
                    for v in history
                ] == deal["revisions"]
        _drawn_in_italian(ledger, fixture["expect"])
        players = {row[0]: row[1] for row in fixture["rows"]["player"]["rows"]}
        payment = fixture["rows"]["payment"]
        expected_payments = [dict(zip(payment["columns"], row, strict=True)) for row in payment["rows"]]
        assert [
            (p["payer"], p["payee"], p["cents"], p["currency"], p["evening"], p["note"])
            for p in as_document(ledger.export())["payments"]
        ] == [
            (players[p["payer_id"]], players[p["payee_id"]], p["cents"], p["currency"], p["evening_id"], p["note"])
            for p in expected_payments
        ]
        # a revision read back as facts can be amended: the holder renamed since is found by id
        amended = ledger.amend(2, "t=19", reason="recount", evening=5)
        assert amended.deal.holder == "Annalisa" and amended.deal.revision == 3
        assert amended.deal.monte_thirds is None
        _evenings_keep_the_options_they_started_with(ledger)
    backups = list(tmp_path.glob("older.sqlite3.before-*.bak"))
    assert len(backups) == 1
    with sqlite3.connect(backups[0]) as copy:
        assert copy.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0002"
        revisions = copy.execute("SELECT COUNT(*) FROM deal_revision").fetchone()[0]
    assert revisions == len(fixture["rows"]["deal_revision"]["rows"])


def renamed(text: str, renames: dict[str, Any]) -> str:
    """A sentence with every player renamed since called by the name they have now (a drawn sentence does that)."""
    for old, new in ((row[2], row[3]) for row in renames["rows"]):
        text = re.sub(rf"\b{re.escape(old)}\b", new, text)
    return text


UNDONE = {"undo": "undone"}
"""The reason the older code stored for a deal taken back, as the ledger now words its cause."""
ENGLISH = ("from each", "to each", "opponent", "all passed", "pot of passed", "undone", "deals and sits out", "held")


def _drawn_in_italian(ledger: Ledger, expected: list[dict[str, Any]]) -> None:
    """The sentences the older code stored in English are drawn in Italian for an Italian reader, and every
    standing stays the same."""
    with speaking("it"):
        for evening in expected:
            assert ledger.standings(evening["evening"]).points == evening["points"]
            _, deals = ledger.deals(evening["evening"])
            sentences = [explanation(d) for d in deals] + [why_voided(d) or "" for d in deals]
            sentences += [why(v) or "" for d in deals for v in ledger.deal(d.number, evening["evening"]).revisions]
            english = [s for s in sentences if any(word in s for word in ENGLISH)]
            assert not english, english
            assert any("avversari" in s or "passano" in s for s in sentences), sentences


def _evenings_keep_the_options_they_started_with(ledger: Ledger) -> None:
    """The evenings of the older ledger play as they were started: mediatore outbid chiamo then (quartiglio stored
    the option on; quintiglio had none, its mediatore always outbid chiamo); new evenings play the main rule."""
    quartiglio, quintiglio = ledger.evening(5).profile, ledger.evening(6).profile
    assert quartiglio["mediatore_outbids_chiamo"] is True and quintiglio["mediatore_outbids_chiamo"] is True
    assert quartiglio["stramazzo_counts"] == "monte" and quartiglio["game_to"] is None
    outbid = ledger.record("auction=chiamo,mediatore,pass,pass 20", evening=5)
    assert (outbid.result and outbid.result.contract) is Contract.MEDIATORE
    outbid = ledger.record("auction=chiamo,mediatore,pass,pass,pass 20", evening=6)
    assert (outbid.result and outbid.result.contract) is Contract.MEDIATORE
    for players, profile, auction in (
        (["Anna", "Bruno", "Carla", "Dario"], "quartiglio", "chiamo,mediatore,pass,pass"),
        (["Anna", "Bruno", "Carla", "Dario", "Elena"], "quintiglio", "chiamo,mediatore,pass,pass,pass"),
    ):
        started = ledger.start_evening(
            players, Terms(profile=profile, options=["mediatore=on"] if len(players) == 5 else [])
        )
        assert started.profile["mediatore_outbids_chiamo"] is False
        with pytest.raises(LedgerError, match=r"mediatore does not outbid .*chiamo"):
            ledger.record(f"auction={auction} 20", evening=started.number)


def test_programs_opening_a_new_ledger_at_once_take_turns_to_build_it(empty_db_url: str) -> None:
    """Two programs started together on an empty database: one builds the schema, the other waits and finds it."""
    opener = (
        "import sys\n"
        "from ledger import Ledger\n"
        "with Ledger(sys.argv[1]) as ledger:\n"
        "    print(len(ledger.evenings()))\n"
    )
    programs = [
        subprocess.Popen(
            [sys.executable, "-c", opener, empty_db_url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    results = [(program.communicate(timeout=120), program.returncode) for program in programs]
    assert [(out.strip(), code) for (out, _), code in results] == [("0", 0)] * 2, [err for (_, err), _ in results]
    engine = make_engine(resolve_url(empty_db_url))
    try:
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [HEAD]
    finally:
        engine.dispose()
