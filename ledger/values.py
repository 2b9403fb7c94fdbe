"""What the ledger's methods return: frozen values with plain fields, never database rows.

Every value hashes and nothing it holds can change: its mappings are read-only and its lists tuples, while its
constructor still takes dicts and lists; `to_dict()` gives plain dicts and lists, ready for JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ledger.club.values import TablePlace
from ledger.errors import FactError
from ledger.fmt import plain_cents
from ledger.frozen import Drawn, FrozenDict, Plain, freeze, plain, shown
from ledger.house_rules import describe_rules
from ledger.i18n import _
from ledger.rules.games import Game, games
from ledger.rules.numbers import check_number
from ledger.rules.profiles import Profile
from ledger.rules.scoring import DealResult
from ledger.settlement import Transfer

UNDOABLE = ("record", "amend", "void", "close", "reopen", "void_evening")
"""The kinds of change undo takes back; an undo itself is not taken back, undo steps further back instead."""


@dataclass(frozen=True)
class Writer:
    """Who writes: where the change comes from, and what they may touch.

    `table` is the evening a club table's key writes to: such a writer writes there only, and only while the table's
    round is open. `session` names the phone or table in the change log.
    """

    source: str = "library"
    table: int | None = None
    session: str | None = None


@dataclass(frozen=True)
class Terms:
    """What a table plays by and for: the rule profile and its options, the stake per game point in its currency,
    the place. An evening is started on its terms, and each table a club event seats on the event's."""

    profile: str = "pagat"
    options: Sequence[str] | Mapping[str, object] = ()
    stake: str = "0"
    currency: str = "EUR"
    place: str | None = None


NOTHING_SAID = Terms()
"""The terms of a table that says nothing else: pagat's rules, for nothing a point."""
LIBRARY = Writer()
"""A program using the ledger as a library, the default writer."""
TABLE = "table"
"""The source of a club table's key (`Writer.source`): every other source is the organiser's."""


@dataclass(frozen=True)
class ChangeView(Plain):
    """One entry of an evening's change log: the evening's revision it made, its kind (see `UNDOABLE`, and `start`,
    `undo`), the deal it touched, when, from where, the reason typed; `undoes` the revision an undo took back;
    `undone` whether an undo took this one back since."""

    evening: int = field(metadata=shown(hidden=True))
    revision: int
    kind: str
    deal: int | None
    at: datetime
    source: str
    session: str | None = None
    reason: str | None = None
    undoes: int | None = None
    undone: bool = False


@dataclass(frozen=True)
class PlayerInfo(Plain):
    """A player of the ledger: `id`, the name now, and when they were first seen."""

    id: int
    name: str
    created_at: datetime = field(metadata=shown("since"))


class Standing:
    """What an evening says of itself, whole (`EveningInfo`) or as a list shows it (`EveningLine`): its rules and
    whether it is closed or voided."""

    players: tuple[str, ...]
    profile: Profile
    closed_at: datetime | None
    voided_at: datetime | None
    void_reason: str | None

    @property
    def options(self) -> Mapping[str, object]:
        """The options of the rules the evening was started with."""
        return self.profile.options

    @property
    def closed(self) -> bool:
        """No deal of a closed evening can change."""
        return self.closed_at is not None

    @property
    def voided(self) -> bool:
        """The whole evening no longer counts."""
        return self.voided_at is not None

    @property
    def rules(self) -> str:
        """The rules of the evening in players' words, in the language in use (see `ledger.house_rules`)."""
        return describe_rules(self.profile, len(self.players))


@dataclass(frozen=True)
class EveningInfo(Standing, Plain):
    """An evening: seats in turn order, the profile pinned at the start, the stake, and where it stands now.

    `points` are the game points per seat over the deals that stand; `revision` counts every change, so
    a front end can tell whether the evening changed since it last looked; `next_dealer` deals the next
    deal and `first_speaker` speaks first in it (the seat after the dealer, the dealer sitting out or not).
    `pot_in` passed deals' pot came in from evening `pot_from`, the same table's evening before; `pot_out` went on to
    the table's next evening when this one closed.
    """

    number: int = field(metadata=shown("evening"))
    players: tuple[str, ...]
    profile: Profile = field(metadata=shown(value=lambda evening: evening.profile.name, after=("options",)))
    stake_cents: int
    currency: str
    place: str | None
    note: str | None
    started_at: datetime
    closed_at: datetime | None = field(metadata=shown(after=("closed",)))
    revision: int
    first_dealer: str
    next_dealer: str
    first_speaker: str
    points: Mapping[str, int] = FrozenDict()
    voided_at: datetime | None = field(default=None, metadata=shown(before=("voided",)))
    void_reason: str | None = None
    pot_in: int = 0
    pot_from: int | None = None
    pot_out: int = 0

    def __post_init__(self) -> None:
        freeze(self, "points")

    @property
    def dealer_sits_out(self) -> bool:
        """More players are seated than hold cards: the dealer sits each deal out."""
        return self.profile.sits_out(len(self.players))

    @property
    def cents(self) -> Mapping[str, int]:
        """Money per seat, in cents of the evening's currency."""
        return FrozenDict({name: value * self.stake_cents for name, value in self.points.items()})


