"""Export the ledger to JSON or CSV, import a JSON export (replayed and checked), and back up SQLite."""

from __future__ import annotations

import codecs
import csv
import itertools
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from sqlalchemy import Engine, func, insert, text
from sqlmodel import Session, SQLModel, col, select

from ledger.clock import as_utc, iso
from ledger.errors import LedgerError
from ledger.i18n import _, ngettext
from ledger.rules.build import DealInput, build_facts
from ledger.rules.contracts import PASS
from ledger.rules.facts import DECLARER, MONTE, DealFacts, facts_from_dict
from ledger.rules.numbers import shortened, storable
from ledger.rules.profiles import Profile, make_profile, started_with
from ledger.rules.scoring import score
from ledger.rules.seats import name_key, resolve_player
from ledger.rules.text import acts_on_screen
from ledger.spreadsheet import safe_cell
from ledger.store.deals import list_deals, payout_values, revision_values
from ledger.store.engine import copy_sqlite
from ledger.store.evenings import Seating, get_seating, list_evenings, parse_cents, parse_currency, start_evening
from ledger.store.models import Deal, DealRevision, Evening, PaymentEntry, Payout, Player, Seat, ident, utcnow
from ledger.store.money import record_payment
from ledger.store.players import ensure_player, find_player
from ledger.summary import POT_CAUSE, UNDO
from ledger.values import ImportSummary

FORMAT = "calabresella-ledger"


VERSION = 2
"""Version 2 stores each revision's facts; version 1 stored what was typed."""
READS = (1, 2)
STREAMED = ("evenings", "payments")
"""The top-level arrays read one item at a time."""
MAX_DEPTH = 12
"""No export nests deeper (evenings, deals, revisions, facts, auction, call); the reader refuses far deeper."""
READ_CHARS = 1 << 20
"""Characters an import reads at a time (more for a value that is larger)."""
CUT_MARGIN = 32
"""A parse error this close to the end of the text read so far may come from a value cut there."""
CHUNK = 200
"""Evenings an export reads together."""
KNOWN_RESULTS = 20_000
"""The most scored revisions (and stored times) an import keeps for reuse, so its memory stays bounded."""
MAX_CENTS = 10_000_000
"""The most money a stake or a payment can be, as `paid` and `--stake` accept it."""


def _time(text: str | None) -> datetime | None:
    """An exported time; one without an offset is UTC, as the ledger stores them."""
    return as_utc(datetime.fromisoformat(text)) if text else None


def _stored_iso(value: datetime | str | None) -> str | None:
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
"""What an export reads of the deals, revisions and payouts of the evenings numbered `first` to `last`."""


def _grouped(session: Session, query: Any, bounds: dict[str, int]) -> defaultdict[int, list[Any]]:
    """The query's rows (as the driver returns their values) grouped by their first column, in order."""
    groups: defaultdict[int, list[Any]] = defaultdict(list)
    for row in session.execute(query, bounds).all():
        groups[row[0]].append(row)
    return groups


def _evenings_data(session: Session, evening: int | None) -> Iterator[dict[str, Any]]:
    """The evenings to export, oldest first, read `CHUNK` evenings at a time (three statements each)."""
    tables = [t for t in reversed(list_evenings(session)) if evening is None or t.number == evening]
    for start in range(0, len(tables), CHUNK):
        chunk = tables[start : start + CHUNK]
        bounds = {"first": chunk[0].number, "last": chunk[-1].number}
        deals, revisions = _grouped(session, DEALS, bounds), _grouped(session, REVISIONS, bounds)
        payouts = _grouped(session, PAYOUTS, bounds)
        for table in chunk:
            yield _evening_data(
                table, [_deal_data(table, deal, revisions[deal[1]], payouts) for deal in deals[table.number]]
            )


def _evening_data(table: Seating, deals: list[dict[str, Any]]) -> dict[str, Any]:
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
        "deals": deals,
    }


def _deal_data(table: Seating, deal: Any, revisions: list[Any], payouts: dict[int, list[Any]]) -> dict[str, Any]:
    """A deal (a row of `DEALS`) with its revisions (rows of `REVISIONS`) as an export writes it."""
    _, _, number, key, created_at, voided_at, void_reason, void_cause = deal
    return {
        "number": number,
        "key": key,
        "created_at": _stored_iso(created_at),
        "voided_at": _stored_iso(voided_at),
        "void_reason": void_reason,
        "void_cause": void_cause,
        "revisions": [_revision_data(table.names, row, payouts[row[1]]) for row in revisions],
    }


