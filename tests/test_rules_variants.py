"""RULES §8, variant by variant, for every profile each applies to; every case worked by hand in its comment.

Seats are Anna, Bruno, Carla (Dario, Ezio) in turn order; the dealer is the last seat unless a case says.
"""

from __future__ import annotations

import pytest
from rules_cases import ABC, ABCD, ABCDE, play
from said import raises_said, said

from ledger.errors import LedgerError, MissingFact
from ledger.rules.games import Game, games
from ledger.summary import explanation

SEATS = {"quartiglio": ABCD, "quintiglio": ABCDE}


def case(id_: str, profile: str, options: dict[str, str], typed: dict[str, object], *payouts: int) -> object:
    """One deal of `profile` with `options`, and every seat's game points in seat order."""
    players = SEATS.get(profile, ABC)
    return pytest.param(profile, options, players, typed, dict(zip(players, payouts, strict=True)), id=id_)


def check(profile: str, options: dict[str, str], players: tuple[str, ...], typed: dict[str, object]) -> dict[str, int]:
    _, result = play(profile, options, players, **typed)
    assert sum(result.payouts.values()) == 0
    return result.payouts


CASES = ("profile", "options", "players", "typed", "payouts")

# Stramazzo, three readings (stramazzo_counts): pagat, and tretre, quartiglio, quintiglio with sweeps=on.
MONTE, TRICKS, ALL = ({"stramazzo_counts": reading} for reading in ("monte", "tricks", "all"))
ON = {"sweeps": "on"}
STRAMAZZO = [
    # Anna solo, 26 thirds; the opponents' 9 are the last trick's 3, a monte of 6 (two aces) and 0 in tricks.
    # monte: tricks and monte hold 6, not under 3: no sweep, solo 2 from each.
    case("pagat-monte-26-monte-6", "pagat", MONTE, {"declarer": "Anna", "contract": "solo", "thirds": 26,
         "last_trick": "opponents", "monte_thirds": 6}, 4, -2, -2),
    # tricks: their tricks hold 9 - 3 - 6 = 0: stramazzo, 2 x 3 = 6 from each.
    case("pagat-tricks-26-monte-6", "pagat", TRICKS, {"declarer": "Anna", "contract": "solo", "thirds": 26,
         "last_trick": "opponents", "monte_thirds": 6}, 12, -6, -6),
    # all: they took 9 thirds, some points: no sweep.
    case("pagat-all-26-monte-6", "pagat", ALL, {"declarer": "Anna", "contract": "solo", "thirds": 26,
         "last_trick": "opponents", "monte_thirds": 6}, 4, -2, -2),
    # tricks, a monte of 3 (one ace): their tricks hold 9 - 3 - 3 = 3, one point: no sweep.
    case("pagat-tricks-26-monte-3", "pagat", TRICKS, {"declarer": "Anna", "contract": "solo", "thirds": 26,
         "last_trick": "opponents", "monte_thirds": 3}, 4, -2, -2),
    # tricks, the last trick Anna's: the monte is hers, the opponents' tricks hold all 9: no sweep, no monte asked.
    case("pagat-tricks-26-last-declarer", "pagat", TRICKS, {"declarer": "Anna", "contract": "solo", "thirds": 26,
         "last_trick": "declarer"}, 4, -2, -2),
    # Anna solo, 31: the opponents' 4 are the last trick's 3 and 1 more, in tricks or monte.
    # monte: 1 under 3: stramazzo, 6 from each.
    case("pagat-monte-31", "pagat", MONTE, {"declarer": "Anna", "contract": "solo", "thirds": 31,
         "last_trick": "opponents"}, 12, -6, -6),
    # tricks: their tricks hold at most that 1: stramazzo whatever the monte, which is not asked.
    case("pagat-tricks-31", "pagat", TRICKS, {"declarer": "Anna", "contract": "solo", "thirds": 31,
         "last_trick": "opponents"}, 12, -6, -6),
    # all: 4 thirds are points: no sweep.
    case("pagat-all-31", "pagat", ALL, {"declarer": "Anna", "contract": "solo", "thirds": 31,
         "last_trick": "opponents"}, 4, -2, -2),
    # Anna solo, 33: the opponents' 2 are in a trick, not the last: stramazzo by monte and tricks, none by all.
    case("pagat-monte-33", "pagat", MONTE, {"declarer": "Anna", "contract": "solo", "thirds": 33}, 12, -6, -6),
    case("pagat-tricks-33", "pagat", TRICKS, {"declarer": "Anna", "contract": "solo", "thirds": 33}, 12, -6, -6),
    case("pagat-all-33", "pagat", ALL, {"declarer": "Anna", "contract": "solo", "thirds": 33}, 4, -2, -2),
    # Anna solo, 35 with 11 tricks: the opponents took a trick and no point: stramazzo in every reading.
    case("pagat-all-35-11-tricks", "pagat", ALL, {"declarer": "Anna", "contract": "solo", "thirds": 35,
         "tricks": 11}, 12, -6, -6),
    # ... and all 12 tricks: cappotto, 2 x 2 = 4 from each, in every reading.
    case("pagat-all-35-12-tricks", "pagat", ALL, {"declarer": "Anna", "contract": "solo", "thirds": 35,
         "tricks": 12}, 8, -4, -4),
    # Bruno chiamo loses with 10: the last trick 3 and a monte of 6 are his, his tricks hold 1.
    # tricks: stramazzo against him, 1 x 3 = 3 to each; monte: 10 - 3 = 7, no sweep, 1 to each.
    case("pagat-tricks-lost-10", "pagat", TRICKS, {"declarer": "Bruno", "contract": "chiamo", "thirds": 10,
         "last_trick": "declarer", "monte_thirds": 6}, 3, -6, 3),
    case("pagat-monte-lost-10", "pagat", MONTE, {"declarer": "Bruno", "contract": "chiamo", "thirds": 10,
         "last_trick": "declarer", "monte_thirds": 6}, 1, -2, 1),
    # ... and by all, Bruno took points: none.
    case("pagat-all-lost-10", "pagat", ALL, {"declarer": "Bruno", "contract": "chiamo", "thirds": 10,
         "last_trick": "declarer", "monte_thirds": 6}, 1, -2, 1),
    # tretre (sweeps on): 1 whatever the contract. 26 with a monte of 6 to the opponents: tricks 1 x 3 = 3 each.
    case("tretre-tricks-26-monte-6", "tretre", {**ON, **TRICKS}, {"declarer": "Anna", "contract": "solo",
         "thirds": 26, "last_trick": "opponents", "monte_thirds": 6}, 6, -3, -3),
    case("tretre-monte-26-monte-6", "tretre", {**ON, **MONTE}, {"declarer": "Anna", "contract": "solo",
         "thirds": 26, "last_trick": "opponents", "monte_thirds": 6}, 2, -1, -1),
    case("tretre-all-33", "tretre", {**ON, **ALL}, {"declarer": "Anna", "contract": "solo", "thirds": 33}, 2, -1, -1),
    case("tretre-all-35-11", "tretre", {**ON, **ALL}, {"declarer": "Anna", "contract": "solo", "thirds": 35,
         "tricks": 11}, 6, -3, -3),
    # quartiglio (sweeps on): solo 1 against 3. 26 with a monte of 6 to the opponents: tricks 3 from each of three.
    case("quartiglio-tricks-26-monte-6", "quartiglio", {**ON, **TRICKS}, {"declarer": "Anna", "contract": "solo",
         "thirds": 26, "last_trick": "opponents", "monte_thirds": 6}, 9, -3, -3, -3),
    case("quartiglio-monte-26-monte-6", "quartiglio", {**ON, **MONTE}, {"declarer": "Anna", "contract": "solo",
         "thirds": 26, "last_trick": "opponents", "monte_thirds": 6}, 3, -1, -1, -1),
    case("quartiglio-all-31", "quartiglio", {**ON, **ALL}, {"declarer": "Anna", "contract": "solo", "thirds": 31,
         "last_trick": "opponents"}, 3, -1, -1, -1),
    # quartiglio without a monte: the readings monte and tricks agree (there is no monte), 31 is a stramazzo.
    case("quartiglio-no-monte-tricks-31", "quartiglio", {**ON, **TRICKS, "monte": "off"}, {"declarer": "Anna",
         "contract": "solo", "thirds": 31, "last_trick": "opponents"}, 9, -3, -3, -3),
    # quintiglio (sweeps on), no monte: Bruno solo 31, the opponents 3 + 1: stramazzo 3 from each of four.
    case("quintiglio-tricks-31", "quintiglio", {**ON, **TRICKS}, {"declarer": "Bruno", "contract": "solo",
         "thirds": 31, "last_trick": "opponents"}, -3, 12, -3, -3, -3),
    case("quintiglio-all-31", "quintiglio", {**ON, **ALL}, {"declarer": "Bruno", "contract": "solo", "thirds": 31,
         "last_trick": "opponents"}, -1, 4, -1, -1, -1),
    case("quintiglio-all-35-7-tricks", "quintiglio", {**ON, **ALL}, {"declarer": "Bruno", "contract": "solo",
         "thirds": 35, "tricks": 7}, -3, 12, -3, -3, -3),
]  # fmt: skip


