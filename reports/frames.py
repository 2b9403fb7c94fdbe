"""The current, non-voided deals and their payouts: compact numpy columns read with SQL, pandas frames on demand.

The deal and payout rows reach Python as one comma-separated string, each row's values side by side
(`group_concat` on SQLite, `string_agg` on PostgreSQL, neither sorting), parsed by numpy: no Python object per
value, which is what makes `pd.read_sql` slow on a long history. Text columns travel as small integer codes (a CASE
over the words the rules know; any other word found is added to the list and the column read again). Small columns
(ids, codes, thirds, a deal's number, a payout's position and points) travel several to one integer, each in the
bits its range needs; a value out of its range makes that column travel on its own. Rows are read in slices of ids,
so only one slice's string is held at a time; with no filter, payouts are read from their table alone and matched
to the deals by revision.
Statistics work on these columns; the pandas frames `deals` and `payouts` are built from them (with the multiplier,
amount and time recorded, read then) the first time a chart or report asks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd
from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    FromClause,
    Integer,
    Select,
    String,
    Table,
    and_,
    case,
    cast,
    exists,
    func,
    literal_column,
    select,
)
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, SQLModel

from ledger.rules.cards import DECK, Rank
from ledger.rules.contracts import Aggravation, Contract
from ledger.rules.sweeps import Sweep
from ledger.store.engine import reading
from ledger.store.evenings import get_seating
from ledger.store.models import Deal, DealRevision, Evening, Payout, Player, Seat
from ledger.store.players import get_player
from reports.filters import Filters, utc_end, utc_start

DEAL, REVISION, EVENING, PAYOUT, PLAYER, SEAT = (
    SQLModel.metadata.tables[str(model.__tablename__)] for model in (Deal, DealRevision, Evening, Payout, Player, Seat)
)

PLAYER_COLUMNS = ("dealer", "declarer", "partner")
WORDS: dict[str, tuple[str, ...]] = {
    "contract": tuple(c.value for c in Contract),
    "aggravation": tuple(a.value for a in Aggravation),
    "called": (*(str(card) for card in DECK), *(str(rank) for rank in Rank)),  # a rank alone: the suit not said
    "holder": ("monte", "declarer"),
    "sweep": tuple(s.value for s in Sweep),
    "role": ("declarer", "partner", "opponent", "out", "passed"),
}
"""The words a text column holds, as the rules write them; a column's code is the word's place (-1 when null)."""
UNKNOWN = -2


@dataclass(frozen=True)
class Columns:
    """The deals in (evening, number) order and their payouts in (deal, position) order, as numpy arrays.

    Player columns are places in `Frames.players` (-1 for none); text columns are places in `words[column]`
    (-1 for null); `declarer_thirds` is -1 when missing, `declarer_won` -1/0/1. `deal` of a payout is its deal's
    row; `seats` and `dealer_position` are the deal's table size and the dealer's seat position. `points` is in
    the smallest integer type that holds the ledger's (16 bits unless a payout is beyond 1,023 points).
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
    revisions: Callable[[np.ndarray], pd.DataFrame] = field(repr=False, compare=False)
    """These revisions' multiplier, amount and when recorded, in order (revision rows never change, so a later
    read agrees); statistics never need them."""

    @cached_property
    def deals(self) -> pd.DataFrame:
        c = self.columns
        deals = pd.DataFrame(
            {"evening": c.evening.astype(np.int64), "number": c.number.astype(np.int64)},
            index=pd.Index(c.deal_id.astype(np.int64), name="deal_id"),
        )
        for column in PLAYER_COLUMNS:
            deals[column] = pd.Categorical.from_codes(getattr(c, column), categories=self.players)
        for column in ("contract", "aggravation", "called"):
            deals[column] = _categorical(getattr(c, column), c.words[column])
        holder_words = (*self.players, *c.words["holder"])
        holder = np.where(c.holder_id >= 0, c.holder_id, np.where(c.holder >= 0, c.holder + len(self.players), -1))
        deals["holder"] = _categorical(holder, holder_words)
        deals["declarer_thirds"] = pd.array(np.where(c.declarer_thirds >= 0, c.declarer_thirds, 0), dtype="Int64")
        deals.loc[c.declarer_thirds < 0, "declarer_thirds"] = pd.NA
        won = pd.array(c.declarer_won == 1, dtype="boolean")
        won[c.declarer_won < 0] = pd.NA
        deals["declarer_won"] = won
        deals["sweep"] = _categorical(c.sweep, c.words["sweep"])
        revisions = self.revisions(c.revision_id)
        deals["multiplier"] = revisions["multiplier"].to_numpy(dtype=np.int64)
        deals["amount"] = revisions["amount"].to_numpy(dtype=np.int64)
        deals["recorded_at"] = pd.to_datetime(revisions["recorded_at"].to_numpy(), utc=True)
        deals["profile"] = _categorical(c.profile, c.words["profile"])
        deals["stake_cents"] = c.stake_cents.astype(np.int64)
        deals["currency"] = _categorical(c.currency, c.words["currency"])
        deals["seats"] = c.seats.astype(np.int64)
        deals["dealer_position"] = c.dealer_position.astype(np.int64)
        return deals

    @cached_property
    def payouts(self) -> pd.DataFrame:
        c = self.columns
        return pd.DataFrame(
            {
                "deal_id": c.deal_id[c.deal].astype(np.int64),
                "evening": c.evening[c.deal].astype(np.int64),
                "number": c.number[c.deal].astype(np.int64),
                "player": pd.Categorical.from_codes(c.player, categories=self.players),
                "position": c.position.astype(np.int64),
                "seat": c.seat.astype(np.int64),
                "role": _categorical(c.role, c.words["role"]),
                "points": c.points.astype(np.int64),
                "money_cents": c.points.astype(np.int64) * c.stake_cents[c.deal],
            }
        )


