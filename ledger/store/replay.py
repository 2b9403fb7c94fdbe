"""Replay an export into the ledger: every revision re-scored and checked against the exported payouts.

An evening already in the ledger (same start and players) is skipped, and so is a payment already recorded, a season
of the same name (its events go into the ledger's) and an event already in (same start and name), so an interrupted
import resumes. Evenings, seats, deals, revisions, payouts and change logs, payments, and seasons, events, entrants,
rounds and tables go in through `BulkWriter`, many evenings at once.

An event's tables name evenings by their number in the export: each is the evening the import made of that line (or
found in the ledger already), as a payment's evening is; the changes of those evenings name the event, as a live
table's do.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from sqlalchemy import Table, update
from sqlmodel import Session, col, select

from ledger.clock import as_utc, utcnow
from ledger.errors import LedgerError
from ledger.i18n import _, ngettext
from ledger.rules.numbers import shortened, storable
from ledger.rules.profiles import started_with
from ledger.rules.seats import name_key
from ledger.rules.text import check_plain
from ledger.rules.validate import MOST_PASSED
from ledger.store.bulk import new_ids, writer_of
from ledger.store.changes import lock_log, rebuild
from ledger.store.club_models import ClubEvent, ClubRound, ClubTable, Entrant, Season
from ledger.store.evenings import Seating, get_seating, new_seating, seat_rows
from ledger.store.export import CHANGE_FIELDS, EVENING, EVENT, PAYMENT, RENAME, SEASON
from ledger.store.import_checks import (
    EventLine,
    amount,
    check_evening,
    check_event,
    check_keys,
    check_rename,
    check_season,
    exported_time,
    plain,
)
from ledger.store.import_known import Keys, Starts
from ledger.store.imported_payments import PaymentImport
from ledger.store.importing import Entry, in_file, located, read_document
from ledger.store.models import (
    Deal,
    DealRevision,
    Evening,
    EveningChange,
    EveningReopen,
    Payout,
    Player,
    PlayerRename,
    Seat,
    ident,
)
from ledger.store.players import ensure_player, find_player
from ledger.store.rescoring import PAYOUT_COLUMNS, Rescorer, Scored
from ledger.summary import POT_CAUSE, UNDO
from ledger.values import ImportSummary, Terms

EVENINGS: Table = Evening.__table__  # type: ignore[attr-defined]
SEATS: Table = Seat.__table__  # type: ignore[attr-defined]
REOPENS: Table = EveningReopen.__table__  # type: ignore[attr-defined]
CHANGES: Table = EveningChange.__table__  # type: ignore[attr-defined]
DEALS: Table = Deal.__table__  # type: ignore[attr-defined]
REVISIONS: Table = DealRevision.__table__  # type: ignore[attr-defined]
PAYOUTS: Table = Payout.__table__  # type: ignore[attr-defined]
SEASONS: Table = Season.__table__  # type: ignore[attr-defined]
EVENTS: Table = ClubEvent.__table__  # type: ignore[attr-defined]
ENTRANTS: Table = Entrant.__table__  # type: ignore[attr-defined]
ROUNDS: Table = ClubRound.__table__  # type: ignore[attr-defined]
TABLES: Table = ClubTable.__table__  # type: ignore[attr-defined]


class EntryError(LedgerError):
    """The error of one entry of an import, which knows the entry's kind (`stopped` says what was not written)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class Importer:
    """Replays an export's evenings, payments, seasons and events into the ledger, one at a time, and counts what it
    did.

    `source`: the file read, named in front of every error with the line it concerns."""

    def __init__(self, version: int, source: str | None = None) -> None:
        self.version = version
        self.source = source
        self.renumbered: dict[int, int] = {}
        self.players: dict[str, Player] = {}
        self.created: list[int] = []
        self.skipped: list[int] = []
        self.deals = 0
        self.rescorer = Rescorer(version)
        self.payments = PaymentImport(self.players)
        self.starts = Starts()
        self.keys = Keys()
        self.seasons: dict[str, int] = {}
        """The ledger's season for each season of the export, by name key."""
        self.seasons_created: list[int] = []
        self.seasons_joined: list[str] = []
        self.events: dict[tuple[datetime, str], int] = {}
        """The ledger's event for each event of the export so far, by start and name."""
        self.events_created: list[int] = []
        self.events_skipped: list[int] = []
        self.tabled: dict[int, int] = {}
        """The export's events (their numbers) whose tables are the ledger's evenings."""

    def add(self, session: Session, entry: Entry) -> None:
        """Write one evening, payment, season or event of the export (in the caller's transaction; `flush` before it
        commits)."""
        try:
            if entry.kind == EVENING:
                self._evening(session, entry.item)
            elif entry.kind == PAYMENT:
                self._payment(session, entry.item)
            elif entry.kind == SEASON:
                self._season(session, entry.item)
            elif entry.kind == RENAME:
                self._rename(session, entry.item)
            else:
                self._event(session, entry.item)
        except LedgerError as error:
            raise _of_kind(in_file(located(error, entry.line), self.source), entry.kind) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            bad = LedgerError(
                _("not a valid export: {where}a missing or bad field ({kind}: {error})").format(
                    where=_where(entry), kind=type(error).__name__, error=error
                )
            )
            raise _of_kind(in_file(located(bad, entry.line), self.source), entry.kind) from None

    def flush(self, session: Session) -> None:
        """Insert the rows queued so far in the session (the payments among them logged as one change)."""
        self.payments.noted(session)
        writer_of(session).flush()

    def summary(self) -> ImportSummary:
        """What the import did so far."""
        return ImportSummary(
            evenings=tuple(self.created),
            deals=self.deals,
            skipped=tuple(self.skipped),
            payments=self.payments.written,
            payments_skipped=self.payments.skipped,
            seasons=len(self.seasons_created),
            seasons_joined=tuple(self.seasons_joined),
            events=len(self.events_created),
            events_skipped=len(self.events_skipped),
        )

    def _season(self, session: Session, item: Any) -> None:
        """A season of the export: the ledger's season of the same name when it has the same minimum of deals (the
        export's joins it, and the summary says so), an error when it has another; else a new one."""
        season = check_season(item)
        key = name_key(season.name)
        if key in self.seasons:
            return
        found = session.exec(select(Season).where(Season.key == key)).first()
        if found is not None:
            if found.min_deals != season.min_deals:
                raise LedgerError(
                    _(
                        "season {name!r} is in this ledger already, with a minimum of {ours} deals, and in the export "
                        "with {theirs}: rename one of them, or make the minimums agree, to import it"
                    ).format(name=found.name, ours=found.min_deals, theirs=season.min_deals)
                )
            self.seasons[key] = ident(found)
            self.seasons_joined.append(found.name)
            return
        number = new_ids(session, SEASONS, 1)[0]
        row = {"id": number, "name": season.name, "key": key, "min_deals": season.min_deals}
        writer_of(session).queue(SEASONS, [{**row, "created_at": season.created_at}])
        self.seasons[key] = number
        self.seasons_created.append(number)

    def _rename(self, session: Session, item: Any) -> None:
        """A player's rename of the export, kept with the ledger's player of that name unless it holds it already (the
        same names at the same time: a player may go to a name, back and to it again) or has no such player."""
        rename = check_rename(item)
        player = find_player(session, rename.player)
        if player is None:
            return
        known = session.exec(
            select(PlayerRename.id).where(
                PlayerRename.player_id == ident(player),
                PlayerRename.old_name == rename.old_name,
                PlayerRename.new_name == rename.new_name,
                PlayerRename.renamed_at == rename.renamed_at,
            )
        ).first()
        if known is None:
            session.add(
                PlayerRename(
                    player_id=ident(player),
                    old_name=rename.old_name,
                    new_name=rename.new_name,
                    renamed_at=rename.renamed_at,
                )
            )

    def _event(self, session: Session, item: Any) -> None:
        """An event of the export with its entrants, rounds and tables (the ledger's evenings made of the export's
        evening lines); one the ledger holds already (same start and name) is skipped."""
        event = check_event(item)
        season = self._season_of(event)
        evenings = self._tables(event)
        key = (event.started_at, event.name)
        existing = self.events.get(key)
        if existing is None:
            existing = _event_in(session, event)
        if existing is not None:
            self.events[key] = existing
            self.events_skipped.append(existing)
            return
        _not_tables_yet(session, event, evenings)
        entrants = [
            (self.players.get(name_key(name)) or self.players.setdefault(name_key(name), ensure_player(session, name)))
            for name, _arrived, _left in event.entrants
        ]
        number = new_ids(session, EVENTS, 1)[0]
        round_ids = new_ids(session, ROUNDS, len(event.rounds))
        writer = writer_of(session)
        writer.queue(EVENTS, [_event_row(number, season, event)])
        writer.queue(
            ENTRANTS,
            [
                {"event_id": number, "player_id": ident(player), "arrived": arrived, "left": left}
                for player, (_name, arrived, left) in zip(entrants, event.entrants, strict=True)
            ],
        )
        writer.queue(
            ROUNDS,
            [
                {
                    "id": round_id,
                    "event_id": number,
                    "number": played.number,
                    "repeats": played.repeats,
                    "exact": played.exact,
                    "by_hand": played.by_hand,
                    "started_at": played.started_at,
                    "ended_at": played.ended_at,
                }
                for round_id, played in zip(round_ids, event.rounds, strict=True)
            ],
        )
        writer.queue(
            TABLES,
            [
                {"round_id": round_id, "number": table, "evening_id": self.renumbered[evening]}
                for round_id, played in zip(round_ids, event.rounds, strict=True)
                for table, evening in played.tables
            ],
        )
        if evenings:  # their changes name the event, as a live table's do (they may be queued still)
            self.flush(session)
            session.execute(update(CHANGES).where(CHANGES.c.evening_id.in_(list(evenings))).values(event_id=number))
        self.events[key] = number
        self.events_created.append(number)

    def _season_of(self, event: EventLine) -> int | None:
        """The ledger's season of the event, made of a season line before it."""
        if event.season is None:
            return None
        season = self.seasons.get(name_key(event.season))
        if season is None:
            raise LedgerError(
                _("not a valid export: event {number} is of season {season!r}, which no line before it holds").format(
                    number=event.number, season=event.season
                )
            )
        return season

    def _tables(self, event: EventLine) -> dict[int, tuple[int, int]]:
        """The ledger's evenings kept at the event's tables, each with its round and table: an error for an evening
        no line before the event holds, and for one that is a table twice (of this event or of one before it)."""
        evenings: dict[int, tuple[int, int]] = {}
        for played in event.rounds:
            for table, exported in played.tables:
                evening = self.renumbered.get(exported)
                if evening is None:
                    raise LedgerError(
                        _(
                            "not a valid export: event {number} round {round} table {table} is evening {evening}, "
                            "which no line before it holds"
                        ).format(number=event.number, round=played.number, table=table, evening=exported)
                    )
                if evening in evenings:
                    raise LedgerError(
                        _("not a valid export: event {number} has evening {evening} at two tables").format(
                            number=event.number, evening=exported
                        )
                    )
                other = self.tabled.get(evening)
                if other is not None:
                    raise LedgerError(
                        _(
                            "not a valid export: evening {evening} is a table of event {first} and of event {second}"
                        ).format(evening=exported, first=other, second=event.number)
                    )
                evenings[evening] = (played.number, table)
        for evening in evenings:
            self.tabled[evening] = event.number
        return evenings

    def _already_imported(self, session: Session, item: dict[str, Any], started: datetime) -> int | None:
        """The ledger's evening with the same start and the same players, if the export's evening is in already."""
        players = [name_key(p) for p in item["players"]]
        clashes = self.starts.of(session).get(started, ())
        if clashes:
            writer_of(session).flush()  # an evening of this transaction may be queued still
        for clash in clashes:
            if [name_key(p) for p in get_seating(session, clash).players] == players:
                return clash
        return None

    def _evening(self, session: Session, item: dict[str, Any]) -> None:
        number, started = check_evening(item)
        existing = self._already_imported(session, item, started)
        if existing is not None:
            self.renumbered[number] = existing
            self.skipped.append(existing)
            return
        deals = item["deals"]
        terms = Terms(
            profile=item["profile"],
            options=started_with(item["profile"], item["options"]),
            stake=amount(item["stake_cents"]),
            currency=item["currency"],
            place=item.get("place"),
        )
        table = new_seating(
            session,
            tuple(item["players"]),
            terms,
            dealer=item["first_dealer"],
            note=item.get("note"),
            known=self.players,
            started_at=started,
            closed_at=exported_time(item.get("closed_at")),
            revision=_revision(item),
        )
        table.evening.id = new_ids(session, EVENINGS, 1)[0]
        table.evening.pot_in, table.evening.pot_out = _passed(item.get("pot_in")), _passed(item.get("pot_out"))
        table.evening.voided_at = exported_time(item.get("voided_at"))
        table.evening.void_reason = item.get("void_reason") if table.evening.voided_at else None
        came_from = item.get("pot_from")
        table.evening.pot_from = self.renumbered.get(came_from) if isinstance(came_from, int) else None
        writer = writer_of(session)
        writer.queue(EVENINGS, [table.evening.model_dump()])
        writer.queue(SEATS, seat_rows(table))
        writer.queue(REOPENS, _reopens(session, table.number, item.get("reopened") or []))
        self.starts.add(started, table.number)
        self.keys.read(session)
        if any(deal.get("key") for deal in deals):
            check_keys(deals, lambda key: self.keys.holder(session, key))
        scored = self.rescorer.evening(table, item)
        self.keys.add(table.number, _write_deals(session, table, deals, scored, self.rescorer.columns), deals)
        self._changes(session, table.number, item)
        self.renumbered[number] = table.number
        self.created.append(table.number)
        self.deals += len(deals)

    def _changes(self, session: Session, evening: int, item: dict[str, Any]) -> None:
        """The evening's change log as exported; an export made before changes were logged has it rebuilt from the
        evening's rows once they are written."""
        lock_log(session)
        logged = item.get("changes")
        if not isinstance(logged, list) or not logged:
            self.flush(session)
            rebuild(session.connection(), evening)
            return
        writer_of(session).add(CHANGES, CHANGE_COLUMNS, [_change_row(evening, change) for change in logged])

    def _payment(self, session: Session, item: dict[str, Any]) -> None:
        """A payment of the export, at the ledger's evening it names (see `PaymentImport`)."""
        evening = self.renumbered.get(item["evening"]) if item.get("evening") is not None else None
        self.payments.add(session, item, evening, exported_time(item["paid_at"]))


