"""Evenings: seats in turn order, the profile pinned at the start, the stake; opening and closing."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from functools import cache, cached_property
from typing import Any, cast

from sqlalchemy import bindparam, case, func, insert
from sqlmodel import Session, col, select

from ledger.errors import FactError, LedgerError, MissingFact, NoOpenEvening
from ledger.i18n import _
from ledger.rules.numbers import shortened, storable
from ledger.rules.profiles import Profile, make_profile, started_with
from ledger.rules.seats import name_key, resolve_player
from ledger.rules.text import check_plain
from ledger.store.changes import started
from ledger.store.models import Evening, EveningReopen, Player, Seat, ident, utcnow
from ledger.store.players import ensure_player
from ledger.values import LIBRARY, NOTHING_SAID, Terms, Writer

LOCKED = "evenings locked"
"""Where a session keeps the evenings whose rows it holds (PostgreSQL)."""
MOST_MONEY = 100000
"""The largest amount of money accepted anywhere (a stake, a payment, a coin to round to)."""


@dataclass(frozen=True)
class Seating:
    """An evening with its seats resolved (who sits where, by name and id): what every deal operation needs."""

    evening: Evening
    players: tuple[str, ...]
    ids: dict[str, int]

    @cached_property
    def profile(self) -> Profile:
        """The profile and options pinned when the evening started."""
        return pinned(self.evening.profile, tuple(sorted(self.evening.options.items())))

    @cached_property
    def names(self) -> dict[int, str]:
        """Each seated player's name by id."""
        return {pid: name for name, pid in self.ids.items()}

    @property
    def number(self) -> int:
        """The evening's number."""
        assert self.evening.id is not None
        return self.evening.id


@cache
def pinned(name: str, options: tuple[tuple[str, Any], ...]) -> Profile:
    """The profile an evening pinned, with the options it stored: made once for each profile and options, however many
    evenings a page lists (making it is most of the work of reading an evening for a list)."""
    return make_profile(name, started_with(name, dict(options)))


def parse_cents(text: str, fact: str = "stake", what: str | None = None) -> int:
    """An amount of money such as `0.10` or `3,40`, in cents; `fact` is what it was given as, for the error."""
    written = text.strip().replace(",", ".")
    try:
        amount = Decimal(written) if len(written) <= len(str(MOST_MONEY)) + 3 else Decimal(-1)
    except InvalidOperation:
        amount = Decimal(-1)
    if not amount.is_finite() or not 0 <= amount <= MOST_MONEY or amount != amount.quantize(Decimal("0.01")):
        raise FactError(
            fact,
            shortened(text),
            _("{what}, 0 to {most} with at most 2 decimals, e.g. 0.10").format(
                what=what or _("money per game point"), most=MOST_MONEY
            ),
        )
    return int(amount * 100)


def parse_currency(text: str) -> str:
    """A three-letter currency code such as EUR."""
    if not re.fullmatch(r"[A-Za-z]{3}", text.strip()):
        raise FactError("currency", text, _("a three-letter code such as EUR, CHF or USD"))
    return text.strip().upper()


def start_evening(
    session: Session,
    players: tuple[str, ...],
    terms: Terms = NOTHING_SAID,
    *,
    dealer: str | None = None,
    note: str | None = None,
    event: int | None = None,
    by: Writer = LIBRARY,
) -> Seating:
    """Seat the players in turn order on the table's terms; new names become players (see `new_seating`); the start is
    the first entry of the evening's change log (`event`: the club event that seats it at one of its tables)."""
    table = new_seating(session, players, terms, dealer=dealer, note=note)
    _take_pot(session, table)
    session.add(table.evening)
    session.flush()
    session.execute(insert(Seat), seat_rows(table))
    started(session, table.number, by, event=event)
    return table


def _take_pot(session: Session, table: Seating) -> None:
    """Take in the pot the same table (the same players at the same game, whatever options this evening changes,
    `pot_carryover` included) left waiting when its latest evening that counts closed, unless another evening that
    counts took it already. A voided evening counts nowhere: its pot rides on nothing, and this looks past it."""
    evening = table.evening
    latest = session.exec(
        select(Evening)
        .join(Seat, col(Seat.evening_id) == Evening.id)
        .where(Evening.profile == evening.profile, col(Evening.voided_at).is_(None))
        .group_by(col(Evening.id))
        .having(_same_table(set(table.ids.values())))
        .order_by(col(Evening.id).desc())
        .limit(1)
    ).first()
    if latest is not None and latest.pot_out > 0 and pot_taker(session, latest) is None:
        evening.pot_in, evening.pot_from = latest.pot_out, latest.id