@pytest.mark.parametrize(CASES, STRAMAZZO)
def test_stramazzo_readings(
    profile: str, options: dict[str, str], players: tuple[str, ...], typed: dict[str, object], payouts: dict[str, int]
) -> None:
    assert check(profile, options, players, typed) == payouts


@pytest.mark.parametrize(
    ("options", "typed", "asked"),
    [
        # tricks: at 26 it depends on who took the last trick, and then on the monte
        (TRICKS, {"thirds": 26}, "last_trick"),
        (TRICKS, {"thirds": 26, "last_trick": "opponents"}, "monte_thirds"),
        # a losing declarer with 17 and the last trick: a monte of 12 (the four aces) leaves 2 in his tricks
        (TRICKS, {"thirds": 17, "last_trick": "declarer"}, "monte_thirds"),
        # monte and all never ask for the monte; at 26 they ask for nothing
        (MONTE, {"thirds": 30}, "last_trick"),
        (ALL, {"thirds": 0}, "tricks"),
    ],
    ids=["tricks-26-last", "tricks-26-monte", "tricks-17-monte", "monte-30-last", "all-0-tricks"],
)
def test_the_facts_a_reading_asks_for(options: dict[str, str], typed: dict[str, object], asked: str) -> None:
    with pytest.raises(MissingFact) as missing:
        play("pagat", options, declarer="Anna", contract="solo", **typed)
    assert missing.value.fact == asked


