"""`Ledger`: one method for each thing a scorekeeper does; the CLI, `play` and the web pages call these.

Each method runs in one transaction of its own (everything it writes commits together, or nothing does)
and returns frozen values, never database rows. A user's mistake raises `LedgerError` (a missing fact,
`MissingFact`, names the fact the rules still need) and writes nothing.

>>> import pathlib, tempfile
>>> from ledger import Ledger
>>> from ledger.values import Terms
>>> with Ledger(str(pathlib.Path(tempfile.mkdtemp()) / "ledger.sqlite3")) as ledger:
...     evening = ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(stake="0.10"))
...     _ = ledger.record("bruno solo 22")
...     _ = ledger.record(DealInput(declarer="Carla", contract="chiamo", called="3D", holder="Anna", thirds=17,
...                                 last_trick="opponents"))
...     ledger.standings().points
{'Anna': -1, 'Bruno': 5, 'Carla': -4}
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import fields, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from ledger.errors import Forbidden
from ledger.rules.build import DealInput
from ledger.rules.facts import DealFacts
from ledger.rules.quick import parse_quick_line
from ledger.rules.seats import seat_after
from ledger.values import (
    MOST_AT_ONCE,
    NOTHING_SAID,
    PAGE,
    ChangeView,
    Closed,
    DealHistory,
    DealView,
    EveningInfo,
    EveningLine,
    EveningPage,
    ImportSummary,
    LiveEvening,
    PaymentInfo,
    PlayerInfo,
    Recorded,
    Settlement,
    Standings,
    Tab,
    Terms,
    Undone,
    Writer,
)

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlmodel import Session

    from ledger.club.values import EventInfo, EventPage, SeasonInfo
    from ledger.notices import Notice
    from ledger.store.evenings import Seating
    from ledger.store.watch import Watcher
    from ledger.values import Statistics

T = TypeVar("T")
DealEntry = DealInput | str
"""A deal as the facts typed (`DealInput`) or as one line of the quick syntax (`"bruno solo 22"`)."""


class Ledger:
    """The ledger at a database URL or SQLite path (default: `$CALABRESELLA_DB`, else the user data folder).

    Opening creates or upgrades the schema. Use it as a context manager, or call `close()`.
    Methods that take `evening=None` mean the most recent open evening for writes and reads alike.
    A write waits for another program's write to finish; a read is one snapshot of the ledger and never waits.
    """

    def __init__(self, db: str | None = None, *, create: bool = True, source: str = "library") -> None:
        """Without `create`, a place that holds no ledger yet is an error and nothing is made there (for reading).
        `source` says in the change log where this program's changes come from (`terminal`, `play`, …), unless a
        write names its own `Writer`."""
        import threading

        from ledger.notices import Notices
        from ledger.store.engine import open_ledger

        self.engine: Engine = open_ledger(db, create=create)
        self._db = db
        self.writer = Writer(source)
        self._writing: AbstractContextManager[object] = (
            threading.RLock() if self.engine.dialect.name == "sqlite" else nullcontext()
        )
        """On SQLite, this program's writes take turns here, in one lane, rather than polling the database's write lock
        together (the holder then runs without them competing for the interpreter); other programs still wait on the
        database. Watchers' reads take their turn here too (`in_turn`). On PostgreSQL there is no lane: reads never
        wait for writes, and writes to different evenings go side by side (each evening's row lock orders those to the
        same one)."""
        self.notices = Notices()
        self._watcher: Watcher | None = None

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop watching for changes and release the database connections."""
        if self._watcher is not None:
            self._watcher.stop()
        self.engine.dispose()

    def subscribe(self, subscriber: Callable[[Notice], None]) -> Callable[[], None]:
        """Tell `subscriber` of every change committed from now on, by this program or by another one writing to the
        same database (in the writer's thread or the watcher's: hand it on to your own); returns how to stop."""
        from ledger.store.watch import Watcher

        if self._watcher is None:
            self._watcher = Watcher(self.engine, self.notices.publish)
            self._watcher.start()
        return self.notices.subscribe(subscriber)

    def in_turn(self, call: Callable[..., T], *args: object) -> T:
        """`call(*args)` in its turn with this program's writes (on SQLite): a watcher's read, which then sees what
        the writes before it did and never slows one down by running beside it."""
        with self._writing:
            return call(*args)

    @property
    def unwritable(self) -> str | None:
        """Why nothing can be recorded in this ledger (its file or folder is read-only), or None when it can be."""
        from ledger.i18n import _
        from ledger.store.engine import read_only, unwritable_folder

        if not read_only(self.engine):
            return None
        folder = unwritable_folder(self.engine)
        if folder:
            return _("its folder {folder} is read-only").format(folder=folder)
        return _("its file is read-only")

    @property
    def file(self) -> Path | None:
        """The SQLite file the ledger lives in, or None for a ledger on a database server."""
        url = self.engine.url
        return Path(url.database) if url.get_backend_name() == "sqlite" and url.database else None

    @contextmanager
    def _session(self) -> Iterator[Session]:
        """A write transaction, the one way out of every write: it takes this program's lane and the database's write
        lock (waiting for another writer to finish); once it commits, each change row it appended is published to
        this ledger's subscribers as a notice (other programs' watchers read them from the change log)."""
        from ledger.store.changes import appended
        from ledger.store.engine import transaction

        self._writable_again()
        watcher, told = self._watcher, []
        with self._writing:
            try:
                with transaction(self.engine) as session:
                    yield session
                    told = appended(session)
                    if watcher is not None:
                        watcher.ours.update(row for row, _ in told)
            except BaseException:
                if watcher is not None:
                    watcher.ours.difference_update(row for row, _ in told)
                raise
        for _, notice in told:
            self.notices.publish(notice)

    @contextmanager
    def _reading(self) -> Iterator[Session]:
        """A read transaction: one snapshot of the ledger, which never waits for a writer."""
        from ledger.store.engine import reading, transaction

        self._writable_again()
        with transaction(reading(self.engine)) as session:
            yield session

    def _writable_again(self) -> None:
        """A SQLite ledger opened read-only whose file and folder can be written now is opened again for writing (a
        server started on a read-only disk carries on by itself once it is writable); its watcher starts afresh."""
        from ledger.store.engine import open_ledger, writable_again
        from ledger.store.watch import Watcher

        if not writable_again(self.engine):
            return
        with self._writing:
            if not writable_again(self.engine):
                return  # another thread opened it again meanwhile
            before, self.engine = self.engine, open_ledger(self._db)
            if self._watcher is not None:
                self._watcher.stop()
                self._watcher = Watcher(self.engine, self.notices.publish)
                self._watcher.start()
            before.dispose()

    def _on_table(
        self,
        evening: int | None,
        action: Callable[[Session, Seating], T],
        *,
        open_only: bool = False,
        by: Writer | None = None,
        new_deal: str | None = None,
    ) -> T:
        """Run a write on the evening's seats in one transaction, if `by` may write there (`new_deal`: it records a
        new deal, with that key or "")."""
        from ledger.store.evenings import get_seating

        with self._session() as session:
            table = get_seating(session, evening, open_only=open_only, locking=True)
            refused = _refusal(session, table.number, by or self.writer, new_deal=new_deal)
            if refused:
                raise Forbidden(refused)
            return action(session, table)

    def _reading_table(
        self, evening: int | None, action: Callable[[Session, Seating], T], *, open_only: bool = False
    ) -> T:
        """Run a read on the evening's seats in one snapshot."""
        from ledger.store.evenings import get_seating

        with self._reading() as session:
            return action(session, get_seating(session, evening, open_only=open_only))

    # Players

    def players(self) -> list[PlayerInfo]:
        """Every player, by name."""
        from ledger.store.players import list_players

        with self._reading() as session:
            return [_player(p) for p in list_players(session)]

    def add_players(self, names: Sequence[str]) -> list[PlayerInfo]:
        """New players; an error if a name exists already (case and accents ignored)."""
        from ledger.store.players import add_player

        with self._session() as session:
            return [_player(add_player(session, name)) for name in names]

    def rename_player(self, old: str, new: str) -> tuple[str, str]:
        """Rename a player (every past deal follows); the names before and after."""
        from ledger.store.players import get_player, rename_player

        with self._session() as session:
            before = get_player(session, old).name
            return before, rename_player(session, old, new).name

    # Evenings

    def start_evening(
        self,
        players: Sequence[str],
        terms: Terms = NOTHING_SAID,
        *,
        dealer: str | None = None,
        note: str | None = None,
        by: Writer | None = None,
    ) -> EveningInfo:
        """Seat the players in turn order on the table's `terms`: the profile and its options, the stake per game
        point, the place."""
        from ledger.store.evenings import start_evening

        writer = self._organiser(by)
        with self._session() as session:
            table = start_evening(session, tuple(players), terms, dealer=dealer, note=note, by=writer)
            return _evening(session, table)

    def _organiser(self, by: Writer | None) -> Writer:
        """The writer, when it may write beyond one evening (start evenings, seat rounds): not a club table's key."""
        from ledger.i18n import _

        writer = by or self.writer
        if writer.table is not None:
            raise Forbidden(
                _("this key writes to one table only (evening {number}): nothing was written").format(
                    number=writer.table
                )
            )
        return writer

    def evening(self, number: int | None = None, *, open_only: bool = False, latest: bool = False) -> EveningInfo:
        """Evening `number` (default: the most recent open one; with `latest`, else the most recent of all) with its
        totals and who deals next."""
        from ledger.store.evenings import get_seating

        with self._reading() as session:
            return _evening(session, get_seating(session, number, open_only=open_only, latest=latest))

    def evenings(self) -> list[EveningInfo]:
        """Every evening, newest first (the pages of a list read `evening_page`)."""
        from ledger.store.evenings import list_evenings

        with self._reading() as session:
            return _evenings(session, list_evenings(session))

    def evening_page(self, *, before: int | None = None, limit: int = PAGE) -> EveningPage:
        """A page of the evenings, newest first, as a list shows them: `limit` of them (up to `MOST_AT_ONCE`), numbered
        below `before` (without it, the newest), with where the older ones begin. Two statements, the evenings' and
        their seats', however long the history."""
        from ledger.store.evenings import list_evenings

        _page_asked(before, limit)
        with self._reading() as session:
            tables = list_evenings(session, before=before, limit=limit + 1)
        shown = tables[:limit]
        return EveningPage([_line(table) for table in shown], shown[-1].number if len(tables) > limit else None)

    def close_evening(self, number: int | None = None, *, drop_pot: bool = False, by: Writer | None = None) -> Closed:
        """Close an evening (its deals can no longer change) and settle it. A pot of passed deals still waiting goes
        to the same table's next evening (the same players at the same game, whatever its options), unless
        `drop_pot`."""
        from ledger import recording
        from ledger.store.money import settle

        def close(session: Session, table: Seating) -> Closed:
            closed = recording.close(session, table, drop_pot=drop_pot, by=by or self.writer)
            return Closed(_evening(session, closed), settle(session, [closed]))

        return self._on_table(number, close, by=by)

    def void_evening(self, number: int, *, reason: str | None, by: Writer | None = None) -> EveningInfo:
        """Void an evening recorded by mistake: it stays in the log, closed, and counts nowhere (standings of other
        evenings, settlements, the tab, statistics, charts)."""
        from ledger import recording

        def void(session: Session, table: Seating) -> EveningInfo:
            return _evening(session, recording.void_evening(session, table, reason, by=by or self.writer))

        return self._on_table(number, void, by=by)

    def reopen_evening(self, number: int, *, reason: str | None, by: Writer | None = None) -> EveningInfo:
        """Open a closed evening again (a deal was left out, the close was a mistake); the close it undoes is kept
        with the reason."""
        from ledger import recording

        def reopen(session: Session, table: Seating) -> EveningInfo:
            return _evening(session, recording.reopen(session, table, reason, by=by or self.writer))

        return self._on_table(number, reopen, by=by)

    # Deals

    def record(
        self,
        deal: DealEntry,
        *,
        evening: int | None = None,
        dealer: str | None = None,
        key: str | None = None,
        more: DealInput | None = None,
        by: Writer | None = None,
    ) -> Recorded:
        """Validate, score and store a deal; with a `key` seen before, the stored deal and nothing written. A new deal
        is never refused because others recorded meanwhile: it comes after theirs.

        `more`: facts given besides a quick line (the command line's options), which take precedence; `by`: who
        writes (default: this ledger's `writer`).
        """
        from ledger import recording

        writer = by or self.writer

        def record(session: Session, table: Seating) -> Recorded:
            typed, dealt_by = _typed(deal, table, dealer)
            amended = typed.amended(more) if more else typed
            return recording.record(session, table, amended, dealer=dealt_by, key=key, by=writer)

        return self._on_table(evening, record, open_only=evening is None, by=writer, new_deal=key or "")

    def amend(
        self,
        number: int,
        changes: DealEntry,
        *,
        reason: str | None,
        evening: int | None = None,
        dealer: str | None = None,
        seen_revision: int | None = None,
        by: Writer | None = None,
    ) -> Recorded:
        """A new revision of deal `number` with the facts given changed; the old one stays in the history. With
        `seen_revision`, the deal's revision the corrector saw (`DealView.revision`): refused (`DealChanged`), saying
        how, when the deal was corrected since."""
        from ledger import recording

        def amend(session: Session, table: Seating) -> Recorded:
            typed, dealt_by = _typed(changes, table, dealer)
            return recording.amend(
                session,
                table,
                number,
                typed,
                reason,
                dealer=dealt_by,
                seen_revision=seen_revision,
                by=by or self.writer,
            )

        return self._on_table(evening, amend, by=by)

    def void(
        self, number: int, *, reason: str | None, evening: int | None = None, by: Writer | None = None
    ) -> Recorded:
        """Deal `number` stays in the log but no longer counts."""
        from ledger import recording

        def void(session: Session, table: Seating) -> Recorded:
            return recording.void(session, table, number, reason, by=by or self.writer)

        return self._on_table(evening, void, by=by)

    def undo(self, *, evening: int | None = None, seen_revision: int | None = None, by: Writer | None = None) -> Undone:
        """Take back the evening's last change, whatever it was (a deal recorded, an amendment, a void, a close, a
        reopening, a void of the whole evening); the undo is a change of its own and stays in the log. With
        `seen_revision`, the evening's revision when the scorekeeper saw what undo would take back (`last_change`):
        refused, saying what happened since, when the evening changed after it."""
        from ledger import recording

        def undo(session: Session, table: Seating) -> Undone:
            return recording.undo(session, table, seen_revision=seen_revision, by=by or self.writer)

        return self._on_table(evening, undo, by=by)

    def refusal(self, evening: int, by: Writer) -> str | None:
        """Why `by` may not change evening `evening` now (a club table's key after its round), or None when it may."""
        with self._reading() as session:
            return _refusal(session, evening, by)

    def last_change(self, evening: int | None = None) -> tuple[ChangeView, DealView | None] | None:
        """The change undo would take back now, with the deal it touched as it stands; None when there is none."""
        return self._reading_table(evening, _last_change)

    def changes(self, evening: int | None = None, *, deal: int | None = None) -> list[ChangeView]:
        """The evening's change log (or the changes of one deal), oldest first."""
        from ledger.store.changes import log_of

        return self._reading_table(evening, lambda session, table: log_of(session, table.number, deal=deal))

    def deals(self, evening: int | None = None) -> tuple[EveningInfo, list[DealView]]:
        """The evening and every deal's current revision, voided ones included (marked)."""
        from ledger.store.deals import list_deals

        return self._reading_table(
            evening, lambda session, table: (_evening(session, table), list_deals(session, table))
        )

    def live(self, count: int, evening: int | None = None) -> LiveEvening:
        """What an evening's live page shows, in one snapshot: the evening, its last `count` deals (current
        revisions, voided ones marked, oldest first), its games (with a game to N points), where the table plays on
        after it closed, where it is kept if it is a club table, and the change undo would take back. Its cost does
        not grow with the ledger's history: the evening's head, its last deals and one row of each of the rest."""
        from ledger.store.club import table_place
        from ledger.store.deals import last_deals
        from ledger.store.evenings import next_of_table
        from ledger.store.standings import standings

        def read(session: Session, table: Seating) -> LiveEvening:
            deals = last_deals(session, table, count)
            return LiveEvening(
                _evening(session, table, deals),
                deals,
                standings(session, table).games if table.profile.game_to else (),
                next_of_table(session, table) if table.evening.closed_at else None,
                table_place(session, table.number),
                _last_change(session, table, deals),
            )

        return self._reading_table(evening, read)

    def deal_history(self, number: int, evening: int | None = None) -> list[DealView]:
        """Every revision of deal `number`, oldest first."""
        from ledger.store.deals import deal_history

        return self._reading_table(evening, lambda session, table: deal_history(session, table, number))

    def deal(self, number: int, evening: int | None = None) -> DealHistory:
        """Deal `number`, in one snapshot: every revision, oldest first, and the changes of the log that touched it."""
        from ledger.store.changes import log_of
        from ledger.store.deals import deal_history

        def read(session: Session, table: Seating) -> DealHistory:
            revisions = deal_history(session, table, number)
            return DealHistory(table.number, number, revisions, log_of(session, table.number, deal=number))

        return self._reading_table(evening, read)

    def standings(self, evening: int | None = None) -> Standings:
        """Game points and money per player, and the running totals deal by deal; for a closed evening that counts,
        its settlement, in the same snapshot."""
        from ledger.store.money import settle
        from ledger.store.standings import standings

        def read(session: Session, table: Seating) -> Standings:
            shown, row = standings(session, table), table.evening
            if row.closed_at is None or row.voided_at is not None:
                return shown
            return replace(shown, settlement=settle(session, [table]))

        return self._reading_table(evening, read)

    # Money

    def settle(
        self, *, evening: int | None = None, since: date | None = None, round_to: str | None = None, pairs: bool = False
    ) -> Settlement:
        """Money per player and the fewest payments for evening N, the evenings since a day, or the latest; reading
        those evenings only."""
        from ledger.store.money import choose_evenings, settle

        with self._reading() as session:
            return settle(session, choose_evenings(session, evening, since), round_to=round_to, pairs=pairs)

    def settlement(self, evening: int | None = None) -> tuple[EveningInfo, Settlement]:
        """Evening `evening` (default: the most recent open one) and its settlement, in one snapshot (its page)."""
        from ledger.store.money import counted, settle

        return self._reading_table(
            evening, lambda session, table: (_evening(session, table), settle(session, [counted(table)]))
        )

    def paid(
        self,
        payer: str,
        payee: str,
        amount: str,
        *,
        currency: str | None = None,
        evening: int | None = None,
        note: str | None = None,
        key: str | None = None,
    ) -> PaymentInfo:
        """Record money handed over, so the tab shows what is still owed; with a `key` seen before, the stored
        payment and nothing written. The value tells what the payer owed just before (to warn of overpaying)."""
        from ledger.store.money import record_payment

        with self._session() as session:
            return record_payment(session, payer, payee, amount, currency=currency, evening=evening, note=note, key=key)

    def payments(self) -> list[PaymentInfo]:
        """Every payment recorded, voided ones included, oldest first."""
        from ledger.store.money import list_payments

        with self._reading() as session:
            return list_payments(session)

    def void_payment(self, number: int, *, reason: str | None) -> PaymentInfo:
        """Payment `number` stays in the log but no longer counts in the tab."""
        from ledger.store.money import void_payment

        with self._session() as session:
            return void_payment(session, number, reason)

    def tab(self, *, pairs: bool = False) -> list[Tab]:
        """What is still owed across all evenings, per currency, after the payments that stand; `pairs`: also who
        owes whom per pair, unsimplified."""
        from ledger.store.money import tab

        with self._reading() as session:
            return tab(session, pairs=pairs)

    # Club nights and seasons

    def start_season(self, name: str, *, min_deals: int = 0) -> SeasonInfo:
        """A new season: events started in it make one league table; `min_deals` to be ranked."""
        from ledger.store.club import season_info, start_season

        with self._session() as session:
            return season_info(session, start_season(session, name, min_deals))

    def season(self, name: str | None = None) -> SeasonInfo:
        """Season `name` (or number; default the most recent): its events and league table, with each player's skill
        (openskill) apart from game points."""
        from ledger.store.club import get_season, season_info

        with self._reading() as session:
            season = get_season(session, name)
            skill = {s.player: (s.rating, s.mu, s.sigma) for s in _season_skill(session, season)}
            return season_info(session, season, skill)

    def seasons(self) -> list[SeasonInfo]:
        """Every season, newest first, with its league table."""
        from ledger.store.club import list_seasons

        with self._reading() as session:
            names = [season.name for season in list_seasons(session)]
        return [self.season(name) for name in names]

    def start_event(
        self,
        name: str,
        players: Sequence[str],
        terms: Terms = NOTHING_SAID,
        *,
        season: str | None = None,
        pairing: str = "random",
        round_deals: int | None = None,
        round_minutes: int | None = None,
        by: Writer | None = None,
    ) -> EventInfo:
        """A club night or tournament with the players present; every table it seats plays on its `terms`. A round
        lasts `round_deals` deals or `round_minutes`; later rounds are drawn by `pairing`."""
        from ledger.store.club import event_info, start_event

        self._organiser(by)
        with self._session() as session:
            event = start_event(
                session,
                name,
                players,
                terms,
                season=season,
                pairing=pairing,
                round_deals=round_deals,
                round_minutes=round_minutes,
            )
            return event_info(session, event)

    def event(self, number: int | None = None) -> EventInfo:
        """Event `number` (default: the most recent) as it stands: rounds, tables, leaderboard."""
        from ledger.store.club import event_info, get_event

        with self._reading() as session:
            return event_info(session, get_event(session, number))

    def event_after_deals(self, shown: EventInfo) -> EventInfo | None:
        """Event `shown` as it stands now, its tables and leaderboard read again, when only its tables' deals and
        evenings changed since it was read; None when more changed (then read it whole with `event`)."""
        from ledger.store.club import event_after_deals

        with self._reading() as session:
            return event_after_deals(session, shown)

    def events(self) -> list[EventInfo]:
        """Every event, newest first, each whole (a page of a list reads `event_page`)."""
        from ledger.store.club import event_info, list_events

        with self._reading() as session:
            return [event_info(session, event) for event in list_events(session)]

    def event_page(self, *, before: int | None = None, limit: int = PAGE) -> EventPage:
        """A page of the events, newest first, as a list shows them: `limit` of them (up to `MOST_AT_ONCE`), numbered
        below `before` (without it, the newest), with where the older ones begin. One statement, however many events
        and deals the ledger holds."""
        from ledger.club.values import EventPage
        from ledger.store.club import event_lines

        _page_asked(before, limit)
        with self._reading() as session:
            lines = event_lines(session, before=before, limit=limit + 1)
        shown = lines[:limit]
        return EventPage(shown, shown[-1].number if len(lines) > limit else None)

    def event_stamp(self, number: int) -> tuple[int, ...]:
        """Changes whenever event `number`'s leaderboard may have changed (one statement, for live pages)."""
        from ledger.store.club import event_stamp

        with self._reading() as session:
            return event_stamp(session, number)

    def seat_round(
        self,
        number: int | None = None,
        *,
        tables: Sequence[Sequence[str]] | None = None,
        arrived: Sequence[str] = (),
        left: Sequence[str] = (),
        seed: int | None = None,
        round: int | None = None,
        by: Writer | None = None,
    ) -> EventInfo:
        """Seat the next round of event `number` (default: the most recent open one), the round before ending
        first: players who `arrived` or `left` are counted in or out, then the seating is drawn (random, or by the
        event's standing or skill, keeping repeated opponents to the fewest possible) or set by hand (`tables`).

        `round`: the number of the round this request makes. When that round was seated already (the same request
        sent twice, or by two organisers at once), the event is returned as it is and nothing is written.
        """
        from ledger.store.club import (
            arrive,
            check_round,
            event_info,
            get_event,
            has_rounds,
            leave,
            lock_event,
            present,
            seat_round,
        )

        writer = self._organiser(by)
        with self._session() as session:
            event = lock_event(session, get_event(session, number, open_only=round is None))
            if round is not None and check_round(session, event, round):
                return event_info(session, event)
            arrive(session, event, arrived)
            leave(session, event, left)
            order = None
            if tables is None and event.pairing != "random" and has_rounds(session, event):
                order = self._order(session, event, present(session, event))
            seat_round(session, event, tables=tables, order=order, seed=seed, by=writer)
            return event_info(session, event)

    def _order(self, session: Session, event: Any, players: list[str]) -> list[str]:
        """The players present best first: by the event's game points so far, or by season skill."""
        from ledger.store.club import event_info
        from ledger.store.club_models import Season

        if event.pairing == "standing":
            ranked = [line.player for line in event_info(session, event).standings]
        else:
            season = session.get(Season, event.season_id) if event.season_id else None
            ranked = [s.player for s in _season_skill(session, season)] if season else []
        return [name for name in ranked if name in players] + [name for name in players if name not in ranked]

    def end_round(self, number: int | None = None, *, by: Writer | None = None) -> EventInfo:
        """End the round under way of event `number`: every table's evening closes."""
        from ledger.store.club import end_round, event_info, get_event

        writer = self._organiser(by)
        with self._session() as session:
            event = get_event(session, number, open_only=True)
            end_round(session, event, by=writer)
            return event_info(session, event)

    def close_event(self, number: int | None = None, *, by: Writer | None = None) -> EventInfo:
        """Close event `number`: the round under way ends, no more rounds; its tables' keys write no more."""
        from ledger.store.club import close_event, event_info, get_event

        writer = self._organiser(by)
        with self._session() as session:
            event = close_event(session, get_event(session, number, open_only=True), by=writer)
            return event_info(session, event)

    # Reports (pandas and matplotlib load inside these methods only)

    def stats(
        self,
        *,
        evening: int | None = None,
        player: str | None = None,
        since: date | None = None,
        until: date | None = None,
        profile: str | None = None,
        on_step: Callable[[str, float], None] | None = None,
    ) -> Statistics:
        """Statistics over the deals that stand, as plain tables (see `calabresella stats --help`).

        `on_step(what, done)` is called as the work goes on, `done` from 0 to 1 (for a progress bar).
        """
        from ledger.i18n import _
        from ledger.store.engine import refusals
        from reports.filters import Filters
        from reports.frames import load_frames
        from reports.stats import SECTIONS, as_values, statistics

        filters = Filters(evening=evening, player=player, since=since, until=until, profile=profile)
        steps = iter(range(len(SECTIONS) + 1))
        step = (lambda title: on_step(title, next(steps) / (len(SECTIONS) + 1))) if on_step else None
        if step:
            step(_("reading the deals"))
        with refusals(self.engine):
            frames = load_frames(self.engine, filters)
        return as_values(statistics(frames, on_section=step), frames.filters.describe())

    def chart(self, kind: str, *, evening: int | None = None, fmt: str = "png") -> bytes:
        """A chart of the history (or of one evening) as PNG or SVG: running, money, contracts, thirds, pairings."""
        from ledger.store.engine import refusals
        from reports.charts import ONE_EVENING, chart_image, check_kind
        from reports.filters import Filters
        from reports.frames import load_frames

        check_kind(kind)
        with refusals(self.engine):
            frames = load_frames(self.engine, Filters(evening=evening), one_evening=kind in ONE_EVENING)
        return chart_image(kind, frames, fmt)

    def chart_summaries(self, evening: int | None = None) -> dict[str, str]:
        """Each chart kind with something to show (of the history, or of one evening), with what it shows in words,
        without drawing it."""
        from ledger.store.engine import refusals
        from reports.charts import summaries
        from reports.filters import Filters
        from reports.frames import load_frames

        with refusals(self.engine):
            frames = load_frames(self.engine, Filters(evening=evening))
        return summaries(frames)

    def report(self, evening: int | None = None, *, back: str | None = None, charts: str | None = None) -> str:
        """One evening (default: the open one, else the most recent) as an HTML page; `back` is the address of a
        page to go back to (the phone's evening page); `charts` the address its chart images load from, with
        `{kind}` in it, else they are drawn into the page, which then needs nothing else."""
        from ledger.store.deals import list_deals
        from ledger.store.engine import refusals
        from ledger.store.evenings import get_seating
        from reports.filters import Filters
        from reports.frames import load_frames
        from reports.html import evening_data, render

        with self._reading() as session:
            table = get_seating(session, evening, latest=True)
            info, deals = _evening(session, table), list_deals(session, table)
        with refusals(self.engine):
            frames = load_frames(self.engine, Filters(evening=info.number))
        return render(evening_data(info, deals, frames), back, charts)

    # Data

    def export(self, *, evening: int | None = None, fmt: str = "json") -> str:
        """The whole ledger (or one evening) as a JSON Lines export, every revision and void, or as CSV."""
        import io

        out = io.StringIO()
        self.export_to(out, evening=evening, fmt=fmt)
        return out.getvalue()

    def export_to(self, out: TextIO, *, evening: int | None = None, fmt: str = "json") -> None:
        """`export`, written into `out` one evening at a time."""
        from ledger.errors import FactError
        from ledger.i18n import _
        from ledger.store.evenings import get_seating
        from ledger.store.export import write_csv, write_export

        if fmt not in ("json", "csv"):
            raise FactError("format", fmt, _("json or csv"))
        with self._reading() as session:
            if evening is not None:
                get_seating(session, evening)
            (write_csv if fmt == "csv" else write_export)(session, out, evening)

    def import_data(self, data: Any) -> ImportSummary:
        """Replay an export held in memory in one transaction (see `import_file`): a version 1 or 2 document, or
        the lines of a version 3 export as values, the header first."""
        from ledger.store.replay import import_data

        with self._session() as session:
            return import_data(session, data)

    def import_file(self, path: Path, progress: Callable[[int, int], None] | None = None) -> ImportSummary:
        """Replay an export (JSON Lines read line by line, or an older JSON document): every revision is re-scored
        and must give the exported payouts.

        Evenings commit in batches of half a second, so others can write in between; an evening already in the
        ledger is skipped, so an interrupted import resumes when run again. On an error, nothing of the offending
        evening is written and the error says which evenings went in before it (`ledger.store.batched_import`).
        `progress(bytes_read, deals_imported)` is called after each evening.
        """
        from ledger.store.batched_import import import_file

        return import_file(path, self._session, progress)

    def backup(self, target: str) -> Path:
        """An online copy of a SQLite ledger into a new file."""
        from ledger.store.backup import backup_sqlite

        return backup_sqlite(self.engine, target)

    def info(self) -> dict[str, object]:
        """Where the ledger is and which schema revision it has."""
        from ledger.store.engine import schema_info

        return schema_info(self.engine)


