"""Export the ledger to JSON or CSV, import a JSON export (replayed and checked), and back up SQLite."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from ledger.clock import as_utc
from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.rules.build import DealInput, build_facts
from ledger.rules.contracts import PASS
from ledger.rules.facts import DECLARER, MONTE, DealFacts, facts_from_dict
from ledger.rules.scoring import score
from ledger.rules.seats import name_key
from ledger.store.deals import evening_history, list_deals, write_revision
from ledger.store.engine import copy_sqlite
from ledger.store.evenings import Table, list_evenings, start_evening, table_of
from ledger.store.models import Deal, Evening, PaymentEntry, Player
from ledger.store.money import record_payment
from ledger.values import DealView

FORMAT = "calabresella-ledger"


class AlreadyImported(LedgerError):
    """The export's evening is in the ledger already."""

    def __init__(self, exported: int, evening: int) -> None:
        super().__init__(f"evening {exported} of the export is already in this ledger as evening {evening}")
        self.evening = evening


VERSION = 2
"""Version 2 stores each revision's facts; version 1 stored what was typed."""
READS = (1, 2)


def _iso(moment: datetime | None) -> str | None:
    return as_utc(moment).isoformat() if moment else None


def _time(text: str | None) -> datetime | None:
    """An exported time; one without an offset is UTC, as the ledger stores them."""
    return as_utc(datetime.fromisoformat(text)) if text else None


def _evening_data(session: Session, table: Table) -> dict[str, Any]:
    e = table.evening
    deals = []
    for deal, revisions in evening_history(session, table):
        deals.append({"number": deal.number, "key": deal.key, "created_at": _iso(deal.created_at),
                      "voided_at": _iso(deal.voided_at), "void_reason": deal.void_reason, "revisions": [{
                          "revision": v.revision, "recorded_at": _iso(v.recorded_at),
                          "superseded_at": _iso(v.superseded_at), "reason": v.reason, "dealer": v.dealer,
                          "payouts": v.payouts, "facts": _facts(v), "explanation": v.explanation,
                      } for v in revisions]})
    return {
        "number": table.number, "players": list(table.players), "first_dealer": table.names[e.first_dealer_id],
        "profile": e.profile, "options": e.options, "stake_cents": e.stake_cents, "currency": e.currency,
        "place": e.place, "note": e.note, "started_at": _iso(e.started_at), "closed_at": _iso(e.closed_at),
        "deals": deals,
    }


def _facts(view: DealView) -> dict[str, Any]:
    """A revision's facts as an export writes them (players by name; see `facts_to_dict`)."""
    return {
        "declarer": view.declarer, "contract": view.contract, "aggravation": view.aggravation, "called": view.called,
        "holder": view.holder, "thirds": view.declarer_thirds, "tricks": view.tricks, "last_trick": view.last_trick,
        "passed_before": view.passed_before,
        "auction": [[seat, None if call == PASS else call] for seat, call in view.auction],
    }


def export_data(session: Session, evening: int | None = None) -> dict[str, Any]:
    """The whole ledger (or one evening) as plain data, every revision and void included."""
    tables = [t for t in reversed(list_evenings(session)) if evening is None or t.number == evening]
    names = {p.id: p.name for p in session.exec(select(Player)).all()}
    payments = session.exec(select(PaymentEntry).order_by(col(PaymentEntry.id))).all()
    return {
        "format": FORMAT, "version": VERSION,
        "evenings": [_evening_data(session, t) for t in tables],
        "payments": [{"payer": names[p.payer_id], "payee": names[p.payee_id], "cents": p.cents,
                      "currency": p.currency, "evening": p.evening_id, "note": p.note, "paid_at": _iso(p.paid_at)}
                     for p in payments if evening is None or p.evening_id == evening],
    }


CSV_COLUMNS = ["evening", "deal", "revision", "voided", "dealer", "declarer", "partner", "contract", "aggravation",
               "called", "holder", "declarer_thirds", "tricks", "last_trick", "declarer_won", "sweep", "multiplier",
               "amount", "player", "role", "points", "money_cents", "currency", "explanation"]


def export_csv(session: Session, evening: int | None = None) -> str:
    """One row per seated player per deal (current revisions, voided deals marked)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for table in reversed(list_evenings(session)):
        if evening is not None and table.number != evening:
            continue
        for view in list_deals(session, table):
            facts = view.to_dict()
            for player, points in view.payouts.items():
                row = {k: facts.get(k) for k in CSV_COLUMNS if k in facts}
                writer.writerow({**row, "evening": table.number, "deal": view.number, "player": player,
                                 "role": view.roles[player], "points": points,
                                 "money_cents": points * table.evening.stake_cents,
                                 "currency": table.evening.currency})
    return out.getvalue()


def import_data(session: Session, data: dict[str, Any]) -> list[int]:
    """Replay an export: every revision is re-scored and must give the exported payouts. Returns new evenings."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LedgerError(_("not a {format} export (the JSON has no \"format\": \"{format}\")").format(format=FORMAT))
    version = data.get("version")
    if version not in READS:
        raise LedgerError(_("export version {version}: this ledger reads versions {found}").format(
            version=version, found=', '.join(map(str, READS))))
    try:
        evenings = data.get("evenings", [])
        created = [_import_evening(session, item, version) for item in evenings]
        renumbered = dict(zip([item["number"] for item in evenings], created, strict=True))
        for item in data.get("payments", []):
            _import_payment(session, item, renumbered)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise LedgerError(_("not a valid export: a missing or bad field ({name}: {error})").format(
            name=type(error).__name__, error=error)) from None
    session.flush()
    return created


