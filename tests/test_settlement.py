"""Tests for ledger.settlement: money, fewest-payments settlement, cash rounding, per-pair flows."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.errors import LedgerError
from ledger.fmt import format_cents
from ledger.settlement import (
    EXACT_LIMIT,
    Transfer,
    fewest_payments,
    money_cents,
    pair_flows,
    round_balances,
)

NAMES = ["anna", "Anna", "Bruno", "carla", "Dario", "elena", "Franco", "gina", "Strauß", "strauss", "Ugo", "zoe"]


def name_key(name: str) -> tuple[str, str]:
    return name.casefold(), name


@st.composite
def balance_maps(draw: st.DrawFn, max_players: int = 8) -> dict[str, int]:
    """Zero-sum balances; small amounts make ties, duplicates and zero-sum subgroups likely."""
    names = draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=max_players))
    amounts = draw(st.sampled_from([st.integers(-6, 6), st.integers(-60, 60), st.integers(-5000, 5000)]))
    values = [draw(amounts) for _ in names[1:]]
    return dict(zip(names, [*values, -sum(values)], strict=True)) if names else {}


def apply(balances: dict[str, int], payments: list[Transfer]) -> dict[str, int]:
    after = dict(balances)
    for payment in payments:
        after[payment.payer] += payment.cents
        after[payment.payee] -= payment.cents
    return after


def brute_force_minimum(values: list[int]) -> int:
    """Fewest payments by trying every order: the first open balance moves entirely onto each other one in turn."""
    open_balances = [value for value in values if value]
    if not open_balances:
        return 0
    first, rest = open_balances[0], open_balances[1:]
    best = len(open_balances)
    for i, other in enumerate(rest):
        if (first > 0) != (other > 0):
            moved = rest.copy()
            moved[i] += first
            best = min(best, 1 + brute_force_minimum(moved))
    return best


# fewest_payments: known cases


@pytest.mark.parametrize(
    ("balances", "expected_count"),
    [
        ({"a": 5, "b": 3, "c": -5, "d": -3}, 2),
        ({"a": 10, "b": -4, "c": -6}, 2),
        ({"a": 0, "b": 0, "c": 0}, 0),
        ({}, 0),
        ({"a": 1, "b": 2, "c": 4, "d": 8, "e": -15}, 4),  # no zero-sum part: n - 1
        ({"a": 6, "b": -1, "c": -5, "d": -9, "e": 2, "f": 7}, 4),  # two disjoint zero-sum triples
        ({"a": 3, "b": 3, "c": -3, "d": -3}, 2),  # duplicates
        ({"a": 1, "b": 1, "c": 1, "d": -1, "e": -1, "f": -1}, 3),
        ({"a": 2, "b": 2, "c": 2, "d": -3, "e": -3}, 4),  # duplicates but no zero-sum part
        ({"a": 4, "b": 4, "c": -6, "d": 3, "e": 5, "f": -10}, 5),
        ({"a": 7, "b": 0, "c": -7}, 1),
    ],
)
def test_known_minimum_counts(balances: dict[str, int], expected_count: int) -> None:
    payments = fewest_payments(balances)
    assert len(payments) == expected_count
    assert set(apply(balances, payments).values()) <= {0}


@pytest.mark.parametrize(
    ("balances", "expected"),
    [
        ({"a": 5, "b": 3, "c": -5, "d": -3}, [Transfer("c", "a", 5), Transfer("d", "b", 3)]),
        ({"Anna": -10, "Bruno": 3, "Carla": 7}, [Transfer("Anna", "Bruno", 3), Transfer("Anna", "Carla", 7)]),
        (
            {"dario": 6, "carla": 4, "bruno": -7, "anna": -3},
            [Transfer("anna", "carla", 3), Transfer("bruno", "carla", 1), Transfer("bruno", "dario", 6)],
        ),
        # equal amounts: debtors and creditors are matched in name order
        ({"d": -1, "c": -1, "b": 1, "a": 1}, [Transfer("c", "a", 1), Transfer("d", "b", 1)]),
        (
            {"a": 6, "b": -1, "c": -5, "d": -9, "e": 2, "f": 7},
            [Transfer("b", "a", 1), Transfer("c", "a", 5), Transfer("d", "e", 2), Transfer("d", "f", 7)],
        ),
    ],
)
def test_exact_payments_in_hand_checked_cases(balances: dict[str, int], expected: list[Transfer]) -> None:
    assert fewest_payments(balances) == expected


def test_greedy_trap_stays_stable() -> None:
    # Largest-debtor-pays-largest-creditor settles this with 5 payments, but after F pays B its own
    # re-run suggests four different payments; the chosen plan must not do that.
    balances = {"A": 4, "B": 4, "C": -6, "D": 3, "E": 5, "F": -10}
    plan = fewest_payments(balances)
    for i, payment in enumerate(plan):
        assert fewest_payments(apply(balances, [payment])) == plan[:i] + plan[i + 1 :]


def test_unbalanced_balances_name_the_sum() -> None:
    with pytest.raises(LedgerError, match="add up to 5"):
        fewest_payments({"a": 10, "b": -5})


def test_sixteen_players_complete() -> None:
    pairs = {f"p{i:02d}": amount for i, amount in enumerate([*range(1, 9), *range(-1, -9, -1)])}
    assert len(fewest_payments(pairs)) == 8
    rng = random.Random(16)
    values = [rng.choice([-300, -7, -2, -1, 1, 2, 5, 120]) for _ in range(15)]
    players = {f"p{i:02d}": value for i, value in enumerate([*values, -sum(values)])}
    assert all(players.values())
    payments = fewest_payments(players)
    assert set(apply(players, payments).values()) <= {0}
    assert len(payments) <= 15


def test_beyond_the_exact_limit_still_clears_every_balance() -> None:
    count = EXACT_LIMIT + 4
    values = [(-1) ** i * (i + 1) for i in range(count - 1)]
    balances = {f"p{i:02d}": value for i, value in enumerate([*values, -sum(values)])}
    payments = fewest_payments(balances)
    assert set(apply(balances, payments).values()) == {0}
    assert 0 < len(payments) <= count - 1
    assert fewest_payments(dict(reversed(balances.items()))) == payments


# fewest_payments: properties


@given(balance_maps(max_players=7))
def test_count_matches_brute_force_minimum(balances: dict[str, int]) -> None:
    assert len(fewest_payments(balances)) == brute_force_minimum(list(balances.values()))


@given(balance_maps())
def test_settlement_clears_every_balance_to_the_cent(balances: dict[str, int]) -> None:
    payments = fewest_payments(balances)
    assert set(apply(balances, payments).values()) <= {0}
    assert all(payment.cents > 0 and payment.payer != payment.payee for payment in payments)
    payers = {payment.payer for payment in payments}
    assert payers.isdisjoint(payment.payee for payment in payments)  # nobody both pays and receives
    assert payments == sorted(payments, key=lambda p: (name_key(p.payer), name_key(p.payee)))


@settings(max_examples=400)
@given(balance_maps())
def test_making_any_suggested_payment_leaves_exactly_the_others(balances: dict[str, int]) -> None:
    plan = fewest_payments(balances)
    for i, payment in enumerate(plan):
        after = apply(balances, [payment])
        assert fewest_payments(after) == plan[:i] + plan[i + 1 :]
        assert fewest_payments({name: cents for name, cents in after.items() if cents}) == plan[:i] + plan[i + 1 :]


@given(balance_maps(), st.data())
def test_paying_in_any_order_keeps_the_plan(balances: dict[str, int], data: st.DataObject) -> None:
    plan = fewest_payments(balances)
    for payment in data.draw(st.permutations(plan)):
        balances = apply(balances, [payment])
        plan.remove(payment)
        assert fewest_payments(balances) == plan


@given(balance_maps(), st.data())
def test_input_order_does_not_matter(balances: dict[str, int], data: st.DataObject) -> None:
    shuffled = dict(data.draw(st.permutations(list(balances.items()))))
    with_zero = {**shuffled, "nobody": 0}
    assert fewest_payments(shuffled) == fewest_payments(balances) == fewest_payments(with_zero)


# round_balances


def test_round_balances_hand_checked() -> None:
    rounded, adjustment = round_balances({"a": 130, "b": -70, "c": -60}, 50)
    assert rounded == {"a": 150, "b": -100, "c": -50}
    assert adjustment == {"a": 20, "b": -30, "c": 10}


def test_round_balances_breaks_remainder_ties_by_name() -> None:
    rounded, adjustment = round_balances({"b": 25, "a": 25, "c": -50}, 50)
    assert list(rounded) == ["b", "a", "c"]
    assert rounded == {"b": 0, "a": 50, "c": -50}
    assert adjustment == {"b": -25, "a": 25, "c": 0}


@given(balance_maps(), st.integers(1, 500))
def test_rounding_keeps_the_sum_exact(balances: dict[str, int], unit: int) -> None:
    rounded, adjustment = round_balances(balances, unit)
    assert sum(rounded.values()) == 0
    assert list(rounded) == list(balances) == list(adjustment)
    for name, cents in balances.items():
        assert rounded[name] % unit == 0
        assert adjustment[name] == rounded[name] - cents
        assert abs(adjustment[name]) < unit


@pytest.mark.parametrize("unit", [0, -50])
def test_rounding_unit_must_be_positive(unit: int) -> None:
    with pytest.raises(LedgerError, match=str(unit)):
        round_balances({"a": 10, "b": -10}, unit)


def test_rounding_needs_a_zero_sum() -> None:
    with pytest.raises(LedgerError, match="add up to -3"):
        round_balances({"a": 10, "b": -13}, 5)


# pair_flows (what the players paid each other at the table, deal by deal, is summed where the deals are kept: see
# tests/test_table_payments.py)


def test_pair_flows_net_what_each_pair_paid_each_other() -> None:
    paid = [Transfer("d", "a", 2), Transfer("b", "d", 2), Transfer("a", "d", 4), Transfer("b", "a", 2)]
    assert pair_flows(paid) == [Transfer("a", "d", 2), Transfer("b", "a", 2), Transfer("b", "d", 2)]


def test_pair_flows_leave_out_a_pair_that_came_out_even() -> None:
    assert pair_flows([Transfer("a", "b", 3), Transfer("b", "a", 3), Transfer("c", "a", 1)]) == [Transfer("c", "a", 1)]


@given(st.lists(st.builds(Transfer, st.sampled_from(NAMES[:5]), st.sampled_from(NAMES[5:]), st.integers(1, 60))))
def test_pair_flows_settle_what_was_paid(paid: list[Transfer]) -> None:
    flows = pair_flows(paid)
    assert apply(apply({name: 0 for name in NAMES}, paid), [Transfer(p.payee, p.payer, p.cents) for p in flows]) == {
        name: 0 for name in NAMES
    }
    assert len({frozenset((p.payer, p.payee)) for p in flows}) == len(flows)
    assert flows == sorted(flows, key=lambda p: (name_key(p.payer), name_key(p.payee)))


# money_cents, format_cents, Transfer


def test_money_cents_multiplies_and_keeps_order() -> None:
    money = money_cents({"zoe": 3, "anna": -1, "Bruno": -2}, 25)
    assert money == {"zoe": 75, "anna": -25, "Bruno": -50}
    assert list(money) == ["zoe", "anna", "Bruno"]


def test_money_cents_rejects_a_negative_stake() -> None:
    with pytest.raises(LedgerError, match="-5"):
        money_cents({"a": 1, "b": -1}, -5)


@pytest.mark.parametrize(
    ("cents", "currency", "text"),
    [
        (340, "EUR", "3.40 EUR"),
        (-10, "EUR", "-0.10 EUR"),
        (1200, "USD", "12.00 USD"),
        (0, "EUR", "0.00 EUR"),
        (5, "EUR", "0.05 EUR"),
        (-12345, "CHF", "-123.45 CHF"),
    ],
)
def test_format_cents(cents: int, currency: str, text: str) -> None:
    assert format_cents(cents, currency) == text


@pytest.mark.parametrize(("payer", "payee", "cents"), [("a", "b", 0), ("a", "b", -3), ("a", "a", 5)])
def test_payment_rejects_impossible_payments(payer: str, payee: str, cents: int) -> None:
    with pytest.raises(LedgerError):
        Transfer(payer, payee, cents)
