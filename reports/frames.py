"""The deals that count and their payouts, as the filters select them, read into pandas frames."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain
from typing import Any

import numpy as np
import pandas as pd
from sqlalchemy import Connection, Engine, Select, and_, exists, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import aliased
from sqlalchemy.sql import ClauseElement
from sqlmodel import Session, col

from ledger.clock import day_start
from ledger.reports.filters import Filters, utc_end
from ledger.store.counting import CURRENT, counting_deals, counting_payouts
from ledger.store.engine import reading
from ledger.store.evenings import get_seating
from ledger.store.models import Deal, DealRevision, Evening, Payout, Player, Seat
from ledger.store.players import get_player

PLAYER_COLUMNS = ("dealer", "declarer", "partner")
READ_ROWS = 100_000
"""Rows read at a time: the rows are held as Python values only this many at once."""
R = DealRevision
DEAL_COLUMNS: dict[str, tuple[Any, str]] = {
    "deal_id": (Deal.id, "int64"),
    "evening": (Deal.evening_id, "int64"),
    "number": (Deal.number, "int64"),
    "dealer_id": (R.dealer_id, "int64"),
    "declarer_id": (R.declarer_id, "float64"),
    "partner_id": (R.partner_id, "float64"),
    "contract": (R.contract, "category"),
    "aggravation": (R.aggravation, "category"),
    "called": (R.called, "category"),
    "holder_id": (R.holder_id, "float64"),
    "holder": (R.holder, "object"),
    "declarer_thirds": (R.declarer_thirds, "float64"),
    "declarer_won": (R.declarer_won, "float64"),
    "sweep": (R.sweep, "category"),
}
"""What is read of each deal that counts, and its type as read (a number that may be missing reads as a float)."""
PAYOUT_COLUMNS: dict[str, tuple[Any, str]] = {
    "deal_id": (Deal.id, "int64"),
    "player_id": (Payout.player_id, "int64"),
    "role": (Payout.role, "category"),
    "points": (Payout.points, "int64"),
}
"""What is read of each of their payouts, and its type (the player's position is the seat's, from `seat`)."""
PLAYER_NAMES: dict[str, tuple[Any, str]] = {"id": (Player.id, "int64"), "name": (Player.name, "object")}
"""Every player of the ledger (read in name order)."""
EVENING_COLUMNS: dict[str, tuple[Any, str]] = {
    "evening": (Evening.id, "int64"),
    "profile": (Evening.profile, "object"),
    "stake_cents": (Evening.stake_cents, "int64"),
    "currency": (Evening.currency, "object"),
    "started_at": (Evening.started_at, "object"),
    "game_to": (col(Evening.options)["game_to"].as_integer(), "float64"),
}
"""Every evening's profile, stake, currency, start, and game to N points (missing where it has none)."""
SEAT_COLUMNS: dict[str, tuple[Any, str]] = {
    "evening": (Seat.evening_id, "int64"),
    "player_id": (Seat.player_id, "int64"),
    "position": (Seat.position, "int64"),
}
"""Who sat where at each evening."""
VOIDED_COLUMNS: dict[str, tuple[Any, str]] = {
    "evening": (Deal.evening_id, "int64"),
    "number": (Deal.number, "int64"),
    "reason": (Deal.void_reason, "object"),
}
"""What is read of each voided deal (the reason missing where none was given)."""


@dataclass(frozen=True)
class Frames:
    """The deals that count and their payouts, both in playing order.

    `deals` is indexed by deal id, one row per deal by (evening, number): players by name, the words the rules
    wrote, the evening's profile, stake and currency, the table's size (`seats`) and the dealer's seat position.
    `payouts` is one row per seated player, by (evening, number, position), with the seat counted from the dealer
    (1 speaks first, the dealer's seat is last) and the money in cents. `players` is every player of the ledger in
    name order: the order of the player columns' categories, which gives each player a colour.
    """

    deals: pd.DataFrame
    payouts: pd.DataFrame
    players: tuple[str, ...]
    filters: Filters
    evenings: pd.DataFrame
    """Every evening's profile, stake, currency, start (UTC) and game to N points, indexed by evening number."""
    voided: pd.DataFrame
    """The voided deals the filters select: evening, number and the reason given, in playing order."""
    deal_rows: np.ndarray
    """Each payout's deal, as its row in `deals`."""

    def per_payout(self, values: pd.Series) -> pd.Series:
        """Values of the deals (a column of `deals`, or aligned with it) for each payout: its deal's value."""
        return pd.Series(values.array.take(self.deal_rows), index=self.payouts.index)


