"""Deals in the database: finished facts and payouts written by appending (revisions, void marks; never a delete),
and read back as values.

A revision stores the deal's canonical facts (players by id) and the result the rules derived from them;
re-scoring reads those facts back, never what was typed. Nothing here builds or scores a deal: the service
asks the rules for that. Reads are set-based: a fixed number of statements per evening, whatever its number of deals.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from typing import Any, NamedTuple

import sqlalchemy as sql
from sqlalchemy import Row, Select, and_, bindparam, func, insert
from sqlalchemy import Table as Rows
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from ledger.errors import FactError, LedgerError
from ledger.i18n import _
from ledger.rules.cards import parse_called
from ledger.rules.contracts import Aggravation, Contract, Side
from ledger.rules.facts import DECLARER, MONTE, DealFacts
from ledger.rules.numbers import storable
from ledger.rules.scoring import DealResult
from ledger.rules.seats import seat_after
from ledger.store.counting import (
    CURRENT,
    STANDING,
    counting_deals,
    current_deals,
    standing_deals,
    with_payouts,
)
from ledger.store.evenings import Seating
from ledger.store.models import Deal, DealRevision, Evening, Payout, utcnow
from ledger.values import DealView, Recorded

PAYOUT_COLUMNS: tuple[Any, ...] = (Payout.revision_id, Payout.player_id, Payout.position, Payout.role, Payout.points)
"""What a view of a deal reads of its payouts."""
DEALS: Rows = Deal.__table__  # type: ignore[attr-defined]
REVISIONS: Rows = DealRevision.__table__  # type: ignore[attr-defined]
PAYOUTS: Rows = Payout.__table__  # type: ignore[attr-defined]
EVENINGS: Rows = Evening.__table__  # type: ignore[attr-defined]


class PayoutRow(NamedTuple):
    """A payout just written, shaped as one read back."""

    player_id: int
    position: int
    role: str
    points: int


def facts_of(table: Seating, row: DealRevision) -> DealFacts:
    """A stored revision's facts at the evening's seats, players named as they are called now."""
    names = table.names
    return DealFacts(
        players=table.players,
        dealer=names[row.dealer_id],
        declarer=names[row.declarer_id] if row.declarer_id is not None else None,
        contract=Contract(row.contract) if row.contract else None,
        aggravation=Aggravation(row.aggravation) if row.aggravation else None,
        called=parse_called(row.called) if row.called else None,
        holder=names[row.holder_id] if row.holder_id is not None else row.holder,
        thirds=row.declarer_thirds,
        tricks=row.tricks,
        last_trick=Side(row.last_trick) if row.last_trick else None,
        monte_thirds=row.monte_thirds,
        passed_before=row.passed_before,
        auction=tuple((names[pid], Contract(call) if call else None) for pid, call in row.calls or ()),
    )


def view(table: Seating, deal: Deal, row: DealRevision, payouts: Iterable[Any]) -> DealView:
    """A stored revision of a deal as a value, with the given payout rows."""
    names = table.names
    ordered = sorted(payouts, key=lambda p: p.position)
    return DealView(
        number=deal.number,
        revision=row.revision,
        dealer=names[row.dealer_id],
        declarer=names.get(row.declarer_id) if row.declarer_id is not None else None,
        partner=names.get(row.partner_id) if row.partner_id is not None else None,
        contract=row.contract,
        aggravation=row.aggravation,
        called=row.called,
        holder=names[row.holder_id] if row.holder_id is not None else row.holder,
        auction=tuple((names[pid], call or "pass") for pid, call in row.calls or ()),
        declarer_thirds=row.declarer_thirds,
        tricks=row.tricks,
        last_trick=row.last_trick,
        monte_thirds=row.monte_thirds,
        passed_before=row.passed_before,
        declarer_won=row.declarer_won,
        sweep=row.sweep,
        multiplier=row.multiplier,
        amount=row.amount,
        profile=table.profile,
        payouts={names[p.player_id]: p.points for p in ordered},
        roles={names[p.player_id]: p.role for p in ordered},
        recorded_at=row.recorded_at,
        superseded_at=row.superseded_at,
        reason=row.reason,
        voided=deal.voided_at is not None,
        void_reason=deal.void_reason,
        key=deal.key,
        cause=row.cause,
        cause_deal=row.cause_deal,
        void_cause=deal.void_cause,
    )


def _by_revision(payouts: Iterable[Any]) -> dict[int, list[Any]]:
    """Payout rows (plain rows, not objects: they are only read) by revision; none for a revision without rows."""
    by_revision: defaultdict[int, list[Any]] = defaultdict(list)
    for payout in payouts:
        by_revision[payout.revision_id].append(payout)
    return by_revision


def _payouts(session: Session, revision_ids: list[int]) -> dict[int, list[Any]]:
    """The payouts of the given revisions, in one statement."""
    rows = session.execute(_revisions_payouts_query(), {"revisions": revision_ids}) if revision_ids else ()
    return _by_revision(rows)


@cache
def _revisions_payouts_query() -> Any:
    return select(*PAYOUT_COLUMNS).where(col(Payout.revision_id).in_(bindparam("revisions", expanding=True)))


def _evening_payouts(session: Session, table: Seating) -> dict[int, list[Any]]:
    """The payouts of the evening's current revisions, voided deals' included, in one statement."""
    query = with_payouts(current_deals(*PAYOUT_COLUMNS)).where(col(Deal.evening_id) == table.number)
    return _by_revision(session.execute(query))


def _views(session: Session, table: Seating, pairs: list[tuple[Deal, DealRevision]]) -> list[DealView]:
    payouts = _payouts(session, [row.id for _, row in pairs if row.id is not None])
    return [view(table, deal, row, payouts[row.id or 0]) for deal, row in pairs]


def _current_rows(session: Session, table: Seating, *, standing_only: bool = False) -> list[tuple[Deal, DealRevision]]:
    """The evening's deals with their current revisions, in order: one statement."""
    deals = standing_deals if standing_only else current_deals
    query = deals(Deal, DealRevision).where(col(Deal.evening_id) == table.number).order_by(col(Deal.number))
    return [(deal, row) for deal, row in session.execute(query)]


