"""Deals stored as facts: the called card's holder and the auction by player id; the typed text dropped.

A revision kept the text the scorekeeper typed (`typed`), the holder by name and the auction as
`Name:call,...`. Names are resolved to the evening's seated players through every name they had (the
rename log), so a player renamed since is found; nothing else of a revision changes.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import unicodedata
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

MONTE, DECLARER = "monte", "declarer"


def _key(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def _seated_names(connection: sa.Connection) -> dict[int, dict[str, int]]:
    """Per evening: every name (by key) any seated player ever had, mapped to the player's id."""
    renames: dict[int, list[str]] = {}
    for player_id, old, new in connection.execute(sa.text("SELECT player_id, old_name, new_name FROM player_rename")):
        renames.setdefault(player_id, []).extend((old, new))
    names: dict[int, dict[str, int]] = {}
    seats = connection.execute(
        sa.text("SELECT seat.evening_id, player.id, player.name FROM seat JOIN player ON player.id = seat.player_id")
    )
    for evening_id, player_id, name in seats:
        for known in (name, *renames.get(player_id, [])):
            names.setdefault(evening_id, {})[_key(known)] = player_id
    return names


def _calls(text: str | None, ids: dict[str, int]) -> list[Any] | None:
    if not text:
        return None
    calls = []
    for item in text.split(","):
        name, _, word = item.rpartition(":")
        calls.append([ids[_key(name)], None if word == "pass" else word])
    return calls


def upgrade() -> None:
    connection = op.get_bind()
    names = _seated_names(connection)
    rows = connection.execute(
        sa.text(
            "SELECT deal_revision.id, deal.evening_id, deal_revision.holder, deal_revision.auction "
            "FROM deal_revision JOIN deal ON deal.id = deal_revision.deal_id"
        )
    ).all()
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.add_column(sa.Column("holder_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("calls", sa.JSON(), nullable=True))
        batch_op.create_foreign_key("fk_deal_revision_holder_id_player", "player", ["holder_id"], ["id"])
    revisions = sa.table(
        "deal_revision",
        sa.column("id", sa.Integer),
        sa.column("holder", sa.String),
        sa.column("holder_id", sa.Integer),
        sa.column("calls", sa.JSON),
    )
    for revision_id, evening_id, holder, auction in rows:
        ids = names.get(evening_id, {})
        seat = ids.get(_key(holder)) if holder and holder not in (MONTE, DECLARER) else None
        connection.execute(
            revisions.update()
            .where(revisions.c.id == revision_id)
            .values(holder_id=seat, holder=None if seat else holder, calls=_calls(auction, ids))
        )
    with op.batch_alter_table("deal_revision", schema=None) as batch_op:
        batch_op.drop_column("typed")
        batch_op.drop_column("auction")


def downgrade() -> None:
    raise NotImplementedError("0003 cannot be undone: restore the backup copy made before the upgrade")
