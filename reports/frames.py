"""The current, non-voided deals and their payouts: compact numpy columns read with SQL, pandas frames on demand.

The deal and payout rows reach Python as one comma-separated string per column (`group_concat` on SQLite,
`string_agg` on PostgreSQL) parsed by numpy: no Python object per value, which is what makes `pd.read_sql` slow
on a long history. Text columns travel as small integer codes (a CASE over the words the rules know; any other
word found is added to the list and the column read again). Statistics work on these columns; the pandas frames
`deals` and `payouts` are built from them the first time a chart or report asks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import pandas as pd
from sqlalchemy import Connection, Engine, FromClause, Integer, Select, String, and_, case, cast, exists, func, select
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, SQLModel

from ledger.rules.cards import DECK
from ledger.rules.contracts import Aggravation, Contract
from ledger.rules.sweeps import Sweep
from ledger.store.engine import reading
from ledger.store.evenings import get_table
from ledger.store.models import Deal, DealRevision, Evening, Payout, Player, Seat
from ledger.store.players import get_player
from reports.filters import Filters, utc_end, utc_start

DEAL, REVISION, EVENING, PAYOUT, PLAYER, SEAT = (
    SQLModel.metadata.tables[str(model.__tablename__)] for model in (Deal, DealRevision, Evening, Payout, Player, Seat))

PLAYER_COLUMNS = ("dealer", "declarer", "partner")
WORDS: dict[str, tuple[str, ...]] = {
    "contract": tuple(c.value for c in Contract), "aggravation": tuple(a.value for a in Aggravation),
    "called": tuple(str(card) for card in DECK), "holder": ("monte", "declarer"),
    "sweep": tuple(s.value for s in Sweep), "role": ("declarer", "partner", "opponent", "out", "passed"),
}
"""The words a text column holds, as the rules write them; a column's code is the word's place (-1 when null)."""
UNKNOWN = -2


@dataclass(frozen=True)
class Columns:
    """The deals in (evening, number) order and their payouts in (deal, position) order, as numpy arrays.

    Player columns are places in `Frames.players` (-1 for none); text columns are places in `words[column]`
    (-1 for null); `declarer_thirds` is -1 when missing, `declarer_won` -1/0/1. `deal` of a payout is its deal's
    row; `seats` and `dealer_position` are the deal's table size and the dealer's seat position.
    """

    deal_id: np.ndarray
    evening: np.ndarray
    number: np.ndarray
    revision_id: np.ndarray
    dealer: np.ndarray
    declarer: np.ndarray
    partner: np.ndarray
    holder_id: np.ndarray
    contract: np.ndarray
    aggravation: np.ndarray
    called: np.ndarray
    holder: np.ndarray
    sweep: np.ndarray
    declarer_thirds: np.ndarray
    declarer_won: np.ndarray
    multiplier: np.ndarray
    amount: np.ndarray
    seats: np.ndarray
    dealer_position: np.ndarray
    stake_cents: np.ndarray
    profile: np.ndarray
    currency: np.ndarray
    deal: np.ndarray
    player: np.ndarray
    position: np.ndarray
    role: np.ndarray
    points: np.ndarray
    words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per text column, the words its codes stand for; `profile` and `currency` too (codes per deal)."""

    @cached_property
    def seat(self) -> np.ndarray:
        """Per payout, the seat relative to the dealer: 1 speaks first, the dealer's seat is last."""
        return (self.position - self.dealer_position[self.deal] - 1) % self.seats[self.deal] + 1

    def code(self, column: str, word: str) -> int:
        """The code of `word` in a text column (one no row has if the column never holds it)."""
        words = self.words[column]
        return words.index(word) if word in words else len(words)


