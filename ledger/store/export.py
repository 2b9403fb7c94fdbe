"""Write the ledger out: as JSON Lines (everything, re-importable) or as CSV (one row per player per deal).

The JSON Lines export (version 3) is one JSON object a line: first the header
`{"format": "calabresella-ledger", "version": 3}`, then `{"evening": {...}}` for each evening, oldest first, with
its deals and every revision, then `{"payment": {...}}` for each payment, in the order they were recorded, then
the club nights (a whole export only; an export of one evening has none):

- `{"season": {"name", "min_deals", "created_at"}}` for each season, oldest first;
- `{"rename": {"player", "old_name", "new_name", "renamed_at"}}` for each rename of a player, oldest first (the
  player by the name the evening lines give them);
- `{"event": {...}}` for each event, oldest first: its `number`, `name`, `season` (the season's name, or null),
  `profile`, `options`, `stake_cents`, `currency`, `place`, `pairing`, `round_deals`, `round_minutes`,
  `started_at` and `closed_at`; its `entrants` (`player`, the round they `arrived` for, the round they `left`
  before, or null), in the order they came; its `rounds` (`number`, `repeats`, `exact`, `by_hand`, `started_at`,
  `ended_at` and the round's `tables`: each table's `number` and the `evening` kept there, numbered as the
  evening's line numbers it).

Players are named as the evening lines name them. These lines came after version 3 without changing it: a file
without them is an export of a ledger without club nights, and the reader of an earlier release leaves lines it
does not know aside.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime
from typing import Any, TextIO

from sqlalchemy import RowMapping, text
from sqlmodel import Session, col, select

from ledger.clock import as_utc, iso
from ledger.rules.contracts import PASS
from ledger.spreadsheet import safe_cell
from ledger.store.club_models import ClubEvent, ClubRound, ClubTable, Entrant, Season
from ledger.store.deals import list_deals
from ledger.store.evenings import Seating, list_evenings
from ledger.store.models import PaymentEntry, Player, PlayerRename, ident
from ledger.summary import as_json

FORMAT = "calabresella-ledger"
VERSION = 3
"""Version 3 is JSON Lines; versions 1 and 2 were one JSON document (2 stores each revision's facts, 1 what was
typed)."""
EVENING, PAYMENT, SEASON, RENAME, EVENT = "evening", "payment", "season", "rename", "event"
"""The key of an evening's line, a payment's, a season's, a player's rename and an event's."""
KINDS = (EVENING, PAYMENT, SEASON, RENAME, EVENT)
"""Every kind of line after the header, in the order an export writes them."""
CHUNK = 200
"""Evenings an export reads together."""


def stored_iso(value: datetime | str | None) -> str | None:
    """A time as the driver returns it to a textual query (SQLite: text, naive UTC; PostgreSQL: aware, in the
    session's time zone) as an export writes it (`iso`, in UTC); SQLite's text as SQLAlchemy writes it
    (`2026-11-21 20:00:00.000000`) is rewritten without parsing it."""
    if isinstance(value, str):
        if len(value) == 26 and value[10] == " " and value[19] == ".":
            fraction = value[19:]
            return f"{value[:10]}T{value[11:19]}{'' if fraction == '.000000' else fraction}+00:00"
        value = datetime.fromisoformat(value)
    return as_utc(value).isoformat() if value else None


def _stored_json(value: Any) -> Any:
    """A JSON column as the driver returns it (SQLite: text) as a value."""
    return json.loads(value) if isinstance(value, str) else value


