"""Recording deals and correcting them, for `Ledger`: what the rules need is read from the store, the rules build,
validate and score the deal, and the store writes the finished facts and payouts. Each function runs inside the
caller's write transaction, on an evening whose seats were read in it."""

from __future__ import annotations

from dataclasses import replace

from sqlmodel import Session

from ledger.errors import EveningChanged, FactError, KeyTaken, LedgerError, MissingFact, UndoRefused
from ledger.i18n import _
from ledger.rules.build import DealInput, build_facts, judge
from ledger.rules.scoring import score
from ledger.rules.seats import resolve_player, seat_after
from ledger.rules.text import check_plain
from ledger.store import deals
from ledger.store.deals import facts_of
from ledger.store.evenings import Seating, lock
from ledger.store.models import Deal, DealRevision
from ledger.summary import POT_CAUSE, UNDO, brief, why_voided
from ledger.values import Recorded


def record(
    session: Session,
    table: Seating,
    typed: DealInput,
    *,
    dealer: str | None = None,
    key: str | None = None,
    seen_revision: int | None = None,
) -> Recorded:
    """Score and store a new deal; a repeated idempotency `key` returns the deal it stored and writes nothing; with
    `seen_revision`, refused when the evening changed since (another scorekeeper recorded meanwhile)."""
    evening = lock(session, table)
    _require_open(table)
    check_plain(key, "key")
    if key:
        stored = deals.by_key(session, key)
        if stored:
            return _retried(session, table, *stored, typed, dealer, key)
    if seen_revision is not None and seen_revision != evening.revision:
        last = deals.last_deals(session, table, 1)
        raise EveningChanged(
            _("since this page was opened, evening {number} changed: its last deal is now {deal}, {what}").format(
                number=table.number, deal=last[0].number, what=brief(last[0])
            )
            if last
            else _("since this page was opened, evening {number} changed").format(number=table.number)
        )
    number, by_turn = deals.next_deal(session, table)
    dealt_by = resolve_player(dealer, table.players, "dealer") if dealer else by_turn
    facts, result = judge(_with_pot(session, table, typed, number), table.profile, table.players, dealt_by)
    deal = deals.insert_deal(session, table, number, key)
    row, payouts = deals.write_revision(session, table, deal.id, 1, facts, result, None)
    deals.bump(session, table)
    return deals.recorded(
        session, table, deal, row, result, payouts=payouts, dealer_next=seat_after(table.players, dealt_by)
    )


def amend(
    session: Session,
    table: Seating,
    number: int,
    changes: DealInput,
    reason: str | None,
    *,
    dealer: str | None = None,
) -> Recorded:
    """A new revision of deal `number` with the given facts changed; the old one stays readable."""
    deal, why = _correctable(session, table, number, reason, amending=True)
    old = deals.current_revision(session, deal)
    if not changes.to_dict() and dealer is None:
        raise LedgerError(
            _("amend deal {number}: give at least one fact to change, e.g. the thirds").format(number=number)
        )
    stored = facts_of(table, old)
    typed = DealInput.of_facts(stored).amended(changes)
    if "passed_before" not in changes.to_dict():
        typed = _with_pot(session, table, replace(typed, passed_before=0), number)
    dealt_by = resolve_player(dealer, table.players, "dealer") if dealer else stored.dealer
    facts, result = judge(typed, table.profile, table.players, dealt_by)
    if facts == stored:
        raise LedgerError(
            _("amend deal {number}: these are the facts it has already; nothing written").format(number=number)
        )
    row, payouts = deals.supersede(session, table, deal, old, facts, result, why)
    rescored = _reflow_pot(session, table, number)
    deals.bump(session, table)
    return deals.recorded(session, table, deal, row, result, payouts=payouts, rescored=rescored)


def void(session: Session, table: Seating, number: int, reason: str | None, *, cause: str | None = None) -> Recorded:
    """Deal `number` stays in the log but no longer counts; a reason typed is needed unless the ledger has a `cause`."""
    deal, why = _correctable(session, table, number, reason, amending=False, needs_reason=cause is None)
    deals.mark_void(session, deal, why, cause=cause)
    rescored = _reflow_pot(session, table, number)
    deals.bump(session, table)
    return deals.recorded(session, table, deal, deals.current_revision(session, deal), None, rescored=rescored)