def _categorical(codes: np.ndarray, words: Sequence[str]) -> pd.Categorical:
    """Codes as a categorical of only the words that occur, in alphabetical order."""
    used = np.zeros(len(words) + 1, dtype=bool)
    used[np.unique(codes[codes >= 0])] = True
    kept = np.array(sorted(np.flatnonzero(used[: len(words)]).tolist(), key=lambda i: words[i]), dtype=np.int64)
    renumber = np.full(len(words) + 1, -1)
    renumber[kept] = np.arange(len(kept))
    return pd.Categorical.from_codes(
        np.where(codes >= 0, renumber[codes], -1), categories=[words[i] for i in kept.tolist()]
    )


def deals_select() -> Select:
    """The deal columns a report needs, before scoping (ids where names go; evening columns come separately)."""
    d, r = DEAL.c, REVISION.c
    return select(
        d.id.label("deal_id"),
        d.evening_id.label("evening"),
        d.number,
        r.dealer_id,
        r.declarer_id,
        r.partner_id,
        r.contract,
        r.aggravation,
        r.called,
        r.holder_id,
        r.holder,
        r.declarer_thirds,
        r.declarer_won,
        r.sweep,
        r.multiplier,
        r.amount,
        r.recorded_at,
    )


def payouts_select() -> Select:
    """The payout columns a report needs, before scoping (the rest follows from the deal)."""
    p, d = PAYOUT.c, DEAL.c
    return select(d.id.label("deal_id"), p.player_id, p.position, p.role, p.points)


def evenings_select() -> Select:
    """What every deal of an evening shares: its profile (and its options), stake and currency."""
    e = EVENING.c
    return select(e.id.label("evening"), e.profile, e.options, e.stake_cents, e.currency, e.started_at)


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
    where: list[ColumnElement[bool]] = [r.superseded_at.is_(None), voided, e.voided_at.is_(None)]
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
            get_seating(session, filters.evening)
        if filters.player is None:
            return filters, None
        player = get_player(session, filters.player)
        return replace(filters, player=player.name), player.id


def _numbers(connection: Connection, query: Select) -> list[np.ndarray]:
    """Each column of the query's rows (integers, never null) as one array (32-bit when its values fit).

    The rows travel as one comma-separated string, each row's values side by side, so the columns agree row for
    row in whatever order the rows come, and the database never sorts them.
    """
    comma = literal_column("','", String)
    row: ColumnElement[str] = cast(query.selected_columns[0], String)
    for column in query.selected_columns[1:]:
        row = row + comma + cast(column, String)
    aggregate = func.string_agg(row, comma) if connection.dialect.name == "postgresql" else func.group_concat(row, ",")
    text = connection.execute(query.with_only_columns(aggregate).order_by(None)).scalar()
    width = len(query.selected_columns)
    rows = np.fromstring(text or "", dtype=np.int64, sep=",").reshape(-1, width)
    arrays = []
    for numbers in rows.T:
        small = len(numbers) and np.iinfo(np.int32).min <= numbers.min() and numbers.max() <= np.iinfo(np.int32).max
        arrays.append(numbers.astype(np.int32 if small else np.int64))
    return arrays


