"""Voided deals get a partial index, so the few of them are found without walking every deal.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

VOIDED = sa.text("voided_at IS NOT NULL")


def upgrade() -> None:
    op.create_index("ix_deal_voided", "deal", ["evening_id"], sqlite_where=VOIDED, postgresql_where=VOIDED)


def downgrade() -> None:
    op.drop_index("ix_deal_voided", table_name="deal")
