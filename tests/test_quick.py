"""The quick syntax of `play` (and `record LINE`): one deal on one line, table-driven."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from said import raises_said, said

from ledger.errors import LedgerError
from ledger.rules.build import DealInput, build_facts
from ledger.rules.points import format_points, parse_points
from ledger.rules.profiles import make_profile
from ledger.rules.quick import SYNTAX, parse_answer, parse_quick_line
from ledger.rules.scoring import score

ABC = ("Anna", "Bruno", "Carla")
PAGAT = make_profile()
CAVENDISH = make_profile("cavendish")


def parse_quick(line: str, players: tuple[str, ...], profile: object) -> DealInput:
    """The deal's facts of a quick line."""
    return parse_quick_line(line, players, profile).deal  # type: ignore[arg-type]


# line -> the DealInput fields it fills (pagat, Anna, Bruno, Carla)
LINES: list[tuple[str, dict[str, object]]] = [
    # the examples of the issue
    ("bruno solo 22", {"declarer": "Bruno", "contract": "solo", "thirds": 22}),
    (
        "carla chiamo 3D@anna 17 last=opp",
        {
            "declarer": "Carla",
            "contract": "chiamo",
            "called": "3D",
            "holder": "Anna",
            "thirds": 17,
            "last_trick": "opponents",
        },
    ),
    (
        "anna solissimo scegliete 35 tricks=12",
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "scegliete", "thirds": 35, "tricks": 12},
    ),
    ("pass", {"passed": True}),
    ("br so 7+1/3", {"declarer": "Bruno", "contract": "solo", "points": "7+1/3"}),
    # prefixes of names and words, any case, accents
    ("B SO 22", {"declarer": "Bruno", "contract": "solo", "thirds": 22}),
    ("c ch 17", {"declarer": "Carla", "contract": "chiamo", "thirds": 17}),
    ("an soli sc 35", {"declarer": "Anna", "contract": "solissimo", "aggravation": "scegliete", "thirds": 35}),
    ("an soli di 8", {"declarer": "Anna", "contract": "solissimo", "aggravation": "dividete", "points": "8"}),
    (
        "anna dividete solissimo 8",
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "dividete", "points": "8"},
    ),
    ("bruno me 20", {"declarer": "Bruno", "contract": "mediatore", "thirds": 20}),
    ("pa", {"passed": True}),
    ("passo", {"passed": True}),
    ("-", {"passed": True}),
    # English and other aliases, written out
    ("bruno alone 22", {"declarer": "Bruno", "contract": "solo", "thirds": 22}),
    ("bruno call 3D 22", {"declarer": "Bruno", "contract": "chiamo", "called": "3D", "thirds": 22}),
    (
        "anna solissimo choose 35",
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "scegliete", "thirds": 35},
    ),
    # called card and holder
    (
        "carla chiamo 3D@monte 17",
        {"declarer": "Carla", "contract": "chiamo", "called": "3D", "holder": "monte", "thirds": 17},
    ),
    (
        "carla chiamo 3d@mo 17",
        {"declarer": "Carla", "contract": "chiamo", "called": "3D", "holder": "monte", "thirds": 17},
    ),
    (
        "carla chiamo 3D@declarer 17",
        {"declarer": "Carla", "contract": "chiamo", "called": "3D", "holder": "declarer", "thirds": 17},
    ),
    ("carla chiamo @anna 17", {"declarer": "Carla", "contract": "chiamo", "holder": "Anna", "thirds": 17}),
    ("carla chiamo 3D 17", {"declarer": "Carla", "contract": "chiamo", "called": "3D", "thirds": 17}),
    ("carla chiamo AC 17", {"declarer": "Carla", "contract": "chiamo", "called": "AC", "thirds": 17}),
    (
        "carla chiamo kh@br 17",
        {"declarer": "Carla", "contract": "chiamo", "called": "RC", "holder": "Bruno", "thirds": 17},
    ),
    # points: Italian whole points and thirds, 12..35 as thirds, explicit thirds
    ("bruno solo 7", {"declarer": "Bruno", "contract": "solo", "points": "7"}),
    ("bruno solo 5+2/3", {"declarer": "Bruno", "contract": "solo", "points": "5+2/3"}),
    ("bruno solo 2/3", {"declarer": "Bruno", "contract": "solo", "points": "2/3"}),
    ("bruno solo 0", {"declarer": "Bruno", "contract": "solo", "points": "0"}),
    ("bruno solo 11", {"declarer": "Bruno", "contract": "solo", "points": "11"}),
    ("bruno solo 11+2/3", {"declarer": "Bruno", "contract": "solo", "points": "11+2/3"}),
    ("bruno solo 12", {"declarer": "Bruno", "contract": "solo", "thirds": 12}),
    ("bruno solo 22t", {"declarer": "Bruno", "contract": "solo", "thirds": 22}),
    ("bruno solo 7T", {"declarer": "Bruno", "contract": "solo", "thirds": 7}),
    ("bruno solo t=22", {"declarer": "Bruno", "contract": "solo", "thirds": 22}),
    ("bruno solo thirds=2", {"declarer": "Bruno", "contract": "solo", "thirds": 2}),
    ("bruno solo points=7+1/3", {"declarer": "Bruno", "contract": "solo", "points": "7+1/3"}),
    ("bruno solo p=5", {"declarer": "Bruno", "contract": "solo", "points": "5"}),
    # every key=value, keys by prefix too, anywhere on the line
    ("last=opp carla chiamo 17", {"declarer": "Carla", "contract": "chiamo", "thirds": 17, "last_trick": "opponents"}),
    ("bruno chiamo 4t last=decl", {"declarer": "Bruno", "contract": "chiamo", "thirds": 4, "last_trick": "declarer"}),
    ("bruno chiamo 4t l=d", {"declarer": "Bruno", "contract": "chiamo", "thirds": 4, "last_trick": "declarer"}),
    (
        "bruno chiamo 4t last_trick=opponents",
        {"declarer": "Bruno", "contract": "chiamo", "thirds": 4, "last_trick": "opponents"},
    ),
    (
        "bruno chiamo 4t last=avversari",
        {"declarer": "Bruno", "contract": "chiamo", "thirds": 4, "last_trick": "opponents"},
    ),
    ("anna solo 35 tr=11", {"declarer": "Anna", "contract": "solo", "thirds": 35, "tricks": 11}),
    (
        "carla chiamo holder=anna called=3D 17",
        {"declarer": "Carla", "contract": "chiamo", "holder": "Anna", "called": "3D", "thirds": 17},
    ),
    (
        "carla chiamo h=monte card=AS 17",
        {"declarer": "Carla", "contract": "chiamo", "holder": "monte", "called": "AS", "thirds": 17},
    ),
    ("auction=pass,solo,pass 22", {"auction": "pass,solo,pass", "thirds": 22}),
    ("auction=p,so,- 22", {"auction": "pass,solo,pass", "thirds": 22}),
    ("a=an:pass,br:solo 22", {"auction": "Anna:pass,Bruno:solo", "thirds": 22}),
    (
        "scegliete auction=pass,pass,solissimo 35 tricks=12",
        {"aggravation": "scegliete", "auction": "pass,pass,solissimo", "thirds": 35, "tricks": 12},
    ),
    ("auction=pass,pass,pass", {"auction": "pass,pass,pass"}),
    # fragments, as `amend N ...` takes them
    ("20", {"thirds": 20}),
    ("last=opp", {"last_trick": "opponents"}),
    ("solo", {"contract": "solo"}),
    ("", {}),
]


