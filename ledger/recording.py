"""Recording deals and correcting them, for `Ledger`: what the rules need is read from the store, the rules build,
validate and score the deal, and the store writes the finished facts and payouts. Each function runs inside the
caller's write transaction, on an evening whose seats were read in it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sqlmodel import Session

from ledger.errors import DealChanged, FactError, Forbidden, KeyTaken, LedgerError, MissingFact, UndoRefused
from ledger.i18n import _
from ledger.rules.build import DealInput, build_facts, judge
from ledger.rules.quick import parse_quick_line
from ledger.rules.scoring import DealResult, score
from ledger.rules.seats import resolve_player, seat_after
from ledger.rules.text import check_plain
from ledger.rules.validate import MOST_PASSED
from ledger.store import deals, evenings
from ledger.store.changes import last_of, last_undoable, log_of, note, organisers_change, view
from ledger.store.deals import facts_of
from ledger.store.evenings import Seating, lock
from ledger.store.models import Deal, DealRevision, EveningChange
from ledger.summary import POT_CAUSE, UNDO, brief, described, why_voided
from ledger.values import LIBRARY, TABLE, DealView, Recorded, Undone, Writer


def record(
    session: Session,
    table: Seating,
    typed: DealInput,
    *,
    dealer: str | None = None,
    key: str | None = None,
    by: Writer = LIBRARY,
) -> Recorded:
    """Score and store a new deal; a repeated idempotency `key` returns the deal it stored and writes nothing. A new
    deal is never refused for what others recorded meanwhile: it comes after them."""
    lock(session, table)
    _require_open(table)
    check_plain(key, "key")
    if key:
        stored = deals.by_key(session, key)
        if stored:
            return _retried(session, table, *stored, typed, dealer, key)
    number, by_turn = deals.next_deal(session, table)
    dealt_by = resolve_player(dealer, table.players, "dealer") if dealer else by_turn
    facts, result = judge(_with_pot(session, table, typed, number), table.profile, table.players, dealt_by)
    deal = deals.insert_deal(session, table, number, key)
    row, payouts = deals.write_revision(session, table, deal.id, 1, facts, result, None)
    note(session, table.evening, "record", by, deal=number, deal_revision=1)
    return deals.recorded(
        session, table, deal, row, result, payouts=payouts, dealer_next=seat_after(table.players, dealt_by)
    )


def typed_facts(deal: DealInput | str, table: Seating, dealer: str | None) -> tuple[DealInput, str | None]:
    """A deal's typed facts and its dealer, from a quick line (`"bruno solo 22"`) or as given."""
    if isinstance(deal, DealInput):
        return deal, dealer
    quick = parse_quick_line(deal, table.players, table.profile)
    if quick.dealer and dealer:
        raise LedgerError(_("the dealer is given twice: give it once"))
    return quick.deal, dealer or quick.dealer


def amend(
    session: Session,
    table: Seating,
    number: int,
    changes: DealInput,
    reason: str | None,
    *,
    dealer: str | None = None,
    seen_revision: int | None = None,
    by: Writer = LIBRARY,
) -> Recorded:
    """A new revision of deal `number` with the given facts changed; the old one stays readable. With `seen_revision`
    (the deal's revision the corrector saw), refused when the deal was corrected since."""
    deal, why = _correctable(session, table, number, reason, amending=True, by=by)
    old = deals.current_revision(session, deal)
    if seen_revision is not None and seen_revision != old.revision:
        raise DealChanged(_changed_since(session, table, deal, seen_revision, old.revision))
    given = changes.to_dict()
    if not given and dealer is None:
        raise LedgerError(
            _("amend deal {number}: give at least one fact to change, e.g. the thirds").format(number=number)
        )
    stored = facts_of(table, old)
    typed = DealInput.of_facts(stored).amended(changes)
    if "passed_before" not in given and not (typed.passed and stored.passed):  # a pot moves only the deals played
        typed = _with_pot(session, table, replace(typed, passed_before=0), number)
    dealt_by = resolve_player(dealer, table.players, "dealer") if dealer else stored.dealer
    facts, result = judge(typed, table.profile, table.players, dealt_by)
    if facts == stored:
        raise LedgerError(
            _("amend deal {number}: these are the facts it has already; nothing written").format(number=number)
        )
    row, payouts = deals.supersede(session, table, deal, old, facts, result, why)
    rescored = _reflow_pot(session, table, number)
    note(session, table.evening, "amend", by, deal=number, deal_revision=old.revision + 1, reason=why)
    return deals.recorded(session, table, deal, row, result, payouts=payouts, rescored=rescored)


