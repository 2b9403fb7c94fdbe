"""Recording deals and correcting them by appending: revisions, voids and undo; never a delete."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from ledger.errors import LedgerError
from ledger.rules.build import DealInput, build_facts
from ledger.rules.facts import DealFacts
from ledger.rules.scoring import DealResult, score
from ledger.rules.seats import resolve_player, seat_after
from ledger.store.evenings import Table, lock
from ledger.store.models import Deal, DealRevision, Payout, utcnow
from ledger.store.players import current_names


@dataclass(frozen=True)
class DealView:
    """A deal as stored: its current (or a given) revision with payouts by player name."""

    number: int
    revision: int
    dealer: str
    row: DealRevision
    payouts: dict[str, int]
    roles: dict[str, str]
    voided: bool = False
    void_reason: str | None = None
    key: str | None = None

    @property
    def passed(self) -> bool:
        """Everyone passed."""
        return self.row.declarer_id is None

    def to_dict(self, names: dict[int, str]) -> dict[str, object]:
        """Plain JSON-ready values."""
        r = self.row
        return {
            "number": self.number, "revision": self.revision, "dealer": self.dealer,
            "voided": self.voided, "void_reason": self.void_reason, "key": self.key,
            "declarer": names.get(r.declarer_id) if r.declarer_id else None,
            "partner": names.get(r.partner_id) if r.partner_id else None,
            "contract": r.contract, "aggravation": r.aggravation, "called": r.called, "holder": r.holder,
            "auction": r.auction, "declarer_thirds": r.declarer_thirds, "tricks": r.tricks,
            "last_trick": r.last_trick, "passed_before": r.passed_before, "declarer_won": r.declarer_won,
            "sweep": r.sweep, "multiplier": r.multiplier, "amount": r.amount, "payouts": self.payouts,
            "explanation": r.explanation, "recorded_at": r.recorded_at.isoformat(), "reason": r.reason,
            "superseded_at": r.superseded_at.isoformat() if r.superseded_at else None, "typed": r.typed,
        }


@dataclass(frozen=True)
class Recorded:
    """What a write did: the deal as now stored, its result, the evening's totals and revision."""

    deal: DealView
    result: DealResult | None
    totals: dict[str, int]
    evening_revision: int
    duplicate: bool = False
    notes: list[str] = field(default_factory=list)


def _deals(session: Session, table: Table) -> list[Deal]:
    return list(session.exec(select(Deal).where(Deal.evening_id == table.number).order_by(col(Deal.number))).all())


def _current(session: Session, deal: Deal) -> DealRevision:
    return session.exec(select(DealRevision).where(DealRevision.deal_id == deal.id,
                                                   col(DealRevision.superseded_at).is_(None))).one()


def _view(session: Session, table: Table, deal: Deal, revision: DealRevision) -> DealView:
    names = {pid: name for name, pid in table.ids.items()}
    rows = session.exec(select(Payout).where(Payout.revision_id == revision.id).order_by(col(Payout.position))).all()
    return DealView(
        number=deal.number, revision=revision.revision, dealer=names[revision.dealer_id], row=revision,
        payouts={names[p.player_id]: p.points for p in rows}, roles={names[p.player_id]: p.role for p in rows},
        voided=deal.voided_at is not None, void_reason=deal.void_reason, key=deal.key,
    )


def _live(session: Session, table: Table) -> list[tuple[Deal, DealRevision]]:
    """Non-voided deals with their current revisions, in order."""
    rows = session.exec(
        select(Deal, DealRevision).join(DealRevision, col(DealRevision.deal_id) == Deal.id)
        .where(Deal.evening_id == table.number, col(Deal.voided_at).is_(None),
               col(DealRevision.superseded_at).is_(None)).order_by(col(Deal.number))
    ).all()
    return list(rows)


def next_dealer(session: Session, table: Table) -> str:
    """The seat after the dealer of the last deal that stands (passed ones included)."""
    names = {pid: name for name, pid in table.ids.items()}
    last = session.exec(
        select(DealRevision.dealer_id).join(Deal, col(Deal.id) == DealRevision.deal_id)
        .where(Deal.evening_id == table.number, col(Deal.voided_at).is_(None),
               col(DealRevision.superseded_at).is_(None))
        .order_by(col(Deal.number).desc()).limit(1)
    ).first()
    if last is None:
        return names[table.evening.first_dealer_id]
    return seat_after(table.players, names[last])


def _passed_before(session: Session, table: Table, number: int) -> int:
    """Consecutive passed deals just before deal `number`."""
    count = 0
    for deal, revision in reversed(_live(session, table)):
        if deal.number >= number:
            continue
        if revision.declarer_id is not None:
            break
        count += 1
    return count


