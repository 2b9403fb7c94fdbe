"""The payments of an export, written into the ledger with the rows an import queues.

A payment is checked as one typed with `paid`, and one the ledger holds already (the same players, amount, currency,
evening and time) is skipped, so an interrupted import resumes. The payments the ledger holds are read once per
transaction; the players are the import's own, by name. A payment of players known by their names, with no key, goes
in with the other queued rows; any other (a key, a name given by its start, a payer paying themselves, an odd
currency) is recorded as `paid` records it, which takes a key seen before as a retry and words every refusal.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Table, select
from sqlmodel import Session

from ledger.clock import as_utc, utcnow
from ledger.errors import FactError
from ledger.rules.seats import name_key
from ledger.store.bulk import new_ids, taken, writer_of
from ledger.store.changes import noted
from ledger.store.evenings import parse_currency
from ledger.store.import_checks import amount, check_payment, exported_time
from ledger.store.models import PaymentEntry, Player
from ledger.store.money import record_payment
from ledger.store.players import find_player

PAYMENTS: Table = PaymentEntry.__table__  # type: ignore[attr-defined]
HELD = "payments held"
"""Where a session keeps what tells the ledger's payments apart (`_held`), read once and kept up to date."""
Held = tuple[int, int, int, str, int | None, datetime]
"""A payment as `_held` tells it apart: payer, payee, cents, currency, evening and time."""


class PaymentImport:
    """Writes an import's payments; `players` are the import's players by name key (see `Importer`)."""

    def __init__(self, players: dict[str, Player]) -> None:
        self.players = players
        self.written = self.skipped = 0
        self.unnoted = False

    def add(self, session: Session, item: dict[str, Any], evening: int | None, paid_at: datetime | None) -> None:
        """Write payment `item` of the export (`evening`: the ledger's evening it names; `paid_at`: its time), or skip
        it when the ledger holds it already."""
        cents = check_payment(item)
        payer, payee = self._named(session, item["payer"]), self._named(session, item["payee"])
        held = _held(session)
        told: Held | None = None
        if payer is not None and payee is not None and paid_at is not None:
            told = (_id(payer), _id(payee), cents, item["currency"], evening, paid_at)
            if told in held:
                self.skipped += 1
                return
        currency = _currency(item["currency"])
        voided_at = exported_time(item.get("voided_at"))
        if payer is None or payee is None or payer.id == payee.id or currency is None or item.get("key") is not None:
            writer_of(session).flush()  # `paid` reads the evening, which may be queued still
            paid = record_payment(
                session,
                item["payer"],
                item["payee"],
                amount(cents),
                currency=item["currency"],
                evening=evening,
                note=item.get("note"),
                paid_at=paid_at,
                key=item.get("key"),
                with_owed=False,
            )
            assert paid.id is not None
            taken(session, PAYMENTS, paid.id)
            if voided_at is not None:
                entry = session.get(PaymentEntry, paid.id)
                assert entry is not None
                entry.voided_at, entry.void_reason = voided_at, item.get("void_reason") or ""
                session.add(entry)
        else:
            row = {
                "id": new_ids(session, PAYMENTS, 1)[0],
                "payer_id": _id(payer),
                "payee_id": _id(payee),
                "cents": cents,
                "currency": currency,
                "evening_id": evening,
                "note": item.get("note"),
                "paid_at": paid_at or utcnow(),
                "key": None,
                "voided_at": voided_at,
                "void_reason": (item.get("void_reason") or "") if voided_at is not None else None,
            }
            writer_of(session).queue(PAYMENTS, [row])
            self.unnoted = True
        if told is not None:
            held.add(told)
        self.written += 1

    def noted(self, session: Session) -> None:
        """Log the payments queued since the last time as one change of the ledger's payments."""
        if self.unnoted:
            noted(session, "payment")
            self.unnoted = False

    def _named(self, session: Session, name: object) -> Player | None:
        """The player of exactly that name (case and accents aside), if any."""
        if not isinstance(name, str):
            return None
        key = name_key(name)
        player = self.players.get(key)
        if player is None:
            player = find_player(session, name)
            if player is not None:
                self.players[key] = player
        return player


def _held(session: Session) -> set[Held]:
    """The payments the ledger holds, told apart as `payment_recorded` would, read once per transaction."""
    held: set[Held] | None = session.info.get(HELD)
    if held is None:
        columns = PAYMENTS.c
        rows = session.execute(
            select(
                columns.payer_id, columns.payee_id, columns.cents, columns.currency, columns.evening_id, columns.paid_at
            )
        )
        held = session.info[HELD] = {(*row[:5], as_utc(row[5])) for row in rows}
    return held


def _currency(text: object) -> str | None:
    """The currency as `paid` takes it, or None where `paid` would choose one or refuse it."""
    if not isinstance(text, str):
        return None
    try:
        return parse_currency(text)
    except FactError:
        return None


def _id(player: Player) -> int:
    assert player.id is not None
    return player.id