def void(session: Session, table: Seating, number: int, reason: str | None, *, by: Writer = LIBRARY) -> Recorded:
    """Deal `number` stays in the log but no longer counts; a reason typed is needed."""
    deal, why = _correctable(session, table, number, reason, amending=False, by=by)
    deals.mark_void(session, deal, why)
    rescored = _reflow_pot(session, table, number)
    note(session, table.evening, "void", by, deal=number, reason=why)
    return deals.recorded(session, table, deal, deals.current_revision(session, deal), None, rescored=rescored)


def close(session: Session, table: Seating, *, drop_pot: bool = False, by: Writer = LIBRARY) -> Seating:
    """Close an open evening; a pot of passed deals still waiting goes on to the same table's next evening, unless
    `drop_pot`."""
    closed = evenings.close_evening(session, table, _waiting(session, table, drop_pot))
    note(session, closed.evening, "close", by)
    return closed


def _waiting(session: Session, table: Seating, drop_pot: bool = False) -> int:
    """The passed deals whose pot waits for the table's next evening when this one closes now."""
    if drop_pot:
        return 0
    return deals.passed_streak(session, table, deals.next_deal(session, table)[0])


def reopen(session: Session, table: Seating, reason: str | None, *, by: Writer = LIBRARY) -> Seating:
    """Open a closed evening again, with the reason typed; a club table's key never reopens what the organiser
    closed."""
    _not_the_organisers(session, table, by, last_of(session, table.number, kind="close"))
    opened = evenings.reopen_evening(session, table, reason)
    note(session, opened.evening, "reopen", by, reason=reason.strip() if reason else None)
    return opened


def void_evening(session: Session, table: Seating, reason: str | None, *, by: Writer = LIBRARY) -> Seating:
    """Void an evening whole: it stays in the log, closed, and counts nowhere; a club table's key never voids an
    evening the organiser changed."""
    _not_the_organisers(session, table, by, organisers_change(session, table.number))
    voided = evenings.void_evening(session, table, reason)
    note(session, voided.evening, "void_evening", by, reason=voided.evening.void_reason)
    return voided


def undo(session: Session, table: Seating, *, seen_revision: int | None = None, by: Writer = LIBRARY) -> Undone:
    """Take back the evening's last change, whatever it was: a deal recorded is voided, an amendment goes back to the
    revision before, a void brings the deal back as it stood, a close reopens, a reopening closes again, a void of the
    whole evening is lifted. The undo is a change of its own; an undo is never taken back, undo steps further back.
    With `seen_revision` (the evening's revision when the scorekeeper looked), refused when the evening changed since:
    the change shown as the last one may no longer be it."""
    evening = lock(session, table)
    if seen_revision is not None and seen_revision > evening.revision:
        raise FactError(
            "seen_revision",
            seen_revision,
            _("evening {number} is at revision {revision}; no change has that number").format(
                number=table.number, revision=evening.revision
            ),
        )
    if seen_revision is not None and seen_revision != evening.revision:
        raise UndoRefused(_refusal(session, table, seen_revision))
    target = last_undoable(session, table.number)
    if target is None:
        raise LedgerError(_("undo: evening {number} has no change to take back").format(number=table.number))
    _not_the_organisers(session, table, by, target)
    taken = view(target)
    rescored = _TAKE_BACK[target.kind](session, table, target)
    revision = note(session, table.evening, "undo", by, deal=target.deal, undoes=target.revision)
    return Undone(
        evening=table.number,
        taken_back=taken,
        recorded=_as_now(session, table, target.deal, rescored),
        evening_revision=revision,
    )


def _refusal(session: Session, table: Seating, seen: int) -> str:
    """Why an undo guarded by revision `seen` is refused: what happened to the evening since (the last three)."""
    since = log_of(session, table.number, since=seen)
    said = "; ".join(described(item, _deal_of(session, table, item.deal)) for item in since[-3:])
    return _(
        "undo refused: evening {number} changed since you saw it (revision {seen}, now {revision}): {since}"
    ).format(number=table.number, seen=seen, revision=table.evening.revision, since=said)