def _same_table(ids: set[int]) -> Any:
    """Evenings whose seats are exactly the players `ids` (group by the evening and add `.having` this)."""
    seated = func.count(case((col(Seat.player_id).in_(ids), 1)))
    return (func.count() == len(ids)) & (seated == len(ids))


def next_of_table(session: Session, table: Seating) -> int | None:
    """The newest open evening after this one with the same players: where the table plays on."""
    return session.exec(
        select(Evening.id)
        .join(Seat, col(Seat.evening_id) == Evening.id)
        .where(col(Evening.id) > table.number, col(Evening.closed_at).is_(None))
        .group_by(col(Evening.id))
        .having(_same_table(set(table.ids.values())))
        .order_by(col(Evening.id).desc())
        .limit(1)
    ).first()


def pot_taker(session: Session, evening: Evening) -> int | None:
    """The evening that counts (not voided) which took in the pot `evening` left waiting, if one did."""
    return session.exec(
        select(Evening.id).where(Evening.pot_from == evening.id, col(Evening.voided_at).is_(None))
    ).first()


def new_seating(
    session: Session,
    players: tuple[str, ...],
    terms: Terms,
    *,
    dealer: str | None = None,
    note: str | None = None,
    known: dict[str, Player] | None = None,
    started_at: datetime | None = None,
    closed_at: datetime | None = None,
    revision: int = 0,
) -> Seating:
    """An evening checked but not stored yet (no id): the players in turn order, new names made players, the
    terms checked and the profile pinned.

    `known`: players looked up before, by name key (an import keeps them across evenings); new ones are added.
    `started_at` (default now), `closed_at` and `revision`: as an import finds them in the export.
    """
    rules = make_profile(terms.profile, terms.options)
    rules.check_players(players)
    check_plain(terms.place, "place")
    check_plain(note, "note")
    stake_cents, code = parse_cents(terms.stake), parse_currency(terms.currency)
    known = {} if known is None else known
    people = [
        known.get(name_key(name)) or known.setdefault(name_key(name), ensure_player(session, name)) for name in players
    ]
    names = tuple(p.name for p in people)
    first = resolve_player(dealer, names, "dealer") if dealer else names[-1]
    ids = {p.name: ident(p) for p in people}
    evening = Evening(
        profile=rules.name,
        options=dict(rules.options),
        stake_cents=stake_cents,
        currency=code,
        first_dealer_id=ids[first],
        place=terms.place,
        note=note,
        started_at=started_at or utcnow(),
        closed_at=closed_at,
        revision=revision,
    )
    return Seating(evening, names, ids)


def seat_rows(table: Seating) -> list[dict[str, int]]:
    """The rows of the evening's seats, in turn order."""
    return [
        {"evening_id": table.number, "position": position, "player_id": table.ids[name]}
        for position, name in enumerate(table.players)
    ]


def seating_of(session: Session, evening: Evening) -> Seating:
    """The evening with its seats."""
    rows = session.exec(
        select(Player.name, Player.id)
        .join(Seat, col(Seat.player_id) == Player.id)
        .where(Seat.evening_id == evening.id)
        .order_by(col(Seat.position))
    ).all()
    return Seating(evening, tuple(name for name, _ in rows), {name: cast(int, pid) for name, pid in rows})


@cache
def _table_query(latest_open: bool, held: bool) -> Any:
    """Evening `:evening` (the most recent open one with `latest_open`) with its seated players in turn order; `held`:
    its row locked until commit. Built once each (read at every deal and every page)."""
    wanted = (
        select(func.max(Evening.id)).where(col(Evening.closed_at).is_(None)).scalar_subquery()
        if latest_open
        else bindparam("evening")
    )
    query = (
        select(Evening, Player.name, Player.id)
        .join(Seat, col(Seat.evening_id) == Evening.id)
        .join(Player, col(Player.id) == Seat.player_id)
        .where(Evening.id == wanted)
        .order_by(col(Seat.position))
    )
    return query.with_for_update(of=Evening) if held else query


