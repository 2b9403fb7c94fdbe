"""Club nights and seasons: events whose rounds seat the players present at tables, each table an evening.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    text = sqlmodel.sql.sqltypes.AutoString
    op.create_table(
        "club_season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", text(), nullable=False),
        sa.Column("key", text(), nullable=False),
        sa.Column("min_deals", sa.Integer(), nullable=False),
        _when("created_at"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    op.create_table(
        "club_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=True),
        sa.Column("name", text(), nullable=False),
        sa.Column("profile", text(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("stake_cents", sa.Integer(), nullable=False),
        sa.Column("currency", text(), nullable=False),
        sa.Column("place", text(), nullable=True),
        sa.Column("pairing", text(), nullable=False),
        sa.Column("round_deals", sa.Integer(), nullable=True),
        sa.Column("round_minutes", sa.Integer(), nullable=True),
        _when("started_at"),
        _when("closed_at", nullable=True),
        sa.ForeignKeyConstraint(["season_id"], ["club_season.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_club_event_season_id"), "club_event", ["season_id"], unique=False)
    op.create_table(
        "club_entrant",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("arrived", sa.Integer(), nullable=False),
        sa.Column("left", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["club_event.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "player_id"),
    )
    op.create_index(op.f("ix_club_entrant_event_id"), "club_entrant", ["event_id"], unique=False)
    op.create_table(
        "club_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("repeats", sa.Integer(), nullable=False),
        sa.Column("exact", sa.Boolean(), nullable=False),
        sa.Column("by_hand", sa.Boolean(), nullable=False),
        _when("started_at"),
        _when("ended_at", nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["club_event.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "number"),
    )
    op.create_index(op.f("ix_club_round_event_id"), "club_round", ["event_id"], unique=False)
    op.create_table(
        "club_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["round_id"], ["club_round.id"]),
        sa.ForeignKeyConstraint(["evening_id"], ["evening.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "number"),
        sa.UniqueConstraint("evening_id"),
    )
    op.create_index(op.f("ix_club_table_round_id"), "club_table", ["round_id"], unique=False)


def downgrade() -> None:
    for table in ("club_table", "club_round", "club_entrant", "club_event", "club_season"):
        op.drop_table(table)