@dataclass(frozen=True)
class Frames:
    """The deals that stand and their payouts: `columns` for statistics, pandas frames for charts.

    `deals` is indexed by deal id and `payouts` one row per seated player, both in (evening, number) order.
    `players` is every player of the ledger in name order, the order that gives each player a colour.
    """

    columns: Columns
    players: tuple[str, ...]
    filters: Filters
    evenings: pd.DataFrame
    """Every evening's profile, stake, currency and start (UTC), indexed by evening number."""
    voided: pd.DataFrame
    """The voided deals the filters select: evening, number and the reason given."""
    recorded: Callable[[np.ndarray], np.ndarray] = field(repr=False, compare=False)
    """When each of these revisions was recorded (revision rows never change, so a later read agrees)."""

    @cached_property
    def deals(self) -> pd.DataFrame:
        c = self.columns
        deals = pd.DataFrame({"evening": c.evening.astype(np.int64), "number": c.number.astype(np.int64)},
                             index=pd.Index(c.deal_id.astype(np.int64), name="deal_id"))
        for column in PLAYER_COLUMNS:
            deals[column] = pd.Categorical.from_codes(getattr(c, column), categories=self.players)
        for column in ("contract", "aggravation", "called"):
            deals[column] = _categorical(getattr(c, column), c.words[column])
        holder_words = (*self.players, *c.words["holder"])
        holder = np.where(c.holder_id >= 0, c.holder_id,
                          np.where(c.holder >= 0, c.holder + len(self.players), -1))
        deals["holder"] = _categorical(holder, holder_words)
        deals["declarer_thirds"] = pd.array(np.where(c.declarer_thirds >= 0, c.declarer_thirds, 0), dtype="Int64")
        deals.loc[c.declarer_thirds < 0, "declarer_thirds"] = pd.NA
        won = pd.array(c.declarer_won == 1, dtype="boolean")
        won[c.declarer_won < 0] = pd.NA
        deals["declarer_won"] = won
        deals["sweep"] = _categorical(c.sweep, c.words["sweep"])
        deals["multiplier"] = c.multiplier.astype(np.int64)
        deals["amount"] = c.amount.astype(np.int64)
        deals["recorded_at"] = pd.to_datetime(self.recorded(c.revision_id), utc=True)
        deals["profile"] = _categorical(c.profile, c.words["profile"])
        deals["stake_cents"] = c.stake_cents.astype(np.int64)
        deals["currency"] = _categorical(c.currency, c.words["currency"])
        deals["seats"] = c.seats.astype(np.int64)
        deals["dealer_position"] = c.dealer_position.astype(np.int64)
        return deals

    @cached_property
    def payouts(self) -> pd.DataFrame:
        c = self.columns
        return pd.DataFrame({
            "deal_id": c.deal_id[c.deal].astype(np.int64), "evening": c.evening[c.deal].astype(np.int64),
            "number": c.number[c.deal].astype(np.int64),
            "player": pd.Categorical.from_codes(c.player, categories=self.players),
            "position": c.position.astype(np.int64), "seat": c.seat.astype(np.int64),
            "role": _categorical(c.role, c.words["role"]), "points": c.points.astype(np.int64),
            "money_cents": c.points.astype(np.int64) * c.stake_cents[c.deal],
        })


def _categorical(codes: np.ndarray, words: Sequence[str]) -> pd.Categorical:
    """Codes as a categorical of only the words that occur, in alphabetical order."""
    used = np.zeros(len(words) + 1, dtype=bool)
    used[np.unique(codes[codes >= 0])] = True
    kept = np.array(sorted(np.flatnonzero(used[:len(words)]).tolist(), key=lambda i: words[i]), dtype=np.int64)
    renumber = np.full(len(words) + 1, -1)
    renumber[kept] = np.arange(len(kept))
    return pd.Categorical.from_codes(np.where(codes >= 0, renumber[codes], -1),
                                     categories=[words[i] for i in kept.tolist()])


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


def _text(expression: ColumnElement, connection: Connection) -> ColumnElement:
    return cast(expression, String) if connection.dialect.name == "postgresql" else expression


def _numbers(connection: Connection, query: Select) -> list[np.ndarray]:
    """Each column of the query's rows as one int64 array: every column travels as one comma-separated string."""
    strings = query.with_only_columns(*[
        func.aggregate_strings(_text(column, connection), ",") for column in query.selected_columns])
    texts = list(connection.execute(strings.order_by(None)).one())
    arrays = []
    for i, text in enumerate(texts):
        numbers = np.fromstring(text or "", dtype=np.int64, sep=",")
        texts[i] = None  # each string is let go as soon as it is parsed
        small = len(numbers) and np.iinfo(np.int32).min <= numbers.min() and numbers.max() <= np.iinfo(np.int32).max
        arrays.append(numbers.astype(np.int32) if small else numbers)
    return arrays


def _coded(column: ColumnElement, words: Sequence[str]) -> ColumnElement:
    """A text column as the place of its word in `words`: -1 for null, UNKNOWN for a word not listed."""
    return case((column.is_(None), -1), *[(column == word, i) for i, word in enumerate(words)], else_=UNKNOWN)


