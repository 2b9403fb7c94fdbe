"""Contradictory and missing deal facts: each is refused with a message naming the value."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rules_cases import ABC, ABCD, ABCDE, play
from said import raises_said, said

from ledger.errors import LedgerError, MissingFact
from ledger.rules.cards import Card, Rank, Suit
from ledger.rules.contracts import Contract
from ledger.rules.facts import DealFacts
from ledger.rules.profiles import make_profile
from ledger.rules.scoring import score
from ledger.rules.validate import validate

SOLO = {"declarer": "Anna", "contract": "solo", "thirds": 20}


def bad(
    id_: str,
    why: str,
    profile: str = "pagat",
    options: dict[str, str] | None = None,
    players: tuple[str, ...] = ABC,
    dealer: str | None = None,
    **typed: object,
) -> object:
    return pytest.param(profile, options or {}, players, dealer, typed, why, id=id_)


INVALID = [
    bad("pagat-2-players", "2 players: pagat is played by 3 or 4 seated players", players=("Anna", "Bruno"), **SOLO),
    bad("pagat-5-players", "5 players: pagat is played by 3 or 4 seated players", players=ABCDE, **SOLO),
    bad("tretre-5-players", "5 players: tretre is played by 3 or 4", profile="tretre", players=ABCDE, **SOLO),
    bad(
        "cavendish-5-players",
        "5 players: cavendish is played by 3 or 4",
        profile="cavendish",
        players=ABCDE,
        declarer="Anna",
        contract="play",
        thirds=20,
    ),
    bad("quartiglio-3-players", "3 players: quartiglio is played by 4 seated players", profile="quartiglio", **SOLO),
    bad("quartiglio-5-players", "5 players: quartiglio is played by 4", profile="quartiglio", players=ABCDE, **SOLO),
    bad(
        "quintiglio-4-players",
        "4 players: quintiglio is played by 5 seated players",
        profile="quintiglio",
        players=ABCD,
        **SOLO,
    ),
    bad(
        "quintiglio-6-players",
        "6 players: quintiglio is played by 5",
        profile="quintiglio",
        players=(*ABCDE, "Fede"),
        **SOLO,
    ),
    bad(
        "duplicate-case",
        "Anna and anna are one name, seated twice (names ignore case and accents)",
        players=("Anna", "Bruno", "anna"),
        **SOLO,
    ),
    bad(
        "duplicate-accents",
        "seated twice (names ignore case and accents)",
        players=("Niccolò", "Bruno", "Niccolo"),
        declarer="Bruno",
        contract="solo",
        thirds=20,
    ),
    bad("blank-name", "a name cannot be blank", players=("Anna", "Bruno", " "), dealer="Bruno", **SOLO),
    bad("dealer-not-seated", "--dealer 'Zoe': not seated; the players are Anna, Bruno, Carla", dealer="Zoe", **SOLO),
    bad(
        "declarer-not-seated",
        "--declarer 'Zoe': not seated; the players are Anna, Bruno, Carla",
        declarer="Zoe",
        contract="solo",
        thirds=20,
    ),
    bad(
        "declarer-is-the-dealer-sitting-out",
        "declarer 'Dario': Dario deals and sits out; the declarer is one of Anna, Bruno, Carla",
        players=ABCD,
        dealer="Dario",
        declarer="Dario",
        contract="solo",
        thirds=20,
    ),
    bad(
        "no-declarer",
        "who declared, or did everyone pass? (--declarer NAME, --auction CALLS or --passed)",
        contract="solo",
        thirds=20,
    ),
    bad("unknown-contract", "contract 'grande': allowed are chiamo", declarer="Anna", contract="grande", thirds=20),
    bad(
        "dividete-on-solo",
        "dividete on solo: dividete and scegliete exist only on a solissimo",
        aggravation="dividete",
        **SOLO,
    ),
    bad(
        "scegliete-on-chiamo",
        "scegliete on chiamo: dividete and scegliete exist only on a solissimo",
        declarer="Anna",
        contract="chiamo",
        aggravation="scegliete",
        thirds=20,
    ),
    bad(
        "unknown-aggravation",
        "aggravation 'triple': allowed are dividete",
        declarer="Anna",
        contract="solissimo",
        aggravation="triple",
        thirds=20,
    ),
    bad("called-card-on-solo", "solo: a card is called only in chiamo (and mediatore)", called="3D", **SOLO),
    bad(
        "holder-on-solissimo",
        "solissimo: a card is called only in chiamo",
        declarer="Anna",
        contract="solissimo",
        holder="Bruno",
        thirds=20,
    ),
    bad(
        "bad-called-card", "--called 'XX': write rank then", declarer="Anna", contract="chiamo", called="XX", thirds=20
    ),
    bad(
        "holder-not-seated",
        "--holder 'Zoe': not seated",
        declarer="Anna",
        contract="chiamo",
        called="3D",
        holder="Zoe",
        thirds=20,
    ),
    bad(
        "holder-is-the-dealer-sitting-out",
        "holder 'Dario': the called card was held by one of Anna, Bruno, Carla, the monte, or the declarer",
        players=ABCD,
        dealer="Dario",
        declarer="Anna",
        contract="chiamo",
        called="3D",
        holder="Dario",
        thirds=20,
    ),
    bad(
        "quintiglio-holder-monte",
        "holder 'monte': quintiglio is played here without a monte",
        profile="quintiglio",
        players=ABCDE,
        declarer="Anna",
        contract="chiamo",
        called="3D",
        holder="monte",
        thirds=20,
    ),
    bad(
        "quartiglio-no-monte-holder-monte",
        "holder 'monte': quartiglio is played here without a monte",
        profile="quartiglio",
        options={"monte": "off"},
        players=ABCD,
        declarer="Anna",
        contract="chiamo",
        called="3D",
        holder="monte",
        thirds=20,
    ),
    bad(
        "quartiglio-called-non-three",
        "called card AD: in quartiglio only a three may be called",
        profile="quartiglio",
        players=ABCD,
        declarer="Anna",
        contract="chiamo",
        called="AD",
        holder="Bruno",
        thirds=20,
    ),
    bad(
        "quartiglio-mediatore-called-non-three",
        "called card 2S: in quartiglio only a three may be called",
        profile="quartiglio",
        players=ABCD,
        declarer="Anna",
        contract="mediatore",
        called="2S",
        holder="Bruno",
        thirds=20,
    ),
    bad(
        "quintiglio-called-non-three",
        "called card RS: in quintiglio only a three may be called",
        profile="quintiglio",
        players=ABCDE,
        declarer="Anna",
        contract="chiamo",
        called="re di spade",
        holder="Bruno",
        thirds=20,
    ),
    bad("passed-with-thirds", "a passed deal has no declarer, so no thirds", passed=True, thirds=20),
    bad(
        "passed-with-points-and-tricks",
        "a passed deal has no declarer, so no thirds, tricks",
        passed=True,
        points="7",
        tricks=3,
    ),
    bad("passed-with-last-trick", "so no last trick", passed=True, last_trick="declarer"),
    bad("duplicate-before-count", "Anna seated twice", players=("Anna", "Anna"), **SOLO),
    bad(
        "dealer-shares-with-three",
        "dealer_shares=on with 3 seated: nobody sits out",
        options={"dealer_shares": "on"},
        **SOLO,
    ),
    bad(
        "solissimo-without-monte",
        "contract solissimo: quartiglio has chiamo, mediatore, solo; a solissimo is played on the monte left "
        "untouched, and with monte=off there is none",
        profile="quartiglio",
        options={"monte": "off"},
        players=ABCD,
        declarer="Anna",
        contract="solissimo",
        thirds=20,
    ),
    bad("passed-with-called-card", "so no called card", passed=True, called="3D"),
    bad("passed-with-declarer", "a passed deal has no declarer or contract", passed=True, **SOLO),
    bad("passed-with-contract", "a passed deal has no declarer or contract", passed=True, contract="solo"),
    bad("thirds-36", "--thirds 36: a deal has only 35 thirds", declarer="Anna", contract="solo", thirds=36),
    bad("thirds-negative", "--thirds -1: thirds cannot be negative", declarer="Anna", contract="solo", thirds=-1),
    bad("points-12", "--points '12': a deal has only 11+2/3 points", declarer="Anna", contract="solo", points="12"),
    bad(
        "cavendish-points-36",
        "--points 36: a deal has only 35 thirds",
        profile="cavendish",
        declarer="Anna",
        contract="play",
        points="36",
    ),
    bad(
        "thirds-and-points",
        "give the declarer side's points once: thirds and points both say it",
        declarer="Anna",
        contract="solo",
        thirds=22,
        points="7+1/3",
    ),
    bad(
        "bad-last-trick-word",
        "last trick 'nobody': allowed are declarer (decl), opponents (opp)",
        declarer="Anna",
        contract="chiamo",
        thirds=4,
        last_trick="nobody",
    ),
    bad(
        "passed-before-negative",
        "--passed-before -1: the count of passed deals in a row is 0 to 1000",
        profile="tretre",
        passed_before=-1,
        **SOLO,
    ),
    bad(
        "declarer-ambiguous-prefix",
        "--declarer 'Ann': ambiguous, it could be Anna, Annalisa",
        players=("Anna", "Annalisa", "Bruno"),
        declarer="Ann",
        contract="solo",
        thirds=20,
    ),
]


@pytest.mark.parametrize(("profile", "options", "players", "dealer", "typed", "why"), INVALID)
def test_invalid_facts_are_refused(
    profile: str,
    options: dict[str, str],
    players: tuple[str, ...],
    dealer: str | None,
    typed: dict[str, object],
    why: str,
) -> None:
    with pytest.raises(LedgerError) as caught:
        play(profile, options, players, dealer, **typed)
    assert why in said(caught.value)
    assert "\n" not in said(caught.value)


def test_thirds_36_message_is_exact() -> None:
    with pytest.raises(LedgerError) as caught:
        play(declarer="Anna", contract="solo", thirds=36)
    assert said(caught.value) == "--thirds 36: a deal has only 35 thirds"


MISSING = [
    pytest.param(
        "pagat", ABC, {"declarer": "Anna", "contract": "solo"}, "thirds", "--thirds N or --points X", id="thirds"
    ),
    pytest.param("pagat", ABC, {"declarer": "Anna", "thirds": 20}, "contract", "--contract", id="contract"),
    pytest.param(
        "quartiglio",
        ABCD,
        {"declarer": "Anna", "contract": "chiamo", "called": "3D", "thirds": 20},
        "holder",
        "(--holder NAME|monte)",
        id="quartiglio-chiamo-holder",
    ),
    pytest.param(
        "quartiglio",
        ABCD,
        {"declarer": "Anna", "contract": "chiamo", "thirds": 20},
        "holder",
        "--holder",
        id="quartiglio-chiamo-holder-no-card",
    ),
    pytest.param(
        "quintiglio",
        ABCDE,
        {"declarer": "Anna", "contract": "chiamo", "called": "3D", "thirds": 20},
        "holder",
        "--holder",
        id="quintiglio-chiamo-holder",
    ),
    pytest.param(
        "pagat", ABC, {"declarer": "Anna", "contract": "solo", "thirds": 0}, "tricks", "--tricks", id="tricks"
    ),
    pytest.param(
        "pagat",
        ABC,
        {"declarer": "Anna", "contract": "solo", "thirds": 31},
        "last_trick",
        "--last-trick declarer|opponents",
        id="last-trick",
    ),
]


@pytest.mark.parametrize(("profile", "players", "typed", "fact", "hint"), MISSING)
def test_missing_facts_name_the_fact(
    profile: str, players: tuple[str, ...], typed: dict[str, object], fact: str, hint: str
) -> None:
    with pytest.raises(MissingFact) as caught:
        play(profile, {}, players, **typed)
    assert caught.value.fact == fact
    assert hint in said(caught.value)


@pytest.mark.parametrize(
    ("typed", "holder"),
    [
        ({"holder": "Bruno"}, "Bruno"),
        ({"holder": "bru"}, "Bruno"),
        ({"holder": "Monte"}, "monte"),
        ({"holder": "declarer"}, "declarer"),
        ({"holder": "anna"}, "declarer"),
        ({}, None),
    ],
    ids=["name", "prefix", "monte", "declarer-word", "declarer-by-name", "none"],
)
def test_pagat_chiamo_holders(typed: dict[str, str], holder: str | None) -> None:
    facts, result = play(declarer="Anna", contract="chiamo", called="3D", thirds=20, **typed)
    assert facts.holder == holder
    assert facts.called == Card(Suit.DENARI, Rank.TRE)
    assert result.payouts == {"Anna": 2, "Bruno": -1, "Carla": -1}


def test_validate_rejects_facts_built_by_hand() -> None:
    """Facts that never went through build_facts are checked the same way by validate and score."""
    pagat = make_profile()
    good = DealFacts(players=ABC, dealer="Carla", declarer="Anna", contract=Contract.SOLO, thirds=20)
    validate(good, pagat)
    cases = [
        (replace(good, dealer="Zoe"), "dealer 'Zoe': not seated"),
        (replace(good, declarer="Zoe"), "declarer 'Zoe': not seated"),
        (replace(good, contract=Contract.CHIAMO, holder="Anna"), "write 'declarer' when the declarer held"),
        (replace(good, thirds=36), "--thirds 36: a deal has only 35 thirds"),
        (replace(good, tricks=13), "--tricks 13: a deal has 12 tricks"),
        (replace(good, passed_before=-2), "--passed-before -2"),
    ]
    for facts, why in cases:
        with raises_said(why):
            validate(facts, pagat)
        with raises_said(why):
            score(facts, pagat)