def _changed_since(session: Session, table: Seating, deal: Deal, seen: int, revision: int) -> str:
    """Why an amendment drawn from revision `seen` of the deal is refused: how the deal was corrected since."""
    now = deals.view(table, deal, deals.current_revision(session, deal), ())
    last = log_of(session, table.number, deal=deal.number)[-1]
    return _(
        "deal {number} was corrected since you saw it (revision {seen}, now {revision}): {change}; look at it again"
    ).format(number=deal.number, seen=seen, revision=revision, change=described(last, now))


def _deal_of(session: Session, table: Seating, number: int | None) -> DealView | None:
    if number is None:
        return None
    deal = deals.get_deal(session, table, number)
    return deals.view(table, deal, deals.current_revision(session, deal), ())


def _as_now(session: Session, table: Seating, number: int | None, rescored: tuple[int, ...]) -> Recorded | None:
    """The deal an undo touched, as it stands after it (None for a change of the evening itself)."""
    if number is None:
        return None
    deal = deals.get_deal(session, table, number)
    row = deals.current_revision(session, deal)
    return deals.recorded(session, table, deal, row, _standing(table, deal, row), rescored=rescored)


def _unrecord(session: Session, table: Seating, target: EveningChange) -> tuple[int, ...]:
    """Take back a deal recorded: it is voided, by the ledger."""
    _require_open(table)
    deal = deals.get_deal(session, table, _number(target))
    deals.mark_void(session, deal, None, cause=UNDO)
    return _reflow_pot(session, table, deal.number)


def _unamend(session: Session, table: Seating, target: EveningChange) -> tuple[int, ...]:
    """Take back an amendment: the deal's facts as they were just before it, scored with the pot it carries now (as
    stored facts: a deal stored before the rules counted its cards comes back as it was)."""
    _require_open(table)
    deal = deals.get_deal(session, table, _number(target))
    old = deals.current_revision(session, deal)
    stored = facts_of(table, deals.revision_of(session, deal, (target.deal_revision or 2) - 1))
    typed = _with_pot(session, table, replace(DealInput.of_facts(stored), passed_before=0), deal.number)
    facts, result = judge(typed, table.profile, table.players, stored.dealer, count_cards=False)
    deals.supersede(session, table, deal, old, facts, result, None, cause=UNDO)
    return _reflow_pot(session, table, deal.number)


def _unvoid(session: Session, table: Seating, target: EveningChange) -> tuple[int, ...]:
    """Take back a void: the deal counts again, as it stood."""
    _require_open(table)
    deal = deals.get_deal(session, table, _number(target))
    deals.mark_standing(session, deal)
    return _reflow_pot(session, table, deal.number)


def _unclose(session: Session, table: Seating, target: EveningChange) -> tuple[int, ...]:
    """Take back a close: the evening is open again."""
    evenings.reopen_evening(session, table, None, logged=False)
    return ()


def _unreopen(session: Session, table: Seating, target: EveningChange) -> tuple[int, ...]:
    """Take back a reopening: the evening closes again as it was, the pot that waited then waiting again (counted
    afresh for a reopening kept before it was)."""
    waited = evenings.last_reopening(session, table).pot_out
    evenings.close_evening(session, table, _waiting(session, table) if waited is None else waited)
    return ()


def _unvoid_evening(session: Session, table: Seating, target: EveningChange) -> tuple[int, ...]:
    """Take back the void of the whole evening."""
    evenings.lift_void(session, table)
    return ()


def _number(target: EveningChange) -> int:
    assert target.deal is not None
    return target.deal


_TAKE_BACK: dict[str, Callable[[Session, Seating, EveningChange], tuple[int, ...]]] = {
    "record": _unrecord,
    "amend": _unamend,
    "void": _unvoid,
    "close": _unclose,
    "reopen": _unreopen,
    "void_evening": _unvoid_evening,
}


