"""An export written before the rules counted a played deal's cards one by one (`ledger.rules.heaps`) may hold deals
the rules refuse now: a count of tricks whose cards cannot hold the thirds written, or a monte's thirds beside them.
It is what a table wrote and agreed on, so it imports: each such deal keeps the payouts the export holds, checked
against the rules as they scored it then (every fact checked but the count of cards); the evening's standings and
settlement are those payouts', and it exports again byte for byte. A new deal with the same facts is refused, by
`record` and by the quick syntax; an amendment of an imported deal is checked as a new deal is, and taking it back
brings the deal back as it was imported.

Each deal's payouts below are what a ledger of before the count of cards (de513ac^) printed when it recorded it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from cli_support import calabresella
from conftest import copy_ledger

from ledger import Ledger
from ledger.errors import FactError
from ledger.rules.build import DealInput
from ledger.values import Terms

THREE = ("Anna", "Bruno", "Carla")
FOUR = ("Anna", "Bruno", "Carla", "Dario")


@dataclass(frozen=True)
class OldDeal:
    """A deal as an older ledger stored it: the game it was played at, its facts (`--` options of `record`), the
    payouts and sweep it was scored with, and a piece of what the rules say now against its facts."""

    name: str
    players: tuple[str, ...]
    profile: str
    options: tuple[str, ...]
    declarer: str
    thirds: int
    tricks: int
    last_trick: str | None
    monte_thirds: int | None
    payouts: dict[str, int]
    sweep: str | None
    refused: str

    @property
    def facts(self) -> dict[str, Any]:
        return {
            "thirds": self.thirds,
            "tricks": self.tricks,
            "last_trick": self.last_trick,
            "monte_thirds": self.monte_thirds,
        }

    @property
    def record_args(self) -> list[str]:
        args = ["--declarer", self.declarer, "--contract", "solo", "--thirds", str(self.thirds)]
        args += ["--tricks", str(self.tricks)]
        if self.last_trick:
            args += ["--last-trick", self.last_trick]
        if self.monte_thirds is not None:
            args += ["--monte-thirds", str(self.monte_thirds)]
        return args

    @property
    def quick_line(self) -> str:
        line = f"{self.declarer} solo {self.thirds}t tricks={self.tricks}"
        if self.last_trick:
            line += f" last={self.last_trick}"
        if self.monte_thirds is not None:
            line += f" monte={self.monte_thirds}t"
        return line


CASES = [
    OldDeal(
        "blank cards: 5 pointless tricks beside a pointless monte",
        THREE, "pagat", (), "Bruno", 0, 5, "opponents", 0,
        {"Anna": 6, "Bruno": -12, "Carla": 6}, "stramazzo", "at least 19 blank cards",
    ),
    OldDeal(
        "a gap: one trick of 3 cards holding 8 thirds",
        THREE, "pagat", (), "Anna", 8, 1, "opponents", None,
        {"Anna": -4, "Bruno": 2, "Carla": 2}, None, "3 cards hold at most 9, and never 8",
    ),
    OldDeal(
        "the monte's thirds beside one trick, the last trick not given",
        THREE, "pagat", (), "Carla", 6, 1, None, 9,
        {"Anna": 2, "Bruno": 2, "Carla": -4}, None, "with 9 thirds in the monte",
    ),
    OldDeal(
        "3 thirds in 6 tricks, the last to the opponents",
        THREE, "pagat", (), "Bruno", 3, 6, "opponents", 0,
        {"Anna": 2, "Bruno": -4, "Carla": 2}, None, "at least 19 blank cards",
    ),
    OldDeal(
        "every third in 7 tricks: more aces than the deck's",
        THREE, "pagat", (), "Anna", 35, 7, "declarer", 0,
        {"Anna": 12, "Bruno": -6, "Carla": -6}, "stramazzo", "the deck has 4",
    ),
    OldDeal(
        "the tricks' stramazzo beside a monte of 6 thirds",
        THREE, "pagat", ("stramazzo_counts=tricks",), "Bruno", 10, 6, "declarer", 6,
        {"Anna": 6, "Bruno": -12, "Carla": 6}, "stramazzo", "at least 17 blank cards",
    ),
    OldDeal(
        "a gap at four without a monte: one trick of 4 cards holding 11 thirds",
        FOUR, "quartiglio", ("monte=off",), "Anna", 11, 1, "opponents", None,
        {"Anna": -3, "Bruno": 1, "Carla": 1, "Dario": 1}, None, "4 cards hold at most 12, and never 11",
    ),
]  # fmt: skip


def options(case: OldDeal) -> dict[str, str]:
    return dict(option.split("=") for option in case.options)


def edited(export: str, change: Callable[[dict[str, Any]], None]) -> str:
    """The export with each evening's line changed by `change`, written as the ledger writes a line."""
    lines = []
    for line in export.splitlines(keepends=True):
        item = json.loads(line)
        if "evening" in item:
            change(item["evening"])
            line = json.dumps(item, ensure_ascii=False) + "\n"
        lines.append(line)
    return "".join(lines)