def _revision_data(names: dict[int, str], row: Any, payouts: list[Any]) -> dict[str, Any]:
    """A revision (a row of `REVISIONS`) and its payouts (rows of `PAYOUTS`, in seat order) as an export writes
    them: players by name, the auction's passes as null."""
    (
        _,
        _,
        revision,
        recorded_at,
        superseded_at,
        reason,
        dealer_id,
        declarer_id,
        contract,
        aggravation,
        called,
        holder_id,
        holder,
        thirds,
        tricks,
        last_trick,
        monte_thirds,
        passed_before,
        calls,
        cause,
        cause_deal,
    ) = row
    return {
        "revision": revision,
        "recorded_at": _stored_iso(recorded_at),
        "superseded_at": _stored_iso(superseded_at),
        "reason": reason,
        "cause": cause,
        "cause_deal": cause_deal,
        "dealer": names[dealer_id],
        "payouts": {names[player_id]: points for _, player_id, points in payouts},
        "facts": {
            "declarer": names.get(declarer_id),
            "contract": contract,
            "aggravation": aggravation,
            "called": called,
            "holder": names[holder_id] if holder_id is not None else holder,
            "thirds": thirds,
            "tricks": tricks,
            "last_trick": last_trick,
            "monte_thirds": monte_thirds,
            "passed_before": passed_before,
            "auction": [
                [names[player_id], None if not call or call == PASS else call]
                for player_id, call in _stored_json(calls) or ()
            ],
        },
    }


