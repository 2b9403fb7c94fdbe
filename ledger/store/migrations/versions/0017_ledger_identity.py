"""Every ledger has an identity of its own, a random name no other ledger shares: a server binds the keys it hands
out (its links, table keys, sessions, forms) to it, so two servers of one user never take each other's.

Revision ID: 0017
Revises: 0016
"""

import uuid

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "ledger_identity",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.bulk_insert(table, [{"id": uuid.uuid4().hex}])


def downgrade() -> None:
    op.drop_table("ledger_identity")
