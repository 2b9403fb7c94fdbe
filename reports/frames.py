"""The current, non-voided deals and their payouts as pandas frames, read with SQL (no ORM object per row)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import pandas as pd
from sqlalchemy import Connection, Engine, FromClause, Select, and_, exists, select
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, SQLModel

from ledger.store.engine import reading
from ledger.store.evenings import get_table
from ledger.store.models import Deal, DealRevision, Evening, Payout, Player, Seat
from ledger.store.players import get_player
from reports.filters import Filters, utc_end, utc_start

DEAL, REVISION, EVENING, PAYOUT, PLAYER, SEAT = (
    SQLModel.metadata.tables[str(model.__tablename__)] for model in (Deal, DealRevision, Evening, Payout, Player, Seat))

PLAYER_COLUMNS = ("dealer", "declarer", "partner")
DEAL_TEXT = ("contract", "aggravation", "called", "holder", "sweep")
CHUNK_ROWS = 250_000
"""Rows fetched at a time: a chunk's row objects are dropped once its columns are compact, which keeps memory low."""


@dataclass(frozen=True)
class Frames:
    """`deals` indexed by deal id and `payouts` one row per seated player, both in (evening, number) order.

    `players` is every player of the ledger in name order, the order that gives each player a colour.
    """

    deals: pd.DataFrame
    payouts: pd.DataFrame
    players: tuple[str, ...]
    filters: Filters
    evenings: pd.DataFrame
    """Every evening's profile, stake, currency and start (UTC), indexed by evening number."""
    voided: pd.DataFrame
    """The voided deals the filters select: evening, number and the reason given."""

    @cached_property
    def _deal_rows(self) -> np.ndarray:
        return self.deals.index.get_indexer(self.payouts["deal_id"])

    def of_deal(self, column: str) -> pd.Series:
        """A deal column repeated on each of the deal's payout rows."""
        return pd.Series(self.deals[column].array.take(self._deal_rows), index=self.payouts.index, name=column)


def deals_select() -> Select:
    """The deal columns a report needs, before scoping (ids where names go; evening columns come separately)."""
    d, r = DEAL.c, REVISION.c
    return select(
        d.id.label("deal_id"), d.evening_id.label("evening"), d.number, r.dealer_id, r.declarer_id, r.partner_id,
        r.contract, r.aggravation, r.called, r.holder_id, r.holder, r.declarer_thirds, r.declarer_won, r.sweep,
        r.multiplier, r.amount, r.recorded_at,
    )


def payouts_select() -> Select:
    """The payout columns a report needs, before scoping (the rest follows from the deal)."""
    p, d = PAYOUT.c, DEAL.c
    return select(d.id.label("deal_id"), p.player_id, p.position, p.role, p.points)


def evenings_select() -> Select:
    """What every deal of an evening shares: its profile, stake and currency."""
    e = EVENING.c
    return select(e.id.label("evening"), e.profile, e.stake_cents, e.currency, e.started_at)


def voided_select() -> Select:
    """The voided deals' places and reasons, to be scoped with `standing=False`."""
    d = DEAL.c
    return select(d.evening_id.label("evening"), d.number, d.void_reason.label("reason"))


def scoped(query: Select, filters: Filters, player_id: int | None, *, payouts: bool, standing: bool = True) -> Select:
    """Join each deal to its current revision and evening (and payouts) and keep what the filters select.

    `standing` keeps the deals that count; without it, only the voided ones.
    """
    d, r, e = DEAL.c, REVISION.c, EVENING.c
    joined: FromClause = DEAL.join(REVISION, r.deal_id == d.id).join(EVENING, e.id == d.evening_id)
    if payouts:
        joined = joined.join(PAYOUT, PAYOUT.c.revision_id == r.id)
    voided = d.voided_at.is_(None) if standing else d.voided_at.is_not(None)
    where: list[ColumnElement[bool]] = [r.superseded_at.is_(None), voided]
    if filters.evening is not None:
        where.append(d.evening_id == filters.evening)
    if filters.profile is not None:
        where.append(e.profile == filters.profile)
    if filters.since is not None:
        where.append(e.started_at >= utc_start(filters.since))
    if filters.until is not None:
        where.append(e.started_at < utc_end(filters.until))
    if player_id is not None:
        seated = PAYOUT.alias("seated")
        where.append(exists().where(seated.c.revision_id == r.id, seated.c.player_id == player_id))
    return query.select_from(joined).where(and_(*where))


def _check(connection: Connection, filters: Filters) -> tuple[Filters, int | None]:
    """The filters with the player's name as stored, and the player's id; an error names a missing evening."""
    with Session(bind=connection) as session:
        if filters.evening is not None:
            get_table(session, filters.evening)
        if filters.player is None:
            return filters, None
        player = get_player(session, filters.player)
        return replace(filters, player=player.name), player.id


def _read(query: Select, connection: Connection, text: tuple[str, ...]) -> pd.DataFrame:
    """`pd.read_sql` in chunks, each text column made categorical as it arrives."""
    parts = []
    for chunk in pd.read_sql(query, connection, chunksize=CHUNK_ROWS):
        parts.append(chunk.astype(dict.fromkeys(text, "category")))
    frame = pd.concat(parts, ignore_index=True)
    return frame.astype(dict.fromkeys(text, "category"))  # chunks with other categories concatenate as text


