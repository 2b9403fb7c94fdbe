"""Every statistic against the same figures worked out the long way (`stats_reference`: plain Python over the
evenings and deals the `Ledger` API returns, one deal at a time), over random small ledgers built through that API.

A ledger here has a few evenings of every profile (four seated at a three-player game too), different stakes and
currencies and players shared between evenings; deals are recorded as typed facts or quick lines, then amended,
voided, undone; players are renamed and evenings closed. A step the ledger refuses writes nothing and is skipped.
Each ledger is then read under a few filters (evening, player, dates, profile) and every table compared: same
columns, same rows in the same order, integers exactly and fractions to 1e-9.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import stats_reference
from conftest import copy_ledger
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from ledger.errors import LedgerError
from ledger.reports.filters import Filters
from ledger.reports.frames import load_frames
from ledger.reports.stats import statistics
from ledger.rules.build import DealInput
from ledger.rules.profiles import make_profile
from ledger.service import Ledger
from ledger.store.models import Evening
from ledger.values import Terms, Undone

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Niccolò", "monte")
"""Players to seat: one with an accent, one named like the place a called card can lie."""
NEW_NAMES = ("Zoe", "Ugo", "ANNA", "unknown", "Bice")
"""Names to rename players to: one the same as a player's but for case, one like an unrecorded holder."""
FIRST_DAY = date(2024, 3, 1)

SWITCH = st.booleans()
TABLES: dict[tuple[str, int], dict[str, st.SearchStrategy[object]]] = {
    ("pagat", 3): {
        "pot_carryover": SWITCH,
        "game_to": st.sampled_from([3, 8]),
        "cappotto_multiplier": st.sampled_from([2, 100]),
        "stramazzo_multiplier": st.sampled_from([3, 100]),
    },
    ("pagat", 4): {"dealer_shares": SWITCH, "stramazzo_multiplier": st.sampled_from([3, 100])},
    ("tretre", 3): {
        "pot_carryover": st.just(True),
        "contract_multipliers": SWITCH,
        "sweeps": SWITCH,
        "game_to": st.sampled_from([2, 5]),
    },
    ("tretre", 4): {"contract_multipliers": SWITCH},
    ("cavendish", 3): {},
    ("quartiglio", 4): {"monte": SWITCH, "sweeps": SWITCH, "contract_multipliers": SWITCH},
    ("quintiglio", 5): {"mediatore": SWITCH, "contract_multipliers": SWITCH, "game_to": st.just(3)},
}
"""Each profile with a table size it is played at, and the options a table may set (a multiplier of 100 takes
points beyond a thousand)."""
CONTRACTS = {
    "pagat": ("chiamo", "solo", "solissimo"),
    "tretre": ("chiamo", "solo", "solissimo"),
    "cavendish": ("chiamo",),
    "quartiglio": ("chiamo", "mediatore", "solo", "solissimo"),
    "quintiglio": ("chiamo", "mediatore", "solo"),
}
TRICKS = {35: (12, 11), 0: (0, 2)}
"""The declarer side's tricks, asked at 35 and 0 thirds: all or not quite all (a cappotto or a stramazzo)."""
THREES = ("3D", "3C", "3S", "3B")
CARDS = {"quartiglio": THREES, "quintiglio": THREES}
"""The cards a declarer may call (only a three in these profiles); elsewhere also a rank alone, an ace or none."""


@dataclass(frozen=True)
class Table:
    """An evening to start: the profile, options, who sits (in turn order), the stake and when it began."""

    profile: str
    options: dict[str, object]
    names: tuple[str, ...]
    stake: str
    currency: str
    day: int
    hour: int


@dataclass(frozen=True)
class Play:
    """A deal as drawn; the declarer and holder are seat numbers, taken modulo who can hold the part."""

    passed: bool = False
    declarer: int = 0
    contract: str = "solo"
    aggravation: str | None = None
    called: str | None = None
    holder: int | str | None = None
    thirds: int = 18
    tricks: int | None = None
    last_trick: str | None = None
    quick: bool = False


