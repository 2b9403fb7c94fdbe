"""An address's wrong tries are kept only while its wait lasts: the time of its last try goes, nothing reads it.

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("wrong_try", schema=None) as batch_op:
        batch_op.drop_column("last")


def downgrade() -> None:
    with op.batch_alter_table("wrong_try", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last", sa.Float(), nullable=False, server_default="0"))