PAGE = 50
"""How many evenings (or events) a page of a list shows unless asked for another number."""
MOST_AT_ONCE = 500
"""The most a page of a list shows."""


def check_page(before: int | None, limit: int) -> None:
    """A page asked for: numbered below a number that can be one, and up to `MOST_AT_ONCE` at once."""
    if before is not None:
        check_number(before, "before")
    if not 1 <= limit <= MOST_AT_ONCE:
        raise FactError("limit", limit, _("a whole number from 1 to {most}").format(most=MOST_AT_ONCE))


@dataclass(frozen=True)
class EveningLine(Standing, Plain):
    """An evening as a list of them shows it: its seats, rules and stake, where and when, and whether it is open,
    closed or voided (`Ledger.evening` reads the whole of it, with its totals and who deals next)."""

    number: int = field(metadata=shown("evening"))
    players: tuple[str, ...]
    profile: Profile = field(metadata=shown(value=lambda evening: evening.profile.name, after=("options",)))
    stake_cents: int
    currency: str
    place: str | None
    started_at: datetime
    closed_at: datetime | None = field(metadata=shown(after=("closed",)))
    revision: int
    voided_at: datetime | None = field(default=None, metadata=shown(before=("voided",)))
    void_reason: str | None = None


@dataclass(frozen=True)
class EveningPage(Plain):
    """A page of the evenings, newest first: `next` is where the older ones begin (ask for the evenings `before` it),
    None when none is older."""

    evenings: Sequence[EveningLine]
    next: int | None = None

    def __post_init__(self) -> None:
        freeze(self, "evenings")


@dataclass(frozen=True)
class DealView(Plain):
    """A deal as stored: one revision's facts, its derived result and every seat's game points and role, under the
    profile of its evening.

    Players are named as they are called now (a rename follows the player). `holder` is a seat's name,
    `monte` or `declarer`; `auction` is the calls in speaking order, each (seat, call word). `reason` and
    `void_reason` are what a person typed; `cause` (with `cause_deal`) and `void_cause` say why the ledger itself
    wrote the revision or voided the deal. Every sentence about the deal is drawn by the front end that shows it, in
    the language in use (`ledger.summary`: `explanation`, `why`, `why_voided`, and `as_json` for its JSON).
    """

    number: int
    revision: int
    dealer: str
    voided: bool = field(default=False, kw_only=True)
    void_reason: str | None = field(default=None, kw_only=True)
    void_cause: str | None = field(default=None, kw_only=True)
    key: str | None = field(default=None, kw_only=True)
    declarer: str | None
    partner: str | None
    contract: str | None
    aggravation: str | None
    called: str | None
    holder: str | None
    auction: tuple[tuple[str, str], ...] = field(
        metadata=shown(value=lambda deal: ",".join(f"{seat}:{call}" for seat, call in deal.auction) or None)
    )
    declarer_thirds: int | None
    tricks: int | None
    last_trick: str | None
    monte_thirds: int | None = field(default=None, kw_only=True)
    passed_before: int
    declarer_won: bool | None
    sweep: str | None
    multiplier: int
    amount: int
    profile: Profile = field(metadata=shown(hidden=True))
    payouts: Mapping[str, int]
    roles: Mapping[str, str] = field(metadata=shown(hidden=True))
    recorded_at: datetime
    reason: str | None = field(default=None, kw_only=True)
    cause: str | None = field(default=None, kw_only=True)
    cause_deal: int | None = field(default=None, kw_only=True)
    superseded_at: datetime | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        freeze(self, "payouts", "roles")

    @property
    def passed(self) -> bool:
        """Everyone passed."""
        return self.declarer is None

    @property
    def amended(self) -> bool:
        """The deal was corrected at least once."""
        return self.revision > 1


def evening_games(deals: Sequence[DealView], game_to: int | None) -> tuple[Game, ...]:
    """An evening's games to `game_to` points over its deals that stand, in order, the last perhaps going on; none
    without a game to N points."""
    if game_to is None:
        return ()
    finished, current = games(((d.number, d.payouts, d.declarer) for d in deals if not d.voided), game_to)
    return (*finished, *((current,) if current else ()))