def _of_kind(error: LedgerError, kind: str) -> LedgerError:
    """The error an entry of the kind met, knowing the kind; one of the rules (a `FactError`, say, met in a document
    read in memory) stays what it is."""
    return EntryError(str(error), kind) if type(error) is LedgerError else error


def _where(entry: Entry) -> str:
    """What a missing or bad field belongs to, in front of the error."""
    if entry.kind == EVENING:
        return _("evening {number}: ").format(number=_number(entry.item))
    if entry.kind == EVENT:
        return _("event {number}: ").format(number=_number(entry.item))
    if entry.kind == SEASON:
        name = entry.item.get("name") if isinstance(entry.item, dict) else None
        return _("season {name}: ").format(name=shortened(repr(name)))
    if entry.kind == RENAME:
        return _("a rename of a player: ")
    return _("a payment: ")


def _event_row(number: int, season: int | None, event: EventLine) -> dict[str, Any]:
    """The event's row, its rules as `start_event` pins them."""
    return {
        "id": number,
        "season_id": season,
        "name": event.name,
        "profile": event.profile.name,
        "options": dict(event.profile.options),
        "stake_cents": event.stake_cents,
        "currency": event.currency,
        "place": event.place,
        "pairing": event.pairing,
        "round_deals": event.round_deals,
        "round_minutes": event.round_minutes,
        "started_at": event.started_at,
        "closed_at": event.closed_at,
    }