def _season_skill(session: Session, season: Any) -> list[Any]:
    """Each player's skill over the deals of the season's tables (openskill, loaded here only)."""
    from ledger.store.club import season_deals
    from reports.rating import season_skill, sides

    played = (sides(roles, points) for roles, points in season_deals(session, season))
    return season_skill(side for side in played if side is not None)


def _refusal(session: Session, evening: int, by: Writer, *, new_deal: str | None = None) -> str | None:
    """Why `by` may not change evening `evening`, or None when it may: only a club table's key is ever refused
    (`ledger.store.club.refusal_for`, loaded only then)."""
    if by.table is None:
        return None
    from ledger.store.club import refusal_for

    return refusal_for(session, evening, by.table, new_deal=new_deal)


def _page_asked(before: int | None, limit: int) -> None:
    """A page asked for: numbered below a number that can be one, and up to `MOST_AT_ONCE` at once."""
    from ledger.errors import FactError
    from ledger.i18n import _
    from ledger.rules.numbers import check_number

    if before is not None:
        check_number(before, "before")
    if not 1 <= limit <= MOST_AT_ONCE:
        raise FactError("limit", limit, _("a whole number from 1 to {most}").format(most=MOST_AT_ONCE))


def _player(row: Any) -> PlayerInfo:
    return PlayerInfo(id=row.id, name=row.name, created_at=row.created_at)