def totals(session: Session, table: Table) -> dict[str, int]:
    """Game points per seated player over the deals that stand."""
    sums = dict(session.exec(
        select(Payout.player_id, func.sum(Payout.points))
        .join(DealRevision, col(DealRevision.id) == Payout.revision_id)
        .join(Deal, col(Deal.id) == DealRevision.deal_id)
        .where(Deal.evening_id == table.number, col(Deal.voided_at).is_(None),
               col(DealRevision.superseded_at).is_(None))
        .group_by(Payout.player_id)
    ).all())
    return {name: int(sums.get(pid, 0)) for name, pid in table.ids.items()}


def score_typed(table: Table, typed: DealInput, dealer: str) -> tuple[DealFacts, DealResult]:
    profile = table.profile
    facts = build_facts(typed, profile, table.players, dealer)
    return facts, score(facts, profile)


def write_revision(session: Session, table: Table, deal: Deal, number: int, typed: DealInput, dealer: str,
                    facts: DealFacts, result: DealResult, reason: str | None) -> DealRevision:
    ids = table.ids
    revision = DealRevision(
        deal_id=deal.id, revision=number, reason=reason, profile=table.evening.profile,
        options=dict(table.evening.options), typed=typed.named(facts).to_dict(), dealer_id=ids[dealer],
        declarer_id=ids.get(result.declarer or ""), partner_id=ids.get(result.partner or ""),
        contract=result.contract.value if result.contract else None,
        aggravation=result.aggravation.value if result.aggravation else None,
        called=str(facts.called) if facts.called else None, holder=facts.holder,
        auction=typed.named(facts).auction,
        declarer_thirds=facts.thirds, tricks=facts.tricks,
        last_trick=facts.last_trick.value if facts.last_trick else None, passed_before=facts.passed_before,
        declarer_won=result.declarer_won, sweep=result.sweep.value if result.sweep else None,
        multiplier=result.multiplier, amount=result.amount, explanation=result.explanation,
    )
    session.add(revision)
    session.flush()
    for position, player in enumerate(table.players):
        role = _role(result, player)
        session.add(Payout(revision_id=revision.id, player_id=ids[player], position=position, role=role,
                           points=result.payouts[player]))
    session.flush()
    return revision


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


def _bump(session: Session, table: Table) -> int:
    """Count one more change to the evening (its row is locked by the caller since the start)."""
    evening = table.evening
    evening.revision += 1
    session.add(evening)
    session.flush()
    return evening.revision


def _with_pot(session: Session, table: Table, typed: DealInput, number: int) -> DealInput:
    """Fill in the passed deals before this one from the ledger, unless the scorekeeper gave them."""
    if typed.passed_before or not table.profile.pot_carryover:
        return typed
    return DealInput.from_dict({**typed.to_dict(), "passed_before": _passed_before(session, table, number)})


def _reflow_pot(session: Session, table: Table, changed: int) -> None:
    """After deal `changed` is amended or voided, re-score later deals whose pot of passed deals changed."""
    if not table.profile.pot_carryover:
        return
    names = {pid: name for name, pid in table.ids.items()}
    current = current_names(session)
    streak = 0
    for deal, revision in _live(session, table):
        if revision.declarer_id is None:
            streak += 1
            continue
        if deal.number > changed and revision.passed_before != streak:
            typed = DealInput.from_dict({**revision.typed, "passed_before": streak}).with_names(current)
            _supersede(session, table, deal, revision, typed, names[revision.dealer_id],
                       f"pot of passed deals changed by deal {changed}")
        streak = 0


def _supersede(session: Session, table: Table, deal: Deal, old: DealRevision, typed: DealInput, dealer: str,
               reason: str) -> tuple[DealRevision, DealResult]:
    """Score the new facts, then mark the old revision superseded and write the new one."""
    facts, result = score_typed(table, typed, dealer)
    old.superseded_at = utcnow()
    session.add(old)
    session.flush()
    return write_revision(session, table, deal, old.revision + 1, typed, dealer, facts, result, reason), result


def record_deal(session: Session, table: Table, typed: DealInput, *, dealer: str | None = None,
                key: str | None = None) -> Recorded:
    """Validate, score and store a new deal; a repeated idempotency `key` returns the stored deal."""
    evening = lock(session, table)
    _require_open(table)
    if key:
        existing = session.exec(select(Deal).where(Deal.key == key)).first()
        if existing:
            if existing.evening_id != table.number:
                raise LedgerError(f"--key {key!r} was used for deal {existing.number} of evening {existing.evening_id}")
            view = _view(session, table, existing, _current(session, existing))
            return Recorded(view, None, totals(session, table), evening.revision, duplicate=True)
    dealt_by = resolve_player(dealer, table.players, "--dealer") if dealer else next_dealer(session, table)
    number = (session.exec(select(func.max(Deal.number)).where(Deal.evening_id == table.number)).one() or 0) + 1
    typed = _with_pot(session, table, typed, number)
    facts, result = score_typed(table, typed, dealt_by)
    deal = Deal(evening_id=table.number, number=number, key=key)
    session.add(deal)
    try:
        session.flush()
    except IntegrityError:
        raise LedgerError(f"--key {key!r} was taken by another deal recorded at the same moment; nothing "
                          "written: look at `calabresella deals`") from None
    revision = write_revision(session, table, deal, 1, typed, dealt_by, facts, result, None)
    counter = _bump(session, table)
    return Recorded(_view(session, table, deal, revision), result, totals(session, table), counter)