def _event_in(session: Session, event: EventLine) -> int | None:
    """The ledger's event of the same name and start, if any (times compared as times: SQLite holds them as text
    written more than one way)."""
    for number, started in session.execute(
        select(ClubEvent.id, ClubEvent.started_at).where(ClubEvent.name == event.name).order_by(col(ClubEvent.id))
    ):
        if as_utc(started) == event.started_at:
            return int(number)
    return None


def _not_tables_yet(session: Session, event: EventLine, evenings: dict[int, tuple[int, int]]) -> None:
    """An error when one of the ledger's evenings the event's tables would keep is a table of another event already
    (an evening the ledger held before the import)."""
    if not evenings:
        return
    clash = session.execute(
        select(ClubTable.evening_id, ClubRound.event_id)
        .join(ClubRound, col(ClubRound.id) == ClubTable.round_id)
        .where(col(ClubTable.evening_id).in_(list(evenings)))
        .order_by(col(ClubTable.evening_id))
    ).first()
    if clash is not None:
        evening, other = clash
        played, table = evenings[evening]
        raise LedgerError(
            _(
                "event {number} of the export has round {round} table {table} at evening {evening}, already a table "
                "of event {other}"
            ).format(number=event.number, round=played, table=table, evening=evening, other=other)
        )


def _passed(count: object) -> int:
    """A count of passed deals as an export gives it (none in older exports)."""
    if count is None:
        return 0
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MOST_PASSED:
        raise LedgerError(_("not a valid export: a pot of {count!r} passed deals").format(count=count))
    return count