@pytest.mark.parametrize(
    ("options", "typed", "payouts"),
    [
        # a monte of 2 leaves 26's opponents 9 - 3 - 2 = 4 in tricks even with the last trick: no question
        (TRICKS, {"thirds": 26, "monte_thirds": 2}, (4, -2, -2)),
        # the last trick Anna's: the monte is hers, whatever it held
        (TRICKS, {"thirds": 26, "last_trick": "declarer"}, (4, -2, -2)),
        # Anna loses with 15, the last trick the opponents': the monte is theirs, her tricks hold all 15
        (TRICKS, {"thirds": 15, "last_trick": "opponents"}, (-4, 2, 2)),
        (MONTE, {"thirds": 26}, (4, -2, -2)),
        (ALL, {"thirds": 31}, (4, -2, -2)),
        (ALL, {"thirds": 2}, (-4, 2, 2)),
    ],
    ids=["tricks-small-monte", "tricks-last-declarer", "tricks-last-to-the-winners", "monte-26", "all-31", "all-2"],
)
def test_what_a_reading_does_not_ask_for(
    options: dict[str, str], typed: dict[str, object], payouts: tuple[int, ...]
) -> None:
    _, result = play("pagat", options, declarer="Anna", contract="solo", **typed)
    assert tuple(result.payouts.values()) == payouts and result.sweep is None