@dataclass(frozen=True)
class Step:
    """One thing a scorekeeper does at table `table`: record, amend, void, undo or rename."""

    kind: str
    table: int
    play: Play | None = None
    which: int = 0
    """The deal (modulo the deals recorded) to amend or void, or the player to rename."""
    name: str = ""
    """A rename's new name."""


@dataclass(frozen=True)
class Choice:
    """Filters as drawn: the evening and player by place, days counted from FIRST_DAY."""

    evening: int | None
    player: int | None
    shout: bool
    """The player's name in capitals (a name is found whatever its case)."""
    since: int | None
    until: int | None
    profile: str | None


@dataclass(frozen=True)
class Plan:
    """A ledger to build and the filters to read it under (no filter first)."""

    tables: list[Table]
    steps: list[Step]
    closed: set[int]
    """The tables closed after the steps."""
    choices: list[Choice]


@st.composite
def plays(draw: st.DrawFn, profile: str) -> Play:
    """A deal of the profile, mostly one the rules accept (the facts a sweep needs given when it needs them)."""
    quick = draw(st.booleans())
    if draw(st.integers(0, 5)) == 0:
        return Play(passed=True, quick=quick)
    contract = draw(st.sampled_from(CONTRACTS[profile]))
    calls = contract in ("chiamo", "mediatore")
    thirds = draw(st.one_of(st.integers(0, 35), st.sampled_from([0, 1, 3, 5, 17, 18, 30, 32, 33, 35])))
    if thirds < 3:
        last_trick = "opponents"
    elif thirds > 32:
        last_trick = "declarer"
    else:
        last_trick = draw(st.sampled_from(["declarer", "opponents"]))
    return Play(
        declarer=draw(st.integers(0, 4)),
        contract=contract,
        aggravation=draw(st.sampled_from([None, "dividete", "scegliete"])) if contract == "solissimo" else None,
        called=draw(st.sampled_from(CARDS.get(profile, (*THREES, "3", "AS", None)))) if calls else None,
        holder=draw(st.sampled_from([0, 1, 2, 3, 4, "monte", None])) if calls else None,
        thirds=thirds,
        tricks=draw(st.sampled_from(TRICKS[thirds])) if thirds in TRICKS else None,
        last_trick=last_trick,
        quick=quick,
    )


@st.composite
def tables(draw: st.DrawFn) -> Table:
    profile, size = draw(st.sampled_from(list(TABLES)))
    return Table(
        profile=profile,
        options=draw(st.fixed_dictionaries({}, optional=TABLES[profile, size])),
        names=tuple(draw(st.permutations(NAMES))[:size]),
        stake=draw(st.sampled_from(["0", "0.10", "0.25", "1", "2.50"])),
        currency=draw(st.sampled_from(["EUR", "CHF", "USD"])),
        day=0,
        hour=draw(st.integers(0, 23)),
    )


KINDS = ("record",) * 8 + ("amend", "amend", "void", "undo", "rename")


@st.composite
def plans(draw: st.DrawFn, most_steps: int = 24) -> Plan:
    """A few evenings, each later than or on the day of the one before, the steps taken and filters to read with."""
    drawn = draw(st.lists(tables(), min_size=1, max_size=4))
    days = sorted(draw(st.lists(st.integers(0, 40), min_size=len(drawn), max_size=len(drawn))))
    seated = [replace(t, day=day) for t, day in zip(drawn, days, strict=True)]
    steps = []
    for _ in range(draw(st.integers(0, most_steps))):
        kind, at = draw(st.sampled_from(KINDS)), draw(st.integers(0, len(seated) - 1))
        play = draw(plays(seated[at].profile)) if kind in ("record", "amend") else None
        steps.append(Step(kind, at, play, draw(st.integers(0, 20)), draw(st.sampled_from(NEW_NAMES))))
    day = st.one_of(st.none(), st.integers(-1, 42))
    choices = draw(
        st.lists(
            st.builds(
                Choice,
                evening=st.one_of(st.none(), st.integers(0, len(seated) - 1)),
                player=st.one_of(st.none(), st.integers(0, 20)),
                shout=st.booleans(),
                since=day,
                until=day,
                profile=st.one_of(st.none(), st.sampled_from(list(CONTRACTS))),
            ),
            min_size=1,
            max_size=2,
        )
    )
    closed = draw(st.sets(st.integers(0, len(seated) - 1)))
    return Plan(seated, steps, closed, [Choice(None, None, False, None, None, None), *choices])


