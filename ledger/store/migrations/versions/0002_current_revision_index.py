"""Find the current revision of a deal by index: every standing, statistic and export asks for it.

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.create_index("ix_deal_revision_current", ["deal_id", "superseded_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.drop_index("ix_deal_revision_current")