@pytest.mark.parametrize(
    ("profile", "options", "typed", "message"),
    [
        (
            "pagat",
            TRICKS,
            {"thirds": 26, "monte_thirds": 11},
            "--monte-thirds 11: 4 cards hold 0 to 12 thirds, never 11",
        ),
        ("pagat", TRICKS, {"thirds": 26, "monte_thirds": 13}, "--monte-thirds 13: the monte's 4 cards hold 0 to 12"),
        ("pagat", TRICKS, {"thirds": 26, "monte_thirds": -1}, "--monte-thirds -1: the monte's 4 cards hold 0 to 12"),
        # the last trick Anna's with 8 thirds: 3 of them the bonus, so the monte held at most 5
        (
            "pagat",
            TRICKS,
            {"thirds": 8, "last_trick": "declarer", "monte_thirds": 6},
            "--monte-thirds 6: the monte goes with the last trick, and with 8 thirds to the declarer side the side "
            "that took it holds at most 5 thirds besides the last trick's 3",
        ),
        ("quintiglio", {}, {"thirds": 20, "monte_thirds": 0}, "--monte-thirds 0: this game has no monte"),
        ("pagat", {}, {"passed": True, "monte_thirds": 3}, "a passed deal has no declarer, so no monte's thirds"),
    ],
    ids=["eleven", "thirteen", "negative", "more-than-the-side", "no-monte", "passed"],
)
def test_monte_thirds_that_contradict_the_deal_are_refused(
    profile: str, options: dict[str, str], typed: dict[str, object], message: str
) -> None:
    deal = typed if typed.get("passed") else {"declarer": "Bruno", "contract": "solo", **typed}
    with pytest.raises(LedgerError) as refused:
        play(profile, options, SEATS.get(profile, ABC), **deal)
    assert message in said(refused.value)


# Contract multipliers: solo x2, solissimo x4, before dividete x2 / scegliete x4; tretre, quartiglio, quintiglio.
X = {"contract_multipliers": "on"}
MULTIPLIERS = [
    # tretre: chiamo 1, solo 2, solissimo 4, dividete 8, scegliete 16 from each of two
    case("tretre-chiamo", "tretre", X, {"declarer": "Anna", "contract": "chiamo", "thirds": 20}, 2, -1, -1),
    case("tretre-solo", "tretre", X, {"declarer": "Anna", "contract": "solo", "thirds": 20}, 4, -2, -2),
    case("tretre-solissimo", "tretre", X, {"declarer": "Anna", "contract": "solissimo", "thirds": 20}, 8, -4, -4),
    case("tretre-scegliete-lost", "tretre", X, {"declarer": "Anna", "contract": "solissimo",
         "aggravation": "scegliete", "thirds": 10}, -32, 16, 16),
    # the flat tariff without the option: solo 1
    case("tretre-solo-off", "tretre", {}, {"declarer": "Anna", "contract": "solo", "thirds": 20}, 2, -1, -1),
    # quartiglio: solo 2 from each of three; solissimo dividete 4 x 2 = 8 to each of three when lost
    case("quartiglio-solo", "quartiglio", X, {"declarer": "Anna", "contract": "solo", "thirds": 20}, 6, -2, -2, -2),
    case("quartiglio-dividete-lost", "quartiglio", X, {"declarer": "Anna", "contract": "solissimo",
         "aggravation": "dividete", "thirds": 10}, -24, 8, 8, 8),
    # chiamo and mediatore stay 1: Carla held the called three and partners Anna; mediatore 1 against 3
    case("quartiglio-chiamo", "quartiglio", X, {"declarer": "Anna", "contract": "chiamo", "called": "3D",
         "holder": "Carla", "thirds": 20}, 1, -1, 1, -1),
    case("quartiglio-mediatore", "quartiglio", X, {"declarer": "Anna", "contract": "mediatore", "called": "3D",
         "holder": "Carla", "thirds": 20}, 3, -1, -1, -1),
    case("quartiglio-solo-off", "quartiglio", {}, {"declarer": "Anna", "contract": "solo", "thirds": 20},
         3, -1, -1, -1),
    # quintiglio: solo 2 from each of four (the source's +4/-1 doubled); chiamo stays +2/+1/-1
    case("quintiglio-solo", "quintiglio", X, {"declarer": "Bruno", "contract": "solo", "thirds": 20},
         -2, 8, -2, -2, -2),
    case("quintiglio-chiamo", "quintiglio", X, {"declarer": "Anna", "contract": "chiamo", "called": "3D",
         "holder": "Carla", "thirds": 20}, 2, -1, 1, -1, -1),
    case("quintiglio-mediatore", "quintiglio", {**X, "mediatore": "on"}, {"declarer": "Anna",
         "contract": "mediatore", "called": "3D", "holder": "Carla", "thirds": 20}, 4, -1, -1, -1, -1),
]  # fmt: skip


@pytest.mark.parametrize(CASES, MULTIPLIERS)
def test_contract_multipliers(
    profile: str, options: dict[str, str], players: tuple[str, ...], typed: dict[str, object], payouts: dict[str, int]
) -> None:
    assert check(profile, options, players, typed) == payouts