@dataclass(frozen=True)
class EveningDeals(Plain):
    """An evening's deals as a list shows them: each deal's current revision, voided ones included (marked)."""

    evening: int
    deals: Sequence[DealView]

    def __post_init__(self) -> None:
        freeze(self, "deals")


@dataclass(frozen=True)
class DealHistory(Plain):
    """One deal of an evening: every revision, oldest first, and the changes of the evening's log that touched it."""

    evening: int
    number: int
    revisions: Sequence[DealView]
    changes: Sequence[ChangeView]

    def __post_init__(self) -> None:
        freeze(self, "revisions", "changes")


@dataclass(frozen=True)
class Scored(Plain):
    """One deal scored and not stored: the rules it was scored by, the seats in turn order, who dealt, and the result
    (its fields written among these)."""

    profile: Profile = field(metadata=shown(value=lambda scored: scored.profile.name, after=("options",)))
    players: tuple[str, ...]
    dealer: str
    result: DealResult = field(metadata=shown(flat=True))

    @property
    def options(self) -> Mapping[str, object]:
        """The options of the rules the deal was scored by."""
        return self.profile.options


@dataclass(frozen=True)
class Recorded(Plain):
    """What a write did: the deal as now stored, its result (None for a void), the evening's totals after it.

    `evening_revision` is the evening's change counter after the write (give it to `undo` to guard it);
    `duplicate` is true when an idempotency key had stored this deal before and nothing was written; `rescored` are
    the later deals the write re-scored because their pot of passed deals changed.
    """

    evening: int
    evening_revision: int
    duplicate: bool = field(default=False, kw_only=True)
    profile: Profile = field(metadata=shown(hidden=True))
    deal: DealView
    result: DealResult | None = field(metadata=shown(hidden=True))
    totals: Mapping[str, int]
    next_dealer: str
    rescored: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        freeze(self, "totals")


@dataclass(frozen=True)
class Undone(Plain):
    """What an undo did: the change it took back, the deal that change touched as it stands now (None for a change
    of the evening itself: a close, a reopening, a void of the whole evening), the evening's revision after it."""

    evening: int
    evening_revision: int
    taken_back: ChangeView
    recorded: Recorded | None


@dataclass(frozen=True)
class LiveEvening:
    """What an evening's live page shows, read in one snapshot: the evening (with its totals) and its latest deals,
    oldest first; with a game to N points its games, the last perhaps going on; for a closed evening the open one
    where the same table plays on, if any; for a club table its event, round and table; the change undo would take
    back now, with the deal it touched."""

    evening: EveningInfo
    deals: Sequence[DealView]
    games: Sequence[Game] = ()
    next_evening: int | None = None
    place: TablePlace | None = None
    undo: tuple[ChangeView, DealView | None] | None = None

    def __post_init__(self) -> None:
        freeze(self, "deals", "games")

    @property
    def last_deals(self) -> list[tuple[DealView, dict[str, int] | None]]:
        """The latest deals, newest first, each with the running totals after it (None for a voided deal): the
        totals now, less what each later deal that stands paid."""
        after, shown = dict(self.evening.points), []
        for deal in reversed(self.deals):
            shown.append((deal, None if deal.voided else after))
            if not deal.voided:
                after = {name: points - deal.payouts.get(name, 0) for name, points in after.items()}
        return shown


@dataclass(frozen=True)
class Standings(Plain):
    """Totals over the deals that stand; money in cents of the evening's currency. With a game to `game_to` points,
    `games` are the evening's games in order, the last one still going on when it has no winner. `settlement` is what
    a closed evening comes to in money (None while it is open, and for a voided evening, which counts nowhere: its
    standings still show its own figures, with `voided` and `void_reason` saying so)."""

    evening: int
    players: tuple[str, ...]
    points: Mapping[str, int]
    cents: Mapping[str, int]
    currency: str
    stake_cents: int
    closed: bool
    running: Sequence[tuple[int, Mapping[str, int]]] = field(
        metadata=shown(value=lambda standings: [{"deal": deal, "totals": line} for deal, line in standings.running])
    )
    revision: int = field(metadata=shown(hidden=True))
    game_to: int | None = None
    games: tuple[Game, ...] = field(default=(), metadata=shown(after=("games_won",)))
    settlement: Settlement | None = None
    voided_at: datetime | None = field(default=None, metadata=shown(before=("voided",)))
    void_reason: str | None = None

    def __post_init__(self) -> None:
        freeze(self, "points", "cents", "running")

    @property
    def voided(self) -> bool:
        """The whole evening no longer counts."""
        return self.voided_at is not None

    @property
    def games_won(self) -> Mapping[str, int] | None:
        """How many games each player won (a shared game counts for each of its winners); None when the evening plays
        no games to N points."""
        if not self.game_to:
            return None
        return FrozenDict({name: sum(name in game.winners for game in self.games) for name in self.players})