def _payments(session: Session, evening: int | None) -> list[dict[str, Any]]:
    """The payments to export, in the order they were recorded."""
    names = {p.id: p.name for p in session.exec(select(Player)).all()}
    query = select(PaymentEntry).order_by(col(PaymentEntry.id))
    if evening is not None:
        query = query.where(PaymentEntry.evening_id == evening)
    return [
        {
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
        for p in session.exec(query).all()
    ]


def write_export(session: Session, out: TextIO, evening: int | None = None) -> None:
    """The whole ledger (or one evening), every revision and void, written into `out` as JSON one evening at a
    time, each evening and payment on a line."""
    out.write(f'{{"format": "{FORMAT}", "version": {VERSION},\n "evenings": [')
    for index, data in enumerate(_evenings_data(session, evening)):
        out.write(("\n  " if index == 0 else ",\n  ") + json.dumps(data, ensure_ascii=False))
    out.write('\n ],\n "payments": [')
    out.write(",".join("\n  " + json.dumps(item, ensure_ascii=False) for item in _payments(session, evening)))
    out.write("\n ]\n}\n")


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
            facts = view.to_dict()
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


def read_export(stream: BinaryIO) -> tuple[int, Iterator[tuple[str, Any]]]:
    """The export's version, then its evenings and payments one at a time (`("evenings", item)`), streamed."""
    values = _top_level(_JsonText(stream))
    header: dict[str, Any] = {}
    for key, value in values:
        if key in STREAMED:
            version = check_header(header)
            return version, ((k, v) for k, v in itertools.chain([(key, value)], values) if k in STREAMED)
        header[key] = value
    return check_header(header), iter(())


def data_items(data: Any) -> tuple[int, Iterator[tuple[str, Any]]]:
    """The same as `read_export` for an export already in memory."""
    version = check_header(data)
    for key in STREAMED:
        if not isinstance(data.get(key) or [], list):
            raise LedgerError(_('not a valid export: "{key}" is not a list').format(key=key))
    return version, ((key, item) for key in STREAMED for item in data.get(key) or ())


def check_header(header: Any) -> int:
    """The export's version, or an error when it is not an export this ledger reads."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LedgerError(
            _('not a {format} export (the JSON has no "format": "{format}" before its evenings)').format(format=FORMAT)
        )
    version = header.get("version")
    if version not in READS or isinstance(version, bool):
        raise LedgerError(
            _("export version {version}: this ledger reads versions {versions}").format(
                version=version, versions=", ".join(map(str, READS))
            )
        )
    return version


def _top_level(text: _JsonText) -> Iterator[tuple[str, Any]]:
    """`(key, value)` for each top-level field; the arrays in `STREAMED` (which must be arrays) as one pair per
    item."""
    first = text.next_char()
    if first != "{":
        if not first or first not in '["-0123456789tfn':
            raise NotJson(text.where("Expecting value"))
        raise LedgerError(_("not a {format} export (the JSON is not an object)").format(format=FORMAT))
    text.take("{")
    if text.next_char() == "}":
        return
    while True:
        if text.next_char() != '"':
            raise NotJson(text.where("Expecting property name enclosed in double quotes"))
        key = text.value()
        text.expect(":")
        if key not in STREAMED:
            yield key, text.value()
        elif text.next_char() == "[":
            yield from ((key, item) for item in _items(text))
        else:
            raise LedgerError(_('not a valid export: "{key}" is not a list').format(key=key))
        if text.next_char() == "}":
            return
        text.expect(",")


def _items(text: _JsonText) -> Iterator[Any]:
    """The values of the array at the reading position, one at a time."""
    text.take("[")
    if text.next_char() == "]":
        text.take("]")
        return
    while True:
        yield text.value()
        if text.next_char() == "]":
            text.take("]")
            return
        text.expect(",")


class NotJson(ValueError):
    """The file is not JSON; the reason and where."""


class _JsonText:
    """A JSON text read from a binary stream a chunk at a time, each value decoded whole by the json module.

    A value cut by the end of the text read so far fails to decode (or ends exactly there) and is decoded again
    once more is read, each read as large as the text held, so a large value costs no more than twice its size.
    Nesting past the json module's recursion guard (hundreds of levels; no export nests deeper than
    `MAX_DEPTH`) is refused."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.decode = codecs.getincrementaldecoder("utf-8")().decode
        self.decoder = json.JSONDecoder(parse_constant=_no_constant)
        self.text, self.pos, self.offset, self.ended = "", 0, 0, False

    def _read(self, size: int = 0) -> None:
        """Read `READ_CHARS` or `size` more bytes (fewer at the end of the stream), dropping what was taken."""
        chunk = self.stream.read(max(size, READ_CHARS))
        self.offset += self.pos
        self.text = self.text[self.pos :] + self.decode(chunk, final=not chunk)
        self.pos, self.ended = 0, not chunk

    def next_char(self) -> str:
        """The next character that is not white space ("" at the end), not taken."""
        while True:
            match = _SPACE.match(self.text, self.pos)
            self.pos = match.end() if match else self.pos
            if self.pos < len(self.text) or self.ended:
                return self.text[self.pos : self.pos + 1]
            self._read()

    def take(self, char: str) -> None:
        """Take the next character, which `next_char` returned."""
        self.pos += len(char)

    def expect(self, char: str) -> None:
        """Take `char`, which must come next."""
        if self.next_char() != char:
            raise NotJson(self.where(f"Expecting {char!r} delimiter"))
        self.take(char)

    def value(self) -> Any:
        """The JSON value at the reading position, taken."""
        self.next_char()
        while True:
            try:
                value, end = self.decoder.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as error:
                if self.ended or not self._cut(error):
                    raise NotJson(self.where(error.msg, error.pos)) from None
            except RecursionError:
                raise LedgerError(
                    _("not a valid export: nested deeper than {depth} levels").format(depth=MAX_DEPTH)
                ) from None
            except ValueError as error:
                raise NotJson(self.where(str(error))) from None
            else:
                if end < len(self.text) or self.ended:
                    self.pos = end
                    return value
            self._read(len(self.text) - self.pos)

    def _cut(self, error: json.JSONDecodeError) -> bool:
        """Whether the error may come from the end of the text read so far rather than from the file."""
        return error.pos >= len(self.text) - CUT_MARGIN or error.msg.startswith("Unterminated string")

    def where(self, reason: str, pos: int | None = None) -> str:
        """The reason with the character of the file it concerns."""
        return f"{reason.removesuffix(' at')} at character {self.offset + (self.pos if pos is None else pos)}"


