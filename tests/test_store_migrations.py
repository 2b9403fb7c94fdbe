"""Schema migrations: the models and the migrations agree, and an older ledger is upgraded after a backup."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import Engine, text
from sqlmodel import SQLModel

from ledger.rules.build import DealInput
from ledger.store.deals import record_deal
from ledger.store.engine import HEAD, KNOWN, MIGRATIONS, make_engine, open_ledger, resolve_url, transaction
from ledger.store.evenings import start_evening
from ledger.store.standings import standings


def test_the_migrations_build_exactly_the_tables_of_the_models(engine: Engine) -> None:
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []


def test_an_older_ledger_is_backed_up_then_upgraded_with_its_deals(tmp_path: Path) -> None:
    path = tmp_path / "older.sqlite3"
    older = make_engine(resolve_url(str(path)))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with older.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, KNOWN[0])
    with transaction(older) as session:
        table = start_evening(session, ("Anna", "Bruno", "Carla"), stake="0.10")
        record_deal(session, table, DealInput(declarer="Bruno", contract="solo", thirds=22))
    older.dispose()

    upgraded = open_ledger(str(path))
    with upgraded.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == HEAD
    with transaction(upgraded) as session:
        from ledger.store.evenings import get_table

        assert standings(session, get_table(session)).points == {"Anna": -2, "Bruno": 4, "Carla": -2}
    upgraded.dispose()

    backups = list(tmp_path.glob("older.sqlite3.before-*.bak"))
    assert len(backups) == 1
    with sqlite3.connect(backups[0]) as copy:
        assert copy.execute("SELECT version_num FROM alembic_version").fetchone()[0] == KNOWN[0]
        assert copy.execute("SELECT COUNT(*) FROM deal").fetchone()[0] == 1