@pytest.mark.parametrize(("line", "fields"), LINES, ids=[line or "<empty>" for line, _ in LINES])
def test_a_line_fills_exactly_the_facts_it_names(line: str, fields: dict[str, object]) -> None:
    assert parse_quick(line, ABC, PAGAT) == DealInput(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "dealer"), [("bruno solo 22 dealer=anna", "Anna"), ("pass d=CA", "Carla"), ("bruno solo 22", None)]
)
def test_dealer_overrides_the_rotation_apart_from_the_facts(line: str, dealer: str | None) -> None:
    quick = parse_quick_line(line, ABC, PAGAT)
    assert quick.dealer == dealer
    assert "dealer" not in quick.deal.to_dict()


# line, players, words every message must hold
ERRORS: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    # ambiguity names the candidates
    ("b s 7", ABC, ("'s' is ambiguous", "solo", "solissimo", "scegliete")),
    ("sol", ABC, ("'sol' is ambiguous", "solo", "solissimo")),
    ("an so 7", ("Anna", "Anselmo", "Bruno"), ("'an' is ambiguous", "Anna (a player)", "Anselmo (a player)")),
    ("so 7", ("Sofia", "Sonia", "Bruno"), ("'so' is ambiguous", "Sofia (a player)", "Sonia (a player)")),
    ("bruno chiamo 3D@an 17", ("Anna", "Anselmo", "Bruno"), ("holder 'an' is ambiguous", "Anna", "Anselmo")),
    ("bruno chiamo 3D@d 17", ("Anna", "Bruno", "Dario"), ("holder 'd' is ambiguous", "Dario (a player)", "declarer")),
    ("bruno solo 4t last=x", ABC, ("last trick 'x'", "declarer or opponents (also decl, opp)")),
    # words that are not words, and in the wrong place
    ("xyz solo 7", ABC, ("'xyz' is not a word", "Anna, Bruno, Carla", "solissimo")),
    ("bruno anna 7", ABC, ("'anna': only the first word names the declarer", "@anna", "dealer=anna")),
    ("bruno pass", ABC, ("'pass': a passed deal is written `pass`, as the first word",)),
    ("bruno solo 7 zz", ABC, ("'zz' is not a word", "chiamo")),
    ("bruno chiamo 3X@anna 7", ABC, ("'3X'", "rank then suit")),
    ("bruno chiamo 3D@zoe 7", ABC, ("holder 'zoe'", "Anna, Bruno, Carla, monte or declarer")),
    # points
    ("bruno solo 12+1/3", ABC, ("points '12+1/3'", "0 to 11+2/3", "22t")),
    ("bruno solo 36", ABC, ("points '36'", "only 35 thirds")),
    ("bruno solo 40t", ABC, ("points '40t'", "only 35 thirds")),
    ("bruno solo 7+1", ABC, ("points '7+1'",)),
    ("bruno solo 7/3", ABC, ("points '7/3'",)),
    ("bruno solo 2x", ABC, ("points '2x'",)),
    ("bruno chiamo 3Z 7", ABC, ("called '3Z'", "rank then suit")),  # a card mistyped after chiamo
    ("bruno chiamo 3D 2x", ABC, ("points '2x'",)),  # the card given: a points word
    ("bruno solo t=x", ABC, ("'t=x': thirds are a whole number",)),
    ("bruno solo t=36", ABC, ("only 35 thirds",)),
    # facts given twice
    ("bruno solo 7 8", ABC, ("'8': the points are given twice",)),
    ("bruno solo 22 t=22", ABC, ("'t=22': the points are given twice",)),
    ("bruno solo chiamo 7", ABC, ("'chiamo': the contract is given twice",)),
    ("bruno solissimo di sc 7", ABC, ("'sc': the aggravation is given twice",)),
    ("bruno chiamo 3D@anna @carla 7", ABC, ("'@carla': the holder is given twice",)),
    ("bruno solo 7 last=opp last=decl", ABC, ("'last=decl': the last trick is given twice",)),
    ("pass dealer=anna dealer=bruno", ABC, ("'dealer=bruno': the dealer is given twice",)),
    # keys
    (
        "bruno solo 7 foo=1",
        ABC,
        ("key 'foo'", "t (thirds), points, c (count), tricks, last, monte, holder, called, dealer, auction"),
    ),
    ("bruno solo 7 m=4t", ABC, ("key 'm' is ambiguous: it could be dealer, monte",)),
    ("bruno solo 7 monte=2a+u", ABC, ("monte '2a+u': the monte holds cards, not the last trick",)),
    ("bruno solo 7 monte=1t monte=2t", ABC, ("'monte=2t': the monte's thirds is given twice",)),
    ("bruno solo 7 =1", ABC, ("'=1': write key=value",)),
    ("bruno solo 7 tricks=", ABC, ("'tricks=': write key=value",)),
    ("bruno solo 7 tricks=many", ABC, ("tricks 'many': a whole number",)),
    ("pass dealer=zoe", ABC, ("dealer 'zoe'", "Anna, Bruno, Carla")),
    ("auction=pass,,solo 7", ABC, ("an empty call",)),
    ("auction=pass,solo,maybe 7", ABC, ("auction call 'maybe'", "pass, chiamo")),
    ("auction=zoe:pass 7", ABC, ("auction player 'zoe'", "Anna, Bruno, Carla")),
]


