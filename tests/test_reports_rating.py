"""The season's skill rating: the sides of a stored deal, and openskill's Plackett-Luce ratings over a season.

The expected numbers are never copied from the module: they are computed here with openskill itself, or follow from
the scale the module promises (a new player at mu 25, sigma 25/3, rating mu - 3 * sigma = 0).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from ledger.reports.rating import Side, Skill, season_skill, sides

MU = 25.0
SIGMA = 25.0 / 3.0


def by_name(skills: list[Skill]) -> dict[str, Skill]:
    names = [s.player for s in skills]
    assert len(set(names)) == len(names), names
    return {s.player: s for s in skills}


def as_sets(side: Side | None) -> tuple[frozenset[str], frozenset[str]] | None:
    """A side compared whatever the order of the players in each team (a team's rating does not depend on it)."""
    return None if side is None else (frozenset(side.winners), frozenset(side.losers))


# --- sides ------------------------------------------------------------------------------------------------------


SIDES_CASES = [
    pytest.param(
        {"Anna": "declarer", "Bruno": "opponent", "Carla": "opponent"},
        {"Anna": 4, "Bruno": -2, "Carla": -2},
        ({"Anna"}, {"Bruno", "Carla"}),
        id="three players, solo won: 1 v 2",
    ),
    pytest.param(
        {"Anna": "opponent", "Bruno": "opponent", "Carla": "declarer"},
        {"Anna": 3, "Bruno": 3, "Carla": -6},
        ({"Anna", "Bruno"}, {"Carla"}),
        id="three players, solo lost: the two win",
    ),
    pytest.param(
        {"Anna": "declarer", "Bruno": "opponent", "Carla": "partner", "Dario": "opponent"},
        {"Anna": -2, "Bruno": 2, "Carla": -2, "Dario": 2},
        ({"Bruno", "Dario"}, {"Anna", "Carla"}),
        id="four players, chiamo lost: 2 v 2",
    ),
    pytest.param(
        {"Anna": "opponent", "Bruno": "opponent", "Carla": "declarer", "Dario": "opponent"},
        {"Anna": -2, "Bruno": -2, "Carla": 6, "Dario": -2},
        ({"Carla"}, {"Anna", "Bruno", "Dario"}),
        id="four players, solo won: 1 v 3",
    ),
    pytest.param(
        {"Anna": "opponent", "Bruno": "declarer", "Carla": "opponent", "Dario": "partner", "Elena": "opponent"},
        {"Anna": -2, "Bruno": 4, "Carla": -2, "Dario": 2, "Elena": -2},
        ({"Bruno", "Dario"}, {"Anna", "Carla", "Elena"}),
        id="quintiglio chiamo won: 2 v 3",
    ),
    pytest.param(
        {"Anna": "opponent", "Bruno": "declarer", "Carla": "opponent", "Dario": "partner", "Elena": "opponent"},
        {"Anna": 2, "Bruno": -4, "Carla": 2, "Dario": -2, "Elena": 2},
        ({"Anna", "Carla", "Elena"}, {"Bruno", "Dario"}),
        id="quintiglio chiamo lost: the three win",
    ),
    pytest.param(
        {"Anna": "declarer", "Bruno": "opponent", "Carla": "opponent", "Dario": "opponent", "Elena": "opponent"},
        {"Anna": 8, "Bruno": -2, "Carla": -2, "Dario": -2, "Elena": -2},
        ({"Anna"}, {"Bruno", "Carla", "Dario", "Elena"}),
        id="quintiglio solo won (or the called card in the declarer's own hand): 1 v 4",
    ),
    pytest.param(
        {"Anna": "out", "Bruno": "declarer", "Carla": "opponent", "Dario": "opponent"},
        {"Anna": 0, "Bruno": 4, "Carla": -2, "Dario": -2},
        ({"Bruno"}, {"Carla", "Dario"}),
        id="four seated, the dealer out: 1 v 2 without the dealer",
    ),
    pytest.param(
        {"Anna": "opponent", "Bruno": "out", "Carla": "partner", "Dario": "declarer", "Elena": "opponent"},
        {"Anna": 2, "Bruno": 0, "Carla": -2, "Dario": -2, "Elena": 2},
        ({"Anna", "Elena"}, {"Carla", "Dario"}),
        id="five seated, the dealer out, chiamo lost",
    ),
    pytest.param(
        {"Anna": "passed", "Bruno": "passed", "Carla": "passed"},
        {"Anna": 0, "Bruno": 0, "Carla": 0},
        None,
        id="passed deal",
    ),
    pytest.param(
        {"Anna": "out", "Bruno": "passed", "Carla": "passed", "Dario": "passed"},
        {"Anna": 0, "Bruno": 0, "Carla": 0, "Dario": 0},
        None,
        id="passed deal with the dealer out",
    ),
    pytest.param(
        {"Anna": "declarer", "Bruno": "opponent", "Carla": "opponent"},
        {"Anna": 0, "Bruno": 0, "Carla": 0},
        None,
        id="declarer neither won nor lost",
    ),
]


@pytest.mark.parametrize(("roles", "points", "expected"), SIDES_CASES)
def test_sides(roles: Mapping[str, str], points: Mapping[str, int], expected: tuple[set[str], set[str]] | None) -> None:
    side = sides(roles, points)
    if expected is None:
        assert side is None
    else:
        assert side is not None
        assert as_sets(side) == (frozenset(expected[0]), frozenset(expected[1]))
        assert len(side.winners) == len(expected[0]) and len(side.losers) == len(expected[1])


def test_sides_only_the_declarers_points_decide() -> None:
    """The partner's or the opponents' points do not turn a won deal into a lost one."""
    roles = {"Anna": "declarer", "Bruno": "partner", "Carla": "opponent", "Dario": "opponent"}
    side = sides(roles, {"Anna": 1, "Bruno": -5, "Carla": 7, "Dario": 7})
    assert as_sets(side) == (frozenset({"Anna", "Bruno"}), frozenset({"Carla", "Dario"}))


@pytest.mark.parametrize(
    ("roles", "points"),
    [
        pytest.param({"Anna": "opponent", "Bruno": "opponent"}, {"Anna": 1, "Bruno": -1}, id="no declarer"),
        pytest.param(
            {"Anna": "declarer", "Bruno": "declarer", "Carla": "opponent"},
            {"Anna": 1, "Bruno": 1, "Carla": -2},
            id="two declarers",
        ),
        pytest.param({"Anna": "declarer", "Bruno": "dealer"}, {"Anna": 1, "Bruno": -1}, id="unknown role"),
        pytest.param({"Anna": "declarer", "Bruno": "opponent"}, {"Bruno": -1}, id="declarer's points missing"),
        pytest.param({"Anna": "declarer", "Bruno": "out"}, {"Anna": 2, "Bruno": 0}, id="nobody against"),
    ],
)
def test_sides_refuses_a_deal_it_cannot_read(roles: Mapping[str, str], points: Mapping[str, int]) -> None:
    with pytest.raises(ValueError):
        sides(roles, points)


@pytest.mark.parametrize(
    ("winners", "losers"),
    [((), ("Anna",)), (("Anna",), ()), (("Anna",), ("Anna", "Bruno")), (("Anna", "Anna"), ("Bruno",))],
)
def test_a_side_needs_distinct_players_on_both_sides(winners: tuple[str, ...], losers: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        Side(winners=winners, losers=losers)


# --- the season's skill -----------------------------------------------------------------------------------------


def test_no_deals_no_skills() -> None:
    assert season_skill([]) == []
    assert season_skill(iter(())) == []


def test_a_winner_goes_up_and_a_loser_down() -> None:
    skill = by_name(season_skill([Side(winners=("Anna",), losers=("Bruno", "Carla"))]))
    assert skill["Anna"].mu > MU
    assert skill["Bruno"].mu < MU and skill["Carla"].mu < MU
    # on the conservative figure too: from 0 (25 - 3 * 25/3) the winner rises above it, the losers fall below
    assert skill["Anna"].rating > 0 > skill["Bruno"].rating
    for s in skill.values():
        assert s.sigma < SIGMA
        assert s.rating == pytest.approx(s.mu - 3 * s.sigma)


def test_winning_alone_against_two_counts_more_than_winning_two_against_one() -> None:
    """openskill rates a side by the sum of its players' mu, so two new players are the favourites against one new
    player: the lone declarer who beats them is the bigger surprise and gains more mu than each of two opponents who
    beat a lone declarer; and the other way round, a lone declarer beaten by two loses less than each of two beaten
    by a lone declarer. (Within one deal between new players, every player moves by the same amount: Plackett-Luce
    moves each player by their own sigma squared times the one surprise of the deal, and new players' sigmas are
    equal, so the lone winner gains exactly what each of the two losers loses.)"""
    upset = by_name(season_skill([Side(winners=("Anna",), losers=("Bruno", "Carla"))]))
    expected = by_name(season_skill([Side(winners=("Bruno", "Carla"), losers=("Anna",))]))

    lone_gain = upset["Anna"].mu - MU
    pair_gain = expected["Bruno"].mu - MU
    assert lone_gain > pair_gain > 0
    assert MU - expected["Anna"].mu < MU - upset["Bruno"].mu

    assert lone_gain == pytest.approx(MU - upset["Bruno"].mu, rel=1e-9)
    assert upset["Bruno"].mu == upset["Carla"].mu and upset["Bruno"].sigma == upset["Carla"].sigma


def test_the_same_as_openskill_called_directly() -> None:
    """Two deals rated here with the library itself: a lone declarer winning at three, then a lost quintiglio chiamo
    in which two new players join. Any mix-up of winners and losers, or of who is in which team, moves the numbers."""
    deals = [
        Side(winners=("Anna",), losers=("Bruno", "Carla")),
        Side(winners=("Anna", "Carla", "Elena"), losers=("Bruno", "Dario")),
    ]

    model = PlackettLuce()
    anna, bruno, carla = model.rating(), model.rating(), model.rating()
    # the losing team first, with ranks saying who won: the module's team order need not be copied
    [[bruno, carla], [anna]] = model.rate([[bruno, carla], [anna]], ranks=[2, 1])
    dario, elena = model.rating(), model.rating()
    [[bruno, dario], [elena, anna, carla]] = model.rate([[bruno, dario], [elena, anna, carla]], scores=[0, 1])
    expected = {"Anna": anna, "Bruno": bruno, "Carla": carla, "Dario": dario, "Elena": elena}

    skill = by_name(season_skill(deals))
    assert skill.keys() == expected.keys()
    for name, rating in expected.items():
        assert skill[name].mu == pytest.approx(rating.mu, rel=1e-12), name
        assert skill[name].sigma == pytest.approx(rating.sigma, rel=1e-12), name
        assert skill[name].rating == pytest.approx(rating.ordinal(), rel=1e-12, abs=1e-12), name
    assert {name: s.deals for name, s in skill.items()} == {"Anna": 2, "Bruno": 2, "Carla": 2, "Dario": 1, "Elena": 1}


def four_seated_evening() -> list[tuple[str, Side]]:
    """Twelve deals at four seated, the dealer out in turn, the declarer the one after the dealer, won and lost in
    turn: (the dealer, the deal)."""
    seats = ["Anna", "Bruno", "Carla", "Dario"]
    evening = []
    for number in range(12):
        dealer = seats[number % 4]
        declarer = seats[(number + 1) % 4]
        others = tuple(p for p in seats if p not in (dealer, declarer))
        won = number % 3 != 2
        deal = Side(winners=(declarer,), losers=others) if won else Side(winners=others, losers=(declarer,))
        evening.append((dealer, deal))
    return evening


def test_sigma_shrinks_with_each_deal_played_and_stays_when_sat_out() -> None:
    evening = four_seated_evening()
    before: dict[str, Skill] = {}
    for played, (dealer, _) in enumerate(evening, start=1):
        after = by_name(season_skill(deal for _, deal in evening[:played]))
        for name, skill in after.items():
            start = before[name].sigma if name in before else SIGMA
            if name == dealer:
                assert skill.sigma == start and skill.mu == before[name].mu, (played, name)
            else:
                assert skill.sigma < start, (played, name)
        before = after


def test_deals_counts_only_the_deals_played() -> None:
    evening = four_seated_evening()
    skill = by_name(season_skill(deal for _, deal in evening))
    out = Counter(dealer for dealer, _ in evening)
    assert {name: s.deals for name, s in skill.items()} == {name: len(evening) - out[name] for name in out}
    assert sum(s.deals for s in skill.values()) == 3 * len(evening)


def test_a_player_who_wins_every_deal_ends_first() -> None:
    """Anna wins every deal against the same two, as declarer and beside either of them against the other's solo;
    Bruno and Carla win some too, as partners of one another."""
    deals = []
    for _ in range(4):
        deals += [
            Side(winners=("Anna",), losers=("Bruno", "Carla")),
            Side(winners=("Anna", "Carla"), losers=("Bruno",)),
            Side(winners=("Anna", "Bruno"), losers=("Carla",)),
        ]
    skills = season_skill(deals)
    assert skills[0].player == "Anna"
    assert skills[0].rating > max(s.rating for s in skills[1:])
    assert skills[0].mu > max(s.mu for s in skills[1:])


def test_best_rating_first_and_ties_by_name() -> None:
    deals = [
        Side(winners=("Zeno",), losers=("Carla", "Bruno")),
        Side(winners=("Dario", "Zeno"), losers=("Anna",)),
        Side(winners=("Anna",), losers=("Dario", "Zeno")),
    ]
    skills = season_skill(deals)
    ratings = [s.rating for s in skills]
    assert ratings == sorted(ratings, reverse=True)
    # Bruno and Carla had the same single deal side by side: equal, so by name, whatever the order they were given in
    names = [s.player for s in skills]
    assert names.index("Bruno") + 1 == names.index("Carla")
    assert skills[names.index("Bruno")].rating == skills[names.index("Carla")].rating


HOSTILE = [
    "",
    " ",
    "\x00",
    "Ånna",  # composed
    "A\u030anna",  # the same to the eye, decomposed: another player
    "anna",
    "ANNA",
    "\u202eanidraS",
    "🂡🂮" * 2000,
    "x" * 100_000,
    "'; DROP TABLE players; --",
    "{player}",
    "1e308",
    "NaN",
    "新しいプレイヤー",
    "\ud7ff\ufffd",
]


def test_hostile_names_rate_like_plain_ones() -> None:
    """The rating never depends on a name: the same deals under hostile names give the same numbers, each name kept
    exactly, and players whose names differ only in case or normalisation are different players."""
    plain = [f"p{i:02d}" for i in range(len(HOSTILE))]
    rename = dict(zip(plain, HOSTILE, strict=True))
    deals = []
    for i in range(len(plain)):
        declarer, a, b, c = (plain[(i + k) % len(plain)] for k in (0, 3, 5, 6))
        deals.append(Side(winners=(declarer,), losers=(a, b)) if i % 2 else Side(winners=(a, b, c), losers=(declarer,)))
    hostile = [Side(tuple(rename[p] for p in d.winners), tuple(rename[p] for p in d.losers)) for d in deals]

    expected = by_name(season_skill(deals))
    skill = by_name(season_skill(hostile))
    assert set(skill) == set(HOSTILE)
    for name in plain:
        got, want = skill[rename[name]], expected[name]
        assert (got.mu, got.sigma, got.rating, got.deals) == (want.mu, want.sigma, want.rating, want.deals)


# --- any season -------------------------------------------------------------------------------------------------


@st.composite
def seasons(draw: st.DrawFn) -> list[Side]:
    """Deals among up to 8 players (plain or any text), each with two sides of any sizes, usually uneven."""
    names = draw(
        st.lists(st.sampled_from("ABCDEFGH") | st.text(max_size=12), min_size=2, max_size=8, unique=True),
    )
    deals = []
    for _ in range(draw(st.integers(0, 30))):
        playing = draw(st.permutations(names))[: draw(st.integers(2, len(names)))]
        cut = draw(st.integers(1, len(playing) - 1))
        deals.append(Side(winners=tuple(playing[:cut]), losers=tuple(playing[cut:])))
    return deals


@settings(deadline=None, max_examples=75)
@given(seasons())
def test_any_season_gives_finite_skills_for_exactly_the_players(deals: list[Side]) -> None:
    skills = season_skill(deals)
    played = Counter(name for deal in deals for name in (*deal.winners, *deal.losers))

    assert {s.player: s.deals for s in skills} == dict(played)
    assert len(skills) == len(played)
    assert sum(s.deals for s in skills) == sum(len(d.winners) + len(d.losers) for d in deals)
    for s in skills:
        assert math.isfinite(s.mu) and math.isfinite(s.sigma) and math.isfinite(s.rating)
        assert s.sigma > 0
        assert s.rating == pytest.approx(s.mu - 3 * s.sigma, abs=1e-9)
    assert [(-s.rating, s.player) for s in skills] == sorted((-s.rating, s.player) for s in skills)


@settings(deadline=None, max_examples=50)
@given(seasons().filter(bool))
def test_any_deal_moves_its_winners_up_and_its_losers_down(deals: list[Side]) -> None:
    """Whatever came before, winning a deal raises every winner's mu and losing lowers every loser's; the players who
    sat it out keep theirs."""
    before = by_name(season_skill(deals[:-1]))
    after = by_name(season_skill(deals))
    last = deals[-1]
    for name in last.winners:
        assert after[name].mu > (before[name].mu if name in before else MU), name
    for name in last.losers:
        assert after[name].mu < (before[name].mu if name in before else MU), name
    for name in before.keys() - {*last.winners, *last.losers}:
        assert after[name] == before[name]