def old_export(ledger: Ledger, case: OldDeal, *, passed_first: bool = False) -> str:
    """An export of an evening holding the case's deal as an older ledger stored it (after a passed deal, with
    `passed_first`): the deal recorded with facts the rules accept now, then its facts and payouts written over as
    the older ledger wrote them."""
    ledger.start_evening(
        list(case.players), Terms(profile=case.profile, options=options(case), stake="0.10"), dealer=case.players[-1]
    )
    if passed_first:
        ledger.record(DealInput(passed=True))
    ledger.record(DealInput(declarer=case.declarer, contract="solo", thirds=20, last_trick="declarer"))
    ledger.close_evening()

    def as_then(evening: dict[str, Any]) -> None:
        revision = evening["deals"][-1]["revisions"][0]
        revision["facts"].update(case.facts, passed_before=1 if passed_first else 0)
        revision["payouts"] = case.payouts

    return edited(ledger.export(), as_then)


@pytest.fixture
def new_ledger(tmp_path: Path, sqlite_template: Path) -> Callable[[str], str]:
    """A fresh SQLite ledger's path, named `name` in the test's folder."""
    return lambda name: str(copy_ledger(sqlite_template, tmp_path, name))


def imported(case: OldDeal, new_ledger: Callable[[str], str], tmp_path: Path, **built: bool) -> tuple[str, str]:
    """The case's old export, written to a file, and a fresh ledger it was imported into."""
    with Ledger(new_ledger("old.sqlite3")) as old:
        export = old_export(old, case, **built)
    path = tmp_path / "old.jsonl"
    path.write_text(export, encoding="utf-8")
    db = new_ledger("imported.sqlite3")
    with Ledger(db) as ledger:
        ledger.import_file(path)
    return export, db


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_an_old_deal_the_cards_refuse_imports_as_it_was_scored(
    case: OldDeal, new_ledger: Callable[[str], str], tmp_path: Path
) -> None:
    export, db = imported(case, new_ledger, tmp_path)
    with Ledger(db) as ledger:
        _, deals = ledger.deals(1)
        (deal,) = deals
        assert (deal.declarer_thirds, deal.tricks, deal.last_trick, deal.monte_thirds) == (
            case.thirds,
            case.tricks,
            case.last_trick,
            case.monte_thirds,
        )
        assert dict(deal.payouts) == case.payouts
        assert deal.sweep == case.sweep
        standings = ledger.standings(1)
        assert dict(standings.points) == case.payouts
        assert dict(standings.cents) == {name: points * 10 for name, points in case.payouts.items()}
        _, settlement = ledger.settlement(1)
        paid = {name: 0 for name in case.players}
        for transfer in settlement.payments:
            paid[transfer.payer] -= transfer.cents
            paid[transfer.payee] += transfer.cents
        assert paid == {name: points * 10 for name, points in case.payouts.items()}
        assert ledger.export() == export


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
@pytest.mark.parametrize("quick", [False, True], ids=["options", "quick line"])
def test_a_new_deal_with_those_facts_is_refused_in_one_line(
    case: OldDeal, quick: bool, new_ledger: Callable[[str], str]
) -> None:
    db = new_ledger("ledger.sqlite3")
    start = ["--db", db, "evening", "start", "--players", ",".join(case.players), "--profile", case.profile]
    for option in case.options:
        start += ["--option", option]
    assert calabresella(*start).returncode == 0
    args = [case.quick_line] if quick else case.record_args
    ran = calabresella("--db", db, "record", *args)
    assert ran.returncode == 2, ran
    assert ran.stdout == ""
    assert len(ran.stderr.strip().splitlines()) == 1, ran.stderr
    assert case.refused in ran.stderr
    with Ledger(db) as ledger:
        assert ledger.deals()[1] == []


