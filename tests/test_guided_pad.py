"""The phone's pad: its taps read as the answers `play` reads, each as a line writes it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from said import raises_said

from ledger.rules.build import DealInput
from ledger.rules.count import Count, parse_count
from ledger.rules.profiles import make_profile
from ledger.rules.quick import parse_answer
from ledger.web.guided import answers, deal_input

ABC = ("Anna", "Bruno", "Carla")

# taps (and typed fields), the answers they give
TAPS: list[tuple[dict[str, str], dict[str, str]]] = [
    ({"whole": "7", "third": "1/3"}, {"thirds": "7+1/3"}),
    ({"whole": "7", "third": ""}, {"thirds": "7"}),
    ({"whole": "0", "third": "2/3"}, {"thirds": "2/3"}),
    ({"third": "1/3"}, {"thirds": "1/3"}),
    ({"whole": "0"}, {"thirds": "0"}),
    ({"whole": "22"}, {"thirds": "22"}),  # American points
    ({"aces": "2", "figures": "10", "last": "u"}, {"thirds": "2a10f+u"}),
    ({"figures": "1"}, {"thirds": "0a1f"}),
    ({"last": "u", "whole": "7"}, {"thirds": "0a0f+u"}),  # counted wins over the whole number
    ({"whole": "7", "thirds": "22t"}, {"thirds": "22t"}),  # typed wins over tapped
    ({"rank": "3", "suit": "D"}, {"called": "3D"}),
    ({"rank": "3"}, {"called": "3"}),
    ({"suit": "D"}, {}),
    ({"rank": "3", "called": "AC"}, {"called": "AC"}),
    ({"declarer": " Bruno ", "contract": "solo", "holder": ""}, {"declarer": "Bruno", "contract": "solo"}),
    ({"whole": "x"}, {"thirds": "x"}),
    ({"whole": "7", "third": "1/2"}, {"thirds": "7+1/2"}),
    ({"aces": "two", "figures": "10"}, {"thirds": "two+10"}),
]


@pytest.mark.parametrize(("form", "expected"), TAPS, ids=[str(form) for form, _ in TAPS])
def test_taps_are_read_as_the_answers_a_line_gives(form: dict[str, str], expected: dict[str, str]) -> None:
    assert answers(form) == expected


@pytest.mark.parametrize("form", [{"whole": "x"}, {"whole": "7", "third": "1/2"}, {"aces": "two", "figures": "10"}])
def test_a_tap_that_is_no_button_of_the_pad_is_refused_naming_it(form: dict[str, str]) -> None:
    with raises_said("points"):
        deal_input(answers(form), ABC, make_profile())


@given(st.integers(0, 11), st.sampled_from(["", "1/3", "2/3"]))
def test_a_whole_number_and_a_third_are_the_points_tapped(whole: int, third: str) -> None:
    thirds = 3 * whole + ["", "1/3", "2/3"].index(third)
    said = parse_answer("thirds", answers({"whole": str(whole), "third": third})["thirds"], ABC, make_profile())
    assert make_profile().parse_points(said.points or "") == thirds


@given(st.integers(0, 4), st.integers(0, 20), st.booleans())
def test_a_count_tapped_is_the_count_read(aces: int, figures: int, last: bool) -> None:
    form = {"aces": str(aces), "figures": str(figures), "last": "u" if last else ""}
    typed = deal_input(answers(form), ABC, make_profile())
    assert typed == DealInput(count=typed.count) and parse_count(typed.count or "") == Count(aces, figures, last)