def get_seating(
    session: Session,
    number: int | None = None,
    *,
    open_only: bool = False,
    latest: bool = False,
    locking: bool = False,
) -> Seating:
    """Evening `number`, or the most recent open evening when no number is given (with `latest`, else the most
    recent of all): one statement, two when it falls back. With `locking` (a write), the evening's row is held
    until commit by the same statement (see `lock`)."""
    held = locking and session.get_bind().dialect.name == "postgresql"
    query = _table_query(number is None, held)
    given = {} if number is None else {"evening": number}
    rows = session.execute(query, given).all() if number is None or storable(number) else []
    if held and rows:
        session.info.setdefault(LOCKED, set()).add(rows[0][0].id)
    if not rows and number is None and latest:
        return get_seating(session, latest_evening(session))
    if not rows and number is None:
        raise NoOpenEvening(_("no open evening"))
    if not rows:
        last = session.exec(select(func.max(Evening.id))).one()
        raise LedgerError(
            _("evening {number} does not exist (evenings are 1 to {last})").format(number=number, last=last or 0)
        )
    evening = rows[0][0]
    if open_only and evening.closed_at is not None:
        raise NoOpenEvening(_("evening {number} is closed").format(number=evening.id))
    return Seating(evening, tuple(name for _, name, _ in rows), {name: pid for _, name, pid in rows})


def lock(session: Session, table: Seating) -> Evening:
    """Hold the evening's row until commit, so concurrent writers number deals one by one, and read it afresh.

    On SQLite the transaction began IMMEDIATE, holding the whole ledger since before the evening was read,
    so the row in hand is current already; so is it when `get_seating` read it `locking`.
    """
    if session.get_bind().dialect.name == "sqlite" or table.number in session.info.get(LOCKED, ()):
        return table.evening
    return session.exec(
        select(Evening).where(Evening.id == table.number).with_for_update().execution_options(populate_existing=True)
    ).one()


def close_evening(session: Session, table: Seating, waiting: int = 0) -> Seating:
    """Close an open evening: its deals can no longer change, and it stops being the default evening; `waiting`
    passed deals' pot goes to the same table's next evening."""
    evening = lock(session, table)
    if evening.closed_at is not None:
        raise LedgerError(_("evening {number} is closed already").format(number=table.number))
    evening.closed_at, evening.pot_out = utcnow(), waiting
    session.add(evening)
    session.flush()
    return seating_of(session, evening)


def void_evening(session: Session, table: Seating, reason: str | None) -> Seating:
    """Void an evening whole (recorded by mistake): it stays in the log, closed, and counts nowhere."""
    evening = lock(session, table)
    if evening.voided_at is not None:
        raise LedgerError(
            _("evening {number} is voided already ({reason})").format(number=table.number, reason=evening.void_reason)
        )
    if not reason or not reason.strip():
        raise MissingFact(
            "reason", _("void evening {number}: why? e.g. 'the demo, not a real evening'").format(number=table.number)
        )
    taker = pot_taker(session, evening)
    if taker is not None:
        raise LedgerError(
            _(
                "evening {number} cannot be voided: the pot of its passed deals went on to evening {later}, which "
                "counts it"
            ).format(number=table.number, later=taker)
        )
    check_plain(reason, "reason")
    evening.voided_at, evening.void_reason = utcnow(), reason.strip()
    evening.closed_at = evening.closed_at or evening.voided_at
    session.add(evening)
    session.flush()
    return seating_of(session, evening)


def last_reopening(session: Session, table: Seating) -> EveningReopen:
    """The evening's latest reopening."""
    return session.exec(
        select(EveningReopen).where(EveningReopen.evening_id == table.number).order_by(col(EveningReopen.id).desc())
    ).first() or EveningReopen(evening_id=table.number, reason="")


def lift_void(session: Session, table: Seating) -> Seating:
    """Take back the void of a whole evening: it counts again, open again if it was open when voided. Refused when
    the pot it took in no longer waits for it as it did (another evening took it, or its evening was reopened,
    closed with another pot or voided meanwhile): it would count twice, or not as it was."""
    evening = lock(session, table)
    if evening.voided_at is None:
        raise LedgerError(_("evening {number} is not voided").format(number=table.number))
    came_from = session.get(Evening, evening.pot_from) if evening.pot_from is not None else None
    if came_from is not None:
        taker = pot_taker(session, came_from)
        if taker is not None:
            raise LedgerError(
                _(
                    "the void of evening {number} cannot be taken back: the pot it took from evening {earlier} went "
                    "on to evening {later} meanwhile, which counts it"
                ).format(number=table.number, earlier=came_from.id, later=taker)
            )
        if came_from.voided_at or came_from.closed_at is None or came_from.pot_out != evening.pot_in:
            raise LedgerError(
                _(
                    "the void of evening {number} cannot be taken back: the pot it took from evening {earlier} no "
                    "longer waits as it did (that evening was reopened, closed again or voided meanwhile)"
                ).format(number=table.number, earlier=came_from.id)
            )
    if evening.closed_at == evening.voided_at:
        evening.closed_at = None
    evening.voided_at, evening.void_reason = None, None
    session.add(evening)
    session.flush()
    return seating_of(session, evening)


