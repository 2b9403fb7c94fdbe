"""Properties of scoring over random valid deals of every profile and option."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.rules.build import DealInput, build_facts
from ledger.rules.contracts import Contract, Side
from ledger.rules.facts import DealFacts
from ledger.rules.profiles import Profile, make_profile
from ledger.rules.scoring import DealResult, score
from ledger.rules.sweeps import Sweep, possible_tricks, within_reach

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Ezio", "Fede")
CONTRACT_WORD = {
    Contract.CHIAMO: "chiamo",
    Contract.MEDIATORE: "mediatore",
    Contract.SOLO: "solo",
    Contract.SOLISSIMO: "solissimo",
}
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class Deal:
    """A random valid deal: the profile, the seats and dealer, and the deal as typed."""

    profile: Profile
    players: tuple[str, ...]
    dealer: str
    typed: DealInput

    def facts(self) -> DealFacts:
        return build_facts(self.typed, self.profile, self.players, self.dealer)


@st.composite
def profiles(draw: st.DrawFn) -> Profile:
    name = draw(st.sampled_from(["pagat", "cavendish", "tretre", "quartiglio", "quintiglio"]))
    options: dict[str, object] = {"declarer_always_leads": draw(st.booleans())}
    if name != "cavendish":
        options |= {
            "sweeps": draw(st.booleans()),
            "cappotto_multiplier": draw(st.integers(1, 6)),
            "stramazzo_multiplier": draw(st.integers(1, 6)),
            "sweeps_on_loss": draw(st.booleans()),
        }
    if name == "pagat":
        options["dealer_shares"] = draw(st.booleans())
    if name == "tretre":
        options |= {"contract_multipliers": draw(st.booleans()), "pot_carryover": draw(st.booleans())}
    if name == "quartiglio":
        options |= {"monte": draw(st.booleans()), "mediatore_outbids_chiamo": draw(st.booleans())}
    if name == "quintiglio":
        options["mediatore"] = draw(st.booleans())
    return make_profile(name, options)


def _trick_facts(draw: st.DrawFn, thirds: int, all_tricks: int, monte: int) -> tuple[int | None, str | None]:
    """Tricks and last trick consistent with the thirds; always the ones the sweep table needs."""
    possible = possible_tricks(thirds, None, all_tricks, monte)
    tricks = draw(st.sampled_from(possible) if thirds in (0, 35) else st.none() | st.sampled_from(possible))
    sides = [
        side
        for side in (Side.DECLARER, Side.OPPONENTS)
        if any(
            within_reach(thirds, k, side is Side.DECLARER, all_tricks, monte)
            for k in (possible if tricks is None else [tricks])
        )
    ]
    needs_last = 3 <= thirds <= 5 or 30 <= thirds <= 32
    last = draw(st.sampled_from(sides)) if needs_last else draw(st.none() | st.sampled_from(sides))
    return tricks, last.value if last else None


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    profile = draw(profiles())
    count = draw(st.sampled_from([n for n in profile.seat_counts if profile.sits_out(n) or not profile.dealer_shares]))
    players = NAMES[:count]
    dealer = draw(st.sampled_from(players))
    probe = DealFacts(players=players, dealer=dealer)
    active = probe.active(profile)
    declarer = draw(st.sampled_from(active))
    contract = draw(st.sampled_from(sorted(profile.contracts, key=lambda c: c.value)))
    aggravation = None
    if contract is Contract.SOLISSIMO:
        aggravation = draw(st.sampled_from([None, "dividete", "scegliete"]))
    called = holder = None
    if contract in (Contract.CHIAMO, Contract.MEDIATORE) and profile.name != "cavendish":
        threes_only = profile.name in ("quartiglio", "quintiglio")
        called = draw(st.sampled_from(["3D", "3C", "3S", "3B"] if threes_only else ["3D", "AC", "RS", "2B", "7D"]))
        holders = [p for p in active if p != declarer] + ["declarer"] + (["monte"] if profile.has_monte else [])
        holder = draw(st.sampled_from(holders) if threes_only else st.none() | st.sampled_from(holders))
        if not threes_only:
            called = draw(st.none() | st.just(called))
    d = draw(st.integers(0, 35))
    tricks, last = _trick_facts(draw, d, profile.tricks_per_deal(len(active)), profile.monte_cards)
    passed_before = draw(st.integers(0, 4)) if profile.pot_carryover else 0
    typed = DealInput(
        declarer=declarer,
        contract="play" if profile.name == "cavendish" else CONTRACT_WORD[contract],
        aggravation=aggravation,
        called=called,
        holder=holder,
        thirds=d,
        tricks=tricks,
        last_trick=last,
        passed_before=passed_before,
    )
    return Deal(profile, players, dealer, typed)


def _scored(deal: Deal) -> tuple[DealFacts, DealResult]:
    facts = deal.facts()
    return facts, score(facts, deal.profile)


def check_payouts_sum_to_zero(deal: Deal, facts: DealFacts, result: DealResult) -> None:
    assert list(result.payouts) == list(deal.players)
    assert all(type(points) is int for points in result.payouts.values())
    assert sum(result.payouts.values()) == 0
    assert result.amount > 0
    assert result.payouts[result.declarer] != 0


def check_dealer_sitting_out(deal: Deal, facts: DealFacts, result: DealResult) -> None:
    out = facts.sitting_out(deal.profile)
    three_player = deal.profile.name in ("pagat", "cavendish", "tretre")
    assert (out is not None) == (three_player and len(deal.players) == 4)
    assert out in (None, deal.dealer)
    assert result.sitting_out == out
    if out is None:
        return
    if deal.profile.options.get("dealer_shares"):
        assert result.payouts[out] == -result.payouts[result.declarer] // 3
        assert result.payouts[out] != 0
    else:
        assert result.payouts[out] == 0


def check_payouts_are_amount_multiples(deal: Deal, facts: DealFacts, result: DealResult) -> None:
    amount, sign = result.amount, (1 if result.declarer_won else -1)
    declarer, partner = result.declarer, result.partner
    opponents = set(result.opponents)
    assert declarer not in opponents and partner not in opponents
    for player, points in result.payouts.items():
        if player in opponents:
            assert points == -sign * amount
        elif player == partner:
            assert points == sign * amount
        elif player != declarer:
            assert points == 0 and player == result.sitting_out
    expected_declarer = sign * amount * (len(opponents) - (1 if partner else 0))
    assert result.payouts[declarer] == expected_declarer
    name = deal.profile.name
    if name in ("pagat", "cavendish", "tretre"):
        shares = bool(deal.profile.options.get("dealer_shares")) and result.sitting_out is not None
        assert partner is None and len(opponents) == (3 if shares else 2)
    elif name == "quartiglio":
        assert len(opponents) == (2 if partner else 3)
        assert abs(result.payouts[declarer]) == (amount if partner else 3 * amount)
    else:
        assert len(opponents) == (3 if partner else 4)
        assert abs(result.payouts[declarer]) == (2 * amount if partner else 4 * amount)
    assert (partner is not None) == (
        name in ("quartiglio", "quintiglio")
        and facts.contract is Contract.CHIAMO
        and facts.holder not in ("monte", "declarer")
    )


def check_amount_formula(deal: Deal, facts: DealFacts, result: DealResult) -> None:
    profile = deal.profile
    if profile.name == "cavendish":
        d = facts.thirds
        assert d is not None
        capp = result.sweep is Sweep.CAPPOTTO
        assert result.amount == (70 if capp else abs(2 * d - 35))
        assert result.multiplier == 1
        return
    valued = profile.name == "pagat" or bool(profile.options.get("contract_multipliers"))
    base = {Contract.CHIAMO: 1, Contract.MEDIATORE: 1, Contract.SOLO: 2, Contract.SOLISSIMO: 4}[facts.contract]
    base = base if valued else 1
    base *= {None: 1, "dividete": 2, "scegliete": 4}[deal.typed.aggravation]
    sweep_factor = {
        None: 1,
        Sweep.CAPPOTTO: profile.options.get("cappotto_multiplier"),
        Sweep.STRAMAZZO: profile.options.get("stramazzo_multiplier"),
    }[result.sweep]
    pot = 1 + facts.passed_before if profile.options.get("pot_carryover") else 1
    assert result.multiplier == sweep_factor * pot
    assert result.amount == base * result.multiplier
    if not profile.sweeps or (not result.declarer_won and not profile["sweeps_on_loss"]):
        assert result.sweep is None


def check_explanation(deal: Deal, facts: DealFacts, result: DealResult) -> None:
    assert str(result.amount) in result.explanation
    assert (
        f"= {result.amount}" in result.explanation
        or f": {result.amount}" in result.explanation
        or f"cappotto {result.amount}" in result.explanation
    )
    assert ("from each opponent" if result.declarer_won else "to each opponent") in result.explanation
    assert "\n" not in result.explanation


def check_to_dict(deal: Deal, facts: DealFacts, result: DealResult) -> None:
    data = result.to_dict()
    assert data["payouts"] == result.payouts and data["amount"] == result.amount
    assert data["passed"] is False and data["declarer_thirds"] == deal.typed.thirds


CHECKS = (
    check_payouts_sum_to_zero,
    check_dealer_sitting_out,
    check_payouts_are_amount_multiples,
    check_amount_formula,
    check_explanation,
    check_to_dict,
)


@SETTINGS
@given(deals())
def test_invariants_of_random_valid_deals(deal: Deal) -> None:
    """Payouts are ints summing to zero; the dealer sitting out gets 0 unless dealer_shares; |payouts| are the
    amount times what the profile says; the amount is contract x aggravation x multiplier; the explanation
    shows the amount."""
    facts, result = _scored(deal)
    for check in CHECKS:
        check(deal, facts, result)


@SETTINGS
@given(deals())
def test_swapping_d_and_35_minus_d_flips_declarer_won(deal: Deal) -> None:
    d = deal.typed.thirds
    assert d is not None
    facts, result = _scored(deal)
    # the mirrored deal: the trick and last-trick facts swap sides too
    all_tricks = deal.profile.tricks_per_deal(len(facts.active(deal.profile)))
    mirror_last = {"declarer": "opponents", "opponents": "declarer", None: None}[deal.typed.last_trick]
    mirror_tricks = None if deal.typed.tricks is None else all_tricks - deal.typed.tricks
    mirrored = replace(deal, typed=replace(deal.typed, thirds=35 - d, tricks=mirror_tricks, last_trick=mirror_last))
    _, flipped = _scored(mirrored)
    assert result.declarer_won is (d >= 18)
    assert flipped.declarer_won is (not result.declarer_won)
    if deal.profile.options.get("sweeps_on_loss", True) or (result.sweep is None and flipped.sweep is None):
        # the sweep table is symmetric: the same deal seen from the other side pays the same, reversed
        assert flipped.sweep is result.sweep
        assert flipped.amount == result.amount
        assert flipped.payouts == {player: -points for player, points in result.payouts.items()}
    else:
        # sweeps_on_loss=off: only the winner's sweep counts
        loser = flipped if result.declarer_won else result
        assert loser.sweep is None


@SETTINGS
@given(deals())
def test_first_lead_is_recorded_and_does_not_change_payouts(deal: Deal) -> None:
    facts, result = _scored(deal)
    active = facts.active(deal.profile)
    always = deal.profile["declarer_always_leads"]
    if always or facts.contract is Contract.SOLISSIMO:
        assert result.first_lead == result.declarer
    else:
        assert result.first_lead == active[0]
    other = make_profile(deal.profile.name, {**deal.profile.options, "declarer_always_leads": not always})
    assert score(build_facts(deal.typed, other, deal.players, deal.dealer), other).payouts == result.payouts