Coded = dict[str, tuple[ColumnElement, tuple[str, ...]]]


def _read(connection: Connection, query: Select, numbers: dict[str, ColumnElement],
          words: Coded) -> tuple[dict[str, np.ndarray], dict[str, tuple[str, ...]]]:
    """The numeric columns, and the text columns as codes, of the query's rows (in the same row order).

    A word the rules do not list is looked up and the text columns read again with it.
    """
    listed = {name: values for name, (_, values) in words.items()}
    while True:
        names = [*numbers, *words]
        arrays = _numbers(connection, query.with_only_columns(
            *numbers.values(), *[_coded(column, listed[name]) for name, (column, _) in words.items()]))
        read = dict(zip(names, arrays, strict=True))
        unknown = [name for name in words if (read[name] == UNKNOWN).any()]
        if not unknown:
            return read, listed
        for name in unknown:
            column = words[name][0]
            found = connection.execute(query.with_only_columns(column).distinct().order_by(None)).scalars()
            listed[name] = (*listed[name], *sorted({w for w in found if w is not None} - set(listed[name])))


def _places(ids: np.ndarray, lookup: np.ndarray) -> np.ndarray:
    """Player ids (-1 for none) as places in name order (-1 for none)."""
    return np.where(ids >= 0, lookup[np.clip(ids, 0, len(lookup) - 1)], -1).astype(np.int16)


def _read_columns(connection: Connection, filters: Filters, player_id: int | None,
                  people: pd.DataFrame, seats: pd.DataFrame, evenings: pd.DataFrame) -> Columns:
    d, r, p = DEAL.c, REVISION.c, PAYOUT.c
    missing = -1
    deal_query = scoped(select(d.id), filters, player_id, payouts=False)
    deals, deal_words = _read(connection, deal_query, {
        "deal_id": d.id, "evening": d.evening_id, "number": d.number, "revision_id": r.id,
        "dealer": func.coalesce(r.dealer_id, missing), "declarer": func.coalesce(r.declarer_id, missing),
        "partner": func.coalesce(r.partner_id, missing), "holder_id": func.coalesce(r.holder_id, missing),
        "declarer_thirds": func.coalesce(r.declarer_thirds, missing),
        "declarer_won": func.coalesce(cast(r.declarer_won, Integer), missing),
        "multiplier": r.multiplier, "amount": r.amount,
    }, {name: (r[name], WORDS[name]) for name in ("contract", "aggravation", "called", "holder", "sweep")})
    pay_query = scoped(select(p.id), filters, player_id, payouts=True)
    pays, pay_words = _read(connection, pay_query, {
        "deal_id": d.id, "player_id": p.player_id, "position": p.position, "points": p.points,
    }, {"role": (p.role, WORDS["role"])})
    order = np.lexsort((deals["number"], deals["evening"]))
    deals = {name: values[order] for name, values in deals.items()}
    row_of = np.full(int(deals["deal_id"].max()) + 1 if len(order) else 1, -1, dtype=np.int64)
    row_of[deals["deal_id"]] = np.arange(len(order))
    rows = row_of[pays["deal_id"]] if len(pays["deal_id"]) else pays["deal_id"]
    order = np.lexsort((pays["position"], rows))
    pays = {name: values[order] for name, values in pays.items()}
    rows = rows[order]

    lookup = np.full(int(people["id"].max()) + 1 if len(people) else 1, -1, dtype=np.int64)
    lookup[people["id"].to_numpy(dtype=np.int64)] = np.arange(len(people))
    evening_ids = evenings["evening"].to_numpy(dtype=np.int64)
    evening_row = np.full(int(evening_ids.max()) + 1 if len(evening_ids) else 1, -1, dtype=np.int64)
    evening_row[evening_ids] = np.arange(len(evening_ids))
    at = evening_row[deals["evening"]]
    size = np.bincount(evening_row[seats["evening"].to_numpy(dtype=np.int64)], minlength=len(evening_ids))
    dealer_position = _seat_positions(seats, deals["evening"], deals["dealer"])
    profile_codes, profile_words = pd.factorize(evenings["profile"])
    currency_codes, currency_words = pd.factorize(evenings["currency"])
    small = np.int16
    return Columns(
        deal_id=deals["deal_id"], evening=deals["evening"].astype(np.int32), number=deals["number"].astype(np.int32),
        revision_id=deals["revision_id"], dealer=_places(deals["dealer"], lookup),
        declarer=_places(deals["declarer"], lookup), partner=_places(deals["partner"], lookup),
        holder_id=_places(deals["holder_id"], lookup),
        **{name: deals[name].astype(small) for name in ("contract", "aggravation", "called", "holder", "sweep")},
        declarer_thirds=deals["declarer_thirds"].astype(small), declarer_won=deals["declarer_won"].astype(np.int8),
        multiplier=deals["multiplier"].astype(np.int32), amount=deals["amount"].astype(np.int32),
        seats=size[at].astype(small), dealer_position=dealer_position.astype(small),
        stake_cents=evenings["stake_cents"].to_numpy(dtype=np.int64)[at],
        profile=profile_codes[at].astype(small), currency=currency_codes[at].astype(small),
        deal=rows.astype(np.int32), player=_places(pays["player_id"], lookup), position=pays["position"].astype(small),
        role=pays["role"].astype(np.int8), points=pays["points"].astype(np.int32),
        words={**deal_words, **pay_words, "profile": tuple(profile_words), "currency": tuple(currency_words)},
    )