EVERY_KIND = Plan(
    tables=[
        Table("pagat", {"stramazzo_multiplier": 100}, ("Anna", "Bruno", "monte"), "0.10", "EUR", day=0, hour=23),
        Table("pagat", {}, ("Anna", "Bruno", "Carla", "Dario"), "0.25", "CHF", day=3, hour=12),
        Table("quintiglio", {"mediatore": True}, ("Anna", "Carla", "Elena", "Fabio", "Niccolò"), "1", "EUR", 10, 20),
        Table("tretre", {}, ("Bruno", "Carla", "Dario"), "0.50", "EUR", day=10, hour=21),
    ],
    steps=[
        Step("record", 0, Play(contract="solissimo", aggravation="scegliete", thirds=33, last_trick="declarer")),
        Step("record", 0, Play(declarer=1, contract="chiamo", called="3D", holder=2, thirds=20, quick=True)),
        Step("record", 0, Play(passed=True)),
        Step("record", 1, Play(declarer=2, contract="solo", thirds=22, quick=True)),
        Step("record", 1, Play(contract="chiamo", called="3S", holder="monte", thirds=10, last_trick="opponents")),
        Step("record", 2, Play(declarer=1, contract="chiamo", called="3C", holder=3, thirds=25)),
        Step("record", 2, Play(declarer=4, contract="mediatore", called="3D", holder=1, thirds=12)),
        Step("record", 3, Play(passed=True)),
        Step("record", 3, Play(declarer=2, contract="solo", thirds=20)),
        Step("record", 3, Play(declarer=1, contract="solissimo", aggravation="dividete", thirds=19)),
        Step("amend", 0, Play(declarer=1, contract="solo", thirds=5, last_trick="declarer"), which=1),
        Step("void", 1, which=0),
        Step("rename", 0, which=3, name="unknown"),
        Step("undo", 3),
    ],
    closed={0},
    choices=[
        Choice(None, None, False, None, None, None),
        Choice(None, player=7, shout=True, since=1, until=12, profile=None),
        Choice(evening=2, player=None, shout=False, since=None, until=None, profile="quintiglio"),
    ],
)
"""By hand, a ledger with what random ones reach only now and then: payouts beyond 1,023 points (solissimo
scegliete with a stramazzo at 100 times, then a stramazzo against after an amendment), a partner, a mediatore,
a dealer sitting out, a pot carried over, a player named like the monte and one renamed like an unknown holder."""
OTHER_PROFILES = Plan(
    tables=[
        Table("cavendish", {}, ("Carla", "Dario", "Elena"), "0.25", "USD", day=2, hour=9),
        Table(
            "quartiglio",
            {"monte": True, "sweeps": True, "contract_multipliers": True},
            ("Anna", "Bruno", "Fabio", "Niccolò"),
            "1",
            "EUR",
            day=5,
            hour=18,
        ),
        Table("tretre", {"contract_multipliers": True}, ("Anna", "Bruno", "Carla", "Dario"), "0.10", "CHF", 5, 22),
    ],
    steps=[
        Step("record", 0, Play(contract="chiamo", called="AS", holder="monte", thirds=12, last_trick="opponents")),
        Step("record", 0, Play(declarer=1, contract="chiamo", called="3", holder=0, thirds=20, quick=True)),
        Step("record", 0, Play(passed=True, quick=True)),
        Step("record", 1, Play(declarer=2, contract="chiamo", called="3C", holder=3, thirds=35, tricks=9)),
        Step(
            "record",
            1,
            Play(declarer=1, contract="mediatore", called="3S", holder="monte", thirds=0, tricks=0, quick=True),
        ),
        Step("record", 1, Play(contract="solissimo", aggravation="dividete", thirds=22)),
        Step("record", 1, Play(declarer=3, contract="solo", thirds=17, last_trick="opponents")),
        Step("record", 1, Play(declarer=1, contract="solissimo", thirds=26, last_trick="declarer")),
        Step("record", 2, Play(declarer=1, contract="solo", thirds=25, quick=True)),
        Step("record", 2, Play(passed=True)),
        Step("record", 2, Play(contract="solissimo", aggravation="scegliete", thirds=18)),
        Step("amend", 1, Play(declarer=2, contract="solo", thirds=30, last_trick="declarer"), which=2),
        Step("void", 2, which=0),
        Step("undo", 0),
        Step("rename", 1, which=4, name="Bice"),
    ],
    closed={1, 2},
    choices=[
        Choice(None, None, False, None, None, None),
        Choice(evening=1, player=None, shout=False, since=None, until=None, profile=None),
        Choice(None, player=1, shout=True, since=3, until=6, profile="tretre"),
    ],
)
"""By hand, the profiles EVERY_KIND leaves out, so that every profile is read on every run: Cavendish calling an
ace in the monte and a rank alone, quartiglio with the monte, sweeps and multiplied contracts (a partner's cappotto,
a mediatore swept, a solissimo without an aggravation), tretre at four with multiplied contracts and the pot; a
void, an undo, a rename, two evenings closed."""