def _dealer_after(table: Seating, last: int | None) -> str:
    """The seat after the last deal's dealer; the first dealer when there is no deal yet."""
    if last is None:
        return table.names[table.evening.first_dealer_id]
    return seat_after(table.players, table.names[last])


def next_dealer(session: Session, table: Seating) -> str:
    """The seat after the dealer of the last deal that stands (passed ones included)."""
    return next_deal(session, table)[1]


def next_deal(session: Session, table: Seating) -> tuple[int, str]:
    """The next deal's number and its dealer by the turn (the seat after the dealer of the evening's last deal that
    stands, passed ones included), in one statement."""
    number, last = session.execute(_next_deal_query(), {"evening": table.number}).one()
    return (number or 0) + 1, _dealer_after(table, last)


@cache
def _next_deal_query() -> Select[Any]:
    """The evening's highest deal number, and the dealer of its last deal that stands (passed ones included).

    This and the other statements read at every deal and every page are built once (`@cache`): building one each
    time cost a fifth of a tournament server's processor time a deal."""
    evening: Any = bindparam("evening")
    highest = select(func.max(Deal.number)).where(Deal.evening_id == evening).scalar_subquery()
    last_dealer = (
        standing_deals(DealRevision.dealer_id)
        .where(col(Deal.evening_id) == evening)
        .order_by(col(Deal.number).desc())
        .limit(1)
        .scalar_subquery()
    )
    return sql.select(highest, last_dealer)


EVENINGS_AT_ONCE = 500
"""Evenings whose totals one statement sums (each is a parameter)."""


def in_batches(numbers: Sequence[int]) -> Iterator[list[int]]:
    """Evenings' numbers, `EVENINGS_AT_ONCE` at a time."""
    for start in range(0, len(numbers), EVENINGS_AT_ONCE):
        yield list(numbers[start : start + EVENINGS_AT_ONCE])