def _seat_positions(seats: pd.DataFrame, evening: np.ndarray, player_id: np.ndarray) -> np.ndarray:
    """Where each (evening, player id) sits at the evening's table (-1 if not seated)."""
    span = int(max(seats["player_id"].max() if len(seats) else 0, player_id.max() if len(player_id) else 0)) + 1
    keys = seats["evening"].to_numpy(dtype=np.int64) * span + seats["player_id"].to_numpy(dtype=np.int64)
    order = np.argsort(keys)
    keys, positions = keys[order], seats["position"].to_numpy(dtype=np.int64)[order]
    wanted = evening * span + player_id
    at = np.clip(np.searchsorted(keys, wanted), 0, max(len(keys) - 1, 0))
    if not len(keys):
        return np.full(len(wanted), -1, dtype=np.int64)
    return np.where(keys[at] == wanted, positions[at], -1)


def _recorder(engine: Engine, filters: Filters, player_id: int | None) -> Callable[[np.ndarray], np.ndarray]:
    """A reader of when revisions were recorded, for the pandas frames (statistics never need it)."""
    def recorded(revision_ids: np.ndarray) -> np.ndarray:
        r = REVISION.c
        when = pd.Series(pd.NaT, index=revision_ids, dtype="datetime64[us, UTC]")
        if not len(revision_ids):
            return when.to_numpy()
        with reading(engine).connect() as connection, connection.begin():
            if len(revision_ids) > 1000:
                rows = connection.execute(scoped(select(r.id, r.recorded_at), filters, player_id, payouts=False))
            else:
                rows = connection.execute(select(r.id, r.recorded_at).where(r.id.in_(revision_ids.tolist())))
            found = pd.DataFrame(rows.all(), columns=["id", "recorded_at"])
            missing = np.setdiff1d(revision_ids, found["id"].to_numpy(dtype=np.int64))
            if len(missing):
                more = connection.execute(select(r.id, r.recorded_at).where(r.id.in_(missing.tolist()))).all()
                found = pd.concat([found, pd.DataFrame(more, columns=["id", "recorded_at"])])
        return pd.to_datetime(found.set_index("id")["recorded_at"], utc=True).reindex(revision_ids).to_numpy()
    return recorded


def load_frames(engine: Engine, filters: Filters | None = None) -> Frames:
    """Read the deals that stand (current revisions, not voided) and their payouts, as the filters select."""
    filters = filters or Filters()
    with reading(engine).connect() as connection, connection.begin():
        filters, player_id = _check(connection, filters)
        people = pd.read_sql(select(PLAYER.c.id, PLAYER.c.name, PLAYER.c.key).order_by(PLAYER.c.key), connection)
        seats = pd.read_sql(select(SEAT.c.evening_id.label("evening"), SEAT.c.player_id, SEAT.c.position), connection)
        evenings = pd.read_sql(evenings_select(), connection)
        columns = _read_columns(connection, filters, player_id, people, seats, evenings)
        voided = pd.read_sql(scoped(voided_select(), filters, player_id, payouts=False, standing=False)
                             .order_by(DEAL.c.evening_id, DEAL.c.number), connection)
    evenings["started_at"] = pd.to_datetime(evenings["started_at"], utc=True)
    return Frames(columns, tuple(people["name"]), filters, evenings.set_index("evening"), voided,
                  _recorder(engine, filters, player_id))