# The pot of passed deals (pot_carryover), in every profile: the amount times 1 + the passed deals before.
POT = {"pot_carryover": "on"}
POTS = [
    # pagat: solo 2 x pot 3 (two passed) = 6 from each
    case("pagat", "pagat", POT, {"declarer": "Anna", "contract": "solo", "thirds": 20, "passed_before": 2},
         12, -6, -6),
    # cavendish: 22 - 13 = 9, x pot 2 (one passed) = 18 from each
    case("cavendish", "cavendish", POT, {"declarer": "Anna", "contract": "play", "thirds": 22, "passed_before": 1},
         36, -18, -18),
    # cavendish: all 12 tricks, 70 x 2 = 140 from each
    case("cavendish-all-tricks", "cavendish", POT, {"declarer": "Anna", "contract": "play", "thirds": 35,
         "tricks": 12, "passed_before": 1}, 280, -140, -140),
    # tretre (on by default): chiamo 1 x pot 3 = 3 from each
    case("tretre", "tretre", {}, {"declarer": "Anna", "contract": "chiamo", "thirds": 20, "passed_before": 2},
         6, -3, -3),
    # quartiglio: solo 1 x pot 2 = 2 from each of three
    case("quartiglio", "quartiglio", POT, {"declarer": "Anna", "contract": "solo", "thirds": 20,
         "passed_before": 1}, 6, -2, -2, -2),
    # quintiglio: Bruno's chiamo with Carla, 1 x pot 2 = 2: Bruno 2 x 3 - 2 = +4, Carla +2, the three -2
    case("quintiglio", "quintiglio", POT, {"declarer": "Bruno", "contract": "chiamo", "called": "3D",
         "holder": "Carla", "thirds": 20, "passed_before": 1}, -2, 4, 2, -2, -2),
]  # fmt: skip


@pytest.mark.parametrize(CASES, POTS)
def test_the_pot_of_passed_deals(
    profile: str, options: dict[str, str], players: tuple[str, ...], typed: dict[str, object], payouts: dict[str, int]
) -> None:
    assert check(profile, options, players, typed) == payouts


def test_the_pot_is_in_the_explanation_of_every_tariff() -> None:
    _, result = play("cavendish", POT, declarer="Anna", contract="play", thirds=22, passed_before=1)
    assert explanation(result) == "22 - 13 = 9: 9 x pot (1 passed) 2 = 18 from each opponent"
    _, result = play("pagat", POT, declarer="Anna", contract="solo", thirds=20, passed_before=2)
    assert explanation(result) == "solo 2 x pot (2 passed) 3 = 6 from each opponent"


# Cavendish's called card: recorded with its holder, no payout changes (22 - 13 = 9 from each, as example 9).
CAVENDISH = [
    case("none", "cavendish", {}, {"declarer": "Anna", "contract": "play", "thirds": 22}, 18, -9, -9),
    case("3D-from-bruno", "cavendish", {}, {"declarer": "Anna", "contract": "play", "called": "3D",
         "holder": "Bruno", "thirds": 22}, 18, -9, -9),
    case("AC-in-the-monte", "cavendish", {}, {"declarer": "Anna", "contract": "play", "called": "AC",
         "holder": "monte", "thirds": 22}, 18, -9, -9),
    case("rank-only-own-hand", "cavendish", {}, {"declarer": "Anna", "contract": "play", "called": "3",
         "holder": "declarer", "thirds": 22}, 18, -9, -9),
]  # fmt: skip


@pytest.mark.parametrize(CASES, CAVENDISH)
def test_cavendish_records_the_called_card(
    profile: str, options: dict[str, str], players: tuple[str, ...], typed: dict[str, object], payouts: dict[str, int]
) -> None:
    facts, result = play(profile, options, players, **typed)
    assert result.payouts == payouts and result.partner is None
    assert (str(facts.called) if facts.called else None, facts.holder) == (typed.get("called"), typed.get("holder"))