DEALS = text(
    'SELECT evening_id, id, number, "key", created_at, voided_at, void_reason, void_cause FROM deal '
    "WHERE evening_id BETWEEN :first AND :last ORDER BY evening_id, number"
)
REVISIONS = text(
    "SELECT r.deal_id, r.id, r.revision, r.recorded_at, r.superseded_at, r.reason, r.dealer_id, "
    "r.declarer_id, r.contract, r.aggravation, r.called, r.holder_id, r.holder, r.declarer_thirds, "
    "r.tricks, r.last_trick, r.monte_thirds, r.passed_before, r.calls, r.cause, r.cause_deal "
    "FROM deal_revision r JOIN deal d ON d.id = r.deal_id "
    "WHERE d.evening_id BETWEEN :first AND :last ORDER BY r.deal_id, r.revision"
)
PAYOUTS = text(
    "SELECT p.revision_id, p.player_id, p.points FROM payout p "
    "JOIN deal_revision r ON r.id = p.revision_id JOIN deal d ON d.id = r.deal_id "
    "WHERE d.evening_id BETWEEN :first AND :last ORDER BY r.id, p.position"
)
REOPENS = text(
    "SELECT evening_id, closed_at, reopened_at, reason, pot_out FROM evening_reopen "
    "WHERE evening_id BETWEEN :first AND :last ORDER BY evening_id, id"
)
CHANGES = text(
    "SELECT evening_id, revision, kind, deal, deal_revision, undoes, at, source, session, reason FROM evening_change "
    "WHERE evening_id BETWEEN :first AND :last ORDER BY evening_id, revision"
)
"""What an export reads of the deals, revisions, payouts, reopenings and change logs of the evenings numbered `first`
to `last`."""


def _grouped(session: Session, query: Any, bounds: dict[str, int], by: str) -> defaultdict[int, list[RowMapping]]:
    """The query's rows, read by column name (values as the driver returns them), grouped by the column `by`, in
    order."""
    groups: defaultdict[int, list[RowMapping]] = defaultdict(list)
    for row in session.execute(query, bounds).all():
        columns = row._mapping
        groups[columns[by]].append(columns)
    return groups


def _payouts(session: Session, bounds: dict[str, int]) -> defaultdict[int, list[tuple[int, int]]]:
    """Each revision's payouts as (player id, points) in seat order: the rows of `PAYOUTS`, the most numerous,
    taken as the columns named."""
    payouts: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)
    for revision, player, points in (
        session.execute(PAYOUTS, bounds).columns("revision_id", "player_id", "points").all()
    ):
        payouts[revision].append((player, points))
    return payouts


def _evenings_data(session: Session, evening: int | None) -> Iterator[dict[str, Any]]:
    """The evenings to export, oldest first, read `CHUNK` evenings at a time (three statements each)."""
    tables = [t for t in reversed(list_evenings(session)) if evening is None or t.number == evening]
    for start in range(0, len(tables), CHUNK):
        chunk = tables[start : start + CHUNK]
        bounds = {"first": chunk[0].number, "last": chunk[-1].number}
        deals = _grouped(session, DEALS, bounds, "evening_id")
        revisions = _grouped(session, REVISIONS, bounds, "deal_id")
        payouts = _payouts(session, bounds)
        reopens = _grouped(session, REOPENS, bounds, "evening_id")
        changes = _grouped(session, CHANGES, bounds, "evening_id")
        for table in chunk:
            yield _evening_data(
                table,
                [_deal_data(table, deal, revisions[deal["id"]], payouts) for deal in deals[table.number]],
                reopens[table.number],
                changes[table.number],
            )


def _evening_data(
    table: Seating, deals: list[dict[str, Any]], reopens: list[RowMapping], changes: list[RowMapping]
) -> dict[str, Any]:
    e = table.evening
    return {
        "number": table.number,
        "players": list(table.players),
        "first_dealer": table.names[e.first_dealer_id],
        "profile": e.profile,
        "options": e.options,
        "stake_cents": e.stake_cents,
        "currency": e.currency,
        "place": e.place,
        "note": e.note,
        "started_at": iso(e.started_at),
        "closed_at": iso(e.closed_at),
        "pot_in": e.pot_in,
        "pot_from": e.pot_from,
        "pot_out": e.pot_out,
        "voided_at": iso(e.voided_at),
        "void_reason": e.void_reason,
        "reopened": [
            {
                "closed_at": stored_iso(r["closed_at"]),
                "reopened_at": stored_iso(r["reopened_at"]),
                "reason": r["reason"],
                **({"pot_out": r["pot_out"]} if r["pot_out"] is not None else {}),
            }
            for r in reopens
        ],
        "revision": e.revision,
        "changes": [{**{name: c[name] for name in CHANGE_FIELDS}, "at": stored_iso(c["at"])} for c in changes],
        "deals": deals,
    }


