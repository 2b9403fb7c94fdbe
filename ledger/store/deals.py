"""Recording deals and correcting them by appending: revisions, voids and undo; never a delete.

A revision stores the deal's canonical facts (players by id) and the result the rules derive from them;
re-scoring reads those facts back, never what was typed. Reads are set-based: a fixed number of
statements per evening, whatever its number of deals.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from typing import Any, NamedTuple

import sqlalchemy as sql
from sqlalchemy import Row, bindparam, func, insert, update
from sqlalchemy import Table as Rows
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from ledger.errors import LedgerError, UndoRefused
from ledger.i18n import _
from ledger.rules.build import DealInput, build_facts
from ledger.rules.cards import parse_called
from ledger.rules.contracts import Aggravation, Contract, Side
from ledger.rules.facts import DECLARER, MONTE, DealFacts
from ledger.rules.numbers import storable
from ledger.rules.scoring import DealResult, score
from ledger.rules.seats import resolve_player, seat_after
from ledger.rules.text import check_plain
from ledger.store.evenings import Seating, lock
from ledger.store.models import Deal, DealRevision, Evening, Payout, utcnow
from ledger.summary import brief
from ledger.values import DealView, Recorded

CURRENT = col(DealRevision.superseded_at).is_(None)
STANDING = col(Deal.voided_at).is_(None)
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


def _view(table: Seating, deal: Deal, row: DealRevision, payouts: Iterable[Any]) -> DealView:
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
        explanation=row.explanation,
        payouts={names[p.player_id]: p.points for p in ordered},
        roles={names[p.player_id]: p.role for p in ordered},
        recorded_at=row.recorded_at,
        superseded_at=row.superseded_at,
        reason=row.reason,
        voided=deal.voided_at is not None,
        void_reason=deal.void_reason,
        key=deal.key,
    )


def _by_revision(payouts: Iterable[Any]) -> dict[int, list[Any]]:
    """Payout rows (plain rows, not objects: they are only read) by revision; none for a revision without rows."""
    by_revision: defaultdict[int, list[Any]] = defaultdict(list)
    for payout in payouts:
        by_revision[payout.revision_id].append(payout)
    return by_revision


def _payouts(session: Session, revision_ids: list[int]) -> dict[int, list[Any]]:
    """The payouts of the given revisions, in one statement."""
    query = select(*PAYOUT_COLUMNS).where(col(Payout.revision_id).in_(revision_ids))
    return _by_revision(session.exec(query).all() if revision_ids else ())


def _current_payouts(*columns: Any) -> Any:
    """The given columns of the payouts of current revisions, joined to their revision and deal."""
    return (
        sql.select(*columns)
        .select_from(PAYOUTS)
        .join(DealRevision, col(DealRevision.id) == Payout.revision_id)
        .join(Deal, col(Deal.id) == DealRevision.deal_id)
        .where(CURRENT)
    )


def _evening_payouts(session: Session, table: Seating) -> dict[int, list[Any]]:
    """The payouts of the evening's current revisions, in one statement."""
    return _by_revision(session.execute(_current_payouts(*PAYOUT_COLUMNS).where(Deal.evening_id == table.number)))


def _views(session: Session, table: Seating, pairs: list[tuple[Deal, DealRevision]]) -> list[DealView]:
    payouts = _payouts(session, [row.id for _, row in pairs if row.id is not None])
    return [_view(table, deal, row, payouts[row.id or 0]) for deal, row in pairs]


def _current_rows(session: Session, table: Seating, *, standing_only: bool = False) -> list[tuple[Deal, DealRevision]]:
    """The evening's deals with their current revisions, in order: one statement."""
    query = (
        select(Deal, DealRevision)
        .join(DealRevision, col(DealRevision.deal_id) == Deal.id)
        .where(Deal.evening_id == table.number, CURRENT)
        .order_by(col(Deal.number))
    )
    if standing_only:
        query = query.where(STANDING)
    return [(deal, row) for deal, row in session.exec(query).all()]


def _current(session: Session, deal: Deal) -> DealRevision:
    return session.exec(select(DealRevision).where(DealRevision.deal_id == deal.id, CURRENT)).one()


