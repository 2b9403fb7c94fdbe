"""Alembic environment: migrations run on the connection the ledger hands over."""

from alembic import context
from sqlmodel import SQLModel

import ledger.store.tables  # noqa: F401  (registers every table)

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=SQLModel.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