_SPACE = re.compile(r"[ \t\n\r]+")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class Importer:
    """Replays an export's evenings and payments into the ledger, one at a time, and counts what it did.

    Every revision is re-scored and must give the exported payouts. An evening already in the ledger (same
    start and players) is skipped, and so is a payment already recorded, so an interrupted import resumes.
    """

    def __init__(self, version: int) -> None:
        self.version = version
        self.renumbered: dict[int, int] = {}
        self.players: dict[str, Player] = {}
        self.created: list[int] = []
        self.skipped: list[int] = []
        self.deals = self.payments = self.payments_skipped = 0
        self.profiles: dict[str, Profile] = {}
        self.scores: dict[str, dict[tuple[Any, ...], Stored]] = {}

    def add(self, session: Session, kind: str, item: Any) -> None:
        """Write one evening or payment of the export (in the caller's transaction; `flush` before it commits)."""
        try:
            if kind == "evenings":
                self._evening(session, item)
            else:
                self.flush(session)
                self._payment(session, item)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            where = _("evening {number}: ").format(number=_number(item)) if kind == "evenings" else _("a payment: ")
            raise LedgerError(
                _("not a valid export: {where}a missing or bad field ({kind}: {error})").format(
                    where=where, kind=type(error).__name__, error=error
                )
            ) from None

    def flush(self, session: Session) -> None:
        """Insert the deals, revisions and payouts queued so far in the session."""
        _writer(session).flush()

    def summary(self) -> ImportSummary:
        """What the import did so far."""
        return ImportSummary(
            evenings=tuple(self.created),
            deals=self.deals,
            skipped=tuple(self.skipped),
            payments=self.payments,
            payments_skipped=self.payments_skipped,
        )

    def _evening(self, session: Session, item: dict[str, Any]) -> None:
        number, started = _check_evening(item)
        writer = _writer(session)
        existing = _already_imported(session, writer, item, started)
        if existing is not None:
            self.renumbered[number] = existing
            self.skipped.append(existing)
            return
        deals = item["deals"]
        closed = _time(item.get("closed_at"))
        revision = sum(len(d["revisions"]) + (1 if d.get("voided_at") else 0) for d in deals)
        if writer.raw is not None:
            table = self._start_evening(session, writer, item, started, closed, revision)
        else:
            table = start_evening(
                session,
                tuple(item["players"]),
                dealer=item["first_dealer"],
                profile=item["profile"],
                options=started_with(item["profile"], item["options"]),
                stake=_amount(item["stake_cents"]),
                currency=item["currency"],
                place=item.get("place"),
                note=item.get("note"),
                known=self.players,
            )
        if any(deal.get("key") for deal in deals):
            writer.flush()
            _check_keys(session, deals)
        scored = _scored(writer, table, item, self.version, self._scores(table, item))
        _write_deals(session, writer, table, deals, scored)
        if writer.raw is None:
            evening = table.evening
            evening.started_at, evening.closed_at, evening.revision = started, closed, revision
            session.add(evening)
            session.flush()
        self.renumbered[number] = table.number
        self.created.append(table.number)
        self.deals += len(deals)

    def _start_evening(
        self,
        session: Session,
        writer: _Writer,
        item: dict[str, Any],
        started: datetime,
        closed: datetime | None,
        revision: int,
    ) -> Seating:
        """`start_evening` for SQLite: the same checks, the evening written whole (start, close, revision) with
        its seats in two statements, and the profile made once for every evening with the same options."""
        players = tuple(item["players"])
        rules = self._profile(item["profile"], item["options"])
        rules.check_players(players)
        stake_cents, code = parse_cents(_amount(item["stake_cents"])), parse_currency(item["currency"])
        known = self.players
        people = [
            known.get(name_key(name)) or known.setdefault(name_key(name), ensure_player(session, name))
            for name in players
        ]
        names = tuple(p.name for p in people)
        dealer = item["first_dealer"]
        first = resolve_player(dealer, names, "dealer") if dealer else names[-1]
        ids = {p.name: ident(p) for p in people}
        values: dict[str, Any] = {
            "profile": rules.name,
            "options": dict(rules.options),
            "stake_cents": stake_cents,
            "currency": code,
            "first_dealer_id": ids[first],
            "place": item.get("place"),
            "note": item.get("note"),
            "started_at": started,
            "closed_at": closed,
            "revision": revision,
        }
        number = writer.insert(Evening, [values])
        writer.insert(
            Seat,
            [
                {"evening_id": number, "position": position, "player_id": ids[person.name]}
                for position, person in enumerate(people)
            ],
        )
        table = Seating(Evening(id=number, **values), names, ids)
        table.__dict__["profile"] = self._profile(rules.name, values["options"])
        return table

    def _profile(self, name: Any, options: Any) -> Profile:
        """`make_profile(name, options)`, made once per name and options."""
        key = json.dumps([name, options], sort_keys=True)
        rules = self.profiles.get(key)
        if rules is None:
            rules = self.profiles[key] = make_profile(name, started_with(name, options or {}))
        return rules

    def _scores(self, table: Seating, item: dict[str, Any]) -> dict[tuple[Any, ...], Stored]:
        """The revisions scored so far at the same seats: exported players, the ledger's players and ids, the
        profile and options (`score` is pure); only the last seats' are kept."""
        key = json.dumps(
            [item["players"], table.players, sorted(table.ids.items()), table.evening.profile, table.evening.options],
            sort_keys=True,
        )
        if key not in self.scores:
            self.scores.clear()
        return self.scores.setdefault(key, {})

    def _payment(self, session: Session, item: dict[str, Any]) -> None:
        """A payment of the export, checked like one typed with `paid`; one recorded already is skipped."""
        cents = item["cents"]
        _texts(item, "note", "key", "void_reason")
        if not _whole(cents, 1, MAX_CENTS):
            raise LedgerError(
                _("not a valid export: a payment of {cents!r} cents (a whole number from 1 to {most})").format(
                    cents=cents, most=MAX_CENTS
                )
            )
        evening = self.renumbered.get(item["evening"]) if item.get("evening") is not None else None
        paid_at = _time(item["paid_at"])
        if _payment_recorded(session, item, evening, paid_at):
            self.payments_skipped += 1
            return
        paid = record_payment(
            session,
            item["payer"],
            item["payee"],
            _amount(cents),
            currency=item["currency"],
            evening=evening,
            note=item.get("note"),
            paid_at=paid_at,
            key=item.get("key"),
            with_owed=False,
        )
        voided_at = _time(item.get("voided_at"))
        if voided_at is not None:
            entry = session.get(PaymentEntry, paid.id)
            assert entry is not None
            entry.voided_at, entry.void_reason = voided_at, item.get("void_reason") or ""
            session.add(entry)
        self.payments += 1