@cache
def _next_deal_query() -> Any:
    """The evening's highest deal number, and the dealer of its last deal that stands (passed ones included)."""
    highest = select(func.max(Deal.number)).where(Deal.evening_id == bindparam("evening")).scalar_subquery()
    last_dealer = (
        select(DealRevision.dealer_id)
        .join(Deal, col(Deal.id) == DealRevision.deal_id)
        .where(Deal.evening_id == bindparam("evening"), STANDING, CURRENT)
        .order_by(col(Deal.number).desc())
        .limit(1)
        .scalar_subquery()
    )
    return select(highest, last_dealer)


def _dealer_after(table: Seating, last: int | None) -> str:
    """The seat after the last deal's dealer; the first dealer when there is no deal yet."""
    if last is None:
        return table.names[table.evening.first_dealer_id]
    return seat_after(table.players, table.names[last])


def next_dealer(session: Session, table: Seating) -> str:
    """The seat after the dealer of the last deal that stands (passed ones included)."""
    return _next_deal(session, table)[1]


def _next_deal(session: Session, table: Seating) -> tuple[int, str]:
    """The next deal's number and its dealer by the turn, in one statement."""
    number, last = session.execute(_next_deal_query(), {"evening": table.number}).one()
    return (number or 0) + 1, _dealer_after(table, last)


def _passed_before(session: Session, table: Seating, number: int) -> int:
    """Consecutive passed deals that stand just before deal `number`."""
    rows = session.exec(
        select(DealRevision.declarer_id)
        .join(Deal, col(Deal.id) == DealRevision.deal_id)
        .where(Deal.evening_id == table.number, STANDING, CURRENT, Deal.number < number)
        .order_by(col(Deal.number).desc())
    )
    count = 0
    for declarer in rows:
        if declarer is not None:
            break
        count += 1
    return count


EVENINGS_AT_ONCE = 500
"""Evenings whose totals one statement sums (each is a parameter)."""


@cache
def _evenings_totals_query() -> Any:
    """Game points per evening and player id over the deals that stand of a list of evenings."""
    by = (col(Deal.evening_id), col(Payout.player_id))
    return (
        _current_payouts(*by, func.sum(Payout.points))
        .where(STANDING)
        .where(col(Deal.evening_id).in_(bindparam("evenings", expanding=True)))
        .group_by(*by)
    )


def totals(session: Session, table: Seating) -> dict[str, int]:
    """Game points per seated player over the deals that stand."""
    return evenings_totals(session, [table])[table.number]