def _import_payment(session: Session, item: dict[str, Any], renumbered: dict[int, int]) -> None:
    """A payment of the export, checked like one typed with `paid`."""
    cents = item["cents"]
    if not isinstance(cents, int) or isinstance(cents, bool) or cents < 1:
        raise LedgerError(_("not a valid export: a payment of {cents!r} cents (a whole number, at least 1)").format(
            cents=cents))
    evening = renumbered.get(item["evening"]) if item.get("evening") is not None else None
    record_payment(session, item["payer"], item["payee"], f"{cents / 100:.2f}", currency=item["currency"],
                   evening=evening, note=item.get("note"), paid_at=_time(item["paid_at"]))


def _import_evening(session: Session, item: dict[str, Any], version: int) -> int:
    started = _time(item["started_at"])
    clash = session.exec(select(Evening).where(Evening.started_at == started)).first()
    if clash and [name_key(p) for p in table_of(session, clash).players] == [name_key(p) for p in item["players"]]:
        raise AlreadyImported(item["number"], clash.id)  # type: ignore[arg-type]
    table = start_evening(session, tuple(item["players"]), dealer=item["first_dealer"], profile=item["profile"],
                          options=item["options"], stake=f"{item['stake_cents'] / 100:.2f}",
                          currency=item["currency"], place=item.get("place"), note=item.get("note"))
    evening = table.evening
    evening.started_at = started or evening.started_at
    seated = dict(zip(item["players"], table.players, strict=True))
    for deal_item in item["deals"]:
        _import_deal(session, table, deal_item, seated, version)
    evening.closed_at = _time(item.get("closed_at"))
    evening.revision = sum(len(d["revisions"]) + (1 if d.get("voided_at") else 0) for d in item["deals"])
    session.add(evening)
    session.flush()
    return table.number


def _revision_facts(table: Table, rev: dict[str, Any], version: int, seated: dict[str, str]) -> DealFacts:
    """A revision of the export as facts at the ledger's seats: version 2 stores facts, version 1 the typed text."""
    dealer = seated[rev["dealer"]]
    if version == 1:
        return build_facts(DealInput.from_dict(rev["typed"]), table.profile, table.players, dealer)
    data = dict(rev["facts"])
    for field in ("declarer", "holder"):
        if data.get(field) not in (None, MONTE, DECLARER):
            data[field] = seated[data[field]]
    data["auction"] = [[seated[seat], call] for seat, call in data.get("auction") or ()]
    return facts_from_dict(data, table.players, dealer)


def _import_deal(session: Session, table: Table, item: dict[str, Any], seated: dict[str, str], version: int) -> None:
    """One deal with every revision; `seated` maps the export's spelling of names to the ledger's."""
    key = item.get("key")
    used = session.exec(select(Deal).where(Deal.key == key)).first() if key else None
    if used:
        raise LedgerError(_("deal {item} of the export has key {key!r}, already used by deal {number} of evening "
                            "{evening_id}").format(
            item=item['number'], key=key, number=used.number, evening_id=used.evening_id))
    deal = Deal(evening_id=table.number, number=item["number"], key=item.get("key"),
                created_at=_time(item["created_at"]), voided_at=_time(item.get("voided_at")),
                void_reason=item.get("void_reason"))
    session.add(deal)
    session.flush()
    for rev in item["revisions"]:
        facts = _revision_facts(table, rev, version, seated)
        result = score(facts, table.profile)
        if result.payouts != {seated[name]: points for name, points in rev["payouts"].items()}:
            raise LedgerError(_("evening {number} deal {deal} revision {revision}: the export says {stored} but the "
                                "rules give {payouts}").format(number=table.number, deal=item["number"],
                                                               revision=rev["revision"], stored=rev["payouts"],
                                                               payouts=result.payouts))
        row = write_revision(session, table, deal, rev["revision"], facts, result, rev.get("reason"))
        row.recorded_at = _time(rev["recorded_at"]) or row.recorded_at
        row.superseded_at = _time(rev.get("superseded_at"))
        session.add(row)
    session.flush()


def backup_sqlite(engine: Engine, target: str) -> Path:
    """An online backup of a SQLite ledger into a new file (safe while others write)."""
    if engine.url.get_backend_name() != "sqlite" or not engine.url.database:
        raise LedgerError(_("backup copies a SQLite ledger; for PostgreSQL use pg_dump"))
    path = Path(target).expanduser().resolve()
    if path.exists():
        raise LedgerError(_("backup {target}: the file exists; give a new path").format(target=target))
    path.parent.mkdir(parents=True, exist_ok=True)
    copy_sqlite(engine.url.database, str(path))
    return path
