"""A reopening keeps the pot of passed deals that waited when the evening was reopened, so that taking the reopening
back closes the evening as it was (a pot dropped at the close stays dropped). Reopenings kept before have none: taking
one back counts the pot afresh, as before.

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("evening_reopen", schema=None) as batch_op:
        batch_op.add_column(sa.Column("pot_out", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("evening_reopen", schema=None) as batch_op:
        batch_op.drop_column("pot_out")
