"""Reads are set-based: each read runs as many statements, with as many parameters, for an evening of 100 deals as
for one of 10; recording a deal runs a fixed handful of statements."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import copy_ledger
from sqlalchemy import Engine, event

from ledger import Ledger
from ledger.rules.build import DealInput
from ledger.store import deals as deal_store
from ledger.values import Terms

LINES = ("bruno solo 22", "carla chiamo 3D@anna 17 last=opp", "pass", "anna solissimo dividete 8")
READS: dict[str, Callable[[Ledger, int], Any]] = {
    "standings": lambda ledger, evening: ledger.standings(evening),
    "deals": lambda ledger, evening: ledger.deals(evening),
    "deal history": lambda ledger, evening: ledger.deal(1, evening).revisions,
    "evening": lambda ledger, evening: ledger.evening(evening),
    "settle": lambda ledger, evening: ledger.settle(evening=evening),
    "export json": lambda ledger, evening: ledger.export(evening=evening),
    "export csv": lambda ledger, evening: ledger.export(evening=evening, fmt="csv"),
}


@contextmanager
def counted(ledger: Ledger) -> Iterator[list[str]]:
    """Every statement the ledger's engine sends while the block runs, each with its number of parameters
    (`n SELECT ...`; executemany counts the parameters of one row)."""
    statements: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, parameters: Any, *_: object) -> None:
        one = parameters[0] if isinstance(parameters, list) and parameters else parameters
        statements.append(f"{len(one or ())} {statement}")

    event.listen(ledger.engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(ledger.engine, "before_cursor_execute", count)


def add_evening(ledger: Ledger, deals: int) -> int:
    """A new evening of `deals` deals, one of them amended and one voided; its number."""
    number = ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(stake="0.10")).number
    for index in range(deals):
        ledger.record(LINES[index % len(LINES)], evening=number)
    ledger.amend(1, DealInput(thirds=20), reason="recount", evening=number)
    ledger.void(2, reason="misdeal", evening=number)
    return number


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def evenings_of_10_and_100(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Ledger, int, int]]:
    """A ledger on each backend with an evening of 10 deals and one of 100, made once for the reads (which write
    nothing); the ledger and the two evenings' numbers."""
    if request.param == "sqlite":
        url = str(copy_ledger(request.getfixturevalue("sqlite_template"), tmp_path_factory.mktemp("reads")))
    else:
        url = request.getfixturevalue("new_pg_ledger")()
    with Ledger(url) as ledger:
        yield ledger, add_evening(ledger, 10), add_evening(ledger, 100)


@pytest.mark.parametrize("read", sorted(READS))
def test_a_read_runs_as_many_statements_for_100_deals_as_for_10(
    read: str, evenings_of_10_and_100: tuple[Ledger, int, int]
) -> None:
    ledger, small, large = evenings_of_10_and_100
    with counted(ledger) as few:
        READS[read](ledger, small)
    with counted(ledger) as many:
        READS[read](ledger, large)
    assert len(many) == len(few), many
    assert len(few) <= 12, few
    assert [s.split(" ", 1)[0] for s in many] == [s.split(" ", 1)[0] for s in few], many


LISTS: dict[str, Callable[[Ledger], Any]] = {
    "evenings": lambda ledger: ledger.evenings(),
    "players": lambda ledger: ledger.players(),
    "payments": lambda ledger: ledger.payments(),
    "tab": lambda ledger: ledger.tab(),
    "tab with pairs": lambda ledger: ledger.tab(pairs=True),
    "settle since": lambda ledger: ledger.settle(since=date(2000, 1, 1)),
}


@pytest.fixture(scope="module")
def ledgers_of_2_and_12_evenings(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path
) -> Iterator[tuple[Ledger, Ledger]]:
    """Two ledgers, of 2 and of 12 evenings of 3 deals and a payment each, made once for the lists (which write
    nothing)."""
    folder = tmp_path_factory.mktemp("lists")
    with ExitStack() as opened:
        ledgers = []
        for evenings in (2, 12):
            shutil.copyfile(sqlite_template, folder / f"{evenings}.sqlite3")
            ledger = opened.enter_context(Ledger(str(folder / f"{evenings}.sqlite3")))
            for _ in range(evenings):
                add_evening(ledger, 3)
                ledger.paid("Anna", "Bruno", "0.10")
            ledgers.append(ledger)
        yield ledgers[0], ledgers[1]