CHANGE_FIELDS = ("revision", "kind", "deal", "deal_revision", "undoes", "source", "session", "reason")
"""An evening's change log entry as exported, besides its time `at`."""


def _deal_data(
    table: Seating, deal: RowMapping, revisions: list[RowMapping], payouts: dict[int, list[tuple[int, int]]]
) -> dict[str, Any]:
    """A deal (a row of `DEALS`) with its revisions (rows of `REVISIONS`) as an export writes it."""
    return {
        "number": deal["number"],
        "key": deal["key"],
        "created_at": stored_iso(deal["created_at"]),
        "voided_at": stored_iso(deal["voided_at"]),
        "void_reason": deal["void_reason"],
        "void_cause": deal["void_cause"],
        "revisions": [_revision_data(table.names, row, payouts[row["id"]]) for row in revisions],
    }


def _revision_data(names: dict[int, str], row: RowMapping, payouts: list[tuple[int, int]]) -> dict[str, Any]:
    """A revision (a row of `REVISIONS`) and its payouts (`_payouts`) as an export writes them: players by name,
    the auction's passes as null."""
    return {
        "revision": row["revision"],
        "recorded_at": stored_iso(row["recorded_at"]),
        "superseded_at": stored_iso(row["superseded_at"]),
        "reason": row["reason"],
        "cause": row["cause"],
        "cause_deal": row["cause_deal"],
        "dealer": names[row["dealer_id"]],
        "payouts": {names[player]: points for player, points in payouts},
        "facts": {
            "declarer": names.get(row["declarer_id"]),
            "contract": row["contract"],
            "aggravation": row["aggravation"],
            "called": row["called"],
            "holder": names[row["holder_id"]] if row["holder_id"] is not None else row["holder"],
            "thirds": row["declarer_thirds"],
            "tricks": row["tricks"],
            "last_trick": row["last_trick"],
            "monte_thirds": row["monte_thirds"],
            "passed_before": row["passed_before"],
            "auction": [
                [names[player_id], None if not call or call == PASS else call]
                for player_id, call in _stored_json(row["calls"]) or ()
            ],
        },
    }


def _payments(session: Session, evening: int | None) -> Iterator[dict[str, Any]]:
    """The payments to export, in the order they were recorded."""
    names = {p.id: p.name for p in session.exec(select(Player)).all()}
    query = select(PaymentEntry).order_by(col(PaymentEntry.id))
    if evening is not None:
        query = query.where(PaymentEntry.evening_id == evening)
    for p in session.exec(query).all():
        yield {
            "payer": names[p.payer_id],
            "payee": names[p.payee_id],
            "cents": p.cents,
            "currency": p.currency,
            "evening": p.evening_id,
            "note": p.note,
            "paid_at": iso(p.paid_at),
            "key": p.key,
            "voided_at": iso(p.voided_at),
            "void_reason": p.void_reason,
        }


def _line(value: dict[str, Any]) -> str:
    """One line of the export: JSON text never holds a raw line break, so each value is one line."""
    return json.dumps(value, ensure_ascii=False) + "\n"


def write_export(session: Session, out: TextIO, evening: int | None = None) -> None:
    """The whole ledger (or one evening), every revision and void, written into `out` as JSON Lines: the header,
    then one line per evening, then one per payment, then (the whole ledger) one per season and one per event."""
    out.write(_line({"format": FORMAT, "version": VERSION}))
    for data in _evenings_data(session, evening):
        out.write(_line({EVENING: data}))
    for item in _payments(session, evening):
        out.write(_line({PAYMENT: item}))
    if evening is None:  # an event's tables are evenings an export of one evening does not hold
        for kind, item in _club(session):
            out.write(_line({kind: item}))