def _typed(deal: DealEntry, table: Seating, dealer: str | None) -> tuple[DealInput, str | None]:
    """The deal's typed facts and its dealer, from a quick line or as given."""
    from ledger.errors import LedgerError
    from ledger.i18n import _

    if isinstance(deal, DealInput):
        return deal, dealer
    quick = parse_quick_line(deal, table.players, table.profile)
    if quick.dealer and dealer:
        raise LedgerError(_("the dealer is given twice: give it once"))
    return quick.deal, dealer or quick.dealer


def _last_change(
    session: Session, table: Seating, read: Sequence[DealView] = ()
) -> tuple[ChangeView, DealView | None] | None:
    """The change undo would take back now, with the deal it touched as it stands (taken from the deals `read` in
    the same snapshot when it is one of them, as it mostly is: the last deal)."""
    from ledger.store.changes import last_undoable, view
    from ledger.store.deals import deal_history

    found = last_undoable(session, table.number)
    if found is None:
        return None
    if found.deal is None:
        return view(found), None
    known = next((deal for deal in read if deal.number == found.deal), None)
    return view(found), known or deal_history(session, table, found.deal)[-1]


def _evening(session: Session, table: Seating, read: Sequence[DealView] = ()) -> EveningInfo:
    """An evening as a value, with its totals and who deals and speaks next: the seat after the dealer of the last
    deal that stands, taken from `read` (the evening's last deals, oldest first, read in the same snapshot) when one
    of them stands, as one mostly does."""
    from ledger.store.deals import totals

    standing = [deal for deal in read if not deal.voided]
    if not standing:
        return _evenings(session, [table])[0]
    return _info(table, seat_after(table.players, standing[-1].dealer), totals(session, table))