@pytest.mark.parametrize("read", sorted(LISTS))
def test_a_list_runs_as_many_statements_for_12_evenings_as_for_2(
    read: str, ledgers_of_2_and_12_evenings: tuple[Ledger, Ledger]
) -> None:
    counts = []
    for ledger in ledgers_of_2_and_12_evenings:
        with counted(ledger) as statements:
            LISTS[read](ledger)
        counts.append(len(statements))
    assert counts[0] == counts[1], f"{read}: {counts[0]} statements for 2 evenings, {counts[1]} for 12"


@pytest.mark.parametrize("deals", [0, 30])
def test_recording_a_deal_runs_nine_statements_at_most(deals: int, db_url: str) -> None:
    """Read the evening, number, write the deal, its revision and payouts, count the change and log it, read the
    totals: however long the evening."""
    with Ledger(db_url) as ledger:
        evening = ledger.start_evening(["Anna", "Bruno", "Carla"]).number
        for index in range(deals):
            ledger.record(LINES[index % len(LINES)], evening=evening)
        with counted(ledger) as statements:
            ledger.record("bruno solo 22", evening=evening)
        # on SQLite the write lock is polled for with the busy timeout off, then on again: settings, not the deal's work
        work = [statement for statement in statements if "PRAGMA busy_timeout" not in statement]
        assert len(work) <= 9, statements


def test_opening_a_ledger_checks_its_schema_with_one_query(sqlite_url: str) -> None:
    Ledger(sqlite_url).close()
    seen: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        seen.append(statement)

    event.listen(Engine, "before_cursor_execute", count)
    try:
        Ledger(sqlite_url).close()
    finally:
        event.remove(Engine, "before_cursor_execute", count)
    assert [s for s in seen if "alembic_version" in s or "sqlite_master" in s] == [
        "SELECT version_num FROM alembic_version"
    ]


def test_a_settlement_sums_evenings_a_batch_at_a_time_and_the_tab_all_at_once(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deal_store, "EVENINGS_AT_ONCE", 4)
    with Ledger(sqlite_url) as ledger:
        numbers = [add_evening(ledger, 3 + index % 3) for index in range(9)]
        each = {number: ledger.standings(number).points for number in numbers}
        with counted(ledger) as settling:
            settled = ledger.settle(since=date(2000, 1, 1), pairs=True)
        with counted(ledger) as summing:
            (tab,) = ledger.tab(pairs=True)
        assert sum("sum(payout.points)" in s for s in settling) == 3, settling
        assert sum("sum(abs(payout.points))" in s for s in settling) == 3, settling
        assert sum("sum(payout.points * evening.stake_cents)" in s for s in summing) == 1, summing
        assert sum("sum(abs(payout.points))" in s for s in summing) == 1, summing
        stake = 10
        money: dict[str, int] = {}
        for points in each.values():
            for name, value in points.items():
                money[name] = money.get(name, 0) + value * stake
        assert tab.balances == {name: cents for name, cents in money.items() if cents}
        assert settled.cents == money
        assert tab.pairs == settled.pairs and tab.pairs


def test_an_import_of_payments_does_not_work_out_the_tab_for_each(
    sqlite_url: str, tmp_path: Path, sqlite_template: Path
) -> None:
    shutil.copyfile(sqlite_template, tmp_path / "source.sqlite3")
    with Ledger(str(tmp_path / "source.sqlite3")) as source:
        for _ in range(3):
            add_evening(source, 4)
        for payer, payee in (("Anna", "Bruno"), ("Carla", "Anna"), ("Bruno", "Carla")):
            source.paid(payer, payee, "0.30")
        exported = source.export()
    with Ledger(sqlite_url) as ledger:
        with counted(ledger) as statements:
            summary = ledger.import_data([json.loads(line) for line in exported.split("\n") if line])
        assert summary.payments == 3
        assert not [s for s in statements if "sum(payout.points)" in s]
        assert [p.cents for p in ledger.payments()] == [30, 30, 30]
