"""A closed evening can be reopened, with a reason: each reopening is kept in its own row, with the close it undid.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "evening_reopen",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reopened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.ForeignKeyConstraint(["evening_id"], ["evening.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_evening_reopen_evening_id"), "evening_reopen", ["evening_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_evening_reopen_evening_id"), table_name="evening_reopen")
    op.drop_table("evening_reopen")
