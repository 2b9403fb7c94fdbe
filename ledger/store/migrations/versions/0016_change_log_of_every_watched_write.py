"""The change log holds every change someone may watch: an evening's (as before, now naming the club event its
evening is a table of) and the changes of no evening (a player, a payment, a season, a club event or its round), so a
watcher of any program reads what changed, in the order it was committed, from one log.

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("evening_change", schema=None) as batch_op:
        batch_op.alter_column("evening_id", existing_type=sa.Integer(), nullable=True)
        batch_op.add_column(sa.Column("event_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key("fk_evening_change_event_id", "club_event", ["event_id"], ["id"])
    op.execute(
        "UPDATE evening_change SET event_id = (SELECT r.event_id FROM club_table t"
        " JOIN club_round r ON r.id = t.round_id WHERE t.evening_id = evening_change.evening_id)"
    )


def downgrade() -> None:
    op.execute("DELETE FROM evening_change WHERE evening_id IS NULL")
    with op.batch_alter_table("evening_change", schema=None) as batch_op:
        batch_op.drop_constraint("fk_evening_change_event_id", type_="foreignkey")
        batch_op.drop_column("event_id")
        batch_op.alter_column("evening_id", existing_type=sa.Integer(), nullable=False)
