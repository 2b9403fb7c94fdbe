"""Deals may record the card points the monte held (`stramazzo_counts=tricks` asks for them).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.add_column(sa.Column("monte_thirds", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.drop_column("monte_thirds")