def evenings_totals(session: Session, tables: list[Seating]) -> dict[int, dict[str, int]]:
    """`totals` of each evening, by its number: one statement per `EVENINGS_AT_ONCE` evenings."""
    sums: defaultdict[int, dict[int, int]] = defaultdict(dict)
    for start in range(0, len(tables), EVENINGS_AT_ONCE):
        numbers = [table.number for table in tables[start : start + EVENINGS_AT_ONCE]]
        for evening, player, points in session.execute(_evenings_totals_query(), {"evenings": numbers}):
            sums[evening][player] = points
    return {
        table.number: {name: int(sums[table.number].get(pid, 0)) for name, pid in table.ids.items()} for table in tables
    }


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
        "explanation": result.explanation,
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
) -> tuple[Row[Any], list[PayoutRow]]:
    """Store one revision's facts, its result and every seat's payout; the revision's row and its payouts."""
    row = session.execute(
        _inserting(REVISIONS),
        {
            "deal_id": deal_id,
            "revision": number,
            "reason": reason,
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


@cache
def _bumping() -> Any:
    """One more change to an evening, returning its count."""
    return (
        update(EVENINGS)
        .where(EVENINGS.c.id == bindparam("evening"))
        .values(revision=EVENINGS.c.revision + 1)
        .returning(EVENINGS.c.revision)
    )


def _bump(session: Session, table: Seating) -> int:
    """Count one more change to the evening (its row is locked by the caller since the start)."""
    counter: int = session.execute(_bumping(), {"evening": table.number}).scalar_one()
    set_committed_value(table.evening, "revision", counter)
    return counter


def _with_pot(session: Session, table: Seating, typed: DealInput, number: int) -> DealInput:
    """Fill in the passed deals before this one from the ledger, unless the scorekeeper gave them."""
    if typed.passed_before or not table.profile.pot_carryover:
        return typed
    return replace(typed, passed_before=_passed_before(session, table, number))


def _reflow_pot(session: Session, table: Seating, changed: int) -> None:
    """After deal `changed` is amended or voided, re-score later deals whose pot of passed deals changed."""
    if not table.profile.pot_carryover:
        return
    streak = 0
    for deal, row in _current_rows(session, table, standing_only=True):
        if row.declarer_id is None:
            streak += 1
            continue
        if deal.number > changed and row.passed_before != streak:
            facts = replace(facts_of(table, row), passed_before=streak)
            _supersede(session, table, deal, row, facts, f"pot of passed deals changed by deal {changed}")
        streak = 0


def _supersede(
    session: Session, table: Seating, deal: Any, old: DealRevision, facts: DealFacts, reason: str
) -> tuple[Row[Any], list[PayoutRow], DealResult]:
    """Score the new facts, then mark the old revision superseded and write the new one."""
    result = score(facts, table.profile)
    old.superseded_at = utcnow()
    session.add(old)
    session.flush()
    return *write_revision(session, table, deal.id, old.revision + 1, facts, result, reason), result


def _running(session: Session, table: Seating, result: DealResult, since: Recorded | None) -> dict[str, int]:
    """The totals with a new deal added: the last write's totals plus its payouts, when nothing came between.

    Call before the evening's counter is bumped: `since` holds when the evening is still at its revision
    and its seats still bear the same names.
    """
    if since and since.evening_revision == table.evening.revision and tuple(since.totals) == table.players:
        return {name: points + result.payouts.get(name, 0) for name, points in since.totals.items()}
    return totals(session, table)


def _recorded(
    session: Session,
    table: Seating,
    deal: Any,
    row: Any,
    result: DealResult | None,
    counter: int,
    *,
    payouts: list[PayoutRow] | None = None,
    duplicate: bool = False,
    dealer_next: str | None = None,
    running: dict[str, int] | None = None,
) -> Recorded:
    """What a write did; payouts just written, and totals already known, are passed in, not read back."""
    view = _views(session, table, [(deal, row)])[0] if payouts is None else _view(table, deal, row, payouts)
    return Recorded(
        evening=table.number,
        profile=table.profile,
        deal=view,
        result=result,
        totals=totals(session, table) if running is None else running,
        evening_revision=counter,
        next_dealer=dealer_next or next_dealer(session, table),
        duplicate=duplicate,
    )


def record_deal(
    session: Session,
    table: Seating,
    typed: DealInput,
    *,
    dealer: str | None = None,
    key: str | None = None,
    since: Recorded | None = None,
) -> Recorded:
    """Validate, score and store a new deal; a repeated idempotency `key` returns the stored deal.

    `since`: the last write this caller saw on the evening; its totals are carried on when nothing came between.
    """
    evening = lock(session, table)
    _require_open(table)
    check_plain(key, _("key"))
    if key:
        existing = session.exec(select(Deal).where(Deal.key == key)).first()
        if existing:
            if existing.evening_id != table.number:
                raise LedgerError(
                    _("--key {key!r} was used for deal {number} of evening {evening_id}").format(
                        key=key, number=existing.number, evening_id=existing.evening_id
                    )
                )
            current = _current(session, existing)
            _same_deal(table, existing, current, typed, dealer, key)
            return _recorded(session, table, existing, current, None, evening.revision, duplicate=True)
    number, by_turn = _next_deal(session, table)
    dealt_by = resolve_player(dealer, table.players, "--dealer") if dealer else by_turn
    facts = build_facts(_with_pot(session, table, typed, number), table.profile, table.players, dealt_by)
    result = score(facts, table.profile)
    try:
        deal = session.execute(
            _inserting(DEALS), {"evening_id": table.number, "number": number, "key": key, "created_at": utcnow()}
        ).one()
    except IntegrityError:
        raise LedgerError(
            _(
                "--key {key!r} was taken by another deal recorded at the same moment; nothing written: "
                "look at `calabresella deals`"
            ).format(key=key)
        ) from None
    row, payouts = write_revision(session, table, deal.id, 1, facts, result, None)
    running = _running(session, table, result, since)
    return _recorded(
        session,
        table,
        deal,
        row,
        result,
        _bump(session, table),
        payouts=payouts,
        dealer_next=seat_after(table.players, dealt_by),
        running=running,
    )


def _same_deal(
    table: Seating, deal: Deal, stored: DealRevision, typed: DealInput, dealer: str | None, key: str
) -> None:
    """A retry with a key must repeat the facts the key holds; other facts are an error naming the deal."""
    facts = facts_of(table, stored)
    try:
        dealt_by = resolve_player(dealer, table.players, "--dealer") if dealer else facts.dealer
        retried = build_facts(
            typed if typed.passed_before else replace(typed, passed_before=facts.passed_before),
            table.profile,
            table.players,
            dealt_by,
        )
    except LedgerError:
        retried = None
    if retried != facts:
        held = brief(_view(table, deal, stored, ()))
        raise LedgerError(
            _(
                "--key {key!r} holds deal {number} of evening {evening} ({held}), recorded with other "
                "facts; nothing written: give a new key, or amend deal {number}"
            ).format(key=key, number=deal.number, evening=table.number, held=held)
        )


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


def _require_open(table: Seating) -> None:
    """Refuse changes to a closed evening (call after `lock`, which re-reads the evening)."""
    if table.evening.closed_at is not None:
        raise LedgerError(_("evening {number} is closed: its deals can no longer change").format(number=table.number))


def _correctable(session: Session, table: Seating, number: int, reason: str | None, verb: str) -> tuple[Deal, str]:
    """Deal `number` of an open evening, not voided, with the reason for correcting it."""
    lock(session, table)
    _require_open(table)
    if not reason or not reason.strip():
        raise LedgerError(
            _("{verb} deal {number}: give a --reason, e.g. --reason 'wrong thirds'").format(verb=verb, number=number)
        )
    check_plain(reason, _("reason"))
    deal = get_deal(session, table, number)
    if deal.voided_at is not None:
        raise LedgerError(
            _("deal {number} is voided already ({void_reason}): it cannot be {verb}ed").format(
                number=number, void_reason=deal.void_reason, verb=verb
            )
        )
    return deal, reason.strip()


def amend_deal(
    session: Session, table: Seating, number: int, changes: DealInput, reason: str | None, *, dealer: str | None = None
) -> Recorded:
    """Write a new revision of deal `number` with the given facts changed; the old one stays readable."""
    deal, why = _correctable(session, table, number, reason, "amend")
    old = _current(session, deal)
    if not changes.to_dict() and dealer is None:
        raise LedgerError(
            _("amend deal {number}: give at least one fact to change, e.g. --thirds 20").format(number=number)
        )
    stored = facts_of(table, old)
    typed = DealInput.of_facts(stored).amended(changes)
    if "passed_before" not in changes.to_dict():
        typed = _with_pot(session, table, replace(typed, passed_before=0), number)
    dealt_by = resolve_player(dealer, table.players, "--dealer") if dealer else stored.dealer
    facts = build_facts(typed, table.profile, table.players, dealt_by)
    row, payouts, result = _supersede(session, table, deal, old, facts, why)
    _reflow_pot(session, table, number)
    return _recorded(session, table, deal, row, result, _bump(session, table), payouts=payouts)


def void_deal(session: Session, table: Seating, number: int, reason: str | None) -> Recorded:
    """Mark deal `number` void: it stays in the log but no longer counts."""
    deal, why = _correctable(session, table, number, reason, "void")
    deal.voided_at, deal.void_reason = utcnow(), why
    session.add(deal)
    session.flush()
    _reflow_pot(session, table, number)
    return _recorded(session, table, deal, _current(session, deal), None, _bump(session, table))


def undo_last(session: Session, table: Seating, *, seen_revision: int | None = None) -> Recorded:
    """Take back the last deal that stands; refused when the evening changed since `seen_revision`."""
    evening = lock(session, table)
    _require_open(table)
    if seen_revision is not None and seen_revision != evening.revision:
        raise UndoRefused(
            _(
                "undo refused: evening {number} changed since you saw it (revision {seen_revision}, now {revision})"
            ).format(number=table.number, seen_revision=seen_revision, revision=evening.revision)
        )
    last = session.exec(select(func.max(Deal.number)).where(Deal.evening_id == table.number, STANDING)).one()
    if last is None:
        raise LedgerError(_("undo: evening {number} has no deal to take back").format(number=table.number))
    return void_deal(session, table, last, "undo")


def list_deals(session: Session, table: Seating) -> list[DealView]:
    """Every deal of the evening with its current revision, voided ones included (marked): two statements."""
    payouts = _evening_payouts(session, table)
    return [_view(table, deal, row, payouts[row.id or 0]) for deal, row in _current_rows(session, table)]


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