def get_deal(session: Session, table: Table, number: int) -> Deal:
    """Deal `number` of the evening, or an error naming the range."""
    deal = session.exec(select(Deal).where(Deal.evening_id == table.number, Deal.number == number)).first()
    if deal is None:
        count = session.exec(select(func.max(Deal.number)).where(Deal.evening_id == table.number)).one() or 0
        have = f"deals are 1 to {count}" if count else "it has no deals yet"
        raise LedgerError(f"deal {number} does not exist in evening {table.number}: {have}")
    return deal


def _require_open(table: Table) -> None:
    """Refuse changes to a closed evening (call after `lock`, which re-reads the evening)."""
    if table.evening.closed_at is not None:
        raise LedgerError(f"evening {table.number} is closed: its deals can no longer change")


def _correctable(session: Session, table: Table, number: int, reason: str | None, verb: str) -> tuple[Deal, str]:
    """Deal `number` of an open evening, not voided, with the reason for correcting it."""
    lock(session, table)
    _require_open(table)
    if not reason or not reason.strip():
        raise LedgerError(f"{verb} deal {number}: give a --reason, e.g. --reason 'wrong thirds'")
    deal = get_deal(session, table, number)
    if deal.voided_at is not None:
        raise LedgerError(f"deal {number} is voided already ({deal.void_reason}): it cannot be {verb}ed")
    return deal, reason.strip()


def amend_deal(session: Session, table: Table, number: int, changes: DealInput, reason: str | None,
               *, dealer: str | None = None) -> Recorded:
    """Write a new revision of deal `number` with the given facts changed; the old one stays readable."""
    deal, why = _correctable(session, table, number, reason, "amend")
    old = _current(session, deal)
    names = {pid: name for name, pid in table.ids.items()}
    if not changes.to_dict() and dealer is None:
        raise LedgerError(f"amend deal {number}: give at least one fact to change, e.g. --thirds 20")
    typed = DealInput.from_dict(old.typed).with_names(current_names(session)).amended(changes)
    if "passed_before" not in changes.to_dict():
        typed = _with_pot(session, table, DealInput.from_dict({**typed.to_dict(), "passed_before": 0}), number)
    dealt_by = resolve_player(dealer, table.players, "--dealer") if dealer else names[old.dealer_id]
    revision, result = _supersede(session, table, deal, old, typed, dealt_by, why)
    _reflow_pot(session, table, number)
    counter = _bump(session, table)
    return Recorded(_view(session, table, deal, revision), result, totals(session, table), counter)


def void_deal(session: Session, table: Table, number: int, reason: str | None) -> Recorded:
    """Mark deal `number` void: it stays in the log but no longer counts."""
    deal, why = _correctable(session, table, number, reason, "void")
    deal.voided_at, deal.void_reason = utcnow(), why
    session.add(deal)
    session.flush()
    _reflow_pot(session, table, number)
    counter = _bump(session, table)
    return Recorded(_view(session, table, deal, _current(session, deal)), None, totals(session, table), counter)


def undo_last(session: Session, table: Table, *, seen_revision: int | None = None) -> Recorded:
    """Take back the last deal that stands; refused when the evening changed since `seen_revision`."""
    evening = lock(session, table)
    _require_open(table)
    if seen_revision is not None and seen_revision != evening.revision:
        raise LedgerError(f"undo refused: evening {table.number} changed since you saw it (revision {seen_revision},"
                          f" now {evening.revision}); look at `calabresella deals` and void the deal you mean")
    live = _live(session, table)
    if not live:
        raise LedgerError(f"undo: evening {table.number} has no deal to take back")
    return void_deal(session, table, live[-1][0].number, "undo")


def list_deals(session: Session, table: Table) -> list[DealView]:
    """Every deal of the evening with its current revision, voided ones included (marked)."""
    return [_view(session, table, deal, _current(session, deal)) for deal in _deals(session, table)]


def deal_history(session: Session, table: Table, number: int) -> list[DealView]:
    """Every revision of deal `number`, oldest first."""
    deal = get_deal(session, table, number)
    revisions = session.exec(select(DealRevision).where(DealRevision.deal_id == deal.id)
                             .order_by(col(DealRevision.revision))).all()
    return [_view(session, table, deal, revision) for revision in revisions]


def running_totals(session: Session, table: Table) -> list[tuple[int, dict[str, int]]]:
    """After each deal that stands: its number and everyone's total so far."""
    running = {name: 0 for name in table.players}
    out = []
    for deal in list_deals(session, table):
        if deal.voided:
            continue
        running = {name: running[name] + deal.payouts.get(name, 0) for name in table.players}
        out.append((deal.number, running))
    return out
