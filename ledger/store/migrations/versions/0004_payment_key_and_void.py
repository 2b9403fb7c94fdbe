"""Payments get an idempotency key (a retried `paid` is stored once) and a void mark with its reason.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("payment", schema=None) as batch_op:
        batch_op.add_column(sa.Column("key", sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("void_reason", sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.create_unique_constraint("uq_payment_key", ["key"])


def downgrade() -> None:
    with op.batch_alter_table("payment", schema=None) as batch_op:
        batch_op.drop_constraint("uq_payment_key", type_="unique")
        batch_op.drop_column("void_reason")
        batch_op.drop_column("voided_at")
        batch_op.drop_column("key")