@dataclass
class Sitting:
    """An evening as the steps left it: its number, who sits where (renames followed) and who deals."""

    number: int
    profile: str
    names: list[str]
    dealer: int
    dealers: dict[int, int] = field(default_factory=dict)
    """Who dealt each deal recorded, by seat."""


def _entry(play: Play, evening: Sitting, dealer: int) -> DealInput | str:
    """The play as typed facts or as a quick line, its seats given to players who can hold them."""
    if play.passed:
        return "pass" if play.quick else DealInput(passed=True)
    seated = evening.names
    sits_out = len(seated) > make_profile(evening.profile).active_players
    playing = [name for at, name in enumerate(seated) if not (sits_out and at == dealer)]
    declarer = playing[play.declarer % len(playing)]
    holder = play.holder if not isinstance(play.holder, int) else seated[play.holder % len(seated)]
    if not play.quick:
        return DealInput(
            declarer=declarer,
            contract=play.contract,
            aggravation=play.aggravation,
            called=play.called,
            holder=holder,
            thirds=play.thirds,
            tricks=play.tricks,
            last_trick=play.last_trick,
        )
    words = [declarer, play.contract, play.aggravation or ""]
    if play.called or holder:
        words.append(f"{play.called or ''}{'@' + holder if holder else ''}")
    words += [f"{play.thirds}t", f"last={play.last_trick[:4]}" if play.last_trick else ""]
    words.append(f"tricks={play.tricks}" if play.tricks is not None else "")
    return " ".join(word for word in words if word)


def _take(book: Ledger, evenings: list[Sitting], step: Step) -> None:
    """Take one step on the ledger, keeping track of seats and dealers (raises what the ledger refuses)."""
    evening = evenings[step.table]
    numbers = sorted(evening.dealers)
    if step.kind == "rename":
        everyone = sorted({name for e in evenings for name in e.names})
        before, after = book.rename_player(everyone[step.which % len(everyone)], step.name)
        for e in evenings:
            e.names = [after if name == before else name for name in e.names]
        return
    if step.kind == "record":
        assert step.play is not None
        dealer = evening.dealer
        done = book.record(_entry(step.play, evening, dealer), evening=evening.number)
        evening.dealers[done.deal.number] = dealer
    elif step.kind == "undo":
        done = book.undo(evening=evening.number)
    elif not numbers:
        return
    elif step.kind == "amend":
        assert step.play is not None
        number = numbers[step.which % len(numbers)]
        changes = _entry(step.play, evening, evening.dealers[number])
        done = book.amend(number, changes, reason="recount", evening=evening.number)
    else:
        done = book.void(numbers[step.which % len(numbers)], reason="misdeal", evening=evening.number)
    recorded = done.recorded if isinstance(done, Undone) else done
    evening.dealer = evening.names.index(recorded.next_dealer if recorded else book.evening(evening.number).next_dealer)