def _with_pot(session: Session, table: Seating, typed: DealInput, number: int) -> DealInput:
    """Fill in the passed deals before this one from the ledger, unless the scorekeeper gave them; an evening whose
    options carry no pot over has only the pot it took in from the table's evening before, if any."""
    counted = deals.passed_streak(session, table, number)
    if not typed.passed_before:
        return replace(typed, passed_before=counted)
    if not table.profile.pot_carryover and typed.passed_before != counted and 0 < typed.passed_before <= MOST_PASSED:
        raise FactError(
            "passed_before",
            typed.passed_before,
            _("{profile} carries no pot of passed deals over, so it has nothing to count").format(
                profile=table.profile.label()
            ),
        )
    return typed


def _reflow_pot(session: Session, table: Seating, changed: int) -> tuple[int, ...]:
    """After deal `changed` is amended or voided, re-score later deals whose pot of passed deals changed (their stored
    facts, as stored: their cards are not counted again); their numbers."""
    own = table.profile.pot_carryover
    if not own and not table.evening.pot_in:
        return ()
    rescored: list[int] = []
    streak = table.evening.pot_in
    for deal, row in deals.standing_rows(session, table):
        if row.declarer_id is None:
            streak += own
            continue
        if deal.number > changed and row.passed_before != streak:
            facts = replace(facts_of(table, row), passed_before=streak)
            result = score(facts, table.profile, count_cards=False)
            deals.supersede(session, table, deal, row, facts, result, None, cause=POT_CAUSE, cause_deal=changed)
            rescored.append(deal.number)
        streak = 0
    return tuple(rescored)


def _retried(
    session: Session, table: Seating, deal: Deal, stored: DealRevision, typed: DealInput, dealer: str | None, key: str
) -> Recorded:
    """A retry with a key seen before: the deal it stored as it stands now (amended or voided since, maybe), when the
    retry repeats the facts the key first stored; else an error."""
    if deal.evening_id != table.number:
        raise FactError(
            "key",
            key,
            _("used for deal {number} of evening {evening_id}").format(number=deal.number, evening_id=deal.evening_id),
        )
    facts = facts_of(table, stored if stored.revision == 1 else deals.revision_of(session, deal, 1))
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
    return deals.recorded(session, table, deal, stored, _standing(table, deal, stored), duplicate=True)


def _standing(table: Seating, deal: Deal, row: DealRevision) -> DealResult | None:
    """The result of a stored revision of `deal` as it stands (None when the deal is voided), its facts read as
    stored: their cards are not counted again."""
    return None if deal.voided_at else score(facts_of(table, row), table.profile, count_cards=False)


def _not_the_organisers(session: Session, table: Seating, by: Writer, change: EveningChange | None) -> None:
    """Refuse a club table's key (`by`) a write that would take back or override `change`, made by the organiser."""
    if by.table is None or change is None or change.source == TABLE:
        return
    raise Forbidden(
        _(
            "the organiser made this change ({change}): a table's key cannot take it back or override it; ask the "
            "organiser"
        ).format(change=described(view(change), _deal_of(session, table, change.deal)))
    )


def _require_open(table: Seating) -> None:
    """Refuse changes to a closed or voided evening (call after `lock`, which re-reads the evening)."""
    if table.evening.voided_at is not None:
        raise LedgerError(
            _("evening {number} is voided ({reason}): it counts nowhere and takes no deal").format(
                number=table.number, reason=table.evening.void_reason
            )
        )
    if table.evening.closed_at is not None:
        raise LedgerError(
            _("evening {number} is closed; to change it: calabresella evening reopen {number}").format(
                number=table.number
            )
        )


def _correctable(
    session: Session, table: Seating, number: int, reason: str | None, *, amending: bool, by: Writer
) -> tuple[Deal, str | None]:
    """Deal `number` of an open evening, not voided, with the reason for amending or voiding it; a club table's key
    never overrides the organiser's own change of it."""
    lock(session, table)
    _require_open(table)
    if not reason or not reason.strip():
        asked = _("amend deal {number}: why? e.g. 'wrong thirds'") if amending else _("void deal {number}: why?")
        raise MissingFact("reason", asked.format(number=number))
    check_plain(reason, "reason")
    deal = deals.get_deal(session, table, number)
    _not_the_organisers(session, table, by, last_of(session, table.number, deal=number))
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