# First lead (recorded only). Dealer Carla at three: Anna speaks first. At four Dario deals, at five Ezio.
LEADS = [
    ("pagat", {}, "Bruno", "solo", "Anna"),  # the seat after the dealer
    ("pagat", {}, "Bruno", "solissimo", "Bruno"),  # except in solissimo
    ("tretre", {}, "Bruno", "chiamo", "Bruno"),  # the Italian site: the declarer, in every contract
    ("tretre", {}, "Bruno", "solo", "Bruno"),
    ("tretre", {}, "Bruno", "solissimo", "Bruno"),
    ("tretre", {"declarer_always_leads": "off"}, "Bruno", "solo", "Anna"),
    ("cavendish", {}, "Anna", "play", "Carla"),  # the declarer's left-hand opponent: the seat before Anna
    ("cavendish", {}, "Bruno", "play", "Anna"),
    ("cavendish", {"declarer_always_leads": "on"}, "Anna", "play", "Anna"),
    ("quartiglio", {}, "Bruno", "solo", "Anna"),
    ("quartiglio", {}, "Bruno", "solissimo", "Bruno"),
    ("quintiglio", {}, "Bruno", "solo", "Anna"),
    ("quintiglio", {"declarer_always_leads": "on"}, "Bruno", "solo", "Bruno"),
]


@pytest.mark.parametrize(("profile", "options", "declarer", "contract", "lead"), LEADS)
def test_first_lead(profile: str, options: dict[str, str], declarer: str, contract: str, lead: str) -> None:
    extra = {"called": "3D", "holder": "declarer"} if contract == "chiamo" and profile in SEATS else {}
    _, result = play(
        profile, options, SEATS.get(profile, ABC), declarer=declarer, contract=contract, thirds=20, **extra
    )
    assert result.first_lead == lead


# Spellings and calls.
SPELLINGS = [
    # sceliete is scegliete: pagat 4 x 4 = 16 from each; tretre 1 x 4; quartiglio 1 x 4 from each of three
    case("pagat-sceliete", "pagat", {}, {"declarer": "Anna", "contract": "solissimo", "aggravation": "sceliete",
         "thirds": 20}, 32, -16, -16),
    case("tretre-sceliete", "tretre", {}, {"declarer": "Anna", "contract": "solissimo", "aggravation": "sceliete",
         "thirds": 20}, 8, -4, -4),
    case("quartiglio-sceliete", "quartiglio", {}, {"declarer": "Anna", "contract": "solissimo",
         "aggravation": "sceliete", "thirds": 20}, 12, -4, -4, -4),
    # a call by rank alone: as example 2 (Carla chiamo, 17, the last trick to the opponents), the suit not said
    case("pagat-rank-only", "pagat", {}, {"declarer": "Carla", "contract": "chiamo", "called": "3",
         "holder": "Anna", "thirds": 17, "last_trick": "opponents"}, 1, 1, -2),
    case("tretre-rank-only", "tretre", {}, {"declarer": "Carla", "contract": "chiamo", "called": "tre",
         "holder": "Anna", "thirds": 17}, 1, 1, -2),
    # quartiglio: the holder of the three partners Anna; quintiglio: Carla is the secret partner
    case("quartiglio-rank-only", "quartiglio", {}, {"declarer": "Anna", "contract": "chiamo", "called": "3",
         "holder": "Carla", "thirds": 20}, 1, -1, 1, -1),
    case("quintiglio-rank-only", "quintiglio", {}, {"declarer": "Anna", "contract": "chiamo", "called": "3",
         "holder": "Carla", "thirds": 20}, 2, -1, 1, -1, -1),
    # passes after a solissimo: the auction gives the declarer and contract
    case("pagat-passes-after-solissimo", "pagat", {}, {"auction": "solissimo,pass,pass", "thirds": 20},
         8, -4, -4),
    case("tretre-pass-after-solissimo", "tretre", {}, {"auction": "pass,solissimo,pass", "thirds": 20},
         -1, 2, -1),
    case("quartiglio-passes-after-solissimo", "quartiglio", {}, {"auction": "chiamo,solissimo,pass,pass",
         "thirds": 20}, -1, 3, -1, -1),
]  # fmt: skip


@pytest.mark.parametrize(CASES, SPELLINGS)
def test_spellings_and_calls(
    profile: str, options: dict[str, str], players: tuple[str, ...], typed: dict[str, object], payouts: dict[str, int]
) -> None:
    assert check(profile, options, players, typed) == payouts


def test_a_call_by_rank_alone_is_still_only_a_three_where_only_a_three_is_called() -> None:
    with raises_said("called card A: in quartiglio only a three may be called"):
        play("quartiglio", {}, ABCD, declarer="Anna", contract="chiamo", called="A", holder="Carla", thirds=20)


