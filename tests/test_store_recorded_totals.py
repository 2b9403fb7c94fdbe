"""The totals a recorded deal returns are the evening's totals: another ledger writing or renaming in between, a
refused write, or a 5-player evening where a seat sits out never leave them wrong."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import Ledger
from ledger.errors import LedgerError
from ledger.rules.build import DealInput
from ledger.values import Terms, Undone

RENAMES = itertools.count(1)
"""New names stay new across examples, which share the ledger file."""
STEPS = ("record", "record", "record", "amend", "void", "undo", "rename", "refused", "pass")


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[Ledger, Ledger]]:
    """Two ledgers on one SQLite file, as two scorekeepers (or `play` and the served page) would hold it."""
    first = Ledger(str(tmp_path / "ledger.sqlite3"))
    second = Ledger(str(tmp_path / "ledger.sqlite3"))
    yield first, second
    first.close()
    second.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(STEPS), st.booleans(), st.integers(2, 9)), min_size=1, max_size=10))
def test_recorded_totals_are_the_evenings_totals(
    steps: list[tuple[str, bool, int]], two: tuple[Ledger, Ledger]
) -> None:
    ledgers = two
    number = ledgers[0].start_evening(["Anna", "Bruno", "Carla"]).number
    names = ["Anna", "Bruno", "Carla"]
    for index, (step, other, points) in enumerate(steps):
        ledger = ledgers[other]
        declarer = names[index % 3]
        deals = len(ledger.deals(number)[1])
        if step == "record":
            done = ledger.record(f"{declarer} solo {points}", evening=number)
        elif step == "pass":
            done = ledger.record("pass", evening=number)
        elif step in ("amend", "void", "undo") and deals:
            target = 1 + points % deals
            try:
                done = (
                    ledger.amend(target, DealInput(thirds=3 * (11 - points)), reason="recount", evening=number)
                    if step == "amend"
                    else ledger.void(target, reason="misdeal", evening=number)
                    if step == "void"
                    else ledger.undo(evening=number)
                )
            except LedgerError:
                continue
            if isinstance(done, Undone):  # an undo says what it took back, and the deal as it stands now
                assert done.recorded is not None
                done = done.recorded
        elif step == "rename":
            old = names[index % 3]
            names[index % 3] = f"{old.rstrip('0123456789')}{next(RENAMES)}"
            ledger.rename_player(old, names[index % 3])
            continue
        else:
            with pytest.raises(LedgerError):
                ledger.record(f"{declarer} solo 36", evening=number)
            continue
        assert done.totals == ledgers[not other].standings(number).points
        # the other ledger, whose last write (if any) is now behind, still records the right totals
        follow = ledgers[not other].record(f"{names[(index + 1) % 3]} solo {11 - points}", evening=number)
        assert follow.totals == ledger.standings(number).points


def test_a_seat_that_sits_out_keeps_its_total(tmp_path: Path) -> None:
    with Ledger(str(tmp_path / "ledger.sqlite3")) as ledger:
        number = ledger.start_evening(["Anna", "Bruno", "Carla", "Dario", "Elena"], Terms(profile="quintiglio")).number
        for line in ("anna chiamo 3D@bruno 22", "bruno chiamo 3D@carla 10", "pass", "carla chiamo 3D@dario 30"):
            done = ledger.record(line, evening=number)
            assert done.totals == ledger.standings(number).points
            assert len(done.totals) == 5


def test_a_rename_by_another_ledger_is_followed_by_the_next_deal(two: tuple[Ledger, Ledger]) -> None:
    first, second = two
    number = first.start_evening(["Anna", "Bruno", "Carla"]).number
    first.record("bruno solo 8", evening=number)
    second.rename_player("Bruno", "Roberto")
    done = first.record("anna solo 3", evening=number)
    assert list(done.totals) == ["Anna", "Roberto", "Carla"]
    assert done.totals == first.standings(number).points


def test_no_caller_can_change_the_totals_a_deal_returns(tmp_path: Path) -> None:
    with Ledger(str(tmp_path / "ledger.sqlite3")) as ledger:
        number = ledger.start_evening(["Anna", "Bruno", "Carla"]).number
        first = ledger.record("bruno solo 8", evening=number)
        with pytest.raises(TypeError):
            first.totals["Anna"] = 1000  # type: ignore[index]
        assert first.totals == {"Anna": -2, "Bruno": 4, "Carla": -2}
        assert ledger.record("anna solo 3", evening=number).totals == ledger.standings(number).points