def _with_amounts(settlement: Settlement) -> list[dict[str, object]]:
    """The settlement's payments as plain values, each with its amount written out."""
    return [{**plain(p), "amount": plain_cents(p.cents, settlement.currency)} for p in settlement.payments]


@dataclass(frozen=True)
class Settlement(Plain):
    """What the chosen evenings come to in money, and the fewest payments that settle it."""

    evenings: Sequence[int]
    currency: str
    points: Mapping[str, int]
    cents: Mapping[str, int]
    payments: Sequence[Transfer] = field(metadata=shown(value=_with_amounts))
    rounding: Mapping[str, int] = FrozenDict()
    pairs: Sequence[Transfer] = ()

    def __post_init__(self) -> None:
        freeze(self, "evenings", "points", "cents", "payments", "rounding", "pairs")


@dataclass(frozen=True)
class Closed(Plain):
    """An evening just closed, as it now stands (its fields written as this value's), and its settlement."""

    evening: EveningInfo = field(metadata=shown(flat=True))
    settlement: Settlement


@dataclass(frozen=True)
class Tab(Plain):
    """What is still owed in one currency: balances after payments, per player and per pair."""

    currency: str
    balances: Mapping[str, int]
    pairs: Sequence[Transfer]
    suggested: Sequence[Transfer]

    def __post_init__(self) -> None:
        freeze(self, "balances", "pairs", "suggested")


@dataclass(frozen=True)
class PaymentInfo(Plain):
    """Money handed from one player to another, as recorded; a voided payment stays listed but no longer counts.

    `owed_cents` is what the payer owed in all (in the payment's currency) just before a payment recorded now,
    so a front end can warn of paying more than that; `duplicate` is true when a key had stored it before.
    """

    id: int
    payer: str
    payee: str
    cents: int = field(metadata=shown(after=("amount",)))
    currency: str
    evening: int | None
    note: str | None
    paid_at: datetime
    key: str | None = None
    voided_at: datetime | None = field(default=None, metadata=shown(before=("voided",)))
    void_reason: str | None = None
    owed_cents: int | None = None
    duplicate: bool = False

    @property
    def amount(self) -> str:
        """The amount written out with its currency: `12.50 EUR`."""
        return plain_cents(self.cents, self.currency)

    @property
    def voided(self) -> bool:
        """The payment no longer counts."""
        return self.voided_at is not None

    @property
    def overpaid_cents(self) -> int:
        """How much more than the payer owed this payment hands over (0 when not more, or not known)."""
        return max(0, self.cents - self.owed_cents) if self.owed_cents is not None else 0


@dataclass(frozen=True)
class ImportSummary(Plain):
    """What an import wrote: the new evenings and their deals, and what it skipped as already in the ledger.

    `skipped` are the ledger's evenings that already held one of the export's evenings.
    """

    evenings: tuple[int, ...] = ()
    deals: int = 0
    skipped: tuple[int, ...] = ()
    payments: int = 0
    payments_skipped: int = 0
    seasons: int = 0
    seasons_joined: tuple[str, ...] = ()
    """The export's seasons that joined the ledger's season of the same name (and the same minimum of deals)."""
    events: int = 0
    events_skipped: int = 0


@dataclass(frozen=True)
class StatTable:
    """One table of statistics as plain values: its rows (column name to value, None where there is none), which
    columns hold numbers, and its title and column headers as a person reads them (the names stay JSON's keys)."""

    name: str
    title: str
    columns: tuple[str, ...]
    numeric: frozenset[str]
    rows: tuple[Mapping[str, object], ...]
    headers: tuple[str, ...]

    def __post_init__(self) -> None:
        freeze(self, "rows")


@dataclass(frozen=True)
class Statistics(Plain):
    """Statistics over the deals that stand, for the `scope` the filters chose (`all deals`, `evening 3`, ...)."""

    scope: str
    deals: int
    tables: tuple[StatTable, ...]

    def table(self, name: str) -> StatTable:
        """The table of that name: summary, players, money, bids, contracts, called, seats, pairings, ratings..."""
        return next(table for table in self.tables if table.name == name)

    def to_dict(self, drawn: Drawn | None = None) -> dict[str, object]:
        """Plain JSON-ready values: the scope and every table's rows."""
        return {"filters": self.scope, **{table.name: plain(table.rows, drawn) for table in self.tables}}
