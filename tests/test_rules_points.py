"""RULES §1: card points on the Italian (whole points and thirds) and American (0..35) scales."""

from __future__ import annotations

import pytest
from said import raises_said, said

from ledger.errors import LedgerError
from ledger.rules.points import check_thirds, format_points, parse_points


@pytest.mark.parametrize(
    ("text", "thirds"),
    [
        ("0", 0),
        ("1/3", 1),
        ("2/3", 2),
        ("1", 3),
        ("5+2/3", 17),
        ("6", 18),
        ("7", 21),
        ("7+1/3", 22),
        ("8", 24),
        ("11", 33),
        ("11+2/3", 35),
        (" 7 + 1/3 ", 22),
        ("7 1/3", 22),
        ("07", 21),
    ],
    ids=repr,
)
def test_italian_points(text: str, thirds: int) -> None:
    assert parse_points(text) == thirds


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("12", "only 11+2/3 points"),
        ("11+3/3", "whole points and thirds"),
        ("7+3/3", "whole points and thirds"),
        ("7+0/3", "whole points and thirds"),
        ("7+1/2", "whole points and thirds"),
        ("abc", "whole points and thirds"),
        ("", "whole points and thirds"),
        ("  ", "whole points and thirds"),
        ("-1", "whole points and thirds"),
        ("7.5", "whole points and thirds"),
        ("7+", "whole points and thirds"),
        ("+", "whole points and thirds"),
        # a fraction written without a separator is not silently read as whole points plus thirds
        ("22/3", "whole points and thirds"),
        ("71/3", "whole points and thirds"),
    ],
    ids=repr,
)
def test_bad_italian_points(text: str, why: str) -> None:
    with pytest.raises(LedgerError) as caught:
        parse_points(text)
    assert said(caught.value).startswith("--points ") and why in said(caught.value)


@pytest.mark.parametrize("thirds", range(36), ids=lambda t: f"{t}-of-35")
def test_american_points_are_the_thirds(thirds: int) -> None:
    assert parse_points(str(thirds), american=True) == thirds
    assert format_points(thirds, american=True) == str(thirds)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("36", "only 35 thirds"),
        ("-1", "0 to 35"),
        ("7+1/3", "0 to 35"),
        ("abc", "0 to 35"),
        ("", "0 to 35"),
        ("²", "0 to 35"),
    ],
    ids=repr,
)
def test_bad_american_points(text: str, why: str) -> None:
    with pytest.raises(LedgerError) as caught:
        parse_points(text, american=True)
    assert said(caught.value).startswith("--points ") and why in said(caught.value)


@pytest.mark.parametrize("thirds", range(36), ids=lambda t: f"{t}-thirds")
def test_format_points_round_trip(thirds: int) -> None:
    shown = format_points(thirds)
    assert parse_points(shown) == thirds
    whole, rest = divmod(thirds, 3)
    assert shown.startswith(str(whole)) or whole == 0
    assert shown.endswith(f"{rest}/3") if rest else "/" not in shown


@pytest.mark.parametrize(
    ("thirds", "shown"),
    [(0, "0"), (1, "1/3"), (2, "2/3"), (3, "1"), (17, "5+2/3"), (22, "7+1/3"), (24, "8"), (35, "11+2/3")],
    ids=repr,
)
def test_format_points_italian(thirds: int, shown: str) -> None:
    assert format_points(thirds) == shown


def test_check_thirds_bounds() -> None:
    assert check_thirds(0) == 0 and check_thirds(35) == 35
    with raises_said(r"^--thirds 36: a deal has only 35 thirds$"):
        check_thirds(36)
    with raises_said("cannot be negative"):
        check_thirds(-1)