def _chosen(query: Select[Any], filters: Filters, player_id: int | None) -> Select[Any]:
    """The query (of deals joined to their current revision and evening) kept to what the filters select."""
    if filters.evening is not None:
        query = query.where(col(Deal.evening_id) == filters.evening)
    if filters.profile is not None:
        query = query.where(col(Evening.profile) == filters.profile)
    if filters.since is not None:
        query = query.where(col(Evening.started_at) >= day_start(filters.since))
    if filters.until is not None:
        query = query.where(col(Evening.started_at) < utc_end(filters.until))
    if player_id is not None:
        seated = aliased(Payout)
        query = query.where(
            exists().where(col(seated.revision_id) == DealRevision.id, col(seated.player_id) == player_id)
        )
    return query


def _of_evening(query: Select[Any], evening: Any, filters: Filters) -> Select[Any]:
    """The query of every evening's rows kept to the filters' evening's, when they name one."""
    return query if filters.evening is None else query.where(col(evening) == filters.evening)


def _played_last() -> Select[Any]:
    """The latest evening played: the evening of the last deal that counts."""
    return counting_deals(col(Deal.evening_id)).order_by(col(Deal.evening_id).desc()).limit(1)


def voided_deals(filters: Filters, player_id: int | None = None) -> Select[Any]:
    """The voided deals of evenings that count (`VOIDED_COLUMNS`), as the filters select them."""
    query = (
        select(*_labelled(VOIDED_COLUMNS))
        .join(DealRevision, and_(col(DealRevision.deal_id) == Deal.id, CURRENT))
        .join(Evening, and_(col(Evening.id) == Deal.evening_id, col(Evening.voided_at).is_(None)))
        .where(col(Deal.voided_at).is_not(None))
    )
    return _chosen(query, filters, player_id)


def _check(connection: Connection, filters: Filters) -> tuple[Filters, int | None]:
    """The filters with the player's name as stored, and the player's id; an error names a missing evening."""
    with Session(bind=connection) as session:
        if filters.evening is not None:
            get_seating(session, filters.evening)
        if filters.player is None:
            return filters, None
        player = get_player(session, filters.player)
        return replace(filters, player=player.name), player.id


def _labelled(columns: dict[str, tuple[Any, str]]) -> list[Any]:
    """The columns to select, each under its name."""
    return [column.label(name) for name, (column, _) in columns.items()]


def _frame(query: ClauseElement, connection: Connection, columns: dict[str, tuple[Any, str]]) -> pd.DataFrame:
    """The query's rows (of `_labelled(columns)`) as a frame of the columns' types, read `READ_ROWS` at a time from
    the driver's cursor as plain tuples (no row objects), each batch typed before the next is read. (Through the
    engine's own driver, never a second SQLite library such as an Arrow driver's: SQLite's locks are the program's,
    and another copy's closing the file would drop the locks of this program's open reads.)"""
    dtypes = {name: dtype for name, (_, dtype) in columns.items()}
    sql = str(query.compile(dialect=connection.dialect, compile_kwargs={"literal_binds": True}))
    cursor = connection.connection.cursor()
    try:
        cursor.execute(sql)
        batches = [_typed(rows, dtypes) for rows in iter(partial(cursor.fetchmany, READ_ROWS), [])]
    except connection.dialect.loaded_dbapi.Error as error:
        raise DBAPIError.instance(sql, None, error, connection.dialect.loaded_dbapi.Error) from None
    finally:
        cursor.close()
    return pd.concat(batches or [_typed([], dtypes)], ignore_index=True).astype(dtypes)


def _typed(rows: Sequence[Any], dtypes: dict[str, str]) -> pd.DataFrame:
    """Rows (tuples in the order of `dtypes`) as a frame of those types."""
    values = np.fromiter(chain.from_iterable(rows), dtype=object, count=len(rows) * len(dtypes))
    table = values.reshape(-1, len(dtypes))
    return pd.DataFrame({name: _column(table[:, i], dtype) for i, (name, dtype) in enumerate(dtypes.items())})


def _column(values: np.ndarray, dtype: str) -> Any:
    """Python values as a column of `dtype`; words as categories in sorted order, as `astype("category")` gives them
    (but from one `pd.factorize`)."""
    if dtype == "category":
        return pd.Categorical.from_codes(*pd.factorize(values, sort=True))
    return pd.Series(values, dtype=object).astype(dtype)


def _named(ids: pd.Series, people: pd.Index, players: tuple[str, ...]) -> pd.Categorical:
    """Player ids (NaN for none) as a categorical of names in name order."""
    return pd.Categorical.from_codes(people.get_indexer(ids), categories=players)


