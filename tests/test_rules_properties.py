"""Properties of scoring over random valid deals of every profile and option."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ledger.errors import FactError, MissingFact
from ledger.rules.build import DealInput, build_facts
from ledger.rules.cards import Card, Rank, Suit, rank_of
from ledger.rules.contracts import Aggravation, Contract, Side
from ledger.rules.facts import DealFacts
from ledger.rules.heaps import Shape, TrickFacts, allowed
from ledger.rules.options import OPTIONS, Kind
from ledger.rules.profiles import DEFAULTS, Lead, Partnership, Profile, make_profile
from ledger.rules.scoring import DealResult, score
from ledger.rules.sweeps import Sweep
from ledger.summary import explanation

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Ezio", "Fede")
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

    def active(self) -> tuple[str, ...]:
        """Who holds cards."""
        return DealFacts(players=self.players, dealer=self.dealer).active(self.profile)


def _values(option: str) -> st.SearchStrategy[object]:
    """Any value the option takes (multipliers kept small)."""
    kind = OPTIONS[option].kind
    if kind is Kind.CHOICE:
        return st.sampled_from(OPTIONS[option].choices)
    return {Kind.SWITCH: st.booleans(), Kind.NUMBER: st.integers(1, 6), Kind.LIMIT: st.none() | st.integers(1, 1000)}[
        kind
    ]


@st.composite
def profiles(draw: st.DrawFn) -> Profile:
    """Any profile with any value of every option it has (quintiglio's mediatore_outbids_chiamo only with
    mediatore, which it needs)."""
    name = draw(st.sampled_from(sorted(DEFAULTS)))
    options: dict[str, object] = {}
    for option in DEFAULTS[name]:
        options[option] = draw(_values(option))
    if name == "quintiglio" and not options["mediatore"]:
        options["mediatore_outbids_chiamo"] = False
    return make_profile(name, options)


def _fitting(shape: Shape, thirds: int, tricks: int | None, last: Side | None, monte: int | None) -> list[TrickFacts]:
    """The deals 40 cards allow with the facts given, in a set order."""
    return sorted(
        allowed(shape, thirds, tricks, last, monte),
        key=lambda deal: (deal.tricks, deal.last_trick.value, deal.monte_thirds),
    )


def _trick_facts(draw: st.DrawFn, thirds: int, shape: Shape) -> tuple[int | None, str | None]:
    """Tricks and last trick that 40 cards allow with the thirds; always the tricks at 0 and 35 thirds."""
    possible = sorted({deal.tricks for deal in _fitting(shape, thirds, None, None, None)})
    tricks = draw(st.sampled_from(possible) if thirds in (0, 35) else st.none() | st.sampled_from(possible))
    last = draw(st.none() | st.sampled_from(_sides(shape, thirds, tricks, None)))
    return tricks, last.value if last else None


def _sides(shape: Shape, thirds: int, tricks: int | None, monte_thirds: int | None) -> list[Side]:
    """Who can have taken the last trick, given the thirds (and the tricks, and the monte's thirds)."""
    return sorted(
        {deal.last_trick for deal in _fitting(shape, thirds, tricks, None, monte_thirds)}, key=list(Side).index
    )


def _montes(shape: Shape, thirds: int, tricks: int | None, last: Side | None) -> list[int]:
    """The thirds the monte can hold with the other facts."""
    return sorted({deal.monte_thirds for deal in _fitting(shape, thirds, tricks, last, None)})


def _completed(draw: st.DrawFn, deal: Deal) -> Deal:
    """The deal with each fact the rules ask for (the last trick, the monte's thirds) drawn consistently."""
    while True:
        try:
            score(deal.facts(), deal.profile)
        except MissingFact as missing:
            typed, rules = deal.typed, deal.profile
            assert typed.thirds is not None
            shape = Shape(rules.tricks_per_deal(len(deal.active())), rules.monte_cards)
            if missing.fact == "last_trick":
                sides = _sides(shape, typed.thirds, typed.tricks, typed.monte_thirds)
                side = draw(st.sampled_from(sides))
                deal = replace(deal, typed=replace(typed, last_trick=side.value))
            else:
                assert missing.fact == "monte_thirds", missing.fact
                last = Side(typed.last_trick) if typed.last_trick else None
                thirds = draw(st.sampled_from(_montes(shape, typed.thirds, typed.tricks, last)))
                deal = replace(deal, typed=replace(typed, monte_thirds=thirds))
            continue
        return deal


@st.composite
def deals(draw: st.DrawFn, calling: bool = False) -> Deal:
    """A random valid deal; with `calling`, of a contract that calls a card."""
    profile = draw(profiles())
    count = draw(st.sampled_from([n for n in profile.seat_counts if profile.sits_out(n) or not profile.dealer_shares]))
    players = NAMES[:count]
    dealer = draw(st.sampled_from(players))
    probe = DealFacts(players=players, dealer=dealer)
    active = probe.active(profile)
    declarer = draw(st.sampled_from(active))
    contracts = profile.contracts & profile.calls_card if calling else profile.contracts
    assume(contracts)
    contract = draw(st.sampled_from(sorted(contracts, key=lambda c: c.value)))
    aggravation = None
    if contract is Contract.SOLISSIMO:
        aggravation = draw(st.sampled_from([None, "dividete", "scegliete", "sceliete"]))
    called = holder = None
    if contract in profile.calls_card:
        ranks = sorted(profile.callable_ranks or Rank, key=list(Rank).index)
        rank = draw(st.sampled_from(ranks))
        called = draw(st.sampled_from([str(rank)] + [str(Card(suit, rank)) for suit in Suit]))
        holders = [p for p in active if p != declarer] + (["declarer"] if profile.call_own_card else [])
        holders += ["monte"] if profile.has_monte else []
        needed = profile.partnership is not Partnership.NONE and contract is Contract.CHIAMO
        holder = draw(st.sampled_from(holders) if needed else st.none() | st.sampled_from(holders))
        called = draw(st.none() | st.just(called))
    d = draw(st.integers(0, 35))
    all_tricks = profile.tricks_per_deal(len(active))
    shape = Shape(all_tricks, profile.monte_cards)
    tricks, last = _trick_facts(draw, d, shape)
    monte = None
    if profile.monte_cards:
        monte = draw(st.none() | st.sampled_from(_montes(shape, d, tricks, Side(last) if last else None)))
    passed_before = draw(st.integers(0, 4)) if profile.pot_carryover else 0
    typed = DealInput(
        declarer=declarer,
        contract=profile.word(contract),
        aggravation=aggravation,
        called=called,
        holder=holder,
        thirds=d,
        tricks=tricks,
        last_trick=last,
        monte_thirds=monte,
        passed_before=passed_before,
    )
    return _completed(draw, Deal(profile, players, dealer, typed))


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
    pot = 1 + facts.passed_before if profile.options["pot_carryover"] else 1
    if profile.name == "cavendish":
        d = facts.thirds
        assert d is not None
        capp = result.sweep is Sweep.CAPPOTTO
        assert result.amount == (70 if capp else abs(2 * d - 35)) * pot
        assert result.multiplier == pot
        return
    valued = profile.name == "pagat" or bool(profile.options.get("contract_multipliers"))
    base = {Contract.CHIAMO: 1, Contract.MEDIATORE: 1, Contract.SOLO: 2, Contract.SOLISSIMO: 4}[facts.contract]
    base = base if valued else 1
    base *= {None: 1, Aggravation.DIVIDETE: 2, Aggravation.SCEGLIETE: 4}[facts.aggravation]
    sweep_factor = {
        None: 1,
        Sweep.CAPPOTTO: profile.options.get("cappotto_multiplier"),
        Sweep.STRAMAZZO: profile.options.get("stramazzo_multiplier"),
    }[result.sweep]
    assert result.multiplier == sweep_factor * pot
    assert result.amount == base * result.multiplier
    if not profile.sweeps or (not result.declarer_won and not profile["sweeps_on_loss"]):
        assert result.sweep is None


def check_explanation(deal: Deal, facts: DealFacts, result: DealResult) -> None:
    assert str(result.amount) in explanation(result)
    assert (
        f"= {result.amount}" in explanation(result)
        or f": {result.amount}" in explanation(result)
        or f"cappotto {result.amount}" in explanation(result)
    )
    assert ("from each opponent" if result.declarer_won else "to each opponent") in explanation(result)
    assert "\n" not in explanation(result)


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
@given(deals(), st.data())
def test_swapping_d_and_35_minus_d_flips_declarer_won(deal: Deal, data: st.DataObject) -> None:
    d = deal.typed.thirds
    assert d is not None
    facts, result = _scored(deal)
    # the mirrored deal: the trick and last-trick facts swap sides too
    all_tricks = deal.profile.tricks_per_deal(len(facts.active(deal.profile)))
    mirror_last = {"declarer": "opponents", "opponents": "declarer", None: None}[deal.typed.last_trick]
    mirror_tricks = None if deal.typed.tricks is None else all_tricks - deal.typed.tricks
    mirrored = replace(deal, typed=replace(deal.typed, thirds=35 - d, tricks=mirror_tricks, last_trick=mirror_last))
    # a fact only the mirrored deal needs: a sweep there counts, not here (sweeps_on_loss=off)
    _, flipped = _scored(_completed(data.draw, mirrored))
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
@given(deals(calling=True), st.data())
def test_calling_a_card_of_ones_own_hand_is_refused_where_call_own_card_is_off(deal: Deal, data: st.DataObject) -> None:
    """Where call_own_card is off, a called card held by the declarer (written `declarer` or by the declarer's
    name) is refused as that holder; where on, it is scored with the declarer alone."""
    facts = deal.facts()
    assume(facts.contract in deal.profile.calls_card)
    own = replace(deal, typed=replace(deal.typed, holder=data.draw(st.sampled_from(["declarer", facts.declarer]))))
    if deal.profile.call_own_card:
        assert score(own.facts(), own.profile).partner is None
        return
    with pytest.raises(FactError) as refused:
        own.facts()
    assert (refused.value.fact, refused.value.value) == ("holder", "declarer")
    assert "call_own_card=off" in str(refused.value) and "\n" not in str(refused.value)


@SETTINGS
@given(deals())
def test_first_lead_is_recorded_and_does_not_change_payouts(deal: Deal) -> None:
    facts, result = _scored(deal)
    active = facts.active(deal.profile)
    always = deal.profile["declarer_always_leads"]
    if always or facts.contract is Contract.SOLISSIMO:
        assert result.first_lead == result.declarer
    elif deal.profile.lead is Lead.DECLARER_LEFT:
        assert result.first_lead == active[active.index(result.declarer) - 1] != result.declarer
    else:
        assert result.first_lead == active[0]
    other = make_profile(deal.profile.name, {**deal.profile.options, "declarer_always_leads": not always})
    assert score(build_facts(deal.typed, other, deal.players, deal.dealer), other).payouts == result.payouts


@SETTINGS
@given(deals(calling=True), st.data())
def test_a_called_cards_suit_changes_nothing_the_rules_give(deal: Deal, data: st.DataObject) -> None:
    """The same deal calling a card of the same rank in another suit, or the rank alone, scores alike: an import
    scores such deals once (`ledger.store.rescoring`)."""
    facts = deal.facts()
    assume(facts.called is not None)
    rank = rank_of(facts.called)
    other = data.draw(st.sampled_from([rank, *(Card(suit, rank) for suit in Suit)]))
    assert score(replace(facts, called=other), deal.profile) == score(facts, deal.profile)
