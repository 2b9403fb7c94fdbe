"""Facts stored, words drawn: a revision no longer stores its explanation (it is drawn from the facts in the
reader's language), and the reasons the ledger gave itself become causes: a revision re-scored because the pot of
passed deals changed (`cause` = 'pot', `cause_deal` = the deal whose correction changed it), a deal voided by undo
(`void_cause` = 'undo'). Reasons a person typed stay as typed.

Revision ID: 0007
Revises: 0006
"""

import re

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

POT = re.compile(r"pot of passed deals changed by deal (\d+)")
"""The reason the ledger wrote for a re-scored deal, in English whatever the recorder's language."""


def upgrade() -> None:
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.add_column(sa.Column("cause", sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column("cause_deal", sa.Integer(), nullable=True))
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.add_column(sa.Column("void_cause", sqlmodel.sql.sqltypes.AutoString(), nullable=True))
    connection = op.get_bind()
    revisions = sa.table(
        "deal_revision", sa.column("id"), sa.column("reason"), sa.column("cause"), sa.column("cause_deal")
    )
    found = connection.execute(
        sa.select(revisions.c.id, revisions.c.reason).where(revisions.c.reason.like("pot of passed deals changed%"))
    ).all()
    for row_id, reason in found:
        matched = POT.fullmatch(reason)
        if matched:
            connection.execute(
                revisions.update()
                .where(revisions.c.id == row_id)
                .values(cause="pot", cause_deal=int(matched.group(1)), reason=None)
            )
    deals = sa.table("deal", sa.column("void_reason"), sa.column("void_cause"))
    connection.execute(deals.update().where(deals.c.void_reason == "undo").values(void_cause="undo", void_reason=None))
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.drop_column("explanation")


def downgrade() -> None:
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("explanation", sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default="")
        )
    connection = op.get_bind()
    revisions = sa.table("deal_revision", sa.column("reason"), sa.column("cause"), sa.column("cause_deal"))
    connection.execute(
        revisions.update()
        .where(revisions.c.cause == "pot")
        .values(reason=sa.literal("pot of passed deals changed by deal ") + sa.cast(revisions.c.cause_deal, sa.String))
    )
    deals = sa.table("deal", sa.column("void_reason"), sa.column("void_cause"))
    connection.execute(deals.update().where(deals.c.void_cause == "undo").values(void_reason="undo"))
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.drop_column("void_cause")
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.drop_column("cause_deal")
        batch_op.drop_column("cause")
