"""`Ledger`: one method for each thing a scorekeeper does; the CLI, `play` and the web pages call these. The club's
desk (`Ledger.club`) holds what an organiser does; the way in and out that every desk shares is `ledger.desk`.

Each method runs in one transaction of its own (everything it writes commits together, or nothing does)
and returns frozen values, never database rows. A user's mistake raises `LedgerError` (a missing fact,
`MissingFact`, names the fact the rules still need) and writes nothing.

What a command at the table never needs loads only when asked for: the club's desk and store, the exports and
imports (club nights travel in them), and the reports (pandas, matplotlib).

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

import io
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from sqlmodel import Session

from ledger import recording
from ledger.desk import Desk, refusal
from ledger.errors import FactError
from ledger.i18n import _
from ledger.rules.build import DealInput
from ledger.store.backup import backup_sqlite
from ledger.store.changes import log_of
from ledger.store.deals import deal_history, last_deals, list_deals
from ledger.store.engine import refusals, schema_info
from ledger.store.evenings import Seating, get_seating, list_evenings, next_of_table, start_evening
from ledger.store.money import choose_evenings, counted, list_payments, record_payment, settle, tab, void_payment
from ledger.store.places import table_place
from ledger.store.players import add_player, get_player, list_players, rename_player
from ledger.store.standings import standings
from ledger.store.views import evening_info, evening_infos, evening_line, last_change, player_info
from ledger.values import (
    NOTHING_SAID,
    PAGE,
    ChangeView,
    Closed,
    DealHistory,
    DealView,
    EveningInfo,
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
    check_page,
)

if TYPE_CHECKING:
    from ledger.clubs import Club
    from ledger.values import Statistics

DealEntry = DealInput | str
"""A deal as the facts typed (`DealInput`) or as one line of the quick syntax (`"bruno solo 22"`)."""


class Ledger(Desk):
    """The ledger at a database URL or SQLite path (default: `$CALABRESELLA_DB`, else the user data folder).

    Opening creates or upgrades the schema. Use it as a context manager, or call `close()`.
    Methods that take `evening=None` mean the most recent open evening for writes and reads alike.
    A write waits for another program's write to finish; a read is one snapshot of the ledger and never waits.
    """

    @cached_property
    def club(self) -> Club:
        """The club nights and seasons kept in this ledger: what an organiser does (`ledger.clubs.Club`)."""
        from ledger.clubs import Club

        return Club(self)

    # Players

    def players(self) -> list[PlayerInfo]:
        """Every player, by name."""
        with self.snapshot() as session:
            return [player_info(p) for p in list_players(session)]

    def add_players(self, names: Sequence[str]) -> list[PlayerInfo]:
        """New players; an error if a name exists already (case and accents ignored)."""
        with self.transaction() as session:
            return [player_info(add_player(session, name)) for name in names]

    def rename_player(self, old: str, new: str) -> tuple[str, str]:
        """Rename a player (every past deal follows); the names before and after."""
        with self.transaction() as session:
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
        writer = self.organiser(by)
        with self.transaction() as session:
            table = start_evening(session, tuple(players), terms, dealer=dealer, note=note, by=writer)
            return evening_info(session, table)

    def evening(self, number: int | None = None, *, open_only: bool = False, latest: bool = False) -> EveningInfo:
        """Evening `number` (default: the most recent open one; with `latest`, else the most recent of all) with its
        totals and who deals next."""
        with self.snapshot() as session:
            return evening_info(session, get_seating(session, number, open_only=open_only, latest=latest))

    def evenings(self) -> list[EveningInfo]:
        """Every evening, newest first (the pages of a list read `evening_page`)."""
        with self.snapshot() as session:
            return evening_infos(session, list_evenings(session))

    def evening_page(self, *, before: int | None = None, limit: int = PAGE) -> EveningPage:
        """A page of the evenings, newest first, as a list shows them: `limit` of them (up to `MOST_AT_ONCE`), numbered
        below `before` (without it, the newest), with where the older ones begin. Two statements, the evenings' and
        their seats', however long the history."""
        check_page(before, limit)
        with self.snapshot() as session:
            tables = list_evenings(session, before=before, limit=limit + 1)
        shown = tables[:limit]
        return EveningPage([evening_line(table) for table in shown], shown[-1].number if len(tables) > limit else None)

    def close_evening(self, number: int | None = None, *, drop_pot: bool = False, by: Writer | None = None) -> Closed:
        """Close an evening (its deals can no longer change) and settle it. A pot of passed deals still waiting goes
        to the same table's next evening (the same players at the same game, whatever its options), unless
        `drop_pot`."""

        def close(session: Session, table: Seating) -> Closed:
            closed = recording.close(session, table, drop_pot=drop_pot, by=by or self.writer)
            return Closed(evening_info(session, closed), settle(session, [closed]))

        return self.on_table(number, close, by=by)

    def void_evening(self, number: int, *, reason: str | None, by: Writer | None = None) -> EveningInfo:
        """Void an evening recorded by mistake: it stays in the log, closed, and counts nowhere (standings of other
        evenings, settlements, the tab, statistics, charts)."""

        def void(session: Session, table: Seating) -> EveningInfo:
            return evening_info(session, recording.void_evening(session, table, reason, by=by or self.writer))

        return self.on_table(number, void, by=by)

    def reopen_evening(self, number: int, *, reason: str | None, by: Writer | None = None) -> EveningInfo:
        """Open a closed evening again (a deal was left out, the close was a mistake); the close it undoes is kept
        with the reason."""

        def reopen(session: Session, table: Seating) -> EveningInfo:
            return evening_info(session, recording.reopen(session, table, reason, by=by or self.writer))

        return self.on_table(number, reopen, by=by)

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
        writer = by or self.writer

        def record(session: Session, table: Seating) -> Recorded:
            typed, dealt_by = recording.typed_facts(deal, table, dealer)
            amended = typed.amended(more) if more else typed
            return recording.record(session, table, amended, dealer=dealt_by, key=key, by=writer)

        return self.on_table(evening, record, open_only=evening is None, by=writer, new_deal=key or "")

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

        def amend(session: Session, table: Seating) -> Recorded:
            typed, dealt_by = recording.typed_facts(changes, table, dealer)
            writer = by or self.writer
            return recording.amend(
                session, table, number, typed, reason, dealer=dealt_by, seen_revision=seen_revision, by=writer
            )

        return self.on_table(evening, amend, by=by)

    def void(
        self, number: int, *, reason: str | None, evening: int | None = None, by: Writer | None = None
    ) -> Recorded:
        """Deal `number` stays in the log but no longer counts."""

        def void(session: Session, table: Seating) -> Recorded:
            return recording.void(session, table, number, reason, by=by or self.writer)

        return self.on_table(evening, void, by=by)

    def undo(self, *, evening: int | None = None, seen_revision: int | None = None, by: Writer | None = None) -> Undone:
        """Take back the evening's last change, whatever it was (a deal recorded, an amendment, a void, a close, a
        reopening, a void of the whole evening); the undo is a change of its own and stays in the log. With
        `seen_revision`, the evening's revision when the scorekeeper saw what undo would take back (`last_change`):
        refused, saying what happened since, when the evening changed after it."""

        def undo(session: Session, table: Seating) -> Undone:
            return recording.undo(session, table, seen_revision=seen_revision, by=by or self.writer)

        return self.on_table(evening, undo, by=by)

    def refusal(self, evening: int, by: Writer) -> str | None:
        """Why `by` may not change evening `evening` now (a club table's key after its round), or None when it may."""
        with self.snapshot() as session:
            return refusal(session, evening, by)

    def last_change(self, evening: int | None = None) -> tuple[ChangeView, DealView | None] | None:
        """The change undo would take back now, with the deal it touched as it stands; None when there is none."""
        return self.reading_table(evening, last_change)

    def changes(self, evening: int | None = None, *, deal: int | None = None) -> list[ChangeView]:
        """The evening's change log (or the changes of one deal), oldest first."""
        return self.reading_table(evening, lambda session, table: log_of(session, table.number, deal=deal))

    def deals(self, evening: int | None = None) -> tuple[EveningInfo, list[DealView]]:
        """The evening and every deal's current revision, voided ones included (marked)."""
        return self.reading_table(
            evening, lambda session, table: (evening_info(session, table), list_deals(session, table))
        )

    def deal(self, number: int, evening: int | None = None) -> DealHistory:
        """Deal `number`, in one snapshot: every revision, oldest first, and the changes of the log that touched it."""

        def read(session: Session, table: Seating) -> DealHistory:
            revisions = deal_history(session, table, number)
            return DealHistory(table.number, number, revisions, log_of(session, table.number, deal=number))

        return self.reading_table(evening, read)

    def live(self, count: int, evening: int | None = None) -> LiveEvening:
        """What an evening's live page shows, in one snapshot: the evening, its last `count` deals (current
        revisions, voided ones marked, oldest first), its games (with a game to N points), where the table plays on
        after it closed, where it is kept if it is a club table, and the change undo would take back. Its cost does
        not grow with the ledger's history: the evening's head, its last deals and one row of each of the rest."""

        def read(session: Session, table: Seating) -> LiveEvening:
            deals = last_deals(session, table, count)
            return LiveEvening(
                evening_info(session, table, deals),
                deals,
                standings(session, table).games if table.profile.game_to else (),
                next_of_table(session, table) if table.evening.closed_at else None,
                table_place(session, table.number),
                last_change(session, table, deals),
            )

        return self.reading_table(evening, read)

    def standings(self, evening: int | None = None) -> Standings:
        """Game points and money per player, and the running totals deal by deal; for a closed evening that counts,
        its settlement, in the same snapshot; for a voided one, when and why it was voided."""

        def read(session: Session, table: Seating) -> Standings:
            shown, row = standings(session, table), table.evening
            if row.closed_at is None or row.voided_at is not None:
                return shown
            return replace(shown, settlement=settle(session, [table]))

        return self.reading_table(evening, read)

    # Money

    def settle(
        self, *, evening: int | None = None, since: date | None = None, round_to: str | None = None, pairs: bool = False
    ) -> Settlement:
        """Money per player and the fewest payments for evening N, the evenings since a day, or the latest; reading
        those evenings only."""
        with self.snapshot() as session:
            return settle(session, choose_evenings(session, evening, since), round_to=round_to, pairs=pairs)

    def settlement(self, evening: int | None = None) -> tuple[EveningInfo, Settlement]:
        """Evening `evening` (default: the most recent open one) and its settlement, in one snapshot (its page)."""
        return self.reading_table(
            evening, lambda session, table: (evening_info(session, table), settle(session, [counted(table)]))
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
        with self.transaction() as session:
            return record_payment(session, payer, payee, amount, currency=currency, evening=evening, note=note, key=key)

    def payments(self) -> list[PaymentInfo]:
        """Every payment recorded, voided ones included, oldest first."""
        with self.snapshot() as session:
            return list_payments(session)

    def void_payment(self, number: int, *, reason: str | None) -> PaymentInfo:
        """Payment `number` stays in the log but no longer counts in the tab."""
        with self.transaction() as session:
            return void_payment(session, number, reason)

    def tab(self, *, pairs: bool = False) -> list[Tab]:
        """What is still owed across all evenings, per currency, after the payments that stand; `pairs`: also who
        owes whom per pair, unsimplified."""
        with self.snapshot() as session:
            return tab(session, pairs=pairs)

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
        from ledger.reports.filters import Filters
        from ledger.reports.frames import load_frames
        from ledger.reports.stats import SECTIONS, as_values, statistics

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
        from ledger.reports.charts import ONE_EVENING, chart_image, check_kind
        from ledger.reports.filters import Filters
        from ledger.reports.frames import load_frames

        check_kind(kind)
        with refusals(self.engine):
            frames = load_frames(self.engine, Filters(evening=evening), one_evening=kind in ONE_EVENING)
        return chart_image(kind, frames, fmt)

    def chart_summaries(self, evening: int | None = None) -> dict[str, str]:
        """Each chart kind with something to show (of the history, or of one evening), with what it shows in words,
        without drawing it."""
        from ledger.reports.charts import summaries
        from ledger.reports.filters import Filters
        from ledger.reports.frames import load_frames

        with refusals(self.engine):
            frames = load_frames(self.engine, Filters(evening=evening))
        return summaries(frames)

    def report(self, evening: int | None = None, *, back: str | None = None, charts: str | None = None) -> str:
        """One evening (default: the open one, else the most recent) as an HTML page; `back` is the address of a
        page to go back to (the phone's evening page); `charts` the address its chart images load from, with
        `{kind}` in it, else they are drawn into the page, which then needs nothing else."""
        from ledger.reports.filters import Filters
        from ledger.reports.frames import load_frames
        from ledger.reports.html import evening_data, render

        with self.snapshot() as session:
            table = get_seating(session, evening, latest=True)
            info, deals = evening_info(session, table), list_deals(session, table)
        with refusals(self.engine):
            frames = load_frames(self.engine, Filters(evening=info.number))
        return render(evening_data(info, deals, frames), back, charts)

    # Data (the club's store loads with these: club nights travel in exports)

    def export(self, *, evening: int | None = None, fmt: str = "json") -> str:
        """The whole ledger (or one evening) as a JSON Lines export, every revision and void, or as CSV."""
        out = io.StringIO()
        self.export_to(out, evening=evening, fmt=fmt)
        return out.getvalue()

    def export_to(self, out: TextIO, *, evening: int | None = None, fmt: str = "json") -> None:
        """`export`, written into `out` one evening at a time."""
        from ledger.store.export import write_csv, write_export

        if fmt not in ("json", "csv"):
            raise FactError("format", fmt, _("json or csv"))
        with self.snapshot() as session:
            if evening is not None:
                get_seating(session, evening)
            (write_csv if fmt == "csv" else write_export)(session, out, evening)

    def import_data(self, data: Any) -> ImportSummary:
        """Replay an export held in memory in one transaction (see `import_file`): a version 1 or 2 document, or
        the lines of a version 3 export as values, the header first."""
        from ledger.store.replay import import_data

        with self.transaction() as session:
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

        return import_file(path, self.transaction, progress)

    def backup(self, target: str) -> Path:
        """An online copy of a SQLite ledger into a new file."""
        return backup_sqlite(self.engine, target)

    def info(self) -> dict[str, object]:
        """Where the ledger is and which schema revision it has."""
        return schema_info(self.engine)
