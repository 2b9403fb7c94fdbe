"""What an import refuses before replaying: fields no export of this ledger holds, keys already used, and payments
already recorded."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from ledger.clock import as_utc
from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.rules.numbers import shortened
from ledger.rules.text import acts_on_screen
from ledger.store.models import Deal, PaymentEntry
from ledger.store.players import find_player

MAX_CENTS = 10_000_000
"""The most money a stake or a payment can be, as `paid` and `--stake` accept it."""
MOST_NUMBER = 2**31 - 1
"""The largest evening or deal number the database stores."""


def amount(cents: int) -> str:
    """Cents as the amount typed for them, e.g. `1.20`."""
    return f"{cents // 100}.{cents % 100:02d}"


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_evening(item: dict[str, Any]) -> tuple[int, datetime]:
    """The evening's number and start; an error for what no export of this ledger holds."""
    number = item["number"]
    if not _whole(number, 1, MOST_NUMBER):
        raise LedgerError(
            _("not a valid export: an evening numbered {number!r} (a whole number from 1)").format(number=number)
        )
    started = item.get("started_at")
    if not started:
        raise LedgerError(
            _("not a valid export: evening {number} has no start time (started_at)").format(number=number)
        )
    if not _whole(item["stake_cents"], 0, MAX_CENTS):
        raise LedgerError(
            _(
                "not a valid export: evening {number} has stake_cents {stake!r} (a whole number from 0 to {most})"
            ).format(number=number, stake=item["stake_cents"], most=MAX_CENTS)
        )
    numbers = Counter(deal["number"] for deal in item["deals"])
    for deal_number, count in numbers.items():
        if not _whole(deal_number, 1, MOST_NUMBER) or count > 1:
            raise LedgerError(
                _(
                    "not a valid export: evening {number} has a deal numbered {deal!r} (deal numbers "
                    "are whole numbers from 1, each once)"
                ).format(number=number, deal=deal_number)
            )
    _texts(item, "place", "note", "void_reason")
    for reopened in item.get("reopened") or []:
        if not isinstance(reopened, dict) or not all(reopened.get(k) for k in ("closed_at", "reopened_at", "reason")):
            raise LedgerError(
                _("not a valid export: evening {number} has a reopening without its times and reason").format(
                    number=number
                )
            )
        _texts(reopened, "reason")
    for deal in item["deals"]:
        _texts(deal, "key", "void_reason")
        for rev in deal["revisions"]:
            _texts(rev, "reason")
        revisions = [rev["revision"] for rev in deal["revisions"]]
        if not revisions or revisions != list(range(1, len(revisions) + 1)):
            raise LedgerError(
                _(
                    "not a valid export: evening {number} deal {deal} has revisions {revisions} (they "
                    "are numbered 1, 2, 3, ... in order)"
                ).format(number=number, deal=deal["number"], revisions=revisions)
            )
    return number, as_utc(datetime.fromisoformat(started))


def check_payment(item: dict[str, Any]) -> int:
    """The payment's cents; an error for what `paid` would refuse."""
    cents = item["cents"]
    _texts(item, "note", "key", "void_reason")
    if not _whole(cents, 1, MAX_CENTS):
        raise LedgerError(
            _("not a valid export: a payment of {cents!r} cents (a whole number from 1 to {most})").format(
                cents=cents, most=MAX_CENTS
            )
        )
    return int(cents)


def _texts(item: dict[str, Any], *fields: str) -> None:
    """A `TypeError` (a bad field) when one of the fields is neither text nor missing, or would act on a screen."""
    for field in fields:
        value = item.get(field)
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{field} {value!r} is not text")
        if value is not None and acts_on_screen(value, lines=True):
            raise TypeError(f"{field} {shortened(value)!r} holds a control character")


def check_keys(session: Session, deals: list[dict[str, Any]]) -> None:
    """Refuse an idempotency key that a deal of the ledger uses already (its queued deals inserted)."""
    keys = [deal["key"] for deal in deals if deal.get("key")]
    twice = next((key for key, count in Counter(keys).items() if count > 1), None)
    if twice is not None:
        raise LedgerError(_("not a valid export: two deals of one evening have the key {key!r}").format(key=twice))
    used = session.exec(select(Deal).where(col(Deal.key).in_(keys))).first() if keys else None
    if used:
        number = next(deal["number"] for deal in deals if deal.get("key") == used.key)
        raise LedgerError(
            _("deal {number} of the export has key {key!r}, already used by deal {used} of evening {evening}").format(
                number=number, key=used.key, used=used.number, evening=used.evening_id
            )
        )


def payment_recorded(session: Session, item: dict[str, Any], evening: int | None, paid_at: datetime | None) -> bool:
    """Whether the ledger holds this payment already (same people, amount, currency, evening and time)."""
    if paid_at is None:
        return False
    payer, payee = find_player(session, item["payer"]), find_player(session, item["payee"])
    if payer is None or payee is None:
        return False
    return (
        session.exec(
            select(PaymentEntry.id).where(
                PaymentEntry.payer_id == payer.id,
                PaymentEntry.payee_id == payee.id,
                PaymentEntry.cents == item["cents"],
                PaymentEntry.currency == item["currency"],
                PaymentEntry.evening_id == evening,
                PaymentEntry.paid_at == paid_at,
            )
        ).first()
        is not None
    )