def _revision(item: dict[str, Any]) -> int:
    """The evening's revision as exported, or its change log's last when that is further (an export whose count lags
    its log, as one written before every change was counted); counted from its deals for an export made before it
    was counted at all."""
    given = item.get("revision")
    logged = [c.get("revision") for c in item.get("changes") or [] if isinstance(c, dict)]
    last = max((r for r in logged if isinstance(r, int) and not isinstance(r, bool) and storable(r)), default=0)
    if isinstance(given, int) and not isinstance(given, bool) and storable(given) and given >= 0:
        return max(given, last)
    return max(last, sum(len(d["revisions"]) + (1 if d.get("voided_at") else 0) for d in item["deals"]))


CHANGE_COLUMNS = ("evening_id", *CHANGE_FIELDS, "at")
"""The columns of a change log entry's row, as `_change_row` gives them."""


def _change_row(evening: int, change: Any) -> tuple[Any, ...]:
    """A change log entry of the export as a row; one that is not what an export writes is refused."""
    if (
        not isinstance(change, dict)
        or not isinstance(change.get("revision"), int)
        or not isinstance(change.get("kind"), str)
    ):
        raise LedgerError(_("a change of the evening's log is not an object with a revision and a kind"))
    row = [change.get(name) for name in CHANGE_FIELDS]
    for at in CHANGE_NUMBERS:
        value = row[at]
        if value is not None and (not isinstance(value, int) or not storable(value)):
            raise LedgerError(
                _("a change of the evening's log has {name} {value}: a number").format(
                    name=CHANGE_FIELDS[at], value=shortened(str(value))
                )
            )
    for at in CHANGE_TEXTS:
        text = row[at]
        if text is None:
            continue
        if not isinstance(text, str):
            raise LedgerError(
                _("a change of the evening's log has {name} {value}: a text").format(
                    name=CHANGE_FIELDS[at], value=shortened(str(text))
                )
            )
        if not plain(text):
            check_plain(text, CHANGE_FIELDS[at])
    row[CHANGE_SOURCE] = row[CHANGE_SOURCE] or "import"
    return (evening, *row, exported_time(change.get("at")) or utcnow())