@pytest.mark.parametrize(("line", "players", "words"), ERRORS, ids=[line for line, _, _ in ERRORS])
def test_bad_input_is_one_message_naming_the_word_and_what_is_allowed(
    line: str, players: tuple[str, ...], words: tuple[str, ...]
) -> None:
    with pytest.raises(LedgerError) as error:
        parse_quick(line, players, PAGAT)
    assert "\n" not in said(error.value)
    for word in words:
        assert word in said(error.value)


def test_a_player_named_like_a_word_is_the_declarer_only_as_the_first_word() -> None:
    players = ("Solo", "Bruno", "Carla")
    assert parse_quick("solo solo 22", players, PAGAT) == DealInput(declarer="Solo", contract="solo", thirds=22)


def test_a_card_that_looks_like_a_name_is_a_card_after_the_first_word() -> None:
    players = ("Achille", "Bruno", "Carla")
    assert parse_quick("ac chiamo ac 17", players, PAGAT) == DealInput(
        declarer="Achille", contract="chiamo", called="AC", thirds=17
    )


def test_cavendish_points_are_0_to_35() -> None:
    assert parse_quick("anna play 22", ABC, CAVENDISH) == DealInput(declarer="Anna", contract="chiamo", points="22")
    assert parse_quick("anna pl 5", ABC, CAVENDISH).points == "5"
    assert parse_quick("anna play 22t", ABC, CAVENDISH).thirds == 22
    with raises_said(r"points '7\+1/3'.*0 to 35"):
        parse_quick("anna play 7+1/3", ABC, CAVENDISH)
    with raises_said("points '36'"):
        parse_quick("anna play 36", ABC, CAVENDISH)