# A game to N points (game_to), in every profile: the deals scored, then cut into games.
GAMES: list[tuple[str, int, list[dict[str, object]], list[Game], Game | None]] = [
    (
        # Bruno solo 22: B +4, A -2, C -2; Anna chiamo 20: A 0, B 3, C -3; Bruno chiamo 20: B 5 reaches 5
        "pagat",
        5,
        [
            {"declarer": "Bruno", "contract": "solo", "thirds": 22},
            {"declarer": "Anna", "contract": "chiamo", "thirds": 20},
            {"declarer": "Bruno", "contract": "chiamo", "thirds": 20},
        ],
        [Game(1, 3, {"Anna": -1, "Bruno": 5, "Carla": -4}, ("Bruno",))],
        None,
    ),
    (
        # Anna solo lost with 10: A -4, B +2, C +2; Bruno and Carla tie, Anna (the declarer) is not among them
        "pagat",
        2,
        [{"declarer": "Anna", "contract": "solo", "thirds": 10}],
        [Game(1, 1, {"Anna": -4, "Bruno": 2, "Carla": 2}, ("Bruno", "Carla"))],
        None,
    ),
    (
        # Anna plays 22: A +18, B -9, C -9; Bruno plays 16 (16 - 19 = -3): B -6, A 21, C -6: Anna reaches 21
        "cavendish",
        21,
        [
            {"declarer": "Anna", "contract": "play", "thirds": 22},
            {"declarer": "Bruno", "contract": "play", "thirds": 16},
        ],
        [Game(1, 2, {"Anna": 21, "Bruno": -15, "Carla": -6}, ("Anna",))],
        None,
    ),
    (
        # Anna solo 20: A +2; all pass; Bruno chiamo lost with 10, pot 2: B -4, A +2, C +2: Anna 4 reaches 3
        "tretre",
        3,
        [
            {"declarer": "Anna", "contract": "solo", "thirds": 20},
            {"passed": True},
            {"declarer": "Bruno", "contract": "chiamo", "thirds": 10, "passed_before": 1},
        ],
        [Game(1, 3, {"Anna": 4, "Bruno": -5, "Carla": 1}, ("Anna",))],
        None,
    ),
    (
        # Anna with Carla won: A 1, B -1, C 1, D -1; Bruno with Dario won: all 0; Carla solo lost with 10:
        # C -3, the others 1; Dario with Anna won: A 2, B 0, C -4, D 2: Anna and Dario tie, Dario declared
        "quartiglio",
        2,
        [
            {"declarer": "Anna", "contract": "chiamo", "called": "3D", "holder": "Carla", "thirds": 20},
            {"declarer": "Bruno", "contract": "chiamo", "called": "3S", "holder": "Dario", "thirds": 20},
            {"declarer": "Carla", "contract": "solo", "thirds": 10},
            {"declarer": "Dario", "contract": "chiamo", "called": "3C", "holder": "Anna", "thirds": 20},
        ],
        [Game(1, 4, {"Anna": 2, "Bruno": 0, "Carla": -4, "Dario": 2}, ("Dario",))],
        None,
    ),
    (
        # Anna with Carla won: A +2 reaches 2 at once; then Bruno solo lost with 10: B -4, the others +1, going on
        "quintiglio",
        2,
        [
            {"declarer": "Anna", "contract": "chiamo", "called": "3D", "holder": "Carla", "thirds": 20},
            {"declarer": "Bruno", "contract": "solo", "thirds": 10},
        ],
        [Game(1, 1, {"Anna": 2, "Bruno": -1, "Carla": 1, "Dario": -1, "Ezio": -1}, ("Anna",))],
        Game(2, 2, {"Anna": 1, "Bruno": -4, "Carla": 1, "Dario": 1, "Ezio": 1}),
    ),
]


@pytest.mark.parametrize(("profile", "game_to", "deals", "finished", "current"), GAMES)
def test_games_to_n_points(
    profile: str, game_to: int, deals: list[dict[str, object]], finished: list[Game], current: Game | None
) -> None:
    options = {"game_to": str(game_to)}
    scored = [play(profile, options, SEATS.get(profile, ABC), **deal)[1] for deal in deals]
    played = ((number, r.payouts, r.declarer) for number, r in enumerate(scored, start=1))
    assert games(played, game_to) == (tuple(finished), current)