def load_frames(engine: Engine, filters: Filters | None = None, *, one_evening: bool = False) -> Frames:
    """Read the deals that count and their payouts, as the filters select them; with `one_evening`, of the evening
    the filters name or else of the latest evening played (a deal of it counts), and nothing of any other."""
    with reading(engine).connect() as connection, connection.begin():  # one transaction: one snapshot of the ledger
        filters, player_id = _check(connection, filters or Filters())
        if one_evening and filters.evening is None:
            filters = replace(filters, evening=connection.execute(_played_last()).scalar())
        people = _frame(select(*_labelled(PLAYER_NAMES)).order_by(col(Player.key)), connection, PLAYER_NAMES)
        evenings = _frame(
            _of_evening(select(*_labelled(EVENING_COLUMNS)), Evening.id, filters), connection, EVENING_COLUMNS
        )
        seats = _frame(
            _of_evening(select(*_labelled(SEAT_COLUMNS)), Seat.evening_id, filters), connection, SEAT_COLUMNS
        )
        deals = _frame(_chosen(counting_deals(*_labelled(DEAL_COLUMNS)), filters, player_id), connection, DEAL_COLUMNS)
        payouts = _frame(
            _chosen(counting_payouts(*_labelled(PAYOUT_COLUMNS)), filters, player_id), connection, PAYOUT_COLUMNS
        )
        voided = _frame(voided_deals(filters, player_id), connection, VOIDED_COLUMNS)
    players = tuple(people["name"])
    ids = pd.Index(people["id"])
    evenings["started_at"] = pd.to_datetime(evenings["started_at"], utc=True, format="ISO8601")
    evenings = evenings.set_index("evening")
    deals = _deals(deals, evenings, seats, ids, players)
    payouts, deal_rows = _payouts(payouts, deals, seats, ids, players)
    return Frames(
        deals,
        payouts,
        players,
        filters,
        evenings,
        voided.sort_values(["evening", "number"], ignore_index=True),
        deal_rows,
    )


def _deals(
    read: pd.DataFrame, evenings: pd.DataFrame, seats: pd.DataFrame, ids: pd.Index, players: tuple[str, ...]
) -> pd.DataFrame:
    """The deals as read, in playing order, with names for ids and what their evening and table give them."""
    read = read.sort_values(["evening", "number"], ignore_index=True)
    deals = pd.DataFrame(
        {"evening": read["evening"].to_numpy(), "number": read["number"].to_numpy()},
        index=pd.Index(read["deal_id"], name="deal_id"),
    ).astype(np.int64)
    for column in PLAYER_COLUMNS:
        deals[column] = _named(read[f"{column}_id"], ids, players)
    for column in ("contract", "aggravation", "called"):
        deals[column] = read[column].array
    named_holder = pd.Series(_named(read["holder_id"], ids, players)).astype(object)
    deals["holder"] = named_holder.where(named_holder.notna(), read["holder"]).astype("category").array
    deals["declarer_thirds"] = read["declarer_thirds"].astype("Int64").array
    deals["declarer_won"] = read["declarer_won"].astype("boolean").array
    deals["sweep"] = read["sweep"].array
    shared = evenings.astype({"profile": "category", "currency": "category"}).reindex(read["evening"])
    deals["profile"] = shared["profile"].array
    deals["stake_cents"] = shared["stake_cents"].to_numpy(dtype=np.int64)
    deals["currency"] = shared["currency"].array
    deals["seats"] = seats.groupby("evening").size().reindex(read["evening"]).to_numpy(dtype=np.int64)
    deals["dealer_position"] = _positions(seats, read["evening"], read["dealer_id"])
    return deals


def _positions(seats: pd.DataFrame, evening: Any, player_id: Any) -> np.ndarray:
    """Each player's seat position at the evening alongside (-1 for a player not seated there)."""
    seated = pd.DataFrame({"evening": evening, "player_id": player_id}).merge(seats, how="left")
    return seated["position"].fillna(-1).to_numpy(dtype=np.int64)


def _payouts(
    read: pd.DataFrame, deals: pd.DataFrame, seats: pd.DataFrame, ids: pd.Index, players: tuple[str, ...]
) -> tuple[pd.DataFrame, np.ndarray]:
    """The payouts as read, in playing order, with their deal's place, the seat from the dealer and the money; and
    each one's deal as its row in `deals`."""
    row = deals.index.get_indexer(read["deal_id"])
    position = _positions(seats, deals["evening"].to_numpy()[row], read["player_id"].to_numpy())
    read = read.assign(row=row, position=position).sort_values(["row", "position"])
    row = read["row"].to_numpy()
    position = read["position"].to_numpy(dtype=np.int64)
    seats = deals["seats"].to_numpy()[row]
    points = read["points"].to_numpy(dtype=np.int64)
    payouts = pd.DataFrame(
        {
            "deal_id": read["deal_id"].to_numpy(dtype=np.int64),
            "evening": deals["evening"].to_numpy()[row],
            "number": deals["number"].to_numpy()[row],
            "player": _named(read["player_id"], ids, players),
            "position": position,
            "seat": (position - deals["dealer_position"].to_numpy()[row] - 1) % seats + 1,
            "role": read["role"].astype("category").array,
            "points": points,
            "money_cents": points * deals["stake_cents"].to_numpy()[row],
        }
    )
    return payouts, row