def _coded(column: ColumnElement, words: Sequence[str]) -> ColumnElement:
    """A text column as the place of its word in `words`: -1 for null, UNKNOWN for a word not listed.

    `CASE column WHEN word ...` reads the column once per row (a `WHEN column = word` per word reads it each time).
    """
    return case(
        {word: i for i, word in enumerate(words)}, value=column, else_=case((column.is_(None), -1), else_=UNKNOWN)
    )


@dataclass(frozen=True)
class Small:
    """A small integer column to travel packed with others: its values from `low` on, in `bits` bits.

    A `checked` column may hold a value out of that range: it then travels as the all-ones mark, and the column
    is read on its own instead. An unchecked one is in range by construction (a word's code).
    """

    expression: ColumnElement
    low: int
    bits: int
    checked: bool = True


PACK_BITS = 62
"""Bits of one packed integer (SQLite integers and PostgreSQL bigint are signed 64-bit)."""


def _packs(small: dict[str, Small]) -> list[list[tuple[str, int]]]:
    """The columns in packed integers, in order, each with its shift; a pack never exceeds PACK_BITS."""
    packs: list[list[tuple[str, int]]] = []
    used = PACK_BITS
    for name, field_ in small.items():
        if used + field_.bits > PACK_BITS:
            packs.append([])
            used = 0
        packs[-1].append((name, used))
        used += field_.bits
    return packs


def _packed(pack: list[tuple[str, int]], small: dict[str, Small], connection: Connection) -> ColumnElement:
    """The SQL that sums the pack's columns, each moved to its place (out of range values as the mark)."""
    terms = []
    for name, shift in pack:
        f = small[name]
        mark = (1 << f.bits) - 1
        value = f.expression - f.low if f.low else f.expression
        if f.checked:
            value = case((f.expression.between(f.low, f.low + mark - 1), value), else_=mark)
        if connection.dialect.name == "postgresql":
            value = cast(value, BigInteger)
        terms.append(value * literal_column(str(1 << shift), BigInteger) if shift else value)
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


Coded = dict[str, tuple[ColumnElement, tuple[str, ...]]]


CHUNK_IDS = 250_000
"""Rows are read in slices of this many ids, so only one slice's string is held at a time."""
DENSE_IDS, DENSE_SLACK = 4, 1 << 16
"""Ids are looked up through a table indexed by id while the largest is at most `DENSE_IDS` times their count
plus `DENSE_SLACK`; sparser ids (a database whose ids jumped) are searched for instead."""


def _slices(span: tuple[int | None, int | None]) -> list[tuple[int, int] | None]:
    """The id ranges to read, given the smallest and largest id (None: one read of everything)."""
    low, high = span
    if low is None or high is None:
        return [None]
    return [(start, min(start + CHUNK_IDS - 1, high)) for start in range(low, high + 1, CHUNK_IDS)]


def _dtype(low: int, high: int) -> type[np.signedinteger]:
    """The smallest integer type that holds low..high."""
    for dtype in (np.int8, np.int16, np.int32):
        if np.iinfo(dtype).min <= low and high <= np.iinfo(dtype).max:
            return dtype
    return np.int64