def stopped(error: LedgerError, kept: ImportSummary) -> LedgerError:
    """The error that stopped an import, saying which evenings it had committed before and kept."""
    if not kept.evenings:
        return LedgerError(_("{error}; nothing of that evening was written").format(error=error))
    # TRANSLATORS: the English says "evening(s)" for any count.
    return LedgerError(
        ngettext(
            "{error}; nothing of that evening was written, but the {count} evening(s) before it are in the ledger "
            "(evenings {first} to {last}): run the import again once the file is fixed, and they are skipped",
            "{error}; nothing of that evening was written, but the {count} evening(s) before it are in the ledger "
            "(evenings {first} to {last}): run the import again once the file is fixed, and they are skipped",
            len(kept.evenings),
        ).format(error=error, count=len(kept.evenings), first=kept.evenings[0], last=kept.evenings[-1])
    )


def import_data(session: Session, data: Any) -> ImportSummary:
    """Replay an export held in memory in the caller's transaction (see `Importer`)."""
    version, items = data_items(data)
    importer = Importer(version)
    for kind, item in items:
        importer.add(session, kind, item)
    importer.flush(session)
    session.flush()
    return importer.summary()


def _number(item: Any) -> object:
    return item.get("number") if isinstance(item, dict) else item


def _amount(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_evening(item: dict[str, Any]) -> tuple[int, datetime]:
    """The evening's number and start; an error for what no export of this ledger holds."""
    number = item["number"]
    if not _whole(number, 1, 2**31 - 1):
        raise LedgerError(
            _("not a valid export: an evening numbered {number!r} (a whole number from 1)").format(number=number)
        )
    started = _time(item.get("started_at"))
    if started is None:
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
        if not _whole(deal_number, 1, 2**31 - 1) or count > 1:
            raise LedgerError(
                _(
                    "not a valid export: evening {number} has a deal numbered {deal!r} (deal numbers "
                    "are whole numbers from 1, each once)"
                ).format(number=number, deal=deal_number)
            )
    _texts(item, "place", "note")
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
    return number, started


def _texts(item: dict[str, Any], *fields: str) -> None:
    """A `TypeError` (a bad field) when one of the fields is neither text nor missing, or would act on a screen."""
    for field in fields:
        value = item.get(field)
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{field} {value!r} is not text")
        if value is not None and acts_on_screen(value, lines=True):
            raise TypeError(f"{field} {shortened(value)!r} holds a control character")


def _already_imported(session: Session, writer: _Writer, item: dict[str, Any], started: datetime) -> int | None:
    """The ledger's evening with the same start and the same players, if the export's evening is in already."""
    players = [name_key(p) for p in item["players"]]
    if writer.raw is not None:
        clashes: Any = writer.starts().get(writer.bind_started(started), [])
    else:
        clashes = session.exec(select(Evening.id).where(Evening.started_at == started)).all()
    for clash in clashes:
        if [name_key(p) for p in get_seating(session, clash).players] == players:
            return clash
    return None


def _check_keys(session: Session, deals: list[dict[str, Any]]) -> None:
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


Stored = tuple[Mapping[str, int], tuple[str, ...], tuple[Any, ...], list[tuple[Any, ...]], dict[Any, int]]
"""A scored revision: its payouts by seat, its stored columns' names and values, its payout rows (the values
of `PAYOUT_COLUMNS`), each value as `_Writer.queue` takes it, and its payouts by the export's names."""
PAYOUT_COLUMNS = ("player_id", "position", "role", "points")
REVISION_COLUMNS = ("id", "deal_id", "revision", "reason", "cause", "cause_deal", "recorded_at", "superseded_at")
DEAL_COLUMNS = ("id", "evening_id", "number", "key", "created_at", "voided_at", "void_reason", "void_cause")
OLD_POT_REASON = re.compile(r"pot of passed deals changed by deal (\d+)")
"""The reason an older ledger wrote itself for a re-scored deal (exports before causes), in English."""
QUEUED: tuple[type[SQLModel], ...] = (Deal, DealRevision, Payout)
"""The tables whose rows an import queues, in the order they are inserted."""
QUEUED_ROWS = 10_000
"""The most rows an import queues before inserting them."""


def _scored(
    writer: _Writer,
    table: Seating,
    item: dict[str, Any],
    version: int,
    known: dict[tuple[Any, ...], Stored] | None = None,
) -> list[list[Stored]]:
    """Every revision of every deal re-scored; an error when the rules give other payouts than the export.

    `known`: revisions scored before at the same seats (players, ids, profile and options), by their dealer and
    facts as exported (`repr` tells every JSON value apart); the same facts there are not scored again (the rules
    give the same result), but every revision's payouts are still checked against that result."""
    known = {} if known is None else known
    profile = table.profile
    seated = dict(zip(item["players"], table.players, strict=True))
    exported = {seat: name for name, seat in seated.items()}
    scored = []
    for deal in item["deals"]:
        revisions = []
        for rev in deal["revisions"]:
            key = (rev.get("dealer"), repr(rev.get("typed") if version == 1 else rev.get("facts")))
            stored = known.get(key)
            if stored is None:
                facts = _revision_facts(table, profile, rev, version, seated)
                result = score(facts, profile)
                if len(known) >= KNOWN_RESULTS:
                    known.clear()
                values = revision_values(table, facts, result)
                columns = tuple(values)
                stored = known[key] = (
                    result.payouts,
                    columns,
                    writer.stored(DealRevision, columns, tuple(values.values())),
                    [
                        writer.stored(Payout, PAYOUT_COLUMNS, tuple(row[name] for name in PAYOUT_COLUMNS))
                        for row in payout_values(table, result)
                    ],
                    {exported.get(seat): points for seat, points in result.payouts.items()},
                )
            payouts = stored[0]
            if rev["payouts"] != stored[4] and payouts != {
                seated[name]: points for name, points in rev["payouts"].items()
            }:
                raise LedgerError(
                    _(
                        "evening {evening} deal {deal} revision {revision}: the export says {exported} "
                        "but the rules give {scored}"
                    ).format(
                        evening=item["number"],
                        deal=deal["number"],
                        revision=rev["revision"],
                        exported=rev["payouts"],
                        scored=payouts,
                    )
                )
            revisions.append(stored)
        scored.append(revisions)
    return scored


def _revision_facts(
    table: Seating, profile: Profile, rev: dict[str, Any], version: int, seated: dict[str, str]
) -> DealFacts:
    """A revision of the export as facts at the ledger's seats: version 2 stores facts, version 1 the typed text."""
    dealer = seated[rev["dealer"]]
    if version == 1:
        return build_facts(DealInput.from_dict(rev["typed"]), profile, table.players, dealer)
    data = dict(rev["facts"])
    for field in ("declarer", "holder"):
        if data.get(field) not in (None, MONTE, DECLARER):
            data[field] = seated[data[field]]
    data["auction"] = [[seated[seat], call] for seat, call in data.get("auction") or ()]
    return facts_from_dict(data, table.players, dealer)


def _why(rev: dict[str, Any]) -> tuple[str | None, str | None, int | None]:
    """A revision's reason typed, and the ledger's own cause and the deal behind it; older exports wrote the cause
    as an English sentence, read back here as the cause it was."""
    reason, cause, deal = rev.get("reason"), rev.get("cause"), rev.get("cause_deal")
    matched = OLD_POT_REASON.fullmatch(reason) if isinstance(reason, str) and cause is None else None
    if matched:
        return None, POT_CAUSE, int(matched.group(1))
    if cause == POT_CAUSE and isinstance(deal, int) and not isinstance(deal, bool) and storable(deal):
        return reason, POT_CAUSE, deal
    return reason, None, None


def _void_why(deal: dict[str, Any]) -> tuple[str | None, str | None]:
    """A void's reason typed, and the ledger's own cause (undo); older exports wrote `undo` as the reason."""
    reason, cause = deal.get("void_reason"), deal.get("void_cause")
    if cause == UNDO or (cause is None and reason == UNDO):
        return None, UNDO
    return reason, None


def _write_deals(
    session: Session, writer: _Writer, table: Seating, deals: list[dict[str, Any]], scored: list[list[Stored]]
) -> None:
    """The evening's deals, revisions and payouts, queued for the writer's next flush, ids reserved up front."""
    deal_ids = _new_ids(session, Deal, len(deals))
    time, evening = writer.time, table.number
    writer.queue(
        Deal,
        DEAL_COLUMNS,
        [
            (
                deal_id,
                evening,
                deal["number"],
                deal.get("key") or None,
                time(deal["created_at"], True),
                time(deal.get("voided_at")),
                *_void_why(deal),
            )
            for deal_id, deal in zip(deal_ids, deals, strict=True)
        ],
    )
    revisions = [
        (deal_id, rev, stored)
        for deal_id, deal, pairs in zip(deal_ids, deals, scored, strict=True)
        for rev, stored in zip(deal["revisions"], pairs, strict=True)
    ]
    if not revisions:
        return
    revision_ids = _new_ids(session, DealRevision, len(revisions))
    writer.queue(
        DealRevision,
        REVISION_COLUMNS + revisions[0][2][1],
        [
            (
                revision_id,
                deal_id,
                rev["revision"],
                *_why(rev),
                time(rev["recorded_at"], True),
                time(rev.get("superseded_at")),
                *stored[2],
            )
            for revision_id, (deal_id, rev, stored) in zip(revision_ids, revisions, strict=True)
        ],
    )
    writer.queue(
        Payout,
        ("revision_id", *PAYOUT_COLUMNS),
        [
            (revision_id, *row)
            for revision_id, (_, _, stored) in zip(revision_ids, revisions, strict=True)
            for row in stored[3]
        ],
    )


def _new_ids(session: Session, model: type[SQLModel], count: int) -> list[int]:
    """Ids for `count` new rows: from the table's sequence on PostgreSQL; on SQLite the ones after the largest,
    which no one else can take (the transaction holds the write lock from its start), remembered in the session
    so the next evening of the same transaction needs no query."""
    table = model.__table__  # type: ignore[attr-defined]
    if not count:
        return []
    if session.get_bind().dialect.name == "postgresql":
        return list(
            session.execute(
                text("SELECT nextval(pg_get_serial_sequence(:table, 'id')) FROM generate_series(1, :count)"),
                {"table": table.name, "count": count},
            ).scalars()
        )
    largest = session.info.get(("largest id", table.name))
    if largest is None:
        largest = session.execute(select(func.max(table.c.id))).scalar() or 0
    session.info[("largest id", table.name)] = largest + count
    return list(range(largest + 1, largest + count + 1))


class _Writer:
    """Inserts rows in one executemany: on SQLite straight into the driver's cursor, each value turned into what
    SQLAlchemy would store (its column type's bind processor), the statement built once per table and columns;
    on PostgreSQL through SQLAlchemy Core."""

    def __init__(self, session: Session) -> None:
        self.session = session
        connection = session.connection()
        self.dialect = connection.dialect
        self.raw: Any = connection.connection.driver_connection if self.dialect.name == "sqlite" else None
        self.statements: dict[tuple[str, tuple[str, ...]], tuple[str, list[Any]]] = {}
        started = Evening.__table__.c.started_at  # type: ignore[attr-defined]
        self.bind_started = started.type._cached_bind_processor(self.dialect) or (lambda value: value)
        self.started: dict[Any, list[int]] | None = None
        self.times: dict[str, Any] = {}
        self.queued: dict[tuple[type[SQLModel], tuple[str, ...]], list[tuple[Any, ...]]] = {}
        self.waiting = 0

    def starts(self) -> dict[Any, list[int]]:
        """The ledger's evenings by stored start, read once per transaction and kept up to date by `insert`
        (the transaction holds SQLite's write lock, so no one else adds one meanwhile)."""
        if self.started is None:
            self.started = {}
            for number, started in self.raw.execute("SELECT id, started_at FROM evening ORDER BY id"):
                self.started.setdefault(started, []).append(number)
        return self.started

    def _prepared(self, table: Any, columns: tuple[str, ...]) -> tuple[str, list[Any]]:
        """The INSERT for these columns of the table, and each column's bind processor (None: stored as is)."""
        prepared = self.statements.get((table.name, columns))
        if prepared is None:
            quote = self.dialect.identifier_preparer.quote
            sql = (
                f"INSERT INTO {quote(table.name)} ({', '.join(quote(name) for name in columns)}) "
                f"VALUES ({', '.join('?' for _ in columns)})"
            )
            processors = [table.c[name].type._cached_bind_processor(self.dialect) for name in columns]
            prepared = self.statements[(table.name, columns)] = (sql, processors)
        return prepared

    def stored(self, model: type[SQLModel], columns: tuple[str, ...], values: tuple[Any, ...]) -> tuple[Any, ...]:
        """The values of these columns as `queue` takes them: on SQLite as the driver stores them."""
        if self.raw is None:
            return values
        _, processors = self._prepared(model.__table__, columns)  # type: ignore[attr-defined]
        return tuple(
            value if process is None else process(value) for value, process in zip(values, processors, strict=True)
        )

    def time(self, text: Any, now: bool = False) -> Any:
        """An exported time as `queue` takes it (`_time`; the current time when missing and `now`)."""
        if self.raw is None or not isinstance(text, str):
            moment = _time(text)
            if moment is None and now:
                moment = utcnow()
            return moment if self.raw is None or moment is None else self.bind_started(moment)
        stored = self.times.get(text)
        if stored is None:
            moment = _time(text)
            if moment is None:
                return self.time(None, now)
            if len(self.times) >= KNOWN_RESULTS:
                self.times.clear()
            stored = self.times[text] = self.bind_started(moment)
        return stored

    def queue(self, model: type[SQLModel], columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
        """Rows of values made by `stored` and `time`, to insert at the next `flush` (at once when `QUEUED_ROWS`
        are waiting, so that the flush before a commit is short)."""
        if not rows:
            return
        self.queued.setdefault((model, columns), []).extend(rows)
        self.waiting += len(rows)
        if self.waiting >= QUEUED_ROWS:
            self.flush()

    def flush(self) -> None:
        """Insert the rows queued, one executemany per table and columns, deals before revisions before payouts."""
        for (model, columns), rows in sorted(self.queued.items(), key=lambda queued: QUEUED.index(queued[0][0])):
            table = model.__table__  # type: ignore[attr-defined]
            if self.raw is None:
                self.session.execute(insert(table), [dict(zip(columns, row, strict=True)) for row in rows])
            else:
                self.raw.executemany(self._prepared(table, columns)[0], rows)
        self.queued.clear()
        self.waiting = 0

    def insert(self, model: type[SQLModel], rows: list[dict[str, Any]]) -> int | None:
        """Insert the rows; the id of the last one on SQLite."""
        if not rows:
            return None
        table = model.__table__  # type: ignore[attr-defined]
        if self.raw is None:
            self.session.execute(insert(table), rows)
            return None
        columns = tuple(rows[0])
        sql, processors = self._prepared(table, columns)
        values: list[Any] = [tuple(row[name] for name in columns) for row in rows]
        processed = [(index, process) for index, process in enumerate(processors) if process is not None]
        if processed:
            values = [list(row) for row in values]
            for row in values:
                for index, process in processed:
                    row[index] = process(row[index])
        starts = self.starts() if table.name == "evening" else None
        cursor = self.raw.cursor()
        if len(values) == 1:
            cursor.execute(sql, values[0])
        else:
            cursor.executemany(sql, values)
        if starts is not None:
            starts.setdefault(values[0][columns.index("started_at")], []).append(cursor.lastrowid)
        return int(cursor.lastrowid) if cursor.lastrowid else None


def _writer(session: Session) -> _Writer:
    """The session's `_Writer`, made on first use."""
    writer = session.info.get("import writer")
    if writer is None:
        writer = session.info["import writer"] = _Writer(session)
    return writer


def _payment_recorded(session: Session, item: dict[str, Any], evening: int | None, paid_at: datetime | None) -> bool:
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
