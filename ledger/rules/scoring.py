"""Score a deal: from the facts and the profile to every seated player's game points (RULES §4, §7).

The worked examples of RULES §5, each as the facts of the deal and the payouts the rules give:

>>> from ledger.rules.cards import parse_called
>>> from ledger.rules.contracts import Aggravation, Contract, Side
>>> from ledger.rules.profiles import make_profile
>>> pagat, abc = make_profile("pagat"), ("Anna", "Bruno", "Carla")
>>> def pays(profile=pagat, players=abc, dealer="Carla", **facts):
...     return score(DealFacts(players=players, dealer=dealer, **facts), profile).payouts

1. Bruno bids solo and takes 7+1/3 (22 thirds):

>>> pays(declarer="Bruno", contract=Contract.SOLO, thirds=22)
{'Anna': -2, 'Bruno': 4, 'Carla': -2}

2. Carla bids chiamo, calls 3D from Anna, takes 5+2/3 (17 thirds), the last trick to the opponents:

>>> pays(declarer="Carla", contract=Contract.CHIAMO, called=parse_called("3D"), holder="Anna", thirds=17,
...      last_trick=Side.OPPONENTS, dealer="Bruno")
{'Anna': 1, 'Bruno': 1, 'Carla': -2}

3. Anna bids solissimo, dividete, and takes 8 (24 thirds):

>>> pays(declarer="Anna", contract=Contract.SOLISSIMO, aggravation=Aggravation.DIVIDETE, thirds=24)
{'Anna': 16, 'Bruno': -8, 'Carla': -8}

4. Anna bids solissimo, scegliete, and takes all 12 tricks (35): 16 x2 = 32 from each:

>>> pays(declarer="Anna", contract=Contract.SOLISSIMO, aggravation=Aggravation.SCEGLIETE, thirds=35, tricks=12)
{'Anna': 64, 'Bruno': -32, 'Carla': -32}

5. Bruno bids solo and takes 33 thirds: stramazzo, 2 x3 = 6 from each:

>>> pays(declarer="Bruno", contract=Contract.SOLO, thirds=33)
{'Anna': -6, 'Bruno': 12, 'Carla': -6}

6. Bruno bids chiamo and takes 4 thirds, the last trick his: stramazzo against him, 1 x3 = 3 to each:

>>> pays(declarer="Bruno", contract=Contract.CHIAMO, thirds=4, last_trick=Side.DECLARER)
{'Anna': 3, 'Bruno': -6, 'Carla': 3}

7. The same with the last trick to the opponents: no sweep:

>>> pays(declarer="Bruno", contract=Contract.CHIAMO, thirds=4, last_trick=Side.OPPONENTS)
{'Anna': 1, 'Bruno': -2, 'Carla': 1}

8. All pass: nobody pays (the next deal is dealt by the next seat, which the ledger tracks):

>>> pays()
{'Anna': 0, 'Bruno': 0, 'Carla': 0}

9. Cavendish: Anna plays and takes 22 of 35: 22 - 13 = 9 from each:

>>> pays(declarer="Anna", contract=Contract.CHIAMO, thirds=22, profile=make_profile("cavendish"))
{'Anna': 18, 'Bruno': -9, 'Carla': -9}

10. Four at the table, Dario deals and sits out, Anna solo with 20 thirds:

>>> pays(players=("Anna", "Bruno", "Carla", "Dario"), dealer="Dario", declarer="Anna", contract=Contract.SOLO,
...      thirds=20)
{'Anna': 4, 'Bruno': -2, 'Carla': -2, 'Dario': 0}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from math import prod

from ledger.frozen import Plain, freeze, shown
from ledger.rules.cards import DEAL_THIRDS
from ledger.rules.contracts import Aggravation, Contract
from ledger.rules.facts import DealFacts
from ledger.rules.profiles import Profile, Tariff
from ledger.rules.sweeps import Sweep, decide_sweep
from ledger.rules.validate import validate

WIN_THIRDS = 18
AGGRAVATION_FACTOR = {Aggravation.DIVIDETE: 2, Aggravation.SCEGLIETE: 4}
CAVENDISH_SWEEP = 70


POT = "pot"
"""The label of the factor the pot of passed deals brings to the amount."""
Factor = tuple[str, int]
"""A labelled factor of the amount per opponent: (`solo`, 2), (`dividete`, 2), (`stramazzo`, 3), (`pot`, 3)."""


@dataclass(frozen=True)
class DealResult(Plain):
    """A scored deal: who won what, and the numbers a player checks it by (`ledger.summary.explanation` draws them
    in words, in the language in use when shown).

    `passed_before` and `holder` are the facts the explanation needs besides the result's own; `to_dict()` leaves
    them out, with the profile and the opponents: it gives the numbers and the rules' words.
    """

    profile: Profile = field(metadata=shown(hidden=True))
    declarer: str | None = field(default=None, metadata=shown(before=("passed",)))
    contract: Contract | None = None
    aggravation: Aggravation | None = None
    partner: str | None = None
    holder: str | None = field(default=None, metadata=shown(hidden=True))
    declarer_thirds: int | None = None
    declarer_won: bool | None = None
    sweep: Sweep | None = None
    multiplier: int = 1
    amount: int = 0
    payouts: Mapping[str, int] = field(kw_only=True)
    passed_before: int = field(default=0, metadata=shown(hidden=True))
    sitting_out: str | None = None
    first_lead: str | None = None
    opponents: tuple[str, ...] = field(default=(), metadata=shown(hidden=True))

    def __post_init__(self) -> None:
        freeze(self, "payouts")

    @property
    def passed(self) -> bool:
        """No declarer: everyone passed."""
        return self.declarer is None


def score(facts: DealFacts, profile: Profile, *, count_cards: bool = True) -> DealResult:
    """Validate the facts and score them; payouts are integers summing to zero. Not `count_cards`: facts a ledger
    stored before the cards were counted, validated and scored as the rules did then (`validate`, `decide_sweep`)."""
    validate(facts, profile, count_cards=count_cards)
    return score_valid(facts, profile, count_cards=count_cards)


def score_valid(facts: DealFacts, profile: Profile, *, count_cards: bool = True) -> DealResult:
    """Score facts already validated (`build_facts` returns them so); payouts are integers summing to zero."""
    out = facts.sitting_out(profile)
    if facts.passed:
        zeros = {p: 0 for p in facts.players}
        return DealResult(profile, payouts=zeros, sitting_out=out, first_lead=facts.first_lead(profile))
    assert facts.declarer is not None and facts.contract is not None and facts.thirds is not None
    won = facts.thirds >= WIN_THIRDS
    partner = facts.partner(profile)
    opponents = tuple(p for p in facts.active(profile) if p not in (facts.declarer, partner))
    if out and profile.dealer_shares:
        opponents += (out,)
    sweep = _sweep(facts, profile, won, count_cards)
    pot = facts.passed_before + 1
    if profile.tariff is Tariff.DIFFERENCE:
        amount, multiplier = difference(facts.thirds, sweep) * pot, pot
    else:
        factors = amount_factors(profile, facts.contract, facts.aggravation, sweep, facts.passed_before)
        amount = prod(value for _, value in factors)
        multiplier = (profile.multiplier(sweep.value) if sweep else 1) * pot
    sign = 1 if won else -1
    payouts = {p: 0 for p in facts.players}
    for opponent in opponents:
        payouts[opponent] = -sign * amount
    if partner:
        payouts[partner] = sign * amount
    payouts[facts.declarer] = sign * amount * len(opponents) - (amount * sign if partner else 0)
    return DealResult(
        profile,
        payouts=payouts,
        declarer=facts.declarer,
        contract=facts.contract,
        aggravation=facts.aggravation,
        partner=partner,
        holder=facts.holder,
        declarer_thirds=facts.thirds,
        declarer_won=won,
        sweep=sweep,
        multiplier=multiplier,
        amount=amount,
        passed_before=facts.passed_before,
        sitting_out=out,
        first_lead=facts.first_lead(profile),
        opponents=opponents,
    )


def amount_factors(
    profile: Profile, contract: Contract, aggravation: Aggravation | None, sweep: Sweep | None, passed_before: int
) -> tuple[Factor, ...]:
    """The labelled factors whose product is the amount per opponent under a ladder or a flat tariff: the contract's
    value, dividete or scegliete, the sweep, and the pot of passed deals.

    >>> from ledger.rules.profiles import make_profile
    >>> amount_factors(make_profile("pagat"), Contract.SOLO, None, Sweep.STRAMAZZO, 1)
    (('solo', 2), ('stramazzo', 3), ('pot', 2))
    """
    factors = [(contract.value, profile.value(contract))]
    if aggravation:
        factors.append((aggravation.value, AGGRAVATION_FACTOR[aggravation]))
    if sweep:
        factors.append((sweep.value, profile.multiplier(sweep.value)))
    if passed_before:
        factors.append((POT, passed_before + 1))
    return tuple(factors)


def difference(thirds: int, sweep: Sweep | None) -> int:
    """American scoring's amount: the difference of the two sides' points, or 70 for all tricks or none."""
    return CAVENDISH_SWEEP if sweep is Sweep.CAPPOTTO else abs(thirds - (DEAL_THIRDS - thirds))


def _sweep(facts: DealFacts, profile: Profile, won: bool, count_cards: bool) -> Sweep | None:
    """The sweep that counts: under a ladder or flat tariff as the profile's options say; in American scoring only
    the cappotto (all tricks or none), which pays 70."""
    assert facts.thirds is not None
    all_tricks = profile.tricks_per_deal(len(facts.active(profile)))
    if profile.tariff is Tariff.DIFFERENCE:
        if facts.thirds not in (0, DEAL_THIRDS):
            return None
        found = decide_sweep(facts.thirds, facts.tricks, facts.last_trick, all_tricks, count_cards=count_cards)
        return found if found is Sweep.CAPPOTTO else None
    if not profile.sweeps or not (won or profile.sweeps_on_loss):
        return None
    return decide_sweep(
        facts.thirds,
        facts.tricks,
        facts.last_trick,
        all_tricks,
        profile.stramazzo_counts,
        facts.monte_thirds,
        profile.monte_cards,
        count_cards=count_cards,
    )