def _read(
    connection: Connection, query: Select, small: dict[str, Small], words: Coded, span: tuple[int | None, int | None]
) -> tuple[dict[str, np.ndarray], dict[str, tuple[str, ...]]]:
    """The small columns, packed several to an integer, and the text columns as codes (packed too), of the query's
    rows (in the same row order), read in slices of the query's first column (an id) over `span`, its smallest
    and largest value.

    A word the rules do not list is looked up and the text columns read again with it; a small column with a
    value out of its range is read again on its own.
    """
    listed = {name: values for name, (_, values) in words.items()}
    numbers: dict[str, ColumnElement] = {}
    small = dict(small)
    key = query.selected_columns[0]
    while True:
        packed = {
            **small,
            **{
                name: Small(_coded(column, listed[name]), UNKNOWN, (len(listed[name]) + 1).bit_length(), checked=False)
                for name, (column, _) in words.items()
            },
        }
        packs = _packs(packed)
        wanted = query.with_only_columns(*numbers.values(), *[_packed(pack, packed, connection) for pack in packs])
        parts: dict[str, list[np.ndarray]] = {name: [] for name in (*numbers, *packed)}
        out_of_range: set[str] = set()
        unknown: set[str] = set()
        for ids in _slices(span):
            arrays = _numbers(connection, wanted.where(key.between(*ids)) if ids else wanted)
            for name, values in zip(numbers, arrays, strict=False):
                parts[name].append(values)
            for pack, values in zip(packs, arrays[len(numbers) :], strict=True):
                values = values.astype(np.int64, copy=False)
                for name, shift in pack:
                    f = packed[name]
                    mark = (1 << f.bits) - 1
                    part = (values >> shift) & mark
                    if f.checked and (part == mark).any():
                        out_of_range.add(name)
                    parts[name].append((part + f.low).astype(_dtype(f.low, f.low + mark)))
            unknown |= {name for name in words if (parts[name][-1] == UNKNOWN).any()}
            if out_of_range or unknown:
                break
        if not unknown and not out_of_range:
            return {name: np.concatenate(parts.pop(name)) for name in list(parts)}, listed  # one part list at a time
        for name in out_of_range:
            numbers[name] = small.pop(name).expression
        for name in unknown:
            column = words[name][0]
            found = connection.execute(query.with_only_columns(column).distinct().order_by(None)).scalars()
            new = sorted({w for w in found if w is not None} - set(listed[name]))
            if not new:  # every word is listed, so the codes read back wrong: reading again would never end
                raise RuntimeError(f"column {name}: codes read back that stand for no word")
            listed[name] = (*listed[name], *new)


def _places(ids: np.ndarray, people: np.ndarray) -> np.ndarray:
    """Player ids (-1 for none) as places in name order, the order of `people`'s ids (-1 for none)."""
    return _rows_of(people, ids).astype(np.int16)


def _bits(low: int, top: int) -> int:
    """Bits for the values low..top and the out-of-range mark above them (at most 31)."""
    return min(max(top - low + 1, 1).bit_length(), 31)


def _ids(expression: ColumnElement, low: int, top: int, recheck: bool) -> Small:
    """Ids (`low` for none) up to `top`, the largest its table held when read in this transaction: checked when
    a later statement may see a larger one (`recheck`) or when `top` does not fit 31 bits."""
    bits = _bits(low, top)
    return Small(expression, low, bits, checked=recheck or top - low >= (1 << bits) - 1)


def _ascending(major: np.ndarray, minor: np.ndarray) -> bool:
    """Whether the rows are already in (major, minor) order (then they need no sorting)."""
    if len(major) < 2:
        return True
    after, before = major[1:], major[:-1]
    return bool((after >= before).all() and ((after > before) | (minor[1:] >= minor[:-1])).all())


def _span(connection: Connection, table: Table) -> tuple[int | None, int | None]:
    """The smallest and largest id of a table (one subquery each: SQLite finds either at once, not both)."""
    low, high = connection.execute(
        select(select(func.min(table.c.id)).scalar_subquery(), select(func.max(table.c.id)).scalar_subquery())
    ).one()
    return low, high