def build(book: Ledger, plan: Plan) -> list[int]:
    """Keep the plan's score in the ledger; the evenings' numbers.

    The ledger dates an evening when it starts, so every evening here would start today: they are dated apart
    afterwards, so that the date filters have something to choose."""
    evenings = []
    for table in plan.tables:
        info = book.start_evening(
            table.names, Terms(profile=table.profile, options=table.options, stake=table.stake, currency=table.currency)
        )
        evenings.append(Sitting(info.number, table.profile, list(info.players), info.players.index(info.next_dealer)))
    for step in plan.steps:
        with suppress(LedgerError):  # a step the ledger refuses writes nothing
            _take(book, evenings, step)
    for at in plan.closed:
        book.close_evening(evenings[at].number)
    with book.engine.begin() as connection:
        for table, evening in zip(plan.tables, evenings, strict=True):
            began = datetime.combine(FIRST_DAY + timedelta(days=table.day), datetime.min.time(), UTC)
            connection.execute(
                update(Evening)
                .where(Evening.id == evening.number)  # type: ignore[arg-type]
                .values(started_at=began + timedelta(hours=table.hour))
            )
    return [evening.number for evening in evenings]


def _filters(choice: Choice, numbers: list[int], players: list[str]) -> Filters:
    """The filters the choice stands for in this ledger (dates forwards in time)."""
    player = players[choice.player % len(players)] if choice.player is not None else None
    since, until = choice.since, choice.until
    if since is not None and until is not None and since > until:
        since, until = until, since
    return Filters(
        evening=numbers[choice.evening] if choice.evening is not None else None,
        player=player.upper() if player and choice.shout else player,
        since=FIRST_DAY + timedelta(days=since) if since is not None else None,
        until=FIRST_DAY + timedelta(days=until) if until is not None else None,
        profile=choice.profile,
    )


def difference(table: pd.DataFrame, reference: list[stats_reference.Row]) -> str | None:
    """Where a table differs from the reference's rows in columns, rows or order (integers exactly, fractions to
    1e-9, a missing value as None or NaN), or None."""
    if len(table) != len(reference):
        return f"{len(table)} rows, the reference {len(reference)}"
    if reference and list(table.columns) != list(reference[0]):
        return f"columns {list(table.columns)}, the reference {list(reference[0])}"
    for at, (row, expected) in enumerate(zip(table.to_dict("records"), reference, strict=True)):
        for column, value in expected.items():
            found = row[column]
            if value is None or (isinstance(value, float) and np.isnan(value)):
                same = found is None or (isinstance(found, float) and np.isnan(found))
            elif isinstance(value, float):
                same = isinstance(found, float) and bool(np.isclose(found, value, rtol=1e-9, atol=1e-9))
            else:
                same = found == value and isinstance(found, str) == isinstance(value, str)
            if not same:
                return f"row {at}, column {column}: {found!r}, the reference {value!r}"
    return None


def check(url: str, plan: Plan) -> None:
    """Build the plan's ledger at `url` and hold every section, under each of its filters, to the reference."""
    with Ledger(url) as book:
        numbers = build(book, plan)
        players = sorted(p.name for p in book.players())
        for choice in plan.choices:
            filters = _filters(choice, numbers, players)
            tables = statistics(load_frames(book.engine, filters))
            reference = stats_reference.statistics(book, filters)
            assert list(tables) == list(reference)
            for section, rows in reference.items():
                found = difference(tables[section], rows)
                assert found is None, f"{section} with {filters}: {found}\n{tables[section]}\nreference:\n{rows}"


