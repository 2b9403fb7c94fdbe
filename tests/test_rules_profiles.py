"""RULES §4 and §6: every profile's payouts and every option value that changes a payout."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_cases import ABC, ABCD, ABCDE, play
from said import raises_said, said

from ledger import Ledger
from ledger.errors import LedgerError, MissingFact
from ledger.rules.build import DealInput
from ledger.rules.profiles import DEFAULTS, make_profile, parse_option, profile_name
from ledger.summary import explanation
from ledger.values import Terms


def row(
    id_: str,
    profile: str,
    options: dict[str, object],
    typed: dict[str, object],
    payouts: dict[str, int],
    players: tuple[str, ...] | None = None,
    dealer: str | None = None,
    **expect: object,
) -> object:
    players = players or {"quartiglio": ABCD, "quintiglio": ABCDE}.get(profile, ABC)
    return pytest.param(profile, options, players, dealer, typed, payouts, expect, id=id_)


def p(*values: int, players: tuple[str, ...] = ABC) -> dict[str, int]:
    return dict(zip(players, values, strict=True))


def p4(*values: int) -> dict[str, int]:
    return p(*values, players=ABCD)


def p5(*values: int) -> dict[str, int]:
    return p(*values, players=ABCDE)


PAGAT = [
    row("contract-chiamo-1", "pagat", {}, {"declarer": "Anna", "contract": "chiamo", "thirds": 20}, p(2, -1, -1)),
    row("contract-solo-2", "pagat", {}, {"declarer": "Anna", "contract": "solo", "thirds": 20}, p(4, -2, -2)),
    row("contract-solissimo-4", "pagat", {}, {"declarer": "Anna", "contract": "solissimo", "thirds": 20}, p(8, -4, -4)),
    row(
        "solissimo-dividete-8",
        "pagat",
        {},
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "dividete", "thirds": 20},
        p(16, -8, -8),
    ),
    row(
        "solissimo-scegliete-16",
        "pagat",
        {},
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "scegliete", "thirds": 20},
        p(32, -16, -16),
    ),
    row(
        "lost-solo-pays-each",
        "pagat",
        {},
        {"declarer": "Anna", "contract": "solo", "thirds": 17},
        p(-4, 2, 2),
        declarer_won=False,
    ),
    row(
        "win-at-exactly-18",
        "pagat",
        {},
        {"declarer": "Anna", "contract": "solo", "thirds": 18},
        p(4, -2, -2),
        declarer_won=True,
    ),
    row(
        "sweeps-on-stramazzo",
        "pagat",
        {},
        {"declarer": "Anna", "contract": "solo", "thirds": 33},
        p(12, -6, -6),
        sweep="stramazzo",
    ),
    row(
        "sweeps-off-no-stramazzo",
        "pagat",
        {"sweeps": "off"},
        {"declarer": "Anna", "contract": "solo", "thirds": 33},
        p(4, -2, -2),
        sweep=None,
        multiplier=1,
    ),
    row(
        "sweeps-off-no-cappotto",
        "pagat",
        {"sweeps": "off"},
        {"declarer": "Anna", "contract": "solo", "thirds": 35, "tricks": 12},
        p(4, -2, -2),
        sweep=None,
    ),
    row(
        "sweeps-off-no-last-trick-asked",
        "pagat",
        {"sweeps": "off"},
        {"declarer": "Anna", "contract": "chiamo", "thirds": 4},
        p(-2, 1, 1),
        sweep=None,
    ),
    row(
        "sweeps-off-no-tricks-asked",
        "pagat",
        {"sweeps": "off"},
        {"declarer": "Anna", "contract": "chiamo", "thirds": 35},
        p(2, -1, -1),
        sweep=None,
    ),
    row(
        "cappotto-multiplier-2",
        "pagat",
        {},
        {"declarer": "Anna", "contract": "solo", "thirds": 35, "tricks": 12},
        p(8, -4, -4),
        sweep="cappotto",
    ),
    row(
        "cappotto-multiplier-5",
        "pagat",
        {"cappotto_multiplier": 5},
        {"declarer": "Anna", "contract": "solo", "thirds": 35, "tricks": 12},
        p(20, -10, -10),
        multiplier=5,
    ),
    row(
        "cappotto-against-multiplier-5",
        "pagat",
        {"cappotto_multiplier": "5"},
        {"declarer": "Anna", "contract": "solo", "thirds": 0, "tricks": 0},
        p(-20, 10, 10),
        sweep="cappotto",
    ),
    row(
        "stramazzo-multiplier-4",
        "pagat",
        {"stramazzo_multiplier": 4},
        {"declarer": "Anna", "contract": "solo", "thirds": 33},
        p(16, -8, -8),
        multiplier=4,
    ),
    row(
        "stramazzo-multiplier-1",
        "pagat",
        {"stramazzo_multiplier": 1},
        {"declarer": "Anna", "contract": "solo", "thirds": 33},
        p(4, -2, -2),
        sweep="stramazzo",
        multiplier=1,
    ),
    row(
        "sweeps-on-loss-on-stramazzo-against",
        "pagat",
        {"sweeps_on_loss": "on"},
        {"declarer": "Anna", "contract": "chiamo", "thirds": 4, "last_trick": "declarer"},
        p(-6, 3, 3),
        sweep="stramazzo",
    ),
    row(
        "sweeps-on-loss-on-cappotto-against",
        "pagat",
        {},
        {"declarer": "Anna", "contract": "solo", "thirds": 0, "tricks": 0},
        p(-8, 4, 4),
        sweep="cappotto",
    ),
    row(
        "sweeps-on-loss-off-stramazzo-against-unmultiplied",
        "pagat",
        {"sweeps_on_loss": "off"},
        {"declarer": "Anna", "contract": "chiamo", "thirds": 4, "last_trick": "declarer"},
        p(-2, 1, 1),
        sweep=None,
    ),
    row(
        "sweeps-on-loss-off-no-last-trick-asked",
        "pagat",
        {"sweeps_on_loss": "off"},
        {"declarer": "Anna", "contract": "chiamo", "thirds": 4},
        p(-2, 1, 1),
        sweep=None,
    ),
    row(
        "sweeps-on-loss-off-no-tricks-asked",
        "pagat",
        {"sweeps_on_loss": "off"},
        {"declarer": "Anna", "contract": "solo", "thirds": 0},
        p(-4, 2, 2),
        sweep=None,
    ),
    row(
        "sweeps-on-loss-off-winner-still-multiplied",
        "pagat",
        {"sweeps_on_loss": "off"},
        {"declarer": "Anna", "contract": "solo", "thirds": 33},
        p(12, -6, -6),
        sweep="stramazzo",
    ),
    row(
        "four-seated-dealer-sits-out",
        "pagat",
        {},
        {"declarer": "Anna", "contract": "solo", "thirds": 20},
        p4(4, -2, -2, 0),
        players=ABCD,
        dealer="Dario",
        sitting_out="Dario",
    ),
    row(
        "dealer-shares-off-explicit",
        "pagat",
        {"dealer_shares": "off"},
        {"declarer": "Anna", "contract": "solo", "thirds": 20},
        p4(4, -2, -2, 0),
        players=ABCD,
        dealer="Dario",
    ),
    row(
        "dealer-shares-on-pays",
        "pagat",
        {"dealer_shares": "on"},
        {"declarer": "Anna", "contract": "solo", "thirds": 20},
        p4(6, -2, -2, -2),
        players=ABCD,
        dealer="Dario",
    ),
    row(
        "dealer-shares-on-receives",
        "pagat",
        {"dealer_shares": "on"},
        {"declarer": "Anna", "contract": "solo", "thirds": 10},
        p4(-6, 2, 2, 2),
        players=ABCD,
        dealer="Dario",
    ),
    row(
        "dealer-shares-on-with-stramazzo",
        "pagat",
        {"dealer_shares": "on"},
        {"declarer": "Bruno", "contract": "chiamo", "thirds": 34},
        p4(-3, 9, -3, -3),
        players=ABCD,
        dealer="Dario",
    ),
    row(
        "dealer-shares-on-dealer-anna",
        "pagat",
        {"dealer_shares": "on"},
        {"declarer": "Bruno", "contract": "solo", "thirds": 20},
        p4(-2, 6, -2, -2),
        players=ABCD,
        dealer="Anna",
    ),
]

CAVENDISH = [
    row(
        "d=22-difference-9",
        "cavendish",
        {},
        {"declarer": "Anna", "contract": "play", "points": "22"},
        p(18, -9, -9),
        amount=9,
    ),
    row(
        "d=18-difference-1",
        "cavendish",
        {},
        {"declarer": "Anna", "contract": "play", "thirds": 18},
        p(2, -1, -1),
        declarer_won=True,
        amount=1,
    ),
    row(
        "d=17-declarer-pays-1",
        "cavendish",
        {},
        {"declarer": "Anna", "contract": "play", "thirds": 17},
        p(-2, 1, 1),
        declarer_won=False,
        amount=1,
    ),
    row(
        "d=5-declarer-pays-25",
        "cavendish",
        {},
        {"declarer": "Anna", "contract": "play", "points": "5"},
        p(-50, 25, 25),
        amount=25,
    ),
    row(
        "d=34-no-stramazzo",
        "cavendish",
        {},
        {"declarer": "Anna", "contract": "play", "thirds": 34},
        p(66, -33, -33),
        sweep=None,
        amount=33,
    ),
    row(
        "d=4-no-stramazzo-no-last-trick-asked",
        "cavendish",
        {},
        {"declarer": "Anna", "contract": "chiamo", "thirds": 4},
        p(-54, 27, 27),
        sweep=None,
    ),
    row(
        "12-tricks-70-from-each",
        "cavendish",
        {},
        {"declarer": "Anna", "contract": "play", "thirds": 35, "tricks": 12},
        p(140, -70, -70),
        amount=70,
    ),
    row(
        "0-tricks-70-to-each",
        "cavendish",
        {},
        {"declarer": "Anna", "contract": "play", "thirds": 0, "tricks": 0},
        p(-140, 70, 70),
        amount=70,
    ),
    row(
        "d=35-11-tricks-35-from-each",
        "cavendish",
        {},
        {"declarer": "Anna", "contract": "play", "thirds": 35, "tricks": 11},
        p(70, -35, -35),
        amount=35,
        sweep=None,
    ),
    row(
        "d=0-2-tricks-35-to-each",
        "cavendish",
        {},
        {"declarer": "Anna", "contract": "play", "thirds": 0, "tricks": 2},
        p(-70, 35, 35),
        amount=35,
        sweep=None,
    ),
    row(
        "four-seated-dealer-sits-out",
        "cavendish",
        {},
        {"declarer": "Bruno", "contract": "play", "thirds": 20},
        p4(-5, 10, -5, 0),
        players=ABCD,
        dealer="Dario",
    ),
]

TRETRE = [
    row("chiamo-+2", "tretre", {}, {"declarer": "Anna", "contract": "chiamo", "thirds": 20}, p(2, -1, -1)),
    row("solo-+2", "tretre", {}, {"declarer": "Anna", "contract": "solo", "thirds": 20}, p(2, -1, -1)),
    row("solissimo-+2", "tretre", {}, {"declarer": "Anna", "contract": "solissimo", "thirds": 20}, p(2, -1, -1)),
    row("lost-solo--2", "tretre", {}, {"declarer": "Anna", "contract": "solo", "thirds": 12}, p(-2, 1, 1)),
    row(
        "dividete-x2",
        "tretre",
        {},
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "dividete", "thirds": 20},
        p(4, -2, -2),
    ),
    row(
        "scegliete-x4",
        "tretre",
        {},
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "scegliete", "thirds": 20},
        p(8, -4, -4),
    ),
    row(
        "lost-scegliete-x4",
        "tretre",
        {},
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "scegliete", "thirds": 2},
        p(-8, 4, 4),
    ),
    row(
        "contract-multipliers-chiamo",
        "tretre",
        {"contract_multipliers": "on"},
        {"declarer": "Anna", "contract": "chiamo", "thirds": 20},
        p(2, -1, -1),
    ),
    row(
        "contract-multipliers-solo-x2",
        "tretre",
        {"contract_multipliers": "on"},
        {"declarer": "Anna", "contract": "solo", "thirds": 20},
        p(4, -2, -2),
    ),
    row(
        "contract-multipliers-solissimo-x4",
        "tretre",
        {"contract_multipliers": "on"},
        {"declarer": "Anna", "contract": "solissimo", "thirds": 20},
        p(8, -4, -4),
    ),
    row(
        "contract-multipliers-solissimo-dividete-x8",
        "tretre",
        {"contract_multipliers": "on"},
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "dividete", "thirds": 20},
        p(16, -8, -8),
    ),
    row(
        "contract-multipliers-solissimo-scegliete-x16",
        "tretre",
        {"contract_multipliers": "on"},
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "scegliete", "thirds": 20},
        p(32, -16, -16),
    ),
    row(
        "sweeps-off-by-default",
        "tretre",
        {},
        {"declarer": "Anna", "contract": "solo", "thirds": 33},
        p(2, -1, -1),
        sweep=None,
    ),
    row(
        "sweeps-on-stramazzo-x3",
        "tretre",
        {"sweeps": "on"},
        {"declarer": "Anna", "contract": "solo", "thirds": 33},
        p(6, -3, -3),
        sweep="stramazzo",
    ),
    row(
        "sweeps-on-cappotto-x2",
        "tretre",
        {"sweeps": "on"},
        {"declarer": "Anna", "contract": "solo", "thirds": 35, "tricks": 12},
        p(4, -2, -2),
        sweep="cappotto",
    ),
    row(
        "sweeps-on-loss-off",
        "tretre",
        {"sweeps": "on", "sweeps_on_loss": "off"},
        {"declarer": "Anna", "contract": "solo", "thirds": 1},
        p(-2, 1, 1),
        sweep=None,
    ),
    row(
        "pot-carryover-1-passed-x2",
        "tretre",
        {},
        {"declarer": "Anna", "contract": "chiamo", "thirds": 20, "passed_before": 1},
        p(4, -2, -2),
        multiplier=2,
    ),
    row(
        "pot-carryover-3-passed-x4",
        "tretre",
        {"pot_carryover": "on"},
        {"declarer": "Anna", "contract": "chiamo", "thirds": 10, "passed_before": 3},
        p(-8, 4, 4),
        multiplier=4,
    ),
    row(
        "pot-and-sweep-and-contract-multipliers",
        "tretre",
        {"pot_carryover": "on", "sweeps": "on", "contract_multipliers": "on"},
        {"declarer": "Anna", "contract": "solo", "thirds": 33, "passed_before": 1},
        p(24, -12, -12),
        multiplier=6,
        amount=12,
    ),
    row(
        "four-seated-dealer-sits-out",
        "tretre",
        {},
        {"declarer": "Anna", "contract": "solo", "thirds": 20},
        p4(2, -1, -1, 0),
        players=ABCD,
        dealer="Dario",
    ),
]

QUARTIGLIO = [
    row(
        "chiamo-2v2-won",
        "quartiglio",
        {},
        {"declarer": "Anna", "contract": "chiamo", "called": "3D", "holder": "Carla", "thirds": 20},
        p4(1, -1, 1, -1),
        partner="Carla",
    ),
    row(
        "chiamo-2v2-lost",
        "quartiglio",
        {},
        {"declarer": "Anna", "contract": "chiamo", "called": "3D", "holder": "Carla", "thirds": 17},
        p4(-1, 1, -1, 1),
        partner="Carla",
    ),
    row(
        "chiamo-three-in-monte-alone-won",
        "quartiglio",
        {},
        {"declarer": "Anna", "contract": "chiamo", "called": "3S", "holder": "monte", "thirds": 20},
        p4(3, -1, -1, -1),
        partner=None,
    ),
    row(
        "chiamo-three-in-monte-alone-lost",
        "quartiglio",
        {},
        {"declarer": "Anna", "contract": "chiamo", "called": "3S", "holder": "monte", "thirds": 9},
        p4(-3, 1, 1, 1),
        partner=None,
    ),
    row(
        "chiamo-own-three-alone",
        "quartiglio",
        {"call_own_card": "on"},
        {"declarer": "Bruno", "contract": "chiamo", "called": "3S", "holder": "declarer", "thirds": 20},
        p4(-1, 3, -1, -1),
        partner=None,
    ),
    row(
        "mediatore-1v3-won",
        "quartiglio",
        {},
        {"declarer": "Anna", "contract": "mediatore", "called": "3B", "holder": "Bruno", "thirds": 20},
        p4(3, -1, -1, -1),
        partner=None,
    ),
    row(
        "mediatore-1v3-lost",
        "quartiglio",
        {},
        {"declarer": "Anna", "contract": "mediatore", "called": "3B", "holder": "Bruno", "thirds": 12},
        p4(-3, 1, 1, 1),
        partner=None,
    ),
    row("solo-1v3", "quartiglio", {}, {"declarer": "Dario", "contract": "solo", "thirds": 20}, p4(-1, -1, -1, 3)),
    row("solo-1v3-lost", "quartiglio", {}, {"declarer": "Dario", "contract": "solo", "thirds": 15}, p4(1, 1, 1, -3)),
    row(
        "solissimo-1v3",
        "quartiglio",
        {},
        {"declarer": "Anna", "contract": "solissimo", "thirds": 20},
        p4(3, -1, -1, -1),
    ),
    row(
        "solissimo-dividete-x2",
        "quartiglio",
        {},
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "dividete", "thirds": 20},
        p4(6, -2, -2, -2),
    ),
    row(
        "solissimo-scegliete-x4",
        "quartiglio",
        {},
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "scegliete", "thirds": 20},
        p4(12, -4, -4, -4),
    ),
    row(
        "monte-off-solo",
        "quartiglio",
        {"monte": "off"},
        {"declarer": "Anna", "contract": "solo", "thirds": 20},
        p4(3, -1, -1, -1),
    ),
    row(
        "monte-off-chiamo-2v2",
        "quartiglio",
        {"monte": "off"},
        {"declarer": "Anna", "contract": "chiamo", "called": "3C", "holder": "Bruno", "thirds": 20},
        p4(1, 1, -1, -1),
    ),
    row(
        "sweeps-off-by-default",
        "quartiglio",
        {},
        {"declarer": "Anna", "contract": "solo", "thirds": 33},
        p4(3, -1, -1, -1),
        sweep=None,
    ),
    row(
        "sweeps-on-chiamo-2v2-stramazzo",
        "quartiglio",
        {"sweeps": "on"},
        {"declarer": "Anna", "contract": "chiamo", "called": "3C", "holder": "Bruno", "thirds": 33},
        p4(3, 3, -3, -3),
        sweep="stramazzo",
    ),
    row(
        "sweeps-on-solo-cappotto-9-tricks",
        "quartiglio",
        {"sweeps": "on"},
        {"declarer": "Anna", "contract": "solo", "thirds": 35, "tricks": 9},
        p4(6, -2, -2, -2),
        sweep="cappotto",
    ),
    row(
        "mediatore-outbids-chiamo-off-mediatore-still-1v3",
        "quartiglio",
        {"mediatore_outbids_chiamo": "off"},
        {"declarer": "Anna", "contract": "mediatore", "called": "3B", "holder": "Bruno", "thirds": 20},
        p4(3, -1, -1, -1),
    ),
]

QUINTIGLIO = [
    row(
        "chiamo-won",
        "quintiglio",
        {},
        {"declarer": "Anna", "contract": "chiamo", "called": "3D", "holder": "Carla", "thirds": 20},
        p5(2, -1, 1, -1, -1),
        partner="Carla",
    ),
    row(
        "chiamo-lost",
        "quintiglio",
        {},
        {"declarer": "Anna", "contract": "chiamo", "called": "3D", "holder": "Carla", "thirds": 11},
        p5(-2, 1, -1, 1, 1),
        partner="Carla",
    ),
    row("solo-won", "quintiglio", {}, {"declarer": "Bruno", "contract": "solo", "thirds": 20}, p5(-1, 4, -1, -1, -1)),
    row("solo-lost", "quintiglio", {}, {"declarer": "Bruno", "contract": "solo", "thirds": 17}, p5(1, -4, 1, 1, 1)),
    row(
        "mediatore-won",
        "quintiglio",
        {"mediatore": "on"},
        {"declarer": "Anna", "contract": "mediatore", "called": "3D", "holder": "Carla", "thirds": 20},
        p5(4, -1, -1, -1, -1),
        partner=None,
    ),
    row(
        "mediatore-lost",
        "quintiglio",
        {"mediatore": "on"},
        {"declarer": "Anna", "contract": "mediatore", "called": "3D", "holder": "Carla", "thirds": 3},
        p5(-4, 1, 1, 1, 1),
    ),
    row(
        "sweeps-on-chiamo-stramazzo",
        "quintiglio",
        {"sweeps": "on", "stramazzo_multiplier": 2},
        {"declarer": "Anna", "contract": "chiamo", "called": "3D", "holder": "Carla", "thirds": 34},
        p5(4, -2, 2, -2, -2),
        sweep="stramazzo",
    ),
]


@pytest.mark.parametrize(
    ("profile", "options", "players", "dealer", "typed", "payouts", "expect"),
    PAGAT + CAVENDISH + TRETRE + QUARTIGLIO + QUINTIGLIO,
)
def test_payouts(
    profile: str,
    options: dict[str, object],
    players: tuple[str, ...],
    dealer: str | None,
    typed: dict[str, object],
    payouts: dict[str, int],
    expect: dict[str, object],
) -> None:
    _, result = play(profile, options, players, dealer, **typed)
    assert result.payouts == payouts
    assert sum(result.payouts.values()) == 0
    assert result.declarer_won is (result.declarer_thirds >= 18)
    for key, value in expect.items():
        got = getattr(result, key)
        got = got.value if hasattr(got, "value") else got
        assert got == value, key


@pytest.mark.parametrize(
    ("options", "contract", "lead"),
    [
        ({}, "solo", "Anna"),
        ({}, "chiamo", "Anna"),
        ({}, "solissimo", "Bruno"),
        ({"declarer_always_leads": "on"}, "solo", "Bruno"),
        ({"declarer_always_leads": "on"}, "chiamo", "Bruno"),
        ({"declarer_always_leads": "on"}, "solissimo", "Bruno"),
        ({"declarer_always_leads": "off"}, "solo", "Anna"),
    ],
    ids=["default-solo", "default-chiamo", "default-solissimo", "on-solo", "on-chiamo", "on-solissimo", "off-solo"],
)
def test_first_lead(options: dict[str, str], contract: str, lead: str) -> None:
    _, result = play("pagat", options, declarer="Bruno", contract=contract, thirds=20)
    assert result.first_lead == lead
    assert result.payouts == play("pagat", {}, declarer="Bruno", contract=contract, thirds=20)[1].payouts


@pytest.mark.parametrize(
    ("profile", "lead"),
    [
        ("pagat", "Carla"),  # the seat after the dealer Bruno
        ("cavendish", "Carla"),  # Bruno deals and sits out; Carla sits before Dario: his left-hand opponent
        ("tretre", "Dario"),  # the Italian site: il solitario leads in every contract
        ("quartiglio", "Carla"),
        ("quintiglio", "Carla"),
    ],
)
def test_first_lead_by_default_and_declarer_always_leads_exists(profile: str, lead: str) -> None:
    players = {"quartiglio": ABCD, "quintiglio": ABCDE}.get(profile, ABCD)
    contract = "play" if profile == "cavendish" else "solo"
    _, result = play(profile, {}, players, "Bruno", declarer="Dario", contract=contract, thirds=20)
    assert result.first_lead == lead
    _, result = play(
        profile, {"declarer_always_leads": "yes"}, players, "Bruno", declarer="Dario", contract=contract, thirds=20
    )
    assert result.first_lead == "Dario"
    _, result = play(
        profile, {"declarer_always_leads": "no"}, players, "Bruno", declarer="Dario", contract=contract, thirds=20
    )
    assert result.first_lead == "Carla"


@pytest.mark.parametrize(
    ("dealer", "declarer", "lead"),
    [
        # seats in turn order Anna, Bruno, Carla: each one's left-hand neighbour is the seat before
        ("Carla", "Anna", "Carla"),  # Anna speaks first after the dealer Carla, yet an opponent leads
        ("Carla", "Bruno", "Anna"),
        ("Carla", "Carla", "Bruno"),
        ("Anna", "Bruno", "Anna"),  # at three the dealer plays: Anna sits before Bruno and leads
    ],
)
def test_cavendish_first_lead_is_the_declarers_left_hand_opponent(dealer: str, declarer: str, lead: str) -> None:
    _, result = play("cavendish", {}, ABC, dealer, declarer=declarer, contract="play", thirds=20)
    assert result.first_lead == lead
    assert result.first_lead != declarer
    # four seated, the dealer sits out: the left-hand opponent is the active seat before the declarer
    _, result = play("cavendish", {}, ABCD, "Anna", declarer="Bruno", contract="play", thirds=20)
    assert result.first_lead == "Dario"


def test_first_lead_skips_the_dealer_who_sits_out() -> None:
    _, result = play("pagat", {}, ABCD, "Dario", declarer="Bruno", contract="solo", thirds=20)
    assert result.first_lead == "Anna"
    _, result = play("pagat", {}, ABCD, "Carla", declarer="Bruno", contract="solo", thirds=20)
    assert result.first_lead == "Dario"
    assert result.sitting_out == "Carla" and result.payouts["Carla"] == 0


def test_pot_carryover_passed_deal_says_the_stake_rides_on() -> None:
    _, result = play("tretre", {}, passed=True, passed_before=2)
    assert result.payouts == p(0, 0, 0)
    assert "rides on the next played deal" in explanation(result)
    _, result = play("pagat", {}, passed=True)
    assert "rides" not in explanation(result)


def test_pot_carryover_explanation_names_the_passed_deals() -> None:
    _, result = play("tretre", {}, declarer="Anna", contract="chiamo", thirds=20, passed_before=2)
    explained = explanation(result)
    assert explained.startswith("chiamo 1 x pot") and "2 passed" in explained
    assert " 3 = 3 from each opponent" in explained


@pytest.mark.parametrize(("profile", "options"), [("pagat", []), ("tretre", ["pot_carryover=off"])])
def test_passed_deals_before_count_only_where_a_pot_carries_over(
    profile: str, options: list[str], tmp_path: Path
) -> None:
    with Ledger(str(tmp_path / "ledger.sqlite3")) as ledger:
        ledger.start_evening(ABC, Terms(profile=profile, options=options))
        with raises_said(r"--passed-before 4: .* carries no pot of passed deals over"):
            ledger.record(DealInput(declarer="Anna", contract="solo", thirds=20, passed_before=4))


@pytest.mark.parametrize(
    ("profile", "players", "typed", "why"),
    [
        ("cavendish", ABC, {"declarer": "Anna", "contract": "solo", "thirds": 20}, "contract solo: cavendish has play"),
        ("cavendish", ABC, {"declarer": "Anna", "contract": "solissimo", "thirds": 20}, "cavendish has play"),
        ("cavendish", ABC, {"declarer": "Anna", "contract": "mediatore", "thirds": 20}, "cavendish has play"),
        (
            "cavendish",
            ABC,
            {"declarer": "Anna", "contract": "play", "aggravation": "dividete", "thirds": 20},
            "only on a solissimo",
        ),
        (
            "pagat",
            ABC,
            {"declarer": "Anna", "contract": "mediatore", "thirds": 20},
            "pagat has chiamo, solo, solissimo",
        ),
        ("tretre", ABC, {"declarer": "Anna", "contract": "mediatore", "thirds": 20}, "tretre has"),
        ("quartiglio", ABCD, {"declarer": "Anna", "contract": "solissimo", "thirds": 20}, None),
        (
            "quintiglio",
            ABCDE,
            {"declarer": "Anna", "contract": "solissimo", "thirds": 20},
            "quintiglio has chiamo, solo",
        ),
        (
            "quintiglio",
            ABCDE,
            {"declarer": "Anna", "contract": "mediatore", "holder": "Carla", "thirds": 20},
            "quintiglio has chiamo, solo",
        ),
    ],
    ids=[
        "cavendish-solo",
        "cavendish-solissimo",
        "cavendish-mediatore",
        "cavendish-dividete",
        "pagat-mediatore",
        "tretre-mediatore",
        "quartiglio-solissimo-allowed",
        "quintiglio-solissimo",
        "quintiglio-mediatore-without-option",
    ],
)
def test_contracts_a_profile_does_not_have(
    profile: str, players: tuple[str, ...], typed: dict[str, object], why: str | None
) -> None:
    if why is None:
        play(profile, {}, players, **typed)
        return
    with pytest.raises(LedgerError) as caught:
        play(profile, {}, players, **typed)
    assert why in said(caught.value)


def test_quartiglio_without_monte_has_no_solissimo_and_no_holder_monte() -> None:
    with raises_said(r"contract solissimo: quartiglio has chiamo, mediatore, solo; .*monte=off"):
        play("quartiglio", {"monte": "off"}, ABCD, declarer="Anna", contract="solissimo", thirds=20)
    with raises_said("holder 'monte': quartiglio is played here without a monte"):
        play(
            "quartiglio",
            {"monte": "off"},
            ABCD,
            declarer="Anna",
            contract="chiamo",
            called="3D",
            holder="monte",
            thirds=20,
        )


@pytest.mark.parametrize(
    ("name", "options", "expected"),
    [
        (
            "pagat",
            {},
            {
                "sweeps": True,
                "cappotto_multiplier": 2,
                "stramazzo_multiplier": 3,
                "sweeps_on_loss": True,
                "dealer_shares": False,
                "declarer_always_leads": False,
                "pot_carryover": False,
                "stramazzo_counts": "monte",
                "game_to": None,
                "call_own_card": True,
            },
        ),
        (
            "cavendish",
            {},
            {"declarer_always_leads": False, "pot_carryover": False, "game_to": None, "call_own_card": True},
        ),
        (
            "tretre",
            {},
            {
                "sweeps": False,
                "cappotto_multiplier": 2,
                "stramazzo_multiplier": 3,
                "sweeps_on_loss": True,
                "declarer_always_leads": True,
                "contract_multipliers": False,
                "pot_carryover": True,
                "stramazzo_counts": "monte",
                "game_to": None,
                "call_own_card": False,
            },
        ),
        (
            "quartiglio",
            {},
            {
                "sweeps": False,
                "cappotto_multiplier": 2,
                "stramazzo_multiplier": 3,
                "sweeps_on_loss": True,
                "declarer_always_leads": False,
                "contract_multipliers": False,
                "pot_carryover": False,
                "stramazzo_counts": "monte",
                "game_to": None,
                "monte": True,
                "mediatore_outbids_chiamo": False,
                "call_own_card": False,
            },
        ),
        (
            "quintiglio",
            {},
            {
                "sweeps": False,
                "cappotto_multiplier": 2,
                "stramazzo_multiplier": 3,
                "sweeps_on_loss": True,
                "declarer_always_leads": False,
                "contract_multipliers": False,
                "pot_carryover": False,
                "stramazzo_counts": "monte",
                "game_to": None,
                "mediatore_outbids_chiamo": False,
                "mediatore": False,
                "call_own_card": False,
            },
        ),
    ],
    ids=["pagat", "cavendish", "tretre", "quartiglio", "quintiglio"],
)
def test_profile_defaults_follow_rules_section_6(
    name: str, options: dict[str, str], expected: dict[str, object]
) -> None:
    assert dict(make_profile(name, options).options) == expected


def test_make_profile_default_is_pagat() -> None:
    assert make_profile().name == "pagat"


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("PAGAT", "pagat"),
        ("italian", "pagat"),
        ("calabresella", "pagat"),
        ("american", "cavendish"),
        ("calabrasella", "cavendish"),
        ("partita-lunga", "tretre"),
        ("mediatore", "quartiglio"),
        ("quadrigliati", "quartiglio"),
        ("bellora", "quintiglio"),
        ("terziglio", "pagat"),
        (" quintiglio ", "quintiglio"),
    ],
    ids=repr,
)
def test_profile_aliases(alias: str, canonical: str) -> None:
    assert profile_name(alias) == canonical


@pytest.mark.parametrize(
    ("options", "option", "value"),
    [
        (["sweeps=off"], "sweeps", False),
        (["sweeps=no"], "sweeps", False),
        (["SWEEPS = On"], "sweeps", True),
        (["stramazzo-multiplier=4"], "stramazzo_multiplier", 4),
        ({"cappotto_multiplier": "7"}, "cappotto_multiplier", 7),
        ({"sweeps": False}, "sweeps", False),
        ({"stramazzo_multiplier": 100}, "stramazzo_multiplier", 100),
        (["sweeps=on", "sweeps=off"], "sweeps", False),
        (["stramazzo_counts=Tricks"], "stramazzo_counts", "tricks"),
        (["stramazzo-counts=all"], "stramazzo_counts", "all"),
        (["game_to=21"], "game_to", 21),
        (["game_to=1000"], "game_to", 1000),
        ({"game_to": 51}, "game_to", 51),
        (["game_to=none"], "game_to", None),
        (["game_to=off"], "game_to", None),
        ({"game_to": None}, "game_to", None),
        (["pot_carryover=on"], "pot_carryover", True),
    ],
    ids=[
        "off",
        "no",
        "case-and-spaces",
        "hyphen",
        "mapping-str",
        "mapping-bool",
        "max-100",
        "last-wins",
        "stramazzo-counts-tricks",
        "stramazzo-counts-all",
        "game-to-21",
        "game-to-max",
        "game-to-mapping",
        "game-to-none",
        "game-to-off",
        "game-to-stored-null",
        "pagat-pot",
    ],
)
def test_option_values(options: object, option: str, value: object) -> None:
    profile = make_profile("pagat", options)  # type: ignore[arg-type]
    assert profile[option] == value
    assert type(profile[option]) is type(value)


@pytest.mark.parametrize(
    ("name", "options", "why"),
    [
        ("scopa", [], "profile 'scopa': allowed are pagat, cavendish, tretre, quartiglio, quintiglio"),
        ("", [], "allowed are pagat"),
        ("pagat", ["foo=1"], "option 'foo' does not exist in profile pagat"),
        ("cavendish", ["sweeps=on"], "does not exist in profile cavendish: its options are declarer_always_leads"),
        ("cavendish", ["stramazzo_multiplier=2"], "does not exist in profile cavendish"),
        ("pagat", ["contract_multipliers=on"], "does not exist in profile pagat"),
        ("cavendish", ["stramazzo_counts=all"], "does not exist in profile cavendish"),
        ("cavendish", ["contract_multipliers=on"], "does not exist in profile cavendish"),
        ("pagat", ["monte=off"], "does not exist in profile pagat"),
        ("tretre", ["dealer_shares=on"], "does not exist in profile tretre"),
        ("quartiglio", ["dealer_shares=on"], "does not exist in profile quartiglio"),
        ("quartiglio", ["mediatore=on"], "does not exist in profile quartiglio"),
        ("quintiglio", ["monte=off"], "does not exist in profile quintiglio"),
        ("tretre", ["mediatore_outbids_chiamo=on"], "does not exist in profile tretre"),
        (
            "quintiglio",
            ["mediatore_outbids_chiamo=on"],
            "mediatore_outbids_chiamo=on with mediatore=off: there is no mediatore to outbid chiamo; add mediatore=on",
        ),
        ("pagat", ["stramazzo_counts=foo"], "option stramazzo_counts=foo: stramazzo_counts is monte, tricks or all"),
        ("pagat", ["stramazzo_counts=on"], "stramazzo_counts is monte, tricks or all"),
        ("pagat", ["game_to=foo"], "option game_to=foo: game_to is none or a whole number from 1 to 1000"),
        ("pagat", ["game_to=0"], "game_to is none or a whole number from 1 to 1000"),
        ("pagat", ["game_to=1001"], "game_to is none or a whole number from 1 to 1000"),
        ("pagat", ["game_to=on"], "game_to is none or a whole number from 1 to 1000"),
        ("pagat", ["game_to=21.5"], "game_to is none or a whole number from 1 to 1000"),
        ("pagat", {"game_to": True}, "game_to is none or a whole number from 1 to 1000"),
        ("pagat", ["sweeps=maybe"], "option sweeps=maybe: sweeps is on or off"),
        ("pagat", ["sweeps=2"], "sweeps is on or off"),
        ("pagat", ["cappotto_multiplier=0"], "cappotto_multiplier is a whole number from 1 to 100"),
        ("pagat", ["cappotto_multiplier=101"], "from 1 to 100"),
        ("pagat", ["cappotto_multiplier=-2"], "from 1 to 100"),
        ("pagat", ["stramazzo_multiplier=two"], "from 1 to 100"),
        ("pagat", ["stramazzo_multiplier=2.5"], "from 1 to 100"),
        ("pagat", ["stramazzo_multiplier=on"], "from 1 to 100"),
        ("pagat", {"stramazzo_multiplier": True}, "from 1 to 100"),
        ("pagat", ["sweeps"], "write key=value, e.g. sweeps=off"),
        ("pagat", ["=on"], "write key=value"),
        ("pagat", ["sweeps="], "write key=value"),
    ],
    ids=lambda value: None if not isinstance(value, str) else value or "blank",
)
def test_bad_profiles_and_options(name: str, options: object, why: str) -> None:
    with pytest.raises(LedgerError) as caught:
        make_profile(name, options)  # type: ignore[arg-type]
    assert why in said(caught.value)


def test_every_profile_has_declarer_always_leads_and_sweep_options_where_rules_say() -> None:
    assert all("declarer_always_leads" in options for options in DEFAULTS.values())
    for name in ("pagat", "tretre", "quartiglio", "quintiglio"):
        assert {"sweeps", "cappotto_multiplier", "stramazzo_multiplier", "sweeps_on_loss"} <= set(DEFAULTS[name])
    assert "sweeps" not in DEFAULTS["cavendish"]


def test_parse_option_normalises_the_key() -> None:
    assert parse_option(" Sweeps-On-Loss = off ") == ("sweeps_on_loss", "off")


def test_describe_lists_every_option() -> None:
    text = make_profile("tretre", ["pot_carryover=off"]).describe()
    assert text.startswith("tretre (") and "pot_carryover=off" in text and "stramazzo_multiplier=3" in text


def test_missing_holder_is_not_asked_in_pagat_chiamo() -> None:
    _, result = play("pagat", {}, declarer="Anna", contract="chiamo", thirds=20)
    assert result.payouts == p(2, -1, -1)


def test_quartiglio_missing_holder_is_a_missing_fact() -> None:
    with pytest.raises(MissingFact) as caught:
        play("quartiglio", {}, ABCD, declarer="Anna", contract="chiamo", called="3D", thirds=20)
    assert caught.value.fact == "holder"