@cache
def _last_dealers() -> Select[Any]:
    """The dealer of the last deal that stands (passed ones included) of each of a list of evenings."""
    last = (
        select(col(Deal.evening_id).label("evening"), func.max(Deal.number).label("number"))
        .where(STANDING, col(Deal.evening_id).in_(bindparam("evenings", expanding=True)))
        .group_by(col(Deal.evening_id))
        .subquery()
    )
    return current_deals(last.c.evening, col(DealRevision.dealer_id)).join(
        last, and_(col(Deal.evening_id) == last.c.evening, col(Deal.number) == last.c.number)
    )


def next_dealers(session: Session, tables: list[Seating]) -> dict[int, str]:
    """Who deals next in each evening, by its number: one statement per `EVENINGS_AT_ONCE` evenings."""
    last: dict[int, int] = {}
    for numbers in in_batches([table.number for table in tables]):
        last.update((evening, dealer) for evening, dealer in session.execute(_last_dealers(), {"evenings": numbers}))
    return {table.number: _dealer_after(table, last.get(table.number)) for table in tables}


def _totals(session: Session, tables: list[Seating], deals: Callable[..., Select[Any]]) -> dict[int, dict[str, int]]:
    """Game points per evening and seated player over `deals` (a select of `ledger.store.counting`): one statement
    per `EVENINGS_AT_ONCE` evenings."""
    sums: defaultdict[int, dict[int, int]] = defaultdict(dict)
    for numbers in in_batches([table.number for table in tables]):
        for evening, player, points in session.execute(_totals_query(deals), {"evenings": numbers}):
            sums[evening][player] = points
    return {
        table.number: {name: int(sums[table.number].get(pid, 0)) for name, pid in table.ids.items()} for table in tables
    }


@cache
def _totals_query(deals: Callable[..., Select[Any]]) -> Select[Any]:
    """Game points per evening and player id over `deals` of a list of evenings."""
    by = (col(Deal.evening_id), col(Payout.player_id))
    evenings = col(Deal.evening_id).in_(bindparam("evenings", expanding=True))
    return with_payouts(deals(*by, func.sum(Payout.points))).where(evenings).group_by(*by)


def totals(session: Session, table: Seating) -> dict[str, int]:
    """Game points per seated player over the deals that stand."""
    return evenings_totals(session, [table])[table.number]


def evenings_totals(session: Session, tables: list[Seating]) -> dict[int, dict[str, int]]:
    """`totals` of each evening, by its number: its deals that stand, a voided evening's too (what an evening shows
    when it is opened, voided or not)."""
    return _totals(session, tables, standing_deals)


def counted_totals(session: Session, tables: list[Seating]) -> dict[int, dict[str, int]]:
    """`evenings_totals` over the deals that count: none for a voided evening."""
    return _totals(session, tables, counting_deals)


def revision_values(table: Seating, facts: DealFacts, result: DealResult) -> dict[str, Any]:
    """A revision's stored columns: the canonical facts (players by id) and the result derived from them."""
    ids = table.ids
    seat = facts.holder if facts.holder not in (None, MONTE, DECLARER) else None
    return {
        "profile": table.evening.profile,
        "options": dict(table.evening.options),
        "dealer_id": ids[facts.dealer],
        "declarer_id": ids.get(result.declarer or ""),
        "partner_id": ids.get(result.partner or ""),
        "contract": facts.contract.value if facts.contract else None,
        "aggravation": facts.aggravation.value if facts.aggravation else None,
        "called": str(facts.called) if facts.called else None,
        "holder_id": ids[seat] if seat else None,
        "holder": None if seat else facts.holder,
        "calls": [[ids[name], call.value if call else None] for name, call in facts.auction] or None,
        "declarer_thirds": facts.thirds,
        "tricks": facts.tricks,
        "last_trick": facts.last_trick.value if facts.last_trick else None,
        "monte_thirds": facts.monte_thirds,
        "passed_before": facts.passed_before,
        "declarer_won": result.declarer_won,
        "sweep": result.sweep.value if result.sweep else None,
        "multiplier": result.multiplier,
        "amount": result.amount,
    }


def payout_values(table: Seating, result: DealResult) -> list[dict[str, Any]]:
    """Every seat's payout columns in one revision, in seat order."""
    ids = table.ids
    return [
        {
            "player_id": ids[player],
            "position": position,
            "role": _role(result, player),
            "points": result.payouts[player],
        }
        for position, player in enumerate(table.players)
    ]


