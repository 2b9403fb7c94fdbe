"""A pot of passed deals still waiting when an evening closes goes to the same table's next evening: the evening
that closed keeps how many passed deals it carried out (`pot_out`), the next one how many it took in (`pot_in`) and
from which evening (`pot_from`).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("evening", schema=None) as batch_op:
        batch_op.add_column(sa.Column("pot_in", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("pot_from", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("pot_out", sa.Integer(), nullable=False, server_default="0"))
        batch_op.create_foreign_key("fk_evening_pot_from", "evening", ["pot_from"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("evening", schema=None) as batch_op:
        batch_op.drop_constraint("fk_evening_pot_from", type_="foreignkey")
        batch_op.drop_column("pot_out")
        batch_op.drop_column("pot_from")
        batch_op.drop_column("pot_in")
