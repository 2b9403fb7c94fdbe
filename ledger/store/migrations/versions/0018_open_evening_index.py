"""Open evenings get a partial index, so the few of them are found without walking every evening: the most recent open
evening (where a deal goes when none is named) and where a closed evening's table plays on.

Revision ID: 0018
Revises: 0017
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

OPEN = sa.text("closed_at IS NULL")


def upgrade() -> None:
    op.create_index("ix_evening_open", "evening", ["id"], sqlite_where=OPEN, postgresql_where=OPEN)


def downgrade() -> None:
    op.drop_index("ix_evening_open", table_name="evening")