FIXED = [(CASES[0], 4, "stramazzo"), (CASES[1], 2, None), (CASES[2], 2, None)]
"""Old deals, each with a count of tricks 40 cards allow beside its other facts, and the sweep that deal has."""


@pytest.mark.parametrize(("case", "tricks", "sweep"), FIXED, ids=[case.name for case, _, _ in FIXED])
def test_an_amendment_of_an_old_deal_is_checked_as_a_new_deal_and_taken_back_to_it(
    case: OldDeal, tricks: int, sweep: str | None, new_ledger: Callable[[str], str], tmp_path: Path
) -> None:
    _, db = imported(case, new_ledger, tmp_path)
    with Ledger(db) as ledger:
        ledger.reopen_evening(1, reason="a deal to correct")
        with pytest.raises(FactError, match=case.refused):  # the facts it keeps are counted card by card
            ledger.amend(1, DealInput(contract="solo"), reason="the same facts again", evening=1)
        with pytest.raises(FactError, match=case.refused):
            ledger.amend(1, DealInput(tricks=case.tricks), reason="the same tricks", evening=1)
        assert ledger.deal(1, 1).revisions[-1].revision == 1
        fixed = ledger.amend(1, DealInput(tricks=tricks), reason="recounted", evening=1)
        assert (fixed.deal.revision, fixed.deal.tricks, fixed.deal.sweep) == (2, tricks, sweep)
        undone = ledger.undo(evening=1)
        assert undone.recorded is not None
        back = undone.recorded.deal
        assert (back.revision, back.tricks, back.last_trick, back.monte_thirds) == (
            3,
            case.tricks,
            case.last_trick,
            case.monte_thirds,
        )
        assert dict(back.payouts) == case.payouts


def test_a_pot_changed_before_an_old_deal_rescores_it_as_it_was_scored(
    new_ledger: Callable[[str], str], tmp_path: Path
) -> None:
    case = CASES[0]
    pot = {name: points * 2 for name, points in case.payouts.items()}  # the pot of one passed deal doubles it
    carried = replace(case, options=("pot_carryover=on",), payouts=pot)
    _, db = imported(carried, new_ledger, tmp_path, passed_first=True)
    with Ledger(db) as ledger:
        ledger.reopen_evening(1, reason="deal 1 was not passed")
        voided = ledger.void(1, reason="never dealt", evening=1)
        assert voided.rescored == (2,)
        _, deals = ledger.deals(1)
        assert dict(deals[-1].payouts) == case.payouts
        assert deals[-1].revision == 2


def test_an_export_of_the_first_version_holding_such_a_deal_typed_imports(
    new_ledger: Callable[[str], str], tmp_path: Path
) -> None:
    """The first version of the export kept each deal as typed, which is read again as the facts it stood for."""
    case = CASES[0]
    document = json.loads((Path(__file__).parent / "data" / "three_friends_v1.json").read_text(encoding="utf-8"))
    revision = document["evenings"][0]["deals"][0]["revisions"][0]
    assert revision["typed"]["auction"] == "Anna:pass,Bruno:solo,Carla:pass"
    revision["typed"].update({**case.facts, "last_trick": "opponents"})
    revision["payouts"] = case.payouts
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with Ledger(new_ledger("ledger.sqlite3")) as ledger:
        ledger.import_file(path)
        first = ledger.deals(1)[1][0]
        assert (first.tricks, first.sweep, dict(first.payouts)) == (case.tricks, case.sweep, case.payouts)