def reopen_evening(session: Session, table: Seating, reason: str | None, *, logged: bool = True) -> Seating:
    """Open a closed evening again, so that it takes deals and corrections; the close it undoes is kept with the
    reason (unless an undo takes the close back: the change log keeps that). Refused for an evening voided whole, and
    for one whose pot of passed deals went on to a later evening (reopening would count that pot twice); a pot still
    waiting for the next evening comes back to it."""
    evening = lock(session, table)
    if evening.closed_at is None:
        raise LedgerError(_("evening {number} is open already").format(number=table.number))
    if evening.voided_at is not None:
        raise LedgerError(
            _("evening {number} was voided whole ({reason}): it cannot be reopened").format(
                number=table.number, reason=evening.void_reason
            )
        )
    taken = pot_taker(session, evening)
    if taken is not None:
        raise LedgerError(
            _(
                "evening {number} cannot be reopened: the pot of its passed deals went on to evening {later}, "
                "which counts it"
            ).format(number=table.number, later=taken)
        )
    if logged:
        if not reason or not reason.strip():
            raise MissingFact(
                "reason", _("reopen evening {number}: why? e.g. 'a deal was left out'").format(number=table.number)
            )
        check_plain(reason, "reason")
        session.add(
            EveningReopen(
                evening_id=ident(evening), closed_at=evening.closed_at, reason=reason.strip(), pot_out=evening.pot_out
            )
        )
    evening.closed_at, evening.pot_out = None, 0
    session.add(evening)
    session.flush()
    return seating_of(session, evening)


def list_evenings(
    session: Session,
    *,
    before: int | None = None,
    limit: int | None = None,
    since: datetime | None = None,
    counting: bool = False,
) -> list[Seating]:
    """Evenings newest first, with their seats: those numbered below `before` (without it, from the newest), at most
    `limit` of them (without it, every one), started at `since` or later, only those that count (`counting`: not
    voided). Two statements, which read the evenings listed and their seats only (by the range of their numbers)."""
    given = {"before": before, "limit": limit, "since": since}
    asked = {name: value for name, value in given.items() if value is not None}
    evenings = session.scalars(_listed_query(*(value is not None for value in given.values()), counting), asked).all()
    if not evenings:
        return []
    seated: defaultdict[int, list[tuple[str, int]]] = defaultdict(list)
    seats = {"low": evenings[-1].id, "high": evenings[0].id}
    for evening_id, name, pid in session.execute(_seats_query(), seats):
        seated[evening_id].append((name, pid))
    return [Seating(e, tuple(name for name, _ in seated[ident(e)]), dict(seated[ident(e)])) for e in evenings]


@cache
def _listed_query(before: bool, limit: bool, since: bool, counting: bool) -> Any:
    """Evenings newest first: numbered below `:before`, `:limit` of them, started at `:since` or later, not voided."""
    query = select(Evening).order_by(col(Evening.id).desc())
    if before:
        query = query.where(col(Evening.id) < bindparam("before"))
    if since:
        query = query.where(col(Evening.started_at) >= bindparam("since"))
    if counting:
        query = query.where(col(Evening.voided_at).is_(None))
    return query.limit(bindparam("limit")) if limit else query


@cache
def _seats_query() -> Any:
    """The seats of the evenings numbered `:low` to `:high`, in turn order, with the players' names."""
    return (
        select(Seat.evening_id, Player.name, Player.id)
        .join(Player, col(Seat.player_id) == Player.id)
        .where(col(Seat.evening_id).between(bindparam("low"), bindparam("high")))
        .order_by(col(Seat.evening_id), col(Seat.position))
    )


def latest_evening(session: Session) -> int:
    """The number of the most recent evening, open or closed."""
    number = session.exec(select(func.max(Evening.id))).one()
    if number is None:
        raise NoOpenEvening(_("no evenings yet"))
    return int(number)