def write_revision(
    session: Session,
    table: Seating,
    deal_id: int,
    number: int,
    facts: DealFacts,
    result: DealResult,
    reason: str | None,
    *,
    cause: str | None = None,
    cause_deal: int | None = None,
) -> tuple[Row[Any], list[PayoutRow]]:
    """Store one revision's facts, its result and every seat's payout; the revision's row and its payouts.

    `reason` is what a person typed; `cause` (with `cause_deal`) why the ledger itself wrote the revision.
    """
    row = session.execute(
        _inserting(REVISIONS),
        {
            "deal_id": deal_id,
            "revision": number,
            "reason": reason,
            "cause": cause,
            "cause_deal": cause_deal,
            "recorded_at": utcnow(),
            **revision_values(table, facts, result),
        },
    ).one()
    payouts = [PayoutRow(**values) for values in payout_values(table, result)]
    session.execute(insert(PAYOUTS), [{"revision_id": row.id, **p._asdict()} for p in payouts])
    return row, payouts


def _role(result: DealResult, player: str) -> str:
    if player == result.sitting_out and player not in result.opponents:
        return "out"
    if result.passed:
        return "passed"
    if player == result.declarer:
        return "declarer"
    if player == result.partner:
        return "partner"
    return "opponent" if player in result.opponents else "out"


@cache
def _inserting(rows: Rows) -> Any:
    """An insert of one row that returns it whole."""
    return insert(rows).returning(*rows.c)


def passed_streak(session: Session, table: Seating, number: int) -> int:
    """The pot deal `number` carries: the passed deals that stand just before it (when the evening's options carry a
    pot over), with the passed deals the evening took in from the table's evening before when no deal was played
    since (whatever its options)."""
    own = table.profile.pot_carryover
    if not own and not table.evening.pot_in:
        return 0
    rows = session.scalars(
        standing_deals(DealRevision.declarer_id)
        .where(col(Deal.evening_id) == table.number, col(Deal.number) < number)
        .order_by(col(Deal.number).desc())
    )
    count = 0
    for declarer in rows:
        if declarer is not None:
            return count
        count += own
    return count + table.evening.pot_in


def standing_rows(session: Session, table: Seating) -> list[tuple[Deal, DealRevision]]:
    """The evening's deals that stand, with their current revisions, in order: one statement."""
    return _current_rows(session, table, standing_only=True)


def supersede(
    session: Session,
    table: Seating,
    deal: Any,
    old: DealRevision,
    facts: DealFacts,
    result: DealResult,
    reason: str | None,
    *,
    cause: str | None = None,
    cause_deal: int | None = None,
) -> tuple[Row[Any], list[PayoutRow]]:
    """Mark the old revision superseded and write the new one, with its facts and result (see `write_revision`)."""
    old.superseded_at = utcnow()
    session.add(old)
    session.flush()
    return write_revision(
        session, table, deal.id, old.revision + 1, facts, result, reason, cause=cause, cause_deal=cause_deal
    )


def recorded(
    session: Session,
    table: Seating,
    deal: Any,
    row: Any,
    result: DealResult | None,
    *,
    payouts: list[PayoutRow] | None = None,
    duplicate: bool = False,
    dealer_next: str | None = None,
    rescored: tuple[int, ...] = (),
) -> Recorded:
    """What a write did, with the evening's totals after it; payouts just written are passed in, not read back.

    A write logs its change first (`ledger.store.changes.note`, which counts the evening's revision); a repeated key
    writes nothing and keeps it.
    """
    shown = _views(session, table, [(deal, row)])[0] if payouts is None else view(table, deal, row, payouts)
    return Recorded(
        evening=table.number,
        profile=table.profile,
        deal=shown,
        result=result,
        totals=totals(session, table),
        evening_revision=table.evening.revision,
        next_dealer=dealer_next or next_dealer(session, table),
        duplicate=duplicate,
        rescored=rescored,
    )


