"""An evening recorded by mistake (the demo in a real ledger, a test) can be voided whole: it stays in the log, with
when and why, and counts nowhere.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("evening", schema=None) as batch_op:
        batch_op.add_column(sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("void_reason", sqlmodel.sql.sqltypes.AutoString(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("evening", schema=None) as batch_op:
        batch_op.drop_column("void_reason")
        batch_op.drop_column("voided_at")
