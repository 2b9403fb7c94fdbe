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

from ledger.frozen import freeze
from ledger.i18n import _
from ledger.rules.cards import DEAL_THIRDS
from ledger.rules.contracts import Aggravation, Contract
from ledger.rules.facts import MONTE, DealFacts
from ledger.rules.profiles import Partnership, Profile, Tariff
from ledger.rules.sweeps import Sweep, decide_sweep
from ledger.rules.validate import validate

WIN_THIRDS = 18
AGGRAVATION_FACTOR = {Aggravation.DIVIDETE: 2, Aggravation.SCEGLIETE: 4}
CAVENDISH_SWEEP = 70


@dataclass(frozen=True)
class DealResult:
    """A scored deal: who won what, with a one-line explanation a player can check by hand, written in the
    language in use when the deal is scored (and stored as written)."""

    payouts: Mapping[str, int]
    explanation: str
    declarer: str | None = None
    contract: Contract | None = None
    aggravation: Aggravation | None = None
    partner: str | None = None
    declarer_thirds: int | None = None
    declarer_won: bool | None = None
    sweep: Sweep | None = None
    multiplier: int = 1
    amount: int = 0
    sitting_out: str | None = None
    first_lead: str | None = None
    opponents: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        freeze(self, "payouts")

    @property
    def passed(self) -> bool:
        """No declarer: everyone passed."""
        return self.declarer is None

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values."""
        return {
            "passed": self.passed,
            "declarer": self.declarer,
            "contract": self.contract.value if self.contract else None,
            "aggravation": self.aggravation.value if self.aggravation else None,
            "partner": self.partner,
            "declarer_thirds": self.declarer_thirds,
            "declarer_won": self.declarer_won,
            "sweep": self.sweep.value if self.sweep else None,
            "multiplier": self.multiplier,
            "amount": self.amount,
            "payouts": dict(self.payouts),
            "sitting_out": self.sitting_out,
            "first_lead": self.first_lead,
            "explanation": self.explanation,
        }


def score(facts: DealFacts, profile: Profile) -> DealResult:
    """Validate the facts and score them; payouts are integers summing to zero."""
    validate(facts, profile)
    return score_valid(facts, profile)


def score_valid(facts: DealFacts, profile: Profile) -> DealResult:
    """Score facts already validated (`build_facts` returns them so); payouts are integers summing to zero."""
    out = facts.sitting_out(profile)
    if facts.passed:
        why = _("all passed: no payment") + (
            _("; the stake rides on the next played deal") if profile.pot_carryover else ""
        )
        return DealResult({p: 0 for p in facts.players}, why, sitting_out=out, first_lead=facts.first_lead(profile))
    assert facts.declarer is not None and facts.contract is not None and facts.thirds is not None
    won = facts.thirds >= WIN_THIRDS
    partner = facts.partner(profile)
    opponents = tuple(p for p in facts.active(profile) if p not in (facts.declarer, partner))
    if out and profile.dealer_shares:
        opponents += (out,)
    if profile.tariff is Tariff.DIFFERENCE:
        sweep, difference, formula = _difference(facts, profile)
        pot = _pot(facts)
        multiplier = prod(value for _, value in pot)
        amount = difference * multiplier
        formula += "".join(f" x {label} {value} = {amount}" for label, value in pot)
    else:
        factors, sweep, multiplier = _factors(facts, profile, won)
        amount = prod(value for _, value in factors)
        formula = " x ".join(f"{label} {value}" for label, value in factors) + f" = {amount}"
    sign = 1 if won else -1
    payouts = {p: 0 for p in facts.players}
    for opponent in opponents:
        payouts[opponent] = -sign * amount
    if partner:
        payouts[partner] = sign * amount
    payouts[facts.declarer] = sign * amount * len(opponents) - (amount * sign if partner else 0)
    each = _("{formula} from each opponent") if won else _("{formula} to each opponent")
    notes = [each.format(formula=formula)]
    notes += _notes(facts, profile, partner, out)
    return DealResult(
        payouts,
        "; ".join(notes),
        declarer=facts.declarer,
        contract=facts.contract,
        aggravation=facts.aggravation,
        partner=partner,
        declarer_thirds=facts.thirds,
        declarer_won=won,
        sweep=sweep,
        multiplier=multiplier,
        amount=amount,
        sitting_out=out,
        first_lead=facts.first_lead(profile),
        opponents=opponents,
    )


def _factors(facts: DealFacts, profile: Profile, won: bool) -> tuple[list[tuple[str, int]], Sweep | None, int]:
    """The labelled factors of the amount per opponent, the sweep, and the multiplier on the contract."""
    assert facts.contract is not None and facts.thirds is not None
    factors = [(facts.contract.value, profile.value(facts.contract))]
    if facts.aggravation:
        factors.append((facts.aggravation.value, AGGRAVATION_FACTOR[facts.aggravation]))
    sweep = None
    if profile.sweeps and (won or profile.sweeps_on_loss):
        all_tricks = profile.tricks_per_deal(len(facts.active(profile)))
        sweep = decide_sweep(
            facts.thirds,
            facts.tricks,
            facts.last_trick,
            all_tricks,
            profile.stramazzo_counts,
            facts.monte_thirds,
            profile.monte_cards,
        )
    multipliers = [(sweep.value, profile.multiplier(sweep.value))] if sweep else []
    multipliers += _pot(facts)
    return factors + multipliers, sweep, prod(value for _, value in multipliers)


def _pot(facts: DealFacts) -> list[tuple[str, int]]:
    """The pot of the passed deals before this one, as a labelled factor (none when no deal passed)."""
    if not facts.passed_before:
        return []
    return [(_("pot ({passed} passed)").format(passed=facts.passed_before), facts.passed_before + 1)]


def _difference(facts: DealFacts, profile: Profile) -> tuple[Sweep | None, int, str]:
    """American scoring: the difference of the two sides' points, or 70 for all tricks or none."""
    assert facts.thirds is not None
    if facts.thirds in (0, DEAL_THIRDS):
        all_tricks = profile.tricks_per_deal(len(facts.active(profile)))
        if decide_sweep(facts.thirds, facts.tricks, facts.last_trick, all_tricks) is Sweep.CAPPOTTO:
            side = _("all tricks") if facts.thirds else _("no tricks")
            return Sweep.CAPPOTTO, CAVENDISH_SWEEP, f"{side}: cappotto {CAVENDISH_SWEEP}"
    other = DEAL_THIRDS - facts.thirds
    difference = facts.thirds - other
    return None, abs(difference), f"{facts.thirds} - {other} = {difference}: {abs(difference)}"


def _notes(facts: DealFacts, profile: Profile, partner: str | None, out: str | None) -> list[str]:
    notes = []
    if partner:
        notes.append(
            _("{partner} held the called three and partners {declarer}").format(
                partner=partner, declarer=facts.declarer
            )
        )
    elif facts.holder == MONTE and profile.partnership is not Partnership.NONE and facts.contract is Contract.CHIAMO:
        notes.append(_("the called three was in the monte: the declarer plays alone"))
    if out:
        notes.append(sitting_out_note(out, shares=profile.dealer_shares))
    return notes


def sitting_out_note(dealer: str, *, shares: bool) -> str:
    """What the dealer who holds no cards does: `Dario deals and sits out`, or pays and receives (dealer_shares)."""
    if shares:
        return _("{dealer} deals and pays and receives as an opponent").format(dealer=dealer)
    return _("{dealer} deals and sits out").format(dealer=dealer)