@given(st.integers(min_value=0, max_value=35))
def test_every_count_of_thirds_reads_back_as_itself(thirds: int) -> None:
    for text in (f"{thirds}t", f"t={thirds}", format_points(thirds)):
        deal = parse_quick(f"bruno solo {text}", ABC, PAGAT)
        read = deal.thirds if deal.thirds is not None else parse_points(deal.points or "")
        assert read == thirds
    cavendish = parse_quick(f"bruno play {thirds}", ABC, CAVENDISH)
    assert parse_points(cavendish.points or "", american=True) == thirds


# RULES §5 written in the quick syntax, scored: the same payouts as the worked examples
SCORED: list[tuple[str, str, tuple[str, ...], str, dict[str, int]]] = [
    ("br so 7+1/3", "pagat", ABC, "Carla", {"Anna": -2, "Bruno": 4, "Carla": -2}),
    ("carla chiamo 3D@anna 17 last=opp", "pagat", ABC, "Carla", {"Anna": 1, "Bruno": 1, "Carla": -2}),
    ("anna solissimo dividete 8", "pagat", ABC, "Carla", {"Anna": 16, "Bruno": -8, "Carla": -8}),
    ("anna solissimo scegliete 35 tricks=12", "pagat", ABC, "Carla", {"Anna": 64, "Bruno": -32, "Carla": -32}),
    ("bruno solo 33", "pagat", ABC, "Carla", {"Anna": -6, "Bruno": 12, "Carla": -6}),
    ("bruno chiamo 4t last=decl", "pagat", ABC, "Carla", {"Anna": 3, "Bruno": -6, "Carla": 3}),
    ("bruno chiamo 4t last=opp", "pagat", ABC, "Carla", {"Anna": 1, "Bruno": -2, "Carla": 1}),
    ("pass", "pagat", ABC, "Carla", {"Anna": 0, "Bruno": 0, "Carla": 0}),
    ("anna play 22", "cavendish", ABC, "Carla", {"Anna": 18, "Bruno": -9, "Carla": -9}),
    ("an so 20", "pagat", (*ABC, "Dario"), "Dario", {"Anna": 4, "Bruno": -2, "Carla": -2, "Dario": 0}),
    ("auction=pass,pass,solissimo sc 35 tricks=12", "pagat", ABC, "Carla", {"Anna": -32, "Bruno": -32, "Carla": 64}),
]


@pytest.mark.parametrize(("line", "profile", "players", "dealer", "payouts"), SCORED, ids=[s[0] for s in SCORED])
def test_worked_examples_in_the_quick_syntax(
    line: str, profile: str, players: tuple[str, ...], dealer: str, payouts: dict[str, int]
) -> None:
    rules = make_profile(profile)
    result = score(build_facts(parse_quick(line, players, rules), rules, players, dealer), rules)
    assert result.payouts == payouts


ANSWERS: list[tuple[str, str, DealInput]] = [
    ("declarer", "br", DealInput(declarer="Bruno")),
    ("declarer", "pass", DealInput(passed=True)),
    ("contract", "so", DealInput(contract="solo")),
    ("contract", "soli sc", DealInput(contract="solissimo", aggravation="scegliete")),
    ("thirds", "7+1/3", DealInput(points="7+1/3")),
    ("thirds", "22", DealInput(thirds=22)),
    ("thirds", "4t", DealInput(thirds=4)),
    ("tricks", "12", DealInput(tricks=12)),
    ("last_trick", "o", DealInput(last_trick="opponents")),
    ("last_trick", "decl", DealInput(last_trick="declarer")),
    ("holder", "@an", DealInput(holder="Anna")),
    ("holder", "monte", DealInput(holder="monte")),
]