def _lookup(people: pd.DataFrame) -> np.ndarray:
    """An array from player id to the player's place in name order (-1 for ids that are no player)."""
    lookup = np.full(int(people["id"].max()) + 1 if len(people) else 1, -1)
    lookup[people["id"].to_numpy(dtype=np.int64)] = np.arange(len(people))
    return lookup


def _player_codes(ids: pd.Series, lookup: np.ndarray, players: tuple[str, ...]) -> pd.Categorical:
    """Player ids (missing ones allowed) as names, categorical in the ledger's name order.

    `lookup[player id]` is the player's place in `players`.
    """
    present = ids.notna().to_numpy()
    codes = np.full(len(ids), -1)
    codes[present] = lookup[ids.to_numpy()[present].astype(np.int64)]
    return pd.Categorical.from_codes(codes, categories=players)


def _finish_deals(deals: pd.DataFrame, evenings: pd.DataFrame, seats: pd.DataFrame,
                  people: pd.DataFrame) -> pd.DataFrame:
    """Deals in playing order with the evening's columns, seat count, the dealer's seat, and names for ids."""
    names = dict(zip(people["id"], people["name"], strict=True))
    deals = deals.sort_values(["evening", "number"]).set_index("deal_id")
    evening = evenings.set_index("evening").reindex(deals["evening"])
    for column in ("profile", "stake_cents", "currency"):
        deals[column] = evening[column].to_numpy()
    deals["seats"] = deals["evening"].map(seats.groupby("evening").size()).astype("int64")
    dealer_at = seats.set_index(["evening", "player_id"])["position"]
    deals["dealer_position"] = dealer_at.reindex(pd.MultiIndex.from_frame(deals[["evening", "dealer_id"]])).to_numpy()
    seat_holder = deals.pop("holder_id").map(names)
    deals["holder"] = seat_holder.fillna(deals["holder"].astype(object)).astype("category")
    lookup, players = _lookup(people), tuple(people["name"])
    for column in PLAYER_COLUMNS:
        deals[column] = _player_codes(deals.pop(f"{column}_id"), lookup, players)
    deals = deals.astype({"profile": "category", "currency": "category"})
    deals["declarer_thirds"] = deals["declarer_thirds"].astype("Int64")
    deals["declarer_won"] = deals["declarer_won"].astype("boolean")
    deals["recorded_at"] = pd.to_datetime(deals["recorded_at"], utc=True)
    return deals


def _finish_payouts(payouts: pd.DataFrame, deals: pd.DataFrame, people: pd.DataFrame) -> pd.DataFrame:
    """Payouts in playing order, with the deal's evening and number, names, seats and money."""
    rows = deals.index.get_indexer(payouts["deal_id"])
    order = np.lexsort((payouts["position"].to_numpy(), rows))
    payouts, rows = payouts.iloc[order].reset_index(drop=True), rows[order]
    payouts["evening"] = deals["evening"].to_numpy()[rows]
    payouts["number"] = deals["number"].to_numpy()[rows]
    payouts["player"] = _player_codes(payouts.pop("player_id"), _lookup(people), tuple(people["name"]))
    seats, dealer = deals["seats"].to_numpy()[rows], deals["dealer_position"].to_numpy()[rows]
    payouts["seat"] = (payouts["position"] - dealer - 1) % seats + 1
    payouts["money_cents"] = payouts["points"] * deals["stake_cents"].to_numpy()[rows]
    return payouts[["deal_id", "evening", "number", "player", "position", "seat", "role", "points", "money_cents"]]


def load_frames(engine: Engine, filters: Filters | None = None) -> Frames:
    """Read the deals that stand (current revisions, not voided) and their payouts, as the filters select."""
    filters = filters or Filters()
    with reading(engine).connect() as connection, connection.begin():
        filters, player_id = _check(connection, filters)
        people = pd.read_sql(select(PLAYER.c.id, PLAYER.c.name, PLAYER.c.key).order_by(PLAYER.c.key), connection)
        seats = pd.read_sql(select(SEAT.c.evening_id.label("evening"), SEAT.c.player_id, SEAT.c.position), connection)
        evenings = pd.read_sql(evenings_select(), connection)
        deals = _read(scoped(deals_select(), filters, player_id, payouts=False), connection, DEAL_TEXT)
        payouts = _read(scoped(payouts_select(), filters, player_id, payouts=True), connection, ("role",))
        voided = pd.read_sql(scoped(voided_select(), filters, player_id, payouts=False, standing=False)
                             .order_by(DEAL.c.evening_id, DEAL.c.number), connection)
    deals = _finish_deals(deals, evenings, seats, people)
    evenings["started_at"] = pd.to_datetime(evenings["started_at"], utc=True)
    return Frames(deals, _finish_payouts(payouts, deals, people), tuple(people["name"]), filters,
                  evenings.set_index("evening"), voided)