@settings(max_examples=4, deadline=None)
@given(plan=plans())
@example(plan=EVERY_KIND)
@example(plan=OTHER_PROFILES)
def test_every_statistic_agrees_deal_by_deal_on_sqlite(plan: Plan, sqlite_template: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        check(str(copy_ledger(sqlite_template, Path(folder))), plan)


@pytest.mark.postgres
@settings(max_examples=1, deadline=None)
@given(plan=plans(most_steps=16))
@example(plan=EVERY_KIND)
@example(plan=OTHER_PROFILES)
def test_every_statistic_agrees_deal_by_deal_on_postgresql(plan: Plan, new_pg_ledger: Callable[[], str]) -> None:
    check(new_pg_ledger(), plan)


def test_the_reference_counts_the_hand_built_ledger_as_by_hand(sqlite_url: str) -> None:
    """The reference itself against figures worked out by hand from the deals of EVERY_KIND (its dealers in turn:
    the last seated deals first; a void, an undo and an amendment leave eight deals standing)."""
    with Ledger(sqlite_url) as book:
        build(book, EVERY_KIND)
        tables = {name: pd.DataFrame(rows) for name, rows in stats_reference.statistics(book, Filters()).items()}
    assert tables["summary"].iloc[0].tolist() == [4, 8, 8, 6, 2, 0.25]
    anna = tables["players"].set_index("player").loc["Anna"]
    # +3200 (solissimo scegliete, stramazzo x100), +200, 0 passed, 0 sitting out, -1, +1
    assert anna[["evenings", "deals", "declarer", "opponent", "points", "stramazzo_for"]].tolist() == [
        3,
        6,
        1,
        3,
        3400,
        2,
    ]
    assert anna[["biggest_win", "biggest_loss", "winning_streak", "losing_streak"]].tolist() == [3200, -1, 2, 1]
    assert tables["players"].set_index("player").loc["Bruno", "avg_declarer_thirds"] == (5 + 10) / 2
    money = tables["money"].set_index(["player", "currency"])
    assert money.loc[("Anna", "EUR"), "money_cents"] == 3200 * 10 + 200 * 10 - 100 + 100
    contracts = tables["contracts"]
    assert contracts["contract"].tolist() == ["chiamo", "mediatore", "solo", "solissimo"]
    assert contracts.set_index("contract").loc["solo", "avg_declarer_points"] == (-400 + 4) / 2
    assert tables["called"].to_dict("records") == [
        {"card": "3C", "calls": 1, "Carla": 0, "Fabio": 1, "monte": 0},
        {"card": "3D", "calls": 1, "Carla": 1, "Fabio": 0, "monte": 0},
        {"card": "3S", "calls": 1, "Carla": 0, "Fabio": 0, "monte": 1},
    ]
    seats = tables["seats"].set_index(["table_size", "seat"])
    assert seats.loc[(3, 1), ["deals", "declarer", "won"]].tolist() == [5, 2, 1]
    assert seats.loc[(5, 4), ["deals", "declarer", "won"]].tolist() == [2, 1, 0]
    pairs = tables["pairings"].set_index(["player_a", "player_b"])
    assert pairs.loc[("Bruno", "monte"), ["deals", "points_a", "points_b", "declarer_won"]].tolist() == [
        1,
        -1600,
        -1600,
        1,
    ]
    assert pairs.index.tolist()[:4] == [("Anna", "Carla"), ("Anna", "Elena"), ("Anna", "Fabio"), ("Anna", "monte")]
    # game 1: Anna wins at even odds, the defence of Bruno and monte goes to 1494 each; game 2: Bruno (1500)
    # against Anna 1500 and monte 1494, E = 1 / (1 + 10 ** (-3 / 400)), lost: monte gains 12 E, and defends no more
    second = 1 / (1 + 10 ** (-3 / 400))
    assert tables["ratings"].set_index("player").loc["monte", "defence_rating"] == pytest.approx(1494 + 12 * second)