def undo(session: Session, table: Seating, *, seen_revision: int | None = None) -> Recorded:
    """Take back the last change: a deal recorded is voided, an amendment goes back to the revision before it;
    refused when the evening changed since `seen_revision`."""
    evening = lock(session, table)
    _require_open(table)
    if seen_revision is not None and seen_revision != evening.revision:
        refused = _(
            "undo refused: evening {number} changed since you saw it (revision {seen_revision}, now {revision})"
        )
        raise UndoRefused(refused.format(number=table.number, seen_revision=seen_revision, revision=evening.revision))
    last = deals.last_change(session, table)
    if last is None:
        raise LedgerError(_("undo: evening {number} has no deal to take back").format(number=table.number))
    deal, before = last
    if before is None:
        return void(session, table, deal.number, None, cause=UNDO)
    old = deals.current_revision(session, deal)
    stored = facts_of(table, before)
    typed = _with_pot(session, table, replace(DealInput.of_facts(stored), passed_before=0), deal.number)
    facts, result = judge(typed, table.profile, table.players, stored.dealer)
    row, payouts = deals.supersede(session, table, deal, old, facts, result, None, cause=UNDO)
    rescored = _reflow_pot(session, table, deal.number)
    deals.bump(session, table)
    return deals.recorded(session, table, deal, row, result, payouts=payouts, rescored=rescored)


def _with_pot(session: Session, table: Seating, typed: DealInput, number: int) -> DealInput:
    """Fill in the passed deals before this one from the ledger, unless the scorekeeper gave them."""
    if typed.passed_before or not table.profile.pot_carryover:
        return typed
    return replace(typed, passed_before=deals.passed_streak(session, table, number))


def _reflow_pot(session: Session, table: Seating, changed: int) -> tuple[int, ...]:
    """After deal `changed` is amended or voided, re-score later deals whose pot of passed deals changed; their
    numbers."""
    if not table.profile.pot_carryover:
        return ()
    rescored: list[int] = []
    streak = table.evening.pot_in
    for deal, row in deals.standing_rows(session, table):
        if row.declarer_id is None:
            streak += 1
            continue
        if deal.number > changed and row.passed_before != streak:
            facts = replace(facts_of(table, row), passed_before=streak)
            result = score(facts, table.profile)
            deals.supersede(session, table, deal, row, facts, result, None, cause=POT_CAUSE, cause_deal=changed)
            rescored.append(deal.number)
        streak = 0
    return tuple(rescored)


def _retried(
    session: Session, table: Seating, deal: Deal, stored: DealRevision, typed: DealInput, dealer: str | None, key: str
) -> Recorded:
    """A retry with a key seen before: the deal it stored, when the retry repeats its facts; else an error."""
    if deal.evening_id != table.number:
        raise FactError(
            "key",
            key,
            _("used for deal {number} of evening {evening_id}").format(number=deal.number, evening_id=deal.evening_id),
        )
    facts = facts_of(table, stored)
    try:
        dealt_by = resolve_player(dealer, table.players, "dealer") if dealer else facts.dealer
        pot = typed if typed.passed_before else replace(typed, passed_before=facts.passed_before)
        retried = build_facts(pot, table.profile, table.players, dealt_by)
    except LedgerError:
        retried = None
    if retried != facts:
        held = brief(deals.view(table, deal, stored, ()))
        raise KeyTaken(
            "key",
            key,
            _(
                "holds deal {number} of evening {evening} ({held}), recorded with other facts; nothing written: give "
                "a new key, or amend deal {number}"
            ).format(number=deal.number, evening=table.number, held=held),
        )
    return deals.recorded(session, table, deal, stored, None, duplicate=True)


def _require_open(table: Seating) -> None:
    """Refuse changes to a closed or voided evening (call after `lock`, which re-reads the evening)."""
    if table.evening.voided_at is not None:
        raise LedgerError(
            _("evening {number} is voided ({reason}): it counts nowhere and takes no deal").format(
                number=table.number, reason=table.evening.void_reason
            )
        )
    if table.evening.closed_at is not None:
        raise LedgerError(_("evening {number} is closed: its deals can no longer change").format(number=table.number))


def _correctable(
    session: Session, table: Seating, number: int, reason: str | None, *, amending: bool, needs_reason: bool = True
) -> tuple[Deal, str | None]:
    """Deal `number` of an open evening, not voided, with the reason for amending or voiding it."""
    lock(session, table)
    _require_open(table)
    if needs_reason and (not reason or not reason.strip()):
        asked = _("amend deal {number}: why? e.g. 'wrong thirds'") if amending else _("void deal {number}: why?")
        raise MissingFact("reason", asked.format(number=number))
    check_plain(reason, "reason")
    deal = deals.get_deal(session, table, number)
    if deal.voided_at is not None:
        voided = why_voided(deals.view(table, deal, deals.current_revision(session, deal), ()))
        if amending:
            raise LedgerError(
                _("deal {number} is voided already ({void_reason}): it cannot be amended").format(
                    number=number, void_reason=voided
                )
            )
        raise LedgerError(
            _("deal {number} is voided already ({void_reason})").format(number=number, void_reason=voided)
        )
    return deal, reason.strip() if reason else None
