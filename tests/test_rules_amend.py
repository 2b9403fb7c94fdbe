"""DealInput: the typed deal, its dict form, and amending it (new facts replace and drop superseded ones)."""

from __future__ import annotations

import pytest
from rules_cases import play

from ledger.errors import LedgerError
from ledger.rules.build import DealInput

CHIAMO = DealInput(
    declarer="Carla", contract="chiamo", called="3D", holder="Anna", points="5+2/3", last_trick="opponents"
)
SOLISSIMO = DealInput(declarer="Anna", contract="solissimo", aggravation="dividete", thirds=24)
AUCTION = DealInput(auction="pass,solo,pass", thirds=22)


@pytest.mark.parametrize(
    ("before", "changes", "after"),
    [
        pytest.param(
            CHIAMO,
            DealInput(thirds=17),
            DealInput(
                declarer="Carla", contract="chiamo", called="3D", holder="Anna", thirds=17, last_trick="opponents"
            ),
            id="thirds-replaces-points",
        ),
        pytest.param(
            SOLISSIMO,
            DealInput(points="8"),
            DealInput(declarer="Anna", contract="solissimo", aggravation="dividete", points="8"),
            id="points-replaces-thirds",
        ),
        pytest.param(
            CHIAMO,
            DealInput(contract="solo"),
            DealInput(declarer="Carla", contract="solo", points="5+2/3", last_trick="opponents"),
            id="new-contract-drops-called-and-holder",
        ),
        pytest.param(
            SOLISSIMO,
            DealInput(contract="solo"),
            DealInput(declarer="Anna", contract="solo", thirds=24),
            id="new-contract-drops-aggravation",
        ),
        pytest.param(
            SOLISSIMO,
            DealInput(contract="solissimo", aggravation="scegliete"),
            DealInput(declarer="Anna", contract="solissimo", aggravation="scegliete", thirds=24),
            id="new-contract-with-its-own-aggravation",
        ),
        pytest.param(CHIAMO, DealInput(passed=True), DealInput(passed=True), id="passed-drops-everything"),
        pytest.param(
            DealInput(passed=True, passed_before=2),
            DealInput(declarer="Bruno", contract="solo", thirds=20),
            DealInput(declarer="Bruno", contract="solo", thirds=20, passed_before=2),
            id="declarer-drops-passed",
        ),
        pytest.param(
            DealInput(passed=True), DealInput(contract="solo"), DealInput(contract="solo"), id="contract-drops-passed"
        ),
        pytest.param(
            AUCTION, DealInput(declarer="Anna"), DealInput(declarer="Anna", thirds=22), id="declarer-drops-auction"
        ),
        pytest.param(
            CHIAMO,
            DealInput(auction="pass,solo,pass"),
            DealInput(auction="pass,solo,pass", points="5+2/3", last_trick="opponents"),
            id="auction-drops-declarer-contract-called-holder",
        ),
        pytest.param(
            DealInput(passed=True),
            DealInput(auction="pass,pass,chiamo"),
            DealInput(auction="pass,pass,chiamo"),
            id="auction-drops-passed",
        ),
        pytest.param(
            CHIAMO,
            DealInput(declarer="Bruno"),
            DealInput(
                declarer="Bruno", contract="chiamo", called="3D", holder="Anna", points="5+2/3", last_trick="opponents"
            ),
            id="declarer-keeps-the-call",
        ),
        pytest.param(
            CHIAMO,
            DealInput(last_trick="declarer", tricks=5),
            DealInput(
                declarer="Carla",
                contract="chiamo",
                called="3D",
                holder="Anna",
                points="5+2/3",
                last_trick="declarer",
                tricks=5,
            ),
            id="trick-facts-replace",
        ),
        pytest.param(CHIAMO, DealInput(), CHIAMO, id="nothing-changes-nothing"),
        pytest.param(
            DealInput(declarer="Anna", contract="solo", thirds=20),
            DealInput(passed_before=3),
            DealInput(declarer="Anna", contract="solo", thirds=20, passed_before=3),
            id="passed-before",
        ),
    ],
)
def test_amended(before: DealInput, changes: DealInput, after: DealInput) -> None:
    assert before.amended(changes) == after


def test_amended_deals_score() -> None:
    example_2 = play(**CHIAMO.to_dict())[1]
    assert example_2.payouts == {"Anna": 1, "Bruno": 1, "Carla": -2}
    amended = CHIAMO.amended(DealInput(contract="solo", thirds=20))
    assert play(**amended.to_dict())[1].payouts == {"Anna": -2, "Bruno": -2, "Carla": 4}
    passed = CHIAMO.amended(DealInput(passed=True))
    assert set(play(**passed.to_dict())[1].payouts.values()) == {0}


@pytest.mark.parametrize(
    "typed",
    [CHIAMO, SOLISSIMO, AUCTION, DealInput(passed=True, passed_before=1), DealInput(thirds=0, tricks=0)],
    ids=["chiamo", "solissimo", "auction", "passed", "zeros-are-kept"],
)
def test_dict_round_trip(typed: DealInput) -> None:
    data = typed.to_dict()
    assert all(value is not None for value in data.values())
    assert DealInput.from_dict(data) == typed


def test_to_dict_keeps_zero_thirds_and_tricks() -> None:
    assert DealInput(thirds=0, tricks=0).to_dict() == {"thirds": 0, "tricks": 0}
    assert DealInput().to_dict() == {}


def test_from_dict_rejects_unknown_fields() -> None:
    with pytest.raises(LedgerError, match="deal input: unknown fields bogus, colour"):
        DealInput.from_dict({"declarer": "Anna", "colour": "red", "bogus": 1})
