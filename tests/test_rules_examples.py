"""RULES §5: every worked example through the library (build_facts, then score)."""

from __future__ import annotations

import pytest
from rules_cases import EXAMPLE_IDS, EXAMPLES, Example

from ledger.rules.build import DealInput, build_facts
from ledger.rules.profiles import make_profile
from ledger.rules.scoring import score
from ledger.summary import explanation


@pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_IDS)
def test_worked_example_through_the_library(example: Example) -> None:
    profile = make_profile(example.profile)
    facts = build_facts(DealInput(**example.typed), profile, example.players, example.dealer)
    result = score(facts, profile)

    assert result.payouts == example.payouts
    assert list(result.payouts) == list(example.players)
    assert all(type(points) is int for points in result.payouts.values())
    assert sum(result.payouts.values()) == 0
    assert result.declarer_won is example.declarer_won
    assert (result.sweep.value if result.sweep else None) == example.sweep
    assert result.multiplier == example.multiplier
    assert result.amount == example.amount
    if example.declarer_won is None:
        assert result.passed and "passed" in explanation(result)
    else:
        assert f"= {example.amount}" in explanation(result) or f": {example.amount}" in explanation(result)


def test_example_1_reports_22_thirds_for_7_and_a_third() -> None:
    profile = make_profile()
    facts = build_facts(
        DealInput(declarer="Bruno", contract="solo", points="7+1/3"), profile, ("Anna", "Bruno", "Carla"), "Carla"
    )
    assert facts.thirds == 22
    assert score(facts, profile).declarer_thirds == 22


def test_example_2_the_opponent_who_held_the_called_three_is_still_an_opponent_in_pagat() -> None:
    example = EXAMPLES[1]
    profile = make_profile()
    result = score(build_facts(DealInput(**example.typed), profile, example.players, example.dealer), profile)
    assert result.partner is None
    assert set(result.opponents) == {"Anna", "Bruno"}


def test_example_5_explanation_reads_as_rules_section_7() -> None:
    profile = make_profile()
    facts = build_facts(
        DealInput(declarer="Bruno", contract="solo", thirds=33), profile, ("Anna", "Bruno", "Carla"), "Carla"
    )
    assert explanation(score(facts, profile)).startswith("solo 2 x stramazzo 3 = 6 from each opponent")


def test_example_8_passed_deal_reports_all_zeros_and_no_declarer() -> None:
    profile = make_profile()
    result = score(build_facts(DealInput(passed=True), profile, ("Anna", "Bruno", "Carla"), "Carla"), profile)
    assert result.passed
    assert result.declarer is None and result.contract is None and result.declarer_thirds is None
    assert result.to_dict()["payouts"] == {"Anna": 0, "Bruno": 0, "Carla": 0}


def test_example_10_dario_sits_out() -> None:
    example = EXAMPLES[9]
    profile = make_profile()
    result = score(build_facts(DealInput(**example.typed), profile, example.players, example.dealer), profile)
    assert result.sitting_out == "Dario"
    assert "Dario" not in result.opponents