def _evenings(session: Session, tables: list[Seating]) -> list[EveningInfo]:
    """Evenings as values, with their totals and who deals and speaks next: a fixed number of statements."""
    from ledger.store.deals import evenings_totals, next_dealers

    points, dealers = evenings_totals(session, tables), next_dealers(session, tables)
    return [_info(table, dealers[table.number], points[table.number]) for table in tables]


def _line(table: Seating) -> EveningLine:
    """An evening as a list shows it."""
    e = table.evening
    return EveningLine(
        number=table.number,
        players=table.players,
        profile=table.profile,
        stake_cents=e.stake_cents,
        currency=e.currency,
        place=e.place,
        started_at=e.started_at,
        closed_at=e.closed_at,
        revision=e.revision,
        voided_at=e.voided_at,
        void_reason=e.void_reason,
    )


def _info(table: Seating, dealer: str, points: dict[str, int]) -> EveningInfo:
    e, line = table.evening, _line(table)
    return EveningInfo(
        **{each.name: getattr(line, each.name) for each in fields(line)},
        note=e.note,
        first_dealer=table.names[e.first_dealer_id],
        next_dealer=dealer,
        first_speaker=DealFacts(players=table.players, dealer=dealer).active(table.profile)[0],
        points=points,
        pot_in=e.pot_in,
        pot_from=e.pot_from,
        pot_out=e.pot_out,
    )