def _club(session: Session) -> Iterator[tuple[str, dict[str, Any]]]:
    """The seasons, then the events with their entrants, rounds and tables, read `CHUNK` events at a time (three
    statements each)."""
    seasons = session.exec(select(Season).order_by(col(Season.id))).all()
    for season in seasons:
        yield SEASON, {"name": season.name, "min_deals": season.min_deals, "created_at": iso(season.created_at)}
    renames = session.exec(
        select(PlayerRename, Player.name)
        .join(Player, col(Player.id) == PlayerRename.player_id)
        .order_by(col(PlayerRename.id))
    ).all()
    for rename, player in renames:
        yield (
            RENAME,
            {
                "player": player,
                "old_name": rename.old_name,
                "new_name": rename.new_name,
                "renamed_at": iso(rename.renamed_at),
            },
        )
    named = {season.id: season.name for season in seasons}
    events = session.exec(select(ClubEvent).order_by(col(ClubEvent.id))).all()
    for start in range(0, len(events), CHUNK):
        chunk = events[start : start + CHUNK]
        first, last = chunk[0].id, chunk[-1].id
        entrants: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
        for event, player, arrived, left in session.execute(
            select(Entrant.event_id, Player.name, Entrant.arrived, Entrant.left)
            .join(Player, col(Player.id) == Entrant.player_id)
            .where(col(Entrant.event_id).between(first, last))
            .order_by(col(Entrant.id))
        ):
            entrants[event].append({"player": player, "arrived": arrived, "left": left})
        tables: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
        for round_id, number, evening in session.execute(
            select(ClubTable.round_id, ClubTable.number, ClubTable.evening_id)
            .join(ClubRound, col(ClubRound.id) == ClubTable.round_id)
            .where(col(ClubRound.event_id).between(first, last))
            .order_by(col(ClubTable.round_id), col(ClubTable.number))
        ):
            tables[round_id].append({"number": number, "evening": evening})
        rounds: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
        for played in session.exec(
            select(ClubRound)
            .where(col(ClubRound.event_id).between(first, last))
            .order_by(col(ClubRound.event_id), col(ClubRound.number))
        ):
            rounds[played.event_id].append(
                {
                    "number": played.number,
                    "repeats": played.repeats,
                    "exact": played.exact,
                    "by_hand": played.by_hand,
                    "started_at": iso(played.started_at),
                    "ended_at": iso(played.ended_at),
                    "tables": tables[ident(played)],
                }
            )
        for event in chunk:
            yield EVENT, _event_data(event, named, entrants[ident(event)], rounds[ident(event)])


def _event_data(
    event: ClubEvent,
    seasons: dict[int | None, str],
    entrants: list[dict[str, Any]],
    rounds: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "number": event.id,
        "name": event.name,
        "season": seasons[event.season_id] if event.season_id is not None else None,
        "profile": event.profile,
        "options": event.options,
        "stake_cents": event.stake_cents,
        "currency": event.currency,
        "place": event.place,
        "pairing": event.pairing,
        "round_deals": event.round_deals,
        "round_minutes": event.round_minutes,
        "started_at": iso(event.started_at),
        "closed_at": iso(event.closed_at),
        "entrants": entrants,
        "rounds": rounds,
    }


CSV_COLUMNS = [
    "evening",
    "deal",
    "revision",
    "voided",
    "dealer",
    "declarer",
    "partner",
    "contract",
    "aggravation",
    "called",
    "holder",
    "declarer_thirds",
    "tricks",
    "last_trick",
    "declarer_won",
    "sweep",
    "multiplier",
    "amount",
    "player",
    "role",
    "points",
    "money_cents",
    "currency",
    "explanation",
]


def write_csv(session: Session, out: TextIO, evening: int | None = None) -> None:
    """One row per seated player per deal (current revisions, voided deals marked); text never read as a formula."""
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for table in reversed(list_evenings(session)):
        if evening is not None and table.number != evening:
            continue
        stake, currency = table.evening.stake_cents, table.evening.currency
        for view in list_deals(session, table):
            facts = as_json(view)
            for player, points in view.payouts.items():
                row = {
                    **{k: facts.get(k) for k in CSV_COLUMNS if k in facts},
                    "evening": table.number,
                    "deal": view.number,
                    "player": player,
                    "role": view.roles[player],
                    "points": points,
                    "money_cents": points * stake,
                    "currency": currency,
                }
                writer.writerow({key: safe_cell(value) for key, value in row.items()})
