"""Money across evenings: the settlement of chosen evenings, payments handed over, and the tab still owed."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime

from sqlmodel import Session, col, select

from ledger.clock import as_local, utcnow
from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.settlement import fewest_payments, pair_flows, round_balances
from ledger.store.deals import list_deals, totals
from ledger.store.evenings import Table, get_table, list_evenings, parse_cents, parse_currency
from ledger.store.models import PaymentEntry, Player
from ledger.store.players import get_player
from ledger.values import PaymentInfo, Settlement, Tab


def choose_evenings(session: Session, evening: int | None = None, since: date | None = None) -> list[Table]:
    """Evening N, or every evening started on or after `since`, or else the most recent evening."""
    if evening is not None and since is not None:
        raise LedgerError(_("give --evening or --since, not both"))
    if since is not None:
        chosen = [t for t in reversed(list_evenings(session)) if as_local(t.evening.started_at).date() >= since]
        if not chosen:
            raise LedgerError(_("--since {since}: no evening started on or after that day").format(since=since))
        return chosen
    if evening is not None:
        return [get_table(session, evening)]
    latest = list_evenings(session)
    if not latest:
        raise LedgerError(_("no evenings yet: start one with: calabresella evening start --players Anna,Bruno,Carla"))
    return [latest[0]]


def _one_currency(tables: list[Table]) -> str:
    currencies = sorted({t.evening.currency for t in tables})
    if len(currencies) > 1:
        detail = ", ".join(f"evening {t.number} in {t.evening.currency}" for t in tables)
        raise LedgerError(_("these evenings mix currencies ({detail}): settle each currency on its own").format(
            detail=detail))
    return currencies[0]


def settle(session: Session, tables: list[Table], *, round_to: str | None = None, pairs: bool = False) -> Settlement:
    """Points and money per player over the evenings, and the fewest payments; optionally cash-rounded."""
    currency = _one_currency(tables)
    points: defaultdict[str, int] = defaultdict(int)
    cents: defaultdict[str, int] = defaultdict(int)
    flows: list[dict[str, int]] = []
    for table in tables:
        for name, value in totals(session, table).items():
            points[name] += value
            cents[name] += value * table.evening.stake_cents
        if pairs:
            flows += [{name: value * table.evening.stake_cents for name, value in deal.payouts.items()}
                      for deal in list_deals(session, table) if not deal.voided]
    balances, rounding = dict(cents), {}
    if round_to is not None:
        unit = parse_cents(round_to, "--round-to", _("the smallest coin to pay with"))
        if unit < 1:
            raise LedgerError(_("--round-to {round_to}: a coin of at least 0.01, e.g. 0.50").format(round_to=round_to))
        balances, rounding = round_balances(balances, unit)
    return Settlement(
        evenings=[t.number for t in tables], currency=currency, points=dict(points), cents=dict(cents),
        payments=fewest_payments(balances), rounding={k: v for k, v in rounding.items() if v},
        pairs=pair_flows(flows) if pairs else [],
    )


def record_payment(session: Session, payer: str, payee: str, amount: str, *, currency: str | None = None,
                   evening: int | None = None, note: str | None = None,
                   paid_at: datetime | None = None) -> PaymentInfo:
    """Money handed from `payer` to `payee`, kept as an entry of the ledger."""
    giver, taker = get_player(session, payer), get_player(session, payee)
    if giver.id == taker.id:
        raise LedgerError(_("paid: {name} cannot pay themselves").format(name=giver.name))
    cents = parse_cents(amount, "paid", _("the amount handed over"))
    if cents < 1:
        raise LedgerError(_("paid {amount}: the amount is at least 0.01").format(amount=amount))
    table = get_table(session, evening) if evening is not None else None
    if currency is None:
        evenings = list_evenings(session)
        currency = table.evening.currency if table else (evenings[0].evening.currency if evenings else "EUR")
    entry = PaymentEntry(payer_id=giver.id, payee_id=taker.id, cents=cents, currency=parse_currency(currency),
                         evening_id=table.number if table else None, note=note, paid_at=paid_at or utcnow())
    session.add(entry)
    session.flush()
    assert entry.id is not None
    return PaymentInfo(id=entry.id, payer=giver.name, payee=taker.name, cents=cents, currency=entry.currency,
                       evening=entry.evening_id, note=note, paid_at=entry.paid_at)


def tab(session: Session) -> list[Tab]:
    """Every currency's tab over all evenings, less the payments recorded."""
    by_currency: defaultdict[str, list[Table]] = defaultdict(list)
    for table in list_evenings(session):
        by_currency[table.evening.currency].append(table)
    names = {p.id: p.name for p in session.exec(select(Player)).all()}
    entries = session.exec(select(PaymentEntry).order_by(col(PaymentEntry.id))).all()
    currencies = sorted(set(by_currency) | {e.currency for e in entries})
    tabs = []
    for currency in currencies:
        owed = settle(session, by_currency[currency], pairs=True) if by_currency[currency] else None
        balances = defaultdict(int, owed.cents if owed else {})
        flows = [{p.payer: -p.cents, p.payee: p.cents} for p in (owed.pairs if owed else [])]
        for entry in (e for e in entries if e.currency == currency):
            payer, payee = names[entry.payer_id], names[entry.payee_id]
            balances[payer] += entry.cents
            balances[payee] -= entry.cents
            flows.append({payee: -entry.cents, payer: entry.cents})
        open_balances = {name: cents for name, cents in balances.items() if cents}
        tabs.append(Tab(currency, open_balances, pair_flows(flows), fewest_payments(open_balances)))
    return tabs
