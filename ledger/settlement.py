"""Money at the end of a card evening: cents per player, the fewest-payments settlement, cash rounding.

All amounts are integer minor units (cents). Where an order is needed, names are ordered by
``(name.casefold(), name)``, never by dict order or hash. What players paid each other at the table is summed where the
deals are kept; :func:`pair_flows` nets it per pair.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, reduce

from ledger.errors import LedgerError
from ledger.i18n import _

EXACT_LIMIT = 20
"""Most non-zero balances for which :func:`fewest_payments` searches for the true minimum."""

_DIGIT_BASE = 0x110000 + 2  # one digit per code point, plus a pad digit (0) and a separator digit (1)


@dataclass(frozen=True)
class Transfer:
    """``payer`` hands ``cents`` (at least 1) to ``payee``."""

    payer: str
    payee: str
    cents: int

    def __post_init__(self) -> None:
        if self.cents < 1:
            raise LedgerError(
                _("payment of {cents} cents from {payer} to {payee}: must be at least 1").format(
                    cents=self.cents, payer=self.payer, payee=self.payee
                )
            )
        if self.payer == self.payee:
            raise LedgerError(
                _("payment from {payer} to {payee}: payer and payee must differ").format(
                    payer=self.payer, payee=self.payee
                )
            )


def money_cents(points: Mapping[str, int], stake_cents: int) -> dict[str, int]:
    """Game points per player times the stake per point, in cents; keeps the input order."""
    if stake_cents < 0:
        raise LedgerError(
            _("stake of {stake_cents} cents per point: must be 0 or more").format(stake_cents=stake_cents)
        )
    return {name: score * stake_cents for name, score in points.items()}


def fewest_payments(balances: Mapping[str, int]) -> list[Transfer]:
    """Payments clearing every balance (cents; positive = is owed) with the fewest payments possible.

    The minimum is the number of non-zero balances minus the most disjoint zero-sum groups they split into;
    that partition is found exactly by dynamic programming over subsets of minimal zero-sum groups. Inside a
    group, debtors in name order pay creditors in name order, each paying the first creditor still owed
    (north-west corner rule), so nobody both pays and receives.

    Among equally short plans the one returned is the unique cheapest under the per-payment cost
    ``-cents * pos(payer) * pos(payee)`` (``pos`` grows with the name order), ties by the set of (payer, payee)
    pairs. That cost makes the north-west corner rule the cheapest plan inside a group, and a per-payment cost
    makes the result stable: once any one suggested payment is made, asking again returns exactly the other
    suggested payments. (Largest-debtor-pays-largest-creditor is not used: it is not stable.) Zero balances are
    ignored.

    Exact up to ``EXACT_LIMIT`` (20) non-zero balances: 16 take well under a second, 20 about half a second.
    Beyond that it is the north-west corner rule over everyone: still clears every balance to the cent, at most
    one payment fewer than the non-zero balances, stable while more than 20 stay non-zero, possibly not minimal.

    Raises LedgerError if the balances do not sum to exactly zero. Sorted by payer, then payee.
    """
    _require_zero_sum(balances, _("the balances (cents)"))
    names = sorted((name for name, cents in balances.items() if cents), key=_name_key)
    values = [balances[name] for name in names]
    if len(names) > EXACT_LIMIT:
        return _sorted(_name_order_staircase(names, values))
    return _sorted(_cheapest_minimal_plan(names, values))


def round_balances(balances: Mapping[str, int], unit_cents: int) -> tuple[dict[str, int], dict[str, int]]:
    """Round balances to multiples of ``unit_cents`` keeping the sum at exactly zero (largest remainder method).

    Every balance is first rounded down; the units still missing go to the largest remainders, ties by name.
    Returns ``(rounded, adjustment)`` with ``adjustment = rounded - exact`` per player, ``|adjustment| <
    unit_cents``, both in input order. Raises LedgerError for ``unit_cents < 1`` or balances not summing to 0.
    """
    if unit_cents < 1:
        raise LedgerError(_("rounding unit of {unit_cents} cents: must be at least 1").format(unit_cents=unit_cents))
    _require_zero_sum(balances, _("the balances (cents)"))
    remainders = {name: cents % unit_cents for name, cents in balances.items()}
    missing_units = sum(remainders.values()) // unit_cents
    by_remainder = sorted(balances, key=lambda name: (-remainders[name], _name_key(name)))
    rounded_up = set(by_remainder[:missing_units])
    rounded = {
        name: cents - remainders[name] + (unit_cents if name in rounded_up else 0) for name, cents in balances.items()
    }
    return rounded, {name: rounded[name] - cents for name, cents in balances.items()}


def pair_flows(paid: Iterable[Transfer]) -> list[Transfer]:
    """Who owes whom, netted per pair of players, without simplifying across pairs: `paid` is what players paid each
    other at the table (summed or deal by deal). One transfer per pair with a non-zero net, sorted by payer, then
    payee.

    >>> pair_flows([Transfer("b", "a", 5), Transfer("a", "b", 2), Transfer("c", "a", 1), Transfer("a", "c", 1)])
    [Transfer(payer='b', payee='a', cents=3)]
    """
    owed: defaultdict[tuple[str, str], int] = defaultdict(int)
    for payment in paid:
        first, second = sorted((payment.payer, payment.payee), key=_name_key)
        owed[first, second] += payment.cents if first == payment.payer else -payment.cents
    return _sorted(_pair_payment(pair, cents) for pair, cents in owed.items() if cents)


def _name_key(name: str) -> tuple[str, str]:
    return name.casefold(), name


def _sorted(payments: Iterable[Transfer]) -> list[Transfer]:
    return sorted(payments, key=lambda p: (_name_key(p.payer), _name_key(p.payee)))


def _require_zero_sum(amounts: Mapping[str, int], what: str) -> None:
    total = sum(amounts.values())
    if total:
        raise LedgerError(_("{what} add up to {total}; they must add up to exactly 0").format(what=what, total=total))


def _pair_payment(pair: tuple[str, str], first_owes_second: int) -> Transfer:
    first, second = pair
    if first_owes_second > 0:
        return Transfer(first, second, first_owes_second)
    return Transfer(second, first, -first_owes_second)


def _staircase(debts: list[tuple[str, int]], credits: list[tuple[str, int]]) -> list[Transfer]:
    """North-west corner rule: each debtor in turn pays the first creditor still owed until covered."""
    still_owed = [cents for _, cents in credits]
    payments = []
    creditor = 0
    for payer, debt in debts:
        while debt:
            cents = min(debt, still_owed[creditor])
            payments.append(Transfer(payer, credits[creditor][0], cents))
            debt -= cents
            still_owed[creditor] -= cents
            creditor += not still_owed[creditor]
    return payments


def _name_order_staircase(names: list[str], values: list[int]) -> list[Transfer]:
    """The north-west corner rule for balances whose names are already in name order."""
    debts = [(name, -cents) for name, cents in zip(names, values, strict=True) if cents < 0]
    credits = [(name, cents) for name, cents in zip(names, values, strict=True) if cents > 0]
    return _staircase(debts, credits)


def _positions(names: list[str]) -> list[int]:
    """Numbers increasing in name order; for any name the same in every call up to one common factor.

    A name becomes the base-``_DIGIT_BASE`` fraction of its digits ``casefold, separator, name``, scaled by
    ``_DIGIT_BASE ** width`` so it is an integer; the scale does not change which plan is cheapest.
    """
    rows = [[ord(c) + 2 for c in name.casefold()] + [1] + [ord(c) + 2 for c in name] for name in names]
    width = max(map(len, rows), default=0)
    return [
        reduce(lambda number, digit: number * _DIGIT_BASE + digit, row + [0] * (width - len(row)), 0) for row in rows
    ]


def _subset_sums(values: list[int]) -> list[int]:
    """``sums[mask]`` is the sum of the values whose bits are set in ``mask``."""
    sums = [0]
    for value in values:
        sums += [total + value for total in sums]
    return sums


def _minimal_zero_sum_sets(values: list[int]) -> dict[int, list[int]]:
    """Zero-sum sets (bit masks) with no zero-sum proper part, keyed by their lowest bit.

    A zero-sum set that is not minimal splits into minimal ones, one of which holds its lowest bit,
    so each candidate is only checked against the minimal sets sharing its lowest bit.
    """
    sums = _subset_sums(values)
    by_lowest: defaultdict[int, list[int]] = defaultdict(list)
    for mask in sorted((mask for mask in range(1, len(sums)) if not sums[mask]), key=int.bit_count):
        known = by_lowest[mask & -mask]
        if not any(part & mask == part for part in known):
            known.append(mask)
    return by_lowest


def _cheapest_minimal_plan(names: list[str], values: list[int]) -> list[Transfer]:
    """The fewest payments for name-ordered, non-zero, zero-sum balances, cheapest plan among the fewest.

    ``solve(mask)`` gives the best split of the zero-sum set ``mask`` as (minus the number of groups, cost,
    pair bits, groups): the set's lowest member goes into a minimal zero-sum group, the rest is solved alike.
    Pair bit ``payer * n + payee`` follows the name order, so comparing pair-bit sums compares pair sets in
    binary order.
    """
    groups_by_lowest = _minimal_zero_sum_sets(values)
    position = dict(zip(names, _positions(names), strict=True))
    index = {name: i for i, name in enumerate(names)}

    @cache
    def plan(group: int) -> tuple[int, int, tuple[Transfer, ...]]:
        members = [i for i in range(len(names)) if group >> i & 1]
        payments = tuple(_name_order_staircase([names[i] for i in members], [values[i] for i in members]))
        cost = sum(-position[p.payer] * position[p.payee] * p.cents for p in payments)
        pairs = sum(1 << (index[p.payer] * len(names) + index[p.payee]) for p in payments)
        return cost, pairs, payments

    @cache
    def solve(mask: int) -> tuple[int, int, int, tuple[int, ...]]:
        if not mask:
            return 0, 0, 0, ()
        options = []
        for group in groups_by_lowest[mask & -mask]:
            if group & mask == group:
                count, cost, pairs, chosen = solve(mask ^ group)
                group_cost, group_pairs, _ = plan(group)
                options.append((count - 1, cost + group_cost, pairs + group_pairs, (*chosen, group)))
        return min(options, key=lambda option: option[:3])

    return [payment for group in solve((1 << len(names)) - 1)[3] for payment in plan(group)[2]]
