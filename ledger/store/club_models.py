"""The club's tables: seasons, events (club nights and tournaments), their entrants, rounds and tables. Only the
club's commands and pages load them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from ledger.store.models import when


class Season(SQLModel, table=True):
    """A club's season: its club nights (events) grouped for one league table; `key` is the name without case and
    accents, unique; `min_deals` is the deals a player must have played to be ranked in the league."""

    __tablename__ = "club_season"
    id: int | None = Field(default=None, primary_key=True)
    name: str
    key: str = Field(unique=True)
    min_deals: int = 0
    created_at: datetime = when()


class ClubEvent(SQLModel, table=True):
    """A club night or a tournament: the players present are seated at tables round after round, each table an
    evening of the ledger with the event's profile, options and stake. A round ends after `round_deals` deals at
    each table or after `round_minutes`, whichever the organiser set; `pairing` orders later rounds' draws
    (`random`, `standing` or `rating`)."""

    __tablename__ = "club_event"
    id: int | None = Field(default=None, primary_key=True)
    season_id: int | None = Field(default=None, foreign_key="club_season.id", index=True)
    name: str
    profile: str
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    stake_cents: int = 0
    currency: str = "EUR"
    place: str | None = None
    pairing: str = "random"
    round_deals: int | None = None
    round_minutes: int | None = None
    started_at: datetime = when()
    closed_at: datetime | None = when(nullable=True)


class Entrant(SQLModel, table=True):
    """A player at an event: present from round `arrived` on, gone before round `left` when they left."""

    __tablename__ = "club_entrant"
    __table_args__ = (UniqueConstraint("event_id", "player_id"),)
    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="club_event.id", index=True)
    player_id: int = Field(foreign_key="player.id")
    arrived: int = 1
    left: int | None = None


class ClubRound(SQLModel, table=True):
    """A round of an event: its seating (drawn, or set by hand), the repeated pairings it could not avoid."""

    __tablename__ = "club_round"
    __table_args__ = (UniqueConstraint("event_id", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="club_event.id", index=True)
    number: int
    repeats: int = 0
    exact: bool = True
    by_hand: bool = False
    started_at: datetime = when()
    ended_at: datetime | None = when(nullable=True)


class ClubTable(SQLModel, table=True):
    """A table of a round: the evening its players keep there (seats and deals live in the evening)."""

    __tablename__ = "club_table"
    __table_args__ = (UniqueConstraint("round_id", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="club_round.id", index=True)
    number: int
    evening_id: int = Field(foreign_key="evening.id", unique=True)
