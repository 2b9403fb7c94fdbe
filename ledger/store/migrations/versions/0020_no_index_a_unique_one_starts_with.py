"""The indexes of one column that a unique constraint's index starts with go: that index finds the same rows, and
every deal, revision, payout, seat and change written kept one more index up to date for nothing.

Revision ID: 0020
Revises: 0019
"""

from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

COVERED = (
    ("ix_evening_change_evening_id", "evening_change", "evening_id"),
    ("ix_seat_evening_id", "seat", "evening_id"),
    ("ix_deal_evening_id", "deal", "evening_id"),
    ("ix_deal_revision_deal_id", "deal_revision", "deal_id"),
    ("ix_payout_revision_id", "payout", "revision_id"),
)
"""Each index, its table, and the column it indexes: the first of a unique constraint of the table."""


def upgrade() -> None:
    for name, table, _column in COVERED:
        op.drop_index(name, table_name=table)


def downgrade() -> None:
    for name, table, column in COVERED:
        op.create_index(name, table, [column])
