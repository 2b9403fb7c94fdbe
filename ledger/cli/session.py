"""Open the ledger named by `--db` for one command, inside one transaction."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from ledger.cli.app import db_url

if TYPE_CHECKING:
    from sqlmodel import Session


@contextmanager
def ledger_session(ctx: typer.Context) -> Iterator[Session]:
    """A transaction on the ledger: everything the command writes commits together, or nothing does."""
    from ledger.store.engine import open_ledger, transaction

    engine = open_ledger(db_url(ctx))
    try:
        with transaction(engine) as session:
            yield session
    finally:
        engine.dispose()
