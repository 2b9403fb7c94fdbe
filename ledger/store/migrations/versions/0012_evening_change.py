"""Every change to an evening is a row of its change log; evenings kept before have theirs rebuilt from their rows.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from ledger.store.changes import rebuild

    text = sqlmodel.sql.sqltypes.AutoString
    op.create_table(
        "evening_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("kind", text(), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=True),
        sa.Column("deal_revision", sa.Integer(), nullable=True),
        sa.Column("undoes", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", text(), nullable=False),
        sa.Column("session", text(), nullable=True),
        sa.Column("reason", text(), nullable=True),
        sa.ForeignKeyConstraint(["evening_id"], ["evening.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("evening_id", "revision"),
    )
    op.create_index(op.f("ix_evening_change_evening_id"), "evening_change", ["evening_id"], unique=False)
    connection = op.get_bind()
    for (evening_id,) in connection.execute(sa.text("SELECT id FROM evening ORDER BY id")).all():
        rebuild(connection, evening_id)


def downgrade() -> None:
    op.drop_index(op.f("ix_evening_change_evening_id"), table_name="evening_change")
    op.drop_table("evening_change")