CHANGE_NUMBERS = tuple(CHANGE_FIELDS.index(name) for name in ("deal", "deal_revision", "undoes"))
CHANGE_TEXTS = tuple(CHANGE_FIELDS.index(name) for name in ("kind", "source", "session", "reason"))
CHANGE_SOURCE = CHANGE_FIELDS.index("source")
"""Where among a change's fields (`CHANGE_FIELDS`) its numbers, its texts and its source are."""


def _reopens(session: Session, evening: int, reopened: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of the evening's reopenings, as the export lists them."""
    ids = new_ids(session, REOPENS, len(reopened))
    return [
        {
            "id": row_id,
            "evening_id": evening,
            "closed_at": exported_time(r["closed_at"]),
            "reopened_at": exported_time(r["reopened_at"]),
            "reason": r["reason"],
            "pot_out": None if r.get("pot_out") is None else _passed(r["pot_out"]),
        }
        for row_id, r in zip(ids, reopened, strict=True)
    ]


def _number(item: Any) -> object:
    return item.get("number") if isinstance(item, dict) else item


OLD_POT_REASON = re.compile(r"pot of passed deals changed by deal (\d+)")
"""The reason an older ledger wrote itself for a re-scored deal (exports before causes), in English."""


def _why(rev: dict[str, Any]) -> tuple[str | None, str | None, int | None]:
    """A revision's reason typed, and the ledger's own cause (a pot changed by another deal's correction, or an
    amendment undone) and the deal behind it; older exports wrote the pot's cause as an English sentence, read back
    here as the cause it was."""
    reason, cause, deal = rev.get("reason"), rev.get("cause"), rev.get("cause_deal")
    matched = OLD_POT_REASON.fullmatch(reason) if isinstance(reason, str) and cause is None else None
    if matched:
        reason, cause, deal = None, POT_CAUSE, int(matched.group(1))
    elif cause == UNDO:
        deal = None
    elif not (cause == POT_CAUSE and isinstance(deal, int) and not isinstance(deal, bool) and storable(deal)):
        cause, deal = None, None
    return reason, cause, deal


def _void_why(deal: dict[str, Any]) -> tuple[str | None, str | None]:
    """A void's reason typed, and the ledger's own cause (undo); older exports wrote `undo` as the reason."""
    reason, cause = deal.get("void_reason"), deal.get("void_cause")
    if cause == UNDO or (cause is None and reason == UNDO):
        return None, UNDO
    return reason, None


DEAL_COLUMNS = ("id", "evening_id", "number", "key", "created_at", "voided_at", "void_reason", "void_cause")
REVISION_COLUMNS = (
    "id", "deal_id", "revision", "reason", "cause", "cause_deal", "recorded_at", "superseded_at", "profile", "options"
)  # fmt: skip
"""The columns of a deal's row, and of a revision's before those of its result (`Rescorer.columns`)."""


def _write_deals(
    session: Session, table: Seating, deals: list[dict[str, Any]], scored: list[list[Scored]], columns: tuple[str, ...]
) -> list[int]:
    """The evening's deals, revisions (`columns`: those of their results) and payouts, queued for the writer's next
    flush, ids reserved up front; the deals' ids."""
    writer, evening = writer_of(session), table.number
    deal_ids = new_ids(session, DEALS, len(deals))
    writer.add(
        DEALS,
        DEAL_COLUMNS,
        [
            (
                deal_id,
                evening,
                deal["number"],
                deal.get("key") or None,
                exported_time(deal["created_at"]) or utcnow(),
                exported_time(deal.get("voided_at")),
                *_void_why(deal),
            )
            for deal_id, deal in zip(deal_ids, deals, strict=True)
        ],
    )
    revisions = [
        (deal_id, rev, done)
        for deal_id, deal, pairs in zip(deal_ids, deals, scored, strict=True)
        for rev, done in zip(deal["revisions"], pairs, strict=True)
    ]
    revision_ids = new_ids(session, REVISIONS, len(revisions))
    profile, options = table.evening.profile, table.evening.options
    writer.add(
        REVISIONS,
        REVISION_COLUMNS + columns,
        [
            (
                revision_id,
                deal_id,
                rev["revision"],
                *_why(rev),
                exported_time(rev["recorded_at"]) or utcnow(),
                exported_time(rev.get("superseded_at")),
                profile,
                options,
                *done.values,
            )
            for revision_id, (deal_id, rev, done) in zip(revision_ids, revisions, strict=True)
        ],
    )
    writer.add(
        PAYOUTS,
        PAYOUT_COLUMNS,
        [
            (revision_id, *payout)
            for revision_id, (_, _, done) in zip(revision_ids, revisions, strict=True)
            for payout in done.payouts
        ],
    )
    return deal_ids


def stopped(error: LedgerError, kept: ImportSummary) -> LedgerError:
    """The error that stopped an import, saying which evenings it had committed before and kept."""
    if isinstance(error, EntryError) and error.kind in (SEASON, EVENT):
        if not kept.evenings:
            return LedgerError(_("{error}; nothing of that line was written").format(error=error))
        # TRANSLATORS: the English says "evening(s)" for any count.
        return LedgerError(
            ngettext(
                "{error}; nothing of that line was written, but the {count} evening(s) before it are in the ledger "
                "(evenings {first} to {last}): run the import again once the file is fixed, and they are skipped",
                "{error}; nothing of that line was written, but the {count} evening(s) before it are in the ledger "
                "(evenings {first} to {last}): run the import again once the file is fixed, and they are skipped",
                len(kept.evenings),
            ).format(error=error, count=len(kept.evenings), first=kept.evenings[0], last=kept.evenings[-1])
        )
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
    """Replay an export held in memory (`read_document`) in the caller's transaction (see `Importer`)."""
    version, entries = read_document(data)
    importer = Importer(version)
    for entry in entries:
        importer.add(session, entry)
    importer.flush(session)
    session.flush()
    return importer.summary()
