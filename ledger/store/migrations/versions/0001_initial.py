"""The ledger's tables: players, evenings, seats, deals with revisions, payouts, payments.

Revision ID: 0001
Revises: none
Created: 2026-11-21 23:29:24.949529
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_key"), ["key"], unique=True)

    op.create_table(
        "evening",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("profile", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("stake_cents", sa.Integer(), nullable=False),
        sa.Column("currency", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("first_dealer_id", sa.Integer(), nullable=False),
        sa.Column("place", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("note", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["first_dealer_id"],
            ["player.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "player_rename",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("old_name", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("new_name", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("renamed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("player_rename", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_rename_player_id"), ["player_id"], unique=False)

    op.create_table(
        "deal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("void_reason", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.ForeignKeyConstraint(
            ["evening_id"],
            ["evening.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("evening_id", "number"),
        sa.UniqueConstraint("key"),
    )
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_deal_evening_id"), ["evening_id"], unique=False)

    op.create_table(
        "payment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("payer_id", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.Integer(), nullable=False),
        sa.Column("cents", sa.Integer(), nullable=False),
        sa.Column("currency", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=True),
        sa.Column("note", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("paid_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["evening_id"],
            ["evening.id"],
        ),
        sa.ForeignKeyConstraint(
            ["payee_id"],
            ["player.id"],
        ),
        sa.ForeignKeyConstraint(
            ["payer_id"],
            ["player.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("payment", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_payment_payee_id"), ["payee_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_payment_payer_id"), ["payer_id"], unique=False)

    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["evening_id"],
            ["evening.id"],
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("evening_id", "player_id"),
        sa.UniqueConstraint("evening_id", "position"),
    )
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_evening_id"), ["evening_id"], unique=False)

    op.create_table(
        "deal_revision",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("superseded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("profile", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("typed", sa.JSON(), nullable=False),
        sa.Column("dealer_id", sa.Integer(), nullable=False),
        sa.Column("declarer_id", sa.Integer(), nullable=True),
        sa.Column("partner_id", sa.Integer(), nullable=True),
        sa.Column("contract", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("aggravation", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("called", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("holder", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("auction", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("declarer_thirds", sa.Integer(), nullable=True),
        sa.Column("tricks", sa.Integer(), nullable=True),
        sa.Column("last_trick", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("passed_before", sa.Integer(), nullable=False),
        sa.Column("declarer_won", sa.Boolean(), nullable=True),
        sa.Column("sweep", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("multiplier", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("explanation", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.ForeignKeyConstraint(
            ["deal_id"],
            ["deal.id"],
        ),
        sa.ForeignKeyConstraint(
            ["dealer_id"],
            ["player.id"],
        ),
        sa.ForeignKeyConstraint(
            ["declarer_id"],
            ["player.id"],
        ),
        sa.ForeignKeyConstraint(
            ["partner_id"],
            ["player.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("deal_id", "revision"),
    )
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_deal_revision_deal_id"), ["deal_id"], unique=False)

    op.create_table(
        "payout",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("revision_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("role", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
        ),
        sa.ForeignKeyConstraint(
            ["revision_id"],
            ["deal_revision.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("revision_id", "player_id"),
    )
    with op.batch_alter_table("payout", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_payout_player_id"), ["player_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_payout_revision_id"), ["revision_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("payout", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_payout_revision_id"))
        batch_op.drop_index(batch_op.f("ix_payout_player_id"))

    op.drop_table("payout")
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deal_revision_deal_id"))

    op.drop_table("deal_revision")
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_evening_id"))

    op.drop_table("seat")
    with op.batch_alter_table("payment", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_payment_payer_id"))
        batch_op.drop_index(batch_op.f("ix_payment_payee_id"))

    op.drop_table("payment")
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deal_evening_id"))

    op.drop_table("deal")
    with op.batch_alter_table("player_rename", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_rename_player_id"))

    op.drop_table("player_rename")
    op.drop_table("evening")
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_key"))

    op.drop_table("player")