def _rows_of(ids: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Per wanted id, its place in `ids` (-1 where it is not there, and for a negative id): through a table
    indexed by id while the ids are dense enough for one, else by a sorted search (an id can be any number)."""
    dtype = np.int32 if len(ids) < np.iinfo(np.int32).max else np.int64
    if not len(ids) or not len(wanted):
        return np.full(len(wanted), -1, dtype=dtype)
    top = max(int(ids.max()), int(wanted.max()))
    if top <= DENSE_IDS * len(ids) + DENSE_SLACK:
        place = np.full(top + 2, -1, dtype=dtype)  # the last place answers a negative id
        place[ids] = np.arange(len(ids))
        return place[np.where(wanted < 0, top + 1, wanted)]
    order = np.argsort(ids, kind="stable")
    ordered = ids[order]
    at = np.clip(np.searchsorted(ordered, wanted), 0, len(ordered) - 1)
    return np.where((ordered[at] == wanted) & (wanted >= 0), order[at], -1).astype(dtype)


def _read_columns(
    connection: Connection,
    filters: Filters,
    player_id: int | None,
    people: pd.DataFrame,
    seats: pd.DataFrame,
    evenings: pd.DataFrame,
) -> Columns:
    d, r, p = DEAL.c, REVISION.c, PAYOUT.c
    missing = -1
    deal_query = scoped(select(d.id), filters, player_id, payouts=False)
    top_player = int(people["id"].max()) if len(people) else 0
    top_evening = int(evenings["evening"].max()) if len(evenings) else 0
    top_position = int(seats["position"].max()) if len(seats) else 0
    deal_span, payout_span = _span(connection, DEAL), _span(connection, PAYOUT)
    top_deal, top_revision = deal_span[1] or 0, _span(connection, REVISION)[1] or 0
    # ids that must name a row read in this same transaction fit their places; on SQLite the transaction is one
    # snapshot, so they need no check there (PostgreSQL reads each statement afresh: a new player could appear)
    recheck = connection.dialect.name != "sqlite"
    player = {
        name: _ids(func.coalesce(column, missing), missing, top_player, recheck)
        for name, column in (
            ("dealer", r.dealer_id),
            ("declarer", r.declarer_id),
            ("partner", r.partner_id),
            ("holder_id", r.holder_id),
        )
    }
    deals, deal_words = _read(
        connection,
        deal_query,
        {
            "deal_id": _ids(d.id, 0, top_deal, recheck),
            "revision_id": _ids(r.id, 0, top_revision, recheck),
            **player,
            "declarer_thirds": Small(func.coalesce(r.declarer_thirds, missing), missing, 6),
            "declarer_won": Small(func.coalesce(cast(r.declarer_won, Integer), missing), missing, 2),
            "number": Small(d.number, 0, 10),
            "evening": _ids(d.evening_id, 0, top_evening, recheck),
        },
        {name: (r[name], WORDS[name]) for name in ("contract", "aggravation", "called", "holder", "sweep")},
        deal_span,
    )
    pay_small = {
        "player_id": _ids(p.player_id, 0, top_player, recheck),
        "position": Small(p.position, 0, _bits(0, top_position)),
        "points": Small(p.points, -1024, 11),
    }
    role: Coded = {"role": (p.role, WORDS["role"])}
    if not _ascending(deals["evening"], deals["number"]):
        order = np.lexsort((deals["number"], deals["evening"]))
        deals = {name: values[order] for name, values in deals.items()}
    if player_id is None and filters == Filters():
        # every standing deal: the payout table read on its own, without the revisions that do not stand
        pays, pay_words = _read(
            connection,
            select(p.id).select_from(PAYOUT),
            {"revision_id": _ids(p.revision_id, 0, top_revision, recheck), **pay_small},
            role,
            payout_span,
        )
        rows = _rows_of(deals["revision_id"], pays.pop("revision_id"))
        if not (rows >= 0).all():
            kept = rows >= 0
            pays, rows = {name: values[kept] for name, values in pays.items()}, rows[kept]
    else:
        pays, pay_words = _read(
            connection,
            scoped(select(p.id), filters, player_id, payouts=True),
            {"deal_id": _ids(d.id, 0, top_deal, recheck), **pay_small},
            role,
            payout_span,
        )
        rows = _rows_of(deals["deal_id"], pays.pop("deal_id"))
    if not _ascending(rows, pays["position"]):
        order = np.lexsort((pays["position"], rows))
        pays = {name: values[order] for name, values in pays.items()}
        rows = rows[order]

    people_ids = people["id"].to_numpy(dtype=np.int64)
    evening_ids = evenings["evening"].to_numpy(dtype=np.int64)
    at = _rows_of(evening_ids, deals["evening"])
    size = np.bincount(_rows_of(evening_ids, seats["evening"].to_numpy(dtype=np.int64)), minlength=len(evening_ids))
    dealer_position = _seat_positions(seats, deals["evening"], deals["dealer"])
    profile_codes, profile_words = pd.factorize(evenings["profile"])
    currency_codes, currency_words = pd.factorize(evenings["currency"])
    small = np.int16
    return Columns(
        deal_id=deals["deal_id"],
        evening=deals["evening"].astype(np.int32),
        number=deals["number"].astype(np.int32),
        revision_id=deals["revision_id"],
        dealer=_places(deals["dealer"], people_ids),
        declarer=_places(deals["declarer"], people_ids),
        partner=_places(deals["partner"], people_ids),
        holder_id=_places(deals["holder_id"], people_ids),
        **{name: deals[name].astype(small) for name in ("contract", "aggravation", "called", "holder", "sweep")},
        declarer_thirds=deals["declarer_thirds"].astype(small),
        declarer_won=deals["declarer_won"].astype(np.int8),
        seats=size[at].astype(small),
        dealer_position=dealer_position.astype(small),
        stake_cents=evenings["stake_cents"].to_numpy(dtype=np.int64)[at],
        profile=profile_codes[at].astype(small),
        currency=currency_codes[at].astype(small),
        # each payout column let go once converted: the payouts are held about once over
        deal=rows.astype(np.int32, copy=False),
        player=_places(pays.pop("player_id"), people_ids),
        position=pays.pop("position").astype(small),
        role=pays.pop("role").astype(np.int8, copy=False),
        points=pays.pop("points"),
        words={**deal_words, **pay_words, "profile": tuple(profile_words), "currency": tuple(currency_words)},
    )


def _seat_positions(seats: pd.DataFrame, evening: np.ndarray, player_id: np.ndarray) -> np.ndarray:
    """Where each (evening, player id) sits at the evening's table (-1 if not seated)."""
    span = int(max(seats["player_id"].max() if len(seats) else 0, player_id.max() if len(player_id) else 0)) + 1
    keys = seats["evening"].to_numpy(dtype=np.int64) * span + seats["player_id"].to_numpy(dtype=np.int64)
    order = np.argsort(keys)
    keys, positions = keys[order], seats["position"].to_numpy(dtype=np.int64)[order]
    wanted = evening.astype(np.int64) * span + player_id
    at = np.clip(np.searchsorted(keys, wanted), 0, max(len(keys) - 1, 0))
    if not len(keys):
        return np.full(len(wanted), -1, dtype=np.int64)
    return np.where(keys[at] == wanted, positions[at], -1)


def _revisions(engine: Engine, filters: Filters, player_id: int | None) -> Callable[[np.ndarray], pd.DataFrame]:
    """A reader of revisions' multiplier, amount and when recorded, for the pandas frames."""

    def revisions(revision_ids: np.ndarray) -> pd.DataFrame:
        r = REVISION.c
        columns = [r.id, r.multiplier, r.amount, r.recorded_at]
        names = ["id", "multiplier", "amount", "recorded_at"]
        if not len(revision_ids):
            return pd.DataFrame(
                {
                    "multiplier": np.zeros(0, dtype=np.int64),
                    "amount": np.zeros(0, dtype=np.int64),
                    "recorded_at": pd.Series(pd.NaT, index=revision_ids, dtype="datetime64[us, UTC]"),
                }
            )
        with reading(engine).connect() as connection, connection.begin():
            if len(revision_ids) > 1000:
                rows = connection.execute(scoped(select(*columns), filters, player_id, payouts=False))
            else:
                rows = connection.execute(select(*columns).where(r.id.in_(revision_ids.tolist())))
            found = pd.DataFrame(rows.all(), columns=names)
            missing = np.setdiff1d(revision_ids, found["id"].to_numpy(dtype=np.int64))
            if len(missing):
                more = connection.execute(select(*columns).where(r.id.in_(missing.tolist()))).all()
                found = pd.concat([found, pd.DataFrame(more, columns=names)])
        found["recorded_at"] = pd.to_datetime(found["recorded_at"], utc=True)
        return found.set_index("id").reindex(revision_ids)

    return revisions


def _options(value: Any) -> dict[str, Any]:
    """An evening's options as the driver returns them (SQLite: JSON text)."""
    return json.loads(value) if isinstance(value, str) else dict(value or {})


def load_frames(engine: Engine, filters: Filters | None = None) -> Frames:
    """Read the deals that stand (current revisions, not voided) and their payouts, as the filters select."""
    filters = filters or Filters()
    with reading(engine).connect() as connection, connection.begin():
        filters, player_id = _check(connection, filters)
        people = pd.read_sql(select(PLAYER.c.id, PLAYER.c.name, PLAYER.c.key).order_by(PLAYER.c.key), connection)
        seated = _numbers(connection, select(SEAT.c.evening_id, SEAT.c.player_id, SEAT.c.position))
        seats = pd.DataFrame(dict(zip(("evening", "player_id", "position"), seated, strict=True)))
        evenings = pd.read_sql(evenings_select(), connection)
        columns = _read_columns(connection, filters, player_id, people, seats, evenings)
        # sorted here: ordered by SQLite, it walks every deal through the (evening, number) index
        voided = pd.read_sql(scoped(voided_select(), filters, player_id, payouts=False, standing=False), connection)
    voided = voided.sort_values(["evening", "number"], ignore_index=True)
    evenings["started_at"] = pd.to_datetime(evenings["started_at"], utc=True)
    evenings["game_to"] = [_options(options).get("game_to") for options in evenings.pop("options")]
    return Frames(
        columns,
        tuple(people["name"]),
        filters,
        evenings.set_index("evening"),
        voided,
        _revisions(engine, filters, player_id),
    )
