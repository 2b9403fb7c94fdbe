"""Money across evenings: the settlement of chosen evenings, payments handed over, and the tab still owed."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime
from typing import Any

from sqlalchemy import bindparam, func
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from ledger.clock import day_start, utcnow
from ledger.errors import FactError, LedgerError, MissingFact, NoOpenEvening
from ledger.fmt import format_cents
from ledger.i18n import _
from ledger.rules.numbers import storable
from ledger.rules.text import check_plain
from ledger.settlement import fewest_payments, pair_flows, round_balances
from ledger.store.changes import noted
from ledger.store.counting import counting_payouts
from ledger.store.deals import counted_totals
from ledger.store.evenings import Seating, get_seating, list_evenings, parse_cents, parse_currency
from ledger.store.models import Evening, PaymentEntry, Payout, Player, ident
from ledger.store.players import get_player
from ledger.store.table_payments import paid_at_table
from ledger.values import PaymentInfo, Settlement, Tab

PAID = col(PaymentEntry.voided_at).is_(None)
"""A payment not voided."""


def choose_evenings(session: Session, evening: int | None = None, since: date | None = None) -> list[Seating]:
    """Evening N, or every evening that counts started on or after `since` (oldest first), or else the most recent
    evening that counts: those evenings read, and no other."""
    if evening is not None and since is not None:
        raise LedgerError(_("give an evening or a day to start from, not both"))
    if evening is not None:
        return [counted(get_seating(session, evening))]
    if since is not None:
        chosen = list_evenings(session, since=day_start(since), counting=True)
        if not chosen:
            raise FactError("since", str(since), _("no evening started on or after that day"))
        return chosen[::-1]
    latest = list_evenings(session, limit=1, counting=True)
    if not latest:
        raise NoOpenEvening(_("no evenings yet"))
    return latest


def counted(table: Seating) -> Seating:
    """The evening, to settle: one voided is an error saying that it counts nowhere."""
    if table.evening.voided_at is not None:
        raise FactError(
            "evening", table.number, _("voided ({reason}): it counts nowhere").format(reason=table.evening.void_reason)
        )
    return table


def _one_currency(tables: list[Seating]) -> str:
    currencies = sorted({t.evening.currency for t in tables})
    if len(currencies) > 1:
        detail = ", ".join(
            _("evening {number} in {currency}").format(number=t.number, currency=t.evening.currency) for t in tables
        )
        raise LedgerError(
            _("these evenings mix currencies ({detail}): settle each currency on its own").format(detail=detail)
        )
    return currencies[0]


def settle(session: Session, tables: list[Seating], *, round_to: str | None = None, pairs: bool = False) -> Settlement:
    """Points and money per player over the deals that count of the evenings, and the fewest payments; optionally
    cash-rounded."""
    currency = _one_currency(tables)
    points: defaultdict[str, int] = defaultdict(int)
    cents: defaultdict[str, int] = defaultdict(int)
    by_evening = counted_totals(session, tables)
    for table in tables:
        for name, value in by_evening[table.number].items():
            points[name] += value
            cents[name] += value * table.evening.stake_cents
    balances, rounding = dict(cents), dict[str, int]()
    if round_to is not None:
        unit = parse_cents(round_to, "round_to", _("the smallest coin to pay with"))
        if unit < 1:
            raise FactError("round_to", round_to, _("a coin of at least 0.01, e.g. 0.50"))
        balances, rounding = round_balances(balances, unit)
    return Settlement(
        evenings=[t.number for t in tables],
        currency=currency,
        points=dict(points),
        cents=dict(cents),
        payments=fewest_payments(balances),
        rounding={k: v for k, v in rounding.items() if v},
        pairs=pair_flows(paid_at_table(session, [t.number for t in tables]).get(currency, ())) if pairs else [],
    )


def record_payment(
    session: Session,
    payer: str,
    payee: str,
    amount: str,
    *,
    currency: str | None = None,
    evening: int | None = None,
    note: str | None = None,
    paid_at: datetime | None = None,
    key: str | None = None,
    with_owed: bool = True,
) -> PaymentInfo:
    """Money handed from `payer` to `payee`, kept as an entry of the ledger; a repeated `key` returns the stored one.

    `with_owed`: work out what the payer owed before it (for a warning when they pay more), which reads the whole
    tab of the currency; an import, which shows no such warning, leaves it out.
    """
    check_plain(note, "note")
    check_plain(key, "key")
    giver, taker = get_player(session, payer, prefix=True), get_player(session, payee, prefix=True)
    if giver.id == taker.id:
        raise LedgerError(_("paid: {name} cannot pay themselves").format(name=giver.name))
    cents = parse_cents(amount, "paid", _("the amount handed over"))
    if cents < 1:
        raise LedgerError(_("paid {amount}: the amount is at least 0.01").format(amount=amount))
    table = get_seating(session, evening) if evening is not None else None
    if currency is None:
        latest = table or next(iter(list_evenings(session, limit=1)), None)
        currency = latest.evening.currency if latest else "EUR"
    entry = PaymentEntry(
        payer_id=ident(giver),
        payee_id=ident(taker),
        cents=cents,
        currency=parse_currency(currency),
        evening_id=table.number if table else None,
        note=note,
        paid_at=paid_at or utcnow(),
        key=key,
    )
    names = _names(session)
    if key:
        existing = session.exec(select(PaymentEntry).where(PaymentEntry.key == key)).first()
        if existing:
            return _same_payment(existing, entry, names)
    owed = -balances(session, entry.currency).get(entry.currency, {}).get(giver.name, 0) if with_owed else None
    session.add(entry)
    try:
        session.flush()
    except IntegrityError:
        raise FactError(
            "key", key, _("taken by another payment recorded at the same moment; nothing written: look at the payments")
        ) from None
    noted(session, "payment")
    return _info(entry, names, owed_cents=None if owed is None else max(owed, 0))


def _same_payment(existing: PaymentEntry, retried: PaymentEntry, names: dict[int, str]) -> PaymentInfo:
    """A retry with a key must repeat the payment the key holds; then it is that payment, nothing written."""
    facts = ("payer_id", "payee_id", "cents", "currency", "evening_id")
    if any(getattr(existing, fact) != getattr(retried, fact) for fact in facts):
        held = _info(existing, names)
        raise FactError(
            "key",
            existing.key,
            _("holds payment {number} ({payer} paid {payee} {amount}); nothing written: give a new key").format(
                number=held.id,
                payer=held.payer,
                payee=held.payee,
                amount=format_cents(held.cents, held.currency),
            ),
        )
    return _info(existing, names, duplicate=True)


def void_payment(session: Session, number: int, reason: str | None) -> PaymentInfo:
    """Mark payment `number` void: it stays in the log but no longer counts in the tab."""
    if not reason or not reason.strip():
        raise MissingFact("reason", _("void payment {number}: why? e.g. 'entered twice'").format(number=number))
    check_plain(reason, "reason")
    entry = session.get(PaymentEntry, number) if storable(number) else None
    if entry is None:
        last = session.exec(select(func.max(PaymentEntry.id))).one()
        raise LedgerError(
            _("payment {number} does not exist (payments are 1 to {last})").format(number=number, last=last or 0)
        )
    if entry.voided_at is not None:
        raise LedgerError(
            _("payment {number} is voided already ({reason})").format(number=number, reason=entry.void_reason)
        )
    entry.voided_at, entry.void_reason = utcnow(), reason.strip()
    session.add(entry)
    session.flush()
    noted(session, "payment")
    return _info(entry, _names(session))


def list_payments(session: Session) -> list[PaymentInfo]:
    """Every payment recorded, voided ones included, oldest first."""
    names = _names(session)
    return [_info(e, names) for e in session.exec(select(PaymentEntry).order_by(col(PaymentEntry.id))).all()]


def _info(
    entry: PaymentEntry, names: dict[int, str], *, owed_cents: int | None = None, duplicate: bool = False
) -> PaymentInfo:
    assert entry.id is not None
    return PaymentInfo(
        id=entry.id,
        payer=names[entry.payer_id],
        payee=names[entry.payee_id],
        cents=entry.cents,
        currency=entry.currency,
        evening=entry.evening_id,
        note=entry.note,
        paid_at=entry.paid_at,
        key=entry.key,
        voided_at=entry.voided_at,
        void_reason=entry.void_reason,
        owed_cents=owed_cents,
        duplicate=duplicate,
    )


def _names(session: Session) -> dict[int, str]:
    return {p.id: p.name for p in session.exec(select(Player)).all() if p.id is not None}


def tab(session: Session, *, pairs: bool = False) -> list[Tab]:
    """Every currency's tab over all evenings, less the payments that stand; when asked, also what each pair won and
    lost at the table, before any payment. Summed in the database: what is read is a row per player and currency."""
    owed = balances(session)
    paid = paid_at_table(session) if pairs else {}
    return [
        Tab(currency, still, pair_flows(paid.get(currency, ())), fewest_payments(still))
        for currency, still in sorted(owed.items())
    ]


def balances(session: Session, currency: str | None = None) -> dict[str, dict[str, int]]:
    """Per currency (one, or each played or paid in), what each player is still owed in cents (negative: owes) over
    the deals that count, less the payments that stand: two statements, each a row per player and currency."""
    chosen = {"currency": currency} if currency is not None else {}
    owed: defaultdict[str, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
    for code, name, cents in session.execute(_won_query(currency is not None), chosen):
        owed[code][name] += int(cents)
    for code, payer, payee, cents in session.execute(_paid_query(currency is not None), chosen):
        owed[code][payer] += int(cents)
        owed[code][payee] -= int(cents)
    return {code: {name: cents for name, cents in still.items() if cents} for code, still in owed.items()}


def _won_query(one_currency: bool) -> Any:
    """Per currency and player, the money won at the table over the deals that count (of `:currency`)."""
    won = counting_payouts(col(Evening.currency), col(Player.name), func.sum(Payout.points * Evening.stake_cents))
    won = won.join(Player, col(Player.id) == Payout.player_id)
    if one_currency:
        won = won.where(col(Evening.currency) == bindparam("currency"))
    return won.group_by(col(Evening.currency), col(Player.id), col(Player.name)).order_by(col(Player.key))


def _paid_query(one_currency: bool) -> Any:
    """Per currency, payer and payee, the payments that stand (of `:currency`)."""
    payer, payee = aliased(Player), aliased(Player)
    paid = (
        select(col(PaymentEntry.currency), col(payer.name), col(payee.name), func.sum(PaymentEntry.cents))
        .join(payer, col(payer.id) == PaymentEntry.payer_id)
        .join(payee, col(payee.id) == PaymentEntry.payee_id)
        .where(PAID)
    )
    if one_currency:
        paid = paid.where(col(PaymentEntry.currency) == bindparam("currency"))
    return paid.group_by(col(PaymentEntry.currency), col(payer.id), col(payer.name), col(payee.id), col(payee.name))