@pytest.mark.parametrize(("fact", "text", "expected"), ANSWERS, ids=[f"{f}-{t}" for f, t, _ in ANSWERS])
def test_an_answer_fills_the_missing_fact(fact: str, text: str, expected: DealInput) -> None:
    assert parse_answer(fact, text, ABC, PAGAT) == expected


@pytest.mark.parametrize(
    ("fact", "text", "words"),
    [
        ("declarer", "zoe", "Anna, Bruno, Carla or pass"),
        ("contract", "bruno", "allowed are chiamo"),
        ("contract", "solo 22", "allowed are chiamo"),
        ("contract", "dividete", "write one contract"),
        ("contract", "solo chiamo", "write one contract"),
        ("tricks", "all", "a whole number"),
        ("last_trick", "me", "declarer or opponents (also decl, opp)"),
        ("thirds", "lots", "points 'lots'"),
        ("holder", "", "the deal needs its holder"),
    ],
)
def test_a_bad_answer_says_what_is_allowed(fact: str, text: str, words: str) -> None:
    with pytest.raises(LedgerError) as error:
        parse_answer(fact, text, ABC, PAGAT)
    assert words in said(error.value)


def test_the_grammar_is_documented_for_help_screens() -> None:
    for example in (
        "bruno solo 22",
        "carla chiamo 3D@anna 17 last=opp",
        "anna solissimo scegliete 35 tricks=12",
        "br so 7+1/3",
        "pass",
        "dealer=NAME",
        "auction=",
        "tricks=N",
        "last=decl|opp",
        "22t",
        "t=22",
    ):
        assert example in SYNTAX


def test_a_card_spelled_like_a_contract_prefix_is_the_called_card_once_the_contract_is_given() -> None:
    assert parse_quick("anna chiamo CH 20", ABC, PAGAT) == DealInput(
        declarer="Anna", contract="chiamo", called="CC", thirds=20
    )


MARCO = ("Marco", "Nadia", "Lucia")


@pytest.mark.parametrize(
    ("line", "suggestion"),
    [
        ("mraco solo 20", "'mraco' is not a word of the quick syntax (did you mean Marco?)"),
        ("nadia solo @lcuia 20", "holder 'lcuia'"),
    ],
)
def test_a_mistyped_name_suggests_the_closest_seated_one(line: str, suggestion: str) -> None:
    with raises_said(r"did you mean"):
        parse_quick(line, MARCO, PAGAT)
    with pytest.raises(LedgerError) as raised:
        parse_quick(line, MARCO, PAGAT)
    assert suggestion in str(raised.value)


def test_no_suggestion_when_no_name_is_close() -> None:
    with pytest.raises(LedgerError) as raised:
        parse_quick("zzz solo 20", MARCO, PAGAT)
    assert "did you mean" not in str(raised.value)


@pytest.mark.parametrize("line", ["nadia sce 35 tricks=12", "nadia di 8", "nadia dividete 8"])
def test_an_aggravation_implies_solissimo(line: str) -> None:
    typed = parse_quick(line, MARCO, PAGAT)
    facts = build_facts(typed, PAGAT, MARCO, "Lucia")
    assert facts.contract is not None and facts.contract.value == "solissimo"
    assert score(facts, PAGAT).payouts["Nadia"] > 0


@pytest.mark.parametrize(
    ("profile", "players", "allowed"),
    [
        ("quintiglio", ("Anna", "Bruno", "Carla", "Dario", "Elena"), "allowed are Anna, Bruno, Carla, Dario, Elena"),
        ("quartiglio", ("Anna", "Bruno", "Carla", "Dario"), "allowed are Anna, Bruno, Carla, Dario or monte"),
        ("pagat", ("Anna", "Bruno", "Carla"), "allowed are Anna, Bruno, Carla, monte or declarer"),
    ],
)
def test_the_holders_offered_are_those_the_game_has(profile: str, players: tuple[str, ...], allowed: str) -> None:
    """Quintiglio has no monte; quartiglio and quintiglio refuse a card called from the declarer's own hand."""
    with pytest.raises(LedgerError, match=f"holder 'zz': {allowed}$"):
        parse_quick_line("anna chiamo 3D@zz 20", players, make_profile(profile))