def by_key(session: Session, key: str) -> tuple[Deal, DealRevision] | None:
    """The deal an idempotency key stored, with its current revision, or None."""
    found = session.execute(_by_key_query(), {"key": key}).first()
    return (found[0], found[1]) if found else None


@cache
def _by_key_query() -> Any:
    return current_deals(Deal, DealRevision).where(col(Deal.key) == bindparam("key"))


def insert_deal(session: Session, table: Seating, number: int, key: str | None) -> Row[Any]:
    """A new deal's row; a key taken by a deal recorded at the same moment is an error naming it."""
    try:
        return session.execute(
            _inserting(DEALS), {"evening_id": table.number, "number": number, "key": key, "created_at": utcnow()}
        ).one()
    except IntegrityError:
        raise FactError(
            "key", key, _("taken by another deal recorded at the same moment; nothing written: look at the deals")
        ) from None


def get_deal(session: Session, table: Seating, number: int) -> Deal:
    """Deal `number` of the evening, or an error naming the range."""
    query = select(Deal).where(Deal.evening_id == table.number, Deal.number == number)
    deal = session.exec(query).first() if storable(number) else None
    if deal is None:
        count = session.exec(select(func.max(Deal.number)).where(Deal.evening_id == table.number)).one() or 0
        have = _("deals are 1 to {count}").format(count=count) if count else _("it has no deals yet")
        raise LedgerError(
            _("deal {number} does not exist in evening {evening}: {have}").format(
                number=number, evening=table.number, have=have
            )
        )
    return deal


def current_revision(session: Session, deal: Deal) -> DealRevision:
    """The revision of a deal that counts now."""
    return session.exec(select(DealRevision).where(DealRevision.deal_id == deal.id, CURRENT)).one()


def mark_void(session: Session, deal: Deal, reason: str | None, *, cause: str | None = None) -> None:
    """The deal stays in the log but no longer counts; `reason` is what a person typed, `cause` the ledger's own."""
    deal.voided_at, deal.void_reason, deal.void_cause = utcnow(), reason, cause
    session.add(deal)
    session.flush()


def mark_standing(session: Session, deal: Deal) -> None:
    """The deal counts again (its void was taken back; the change log keeps the void and its reason)."""
    deal.voided_at, deal.void_reason, deal.void_cause = None, None, None
    session.add(deal)
    session.flush()


def revision_of(session: Session, deal: Deal, revision: int) -> DealRevision:
    """Revision `revision` of the deal."""
    return session.exec(
        select(DealRevision).where(DealRevision.deal_id == deal.id, DealRevision.revision == revision)
    ).one()


def list_deals(session: Session, table: Seating) -> list[DealView]:
    """Every deal of the evening with its current revision, voided ones included (marked): two statements."""
    payouts = _evening_payouts(session, table)
    return [view(table, deal, row, payouts[row.id or 0]) for deal, row in _current_rows(session, table)]


def last_deals(session: Session, table: Seating, count: int) -> list[DealView]:
    """The evening's last `count` deals with their current revisions, in order: two statements, however long the
    evening."""
    latest = session.execute(_latest_query(), {"evening": table.number, "count": count}).all()
    return _views(session, table, [(deal, row) for deal, row in reversed(latest)])


@cache
def _latest_query() -> Any:
    query = current_deals(Deal, DealRevision).where(col(Deal.evening_id) == bindparam("evening"))
    return query.order_by(col(Deal.number).desc()).limit(bindparam("count"))


def deal_history(session: Session, table: Seating, number: int) -> list[DealView]:
    """Every revision of deal `number`, oldest first."""
    deal = get_deal(session, table, number)
    rows = session.exec(
        select(DealRevision).where(DealRevision.deal_id == deal.id).order_by(col(DealRevision.revision))
    ).all()
    return _views(session, table, [(deal, row) for row in rows])


def running_totals(table: Seating, deals: list[DealView]) -> list[tuple[int, dict[str, int]]]:
    """After each deal that stands: its number and everyone's total so far."""
    running = {name: 0 for name in table.players}
    out = []
    for deal in deals:
        if deal.voided:
            continue
        running = {name: running[name] + deal.payouts.get(name, 0) for name in table.players}
        out.append((deal.number, running))
    return out
