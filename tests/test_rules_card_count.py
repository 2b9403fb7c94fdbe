"""The trick facts checked against what 40 cards allow (`ledger.rules.heaps`), counted against a brute force over
the aces, figures and blank cards of each side's tricks and of the monte, for every shape of deal the games have:
every fact or set of facts no deal has is refused in one line, none that a deal has is, and a missing fact is asked
for only when its answer changes the sweep."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from cli_support import calabresella
from said import said
from test_web_support import BEARER, start, viewer

from ledger.errors import FactError, MissingFact
from ledger.i18n import speaking
from ledger.rules.contracts import Side
from ledger.rules.heaps import Shape, allowed
from ledger.rules.options import StramazzoCounts
from ledger.rules.profiles import DEFAULTS, make_profile
from ledger.rules.sweeps import Sweep, check_sweep_facts, decide_sweep

Full = tuple[int, int, Side, int]
"""The declarer side's thirds and tricks, who took the last trick, the monte's thirds."""
Partial = tuple[int, int | None, Side | None, int | None]
"""The same with any of the last three not given."""


def _shapes() -> set[Shape]:
    """Every shape of deal of every game: pagat, cavendish and tretre at three (a fourth seated sits out),
    quartiglio with and without the monte, quintiglio."""
    shapes = set()
    for name in DEFAULTS:
        for monte in ("on", "off") if "monte" in DEFAULTS[name] else (None,):
            profile = make_profile(name, {"monte": monte} if monte else {})
            shapes.add(Shape(profile.tricks_per_deal(profile.active_players), profile.monte_cards))
    return shapes


SHAPES = sorted(_shapes(), key=lambda shape: (shape.tricks, shape.monte), reverse=True)
SHAPE_IDS = [f"{shape.tricks}-tricks-monte-{shape.monte}" for shape in SHAPES]


def test_the_games_deal_in_four_shapes() -> None:
    assert [(shape.tricks, shape.monte, shape.trick_cards) for shape in SHAPES] == [
        (12, 4, 3),
        (10, 0, 4),
        (9, 4, 4),
        (8, 0, 5),
    ]


@cache
def brute_force(shape: Shape) -> frozenset[Full]:
    """Every deal 40 cards allow, by trying every count of aces (3 thirds), figures (1) and blank cards (0) in the
    declarer side's tricks and in the monte; the opponents' tricks hold the rest."""
    found = set()
    for tricks in range(shape.tricks + 1):
        cards = tricks * shape.trick_cards
        for aces, figures in product(range(5), range(21)):
            blanks = cards - aces - figures
            if not 0 <= blanks <= 16:
                continue
            for monte_aces, monte_figures in product(range(5 - aces), range(21 - figures)):
                monte_blanks = shape.monte - monte_aces - monte_figures
                if not 0 <= monte_blanks <= 16 - blanks:
                    continue
                in_tricks, in_monte = 3 * aces + figures, 3 * monte_aces + monte_figures
                if tricks > 0:  # the declarer side took the last trick: the monte and 3 thirds more
                    found.add((in_tricks + in_monte + 3, tricks, Side.DECLARER, in_monte))
                if tricks < shape.tricks:
                    found.add((in_tricks, tricks, Side.OPPONENTS, in_monte))
    return frozenset(found)


@cache
def completions(shape: Shape) -> dict[Partial, list[Full]]:
    """For every set of facts some deal has, the deals that have them."""
    fitting: dict[Partial, list[Full]] = defaultdict(list)
    for full in brute_force(shape):
        thirds, tricks, last, monte = full
        for hide_tricks, hide_last, hide_monte in product((False, True), repeat=3):
            fitting[
                thirds,
                None if hide_tricks else tricks,
                None if hide_last else last,
                None if hide_monte else monte,
            ].append(full)
    return fitting


def partials(shape: Shape) -> list[Partial]:
    """Every set of facts: the thirds 0..35, the tricks 0..all or none, the last trick to either side or not said,
    the monte's thirds 0..12 or none (where there is a monte)."""
    return list(
        product(
            range(36),
            (None, *range(shape.tricks + 1)),
            (None, *Side),
            (None, *range(13)) if shape.monte else (None,),
        )
    )


def sweep(full: Full, shape: Shape, counts: StramazzoCounts) -> Sweep | None:
    """RULES §3 and §8 read for a deal whose every fact is known."""
    thirds, tricks, last, monte = full
    if thirds in (0, 35):
        return Sweep.CAPPOTTO if tricks in (0, shape.tricks) else Sweep.STRAMAZZO
    if counts is StramazzoCounts.ALL:
        return None
    losers_thirds = min(thirds, 35 - thirds)
    losers_took_last = (last is Side.DECLARER) == (thirds < 18)
    if losers_took_last:
        losers_thirds -= 3 + (monte if counts is StramazzoCounts.TRICKS else 0)
    return Sweep.STRAMAZZO if losers_thirds < 3 else None


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_the_deals_allowed_are_those_of_the_brute_force(shape: Shape) -> None:
    counted = {(thirds, *deal) for thirds in range(36) for deal in allowed(shape, thirds, None, None, None)}
    assert counted == brute_force(shape)


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_facts_are_refused_exactly_when_no_deal_has_them(shape: Shape) -> None:
    fitting = completions(shape)
    for thirds, tricks, last, monte in partials(shape):
        if (thirds, tricks, last, monte) in fitting:
            check_sweep_facts(thirds, tricks, last, monte, shape.tricks, shape.monte)
            continue
        with pytest.raises(FactError) as refused:
            check_sweep_facts(thirds, tricks, last, monte, shape.tricks, shape.monte)
        line = said(refused.value)
        assert not isinstance(refused.value, MissingFact) and "\n" not in line, line
        assert not re.search(r"(?<![\w-])-\d", line), f"a negative count in {line!r}"


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_the_tricks_that_fit_are_one_run(shape: Shape) -> None:
    """The refusal of a trick count with the last trick not given says `fill 2 to 9 tricks`: no count between is
    left out."""
    for (_, tricks, last, _), fulls in completions(shape).items():
        if tricks is None and last is None:
            counts = sorted({full[1] for full in fulls})
            assert counts == list(range(counts[0], counts[-1] + 1))


@pytest.mark.parametrize("counts", list(StramazzoCounts), ids=lambda counts: counts.value)
@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_a_fact_is_asked_only_when_its_answer_changes_the_sweep(shape: Shape, counts: StramazzoCounts) -> None:
    """Every set of facts a deal has is either decided, with the sweep of every deal that has them, or a missing
    fact is asked whose answers leave different sweeps open."""
    facts = ("tricks", "last_trick", "monte_thirds")
    for partial, fulls in completions(shape).items():
        thirds, tricks, last, monte = partial
        sweeps = {sweep(full, shape, counts) for full in fulls}
        try:
            decided = decide_sweep(thirds, tricks, last, shape.tricks, counts, monte, shape.monte)
        except MissingFact as missing:
            index = facts.index(missing.fact)
            assert partial[index + 1] is None, (partial, missing.fact)
            left = defaultdict(set)
            for full in fulls:
                left[full[index + 1]].add(sweep(full, shape, counts))
            assert len({frozenset(open_) for open_ in left.values()}) > 1, (partial, missing.fact, dict(left))
        else:
            assert sweeps == {decided}, (partial, counts)


@pytest.mark.parametrize(
    ("shape", "facts", "line"),
    [
        pytest.param(
            Shape(12, 4),
            (0, 5, Side.OPPONENTS, 0),
            "--tricks 5: at least 19 blank cards for the declarer side's 5 tricks (15 cards) with 0 thirds and the "
            "monte (4 cards) with 0 thirds; the deck has 16",
            id="five-blank-tricks-and-a-blank-monte",
        ),
        pytest.param(
            Shape(12, 4),
            (18, 1, Side.DECLARER, 9),
            "--tricks 1: at least 5 aces for the declarer side's 1 trick (3 cards) with 6 thirds besides the last "
            "trick's 3 and the monte (4 cards) with 9 thirds; the deck has 4",
            id="aces-in-one-trick-and-in-the-monte",
        ),
        pytest.param(
            Shape(12, 4),
            (30, 4, Side.DECLARER, None),
            "--tricks 4: at least 6 aces for the declarer side's 4 tricks and the monte (16 cards) with 27 thirds "
            "besides the last trick's 3; the deck has 4",
            id="thirty-in-four-tricks-and-the-monte",
        ),
        pytest.param(
            Shape(12, 4),
            (17, 11, Side.OPPONENTS, 4),
            "--tricks 11: the opponents' 1 trick (3 cards) would hold 11 thirds besides the last trick's 3 and the "
            "monte's 4; 3 cards hold at most 9",
            id="the-opponents-trick",
        ),
        pytest.param(
            Shape(10, 0),
            (11, 1, Side.OPPONENTS, None),
            "--tricks 1: the declarer side's 1 trick (4 cards) would hold 11 thirds; 4 cards hold at most 12, and "
            "never 11",
            id="quartiglio-without-monte-11-in-one-trick",
        ),
        pytest.param(
            Shape(12, 4),
            (34, 1, Side.DECLARER, None),
            "--tricks 1: the declarer side's 1 trick and the monte (7 cards) would hold 31 thirds besides the last "
            "trick's 3; 7 cards hold at most 15",
            id="too-few-cards",
        ),
        pytest.param(
            Shape(12, 4),
            (0, 5, None, 0),
            "--tricks 5: with 0 thirds in the monte, the cards holding 0 thirds fill 0 to 4 tricks of 12",
            id="the-last-trick-not-given",
        ),
        pytest.param(
            Shape(10, 0),
            (14, 1, None, None),
            "--tricks 1: the cards holding 14 thirds fill 2 to 7 tricks of 10",
            id="quartiglio-without-monte-14-in-one-trick",
        ),
    ],
)
def test_a_refusal_says_what_the_cards_cannot_do(
    shape: Shape, facts: tuple[int, int, Side | None, int], line: str
) -> None:
    thirds, tricks, last, monte = facts
    with pytest.raises(FactError) as refused:
        check_sweep_facts(thirds, tricks, last, monte, shape.tricks, shape.monte)
    assert said(refused.value) == line


def test_a_refusal_in_italian() -> None:
    with speaking("it"), pytest.raises(FactError) as refused:
        check_sweep_facts(0, 5, Side.OPPONENTS, 0, 12, 4)
    assert said(refused.value) == (
        "--tricks 5: almeno 19 scartine per le 5 prese della parte del chiamante (15 carte) con 0 terzi e il monte "
        "(4 carte) con 0 terzi; il mazzo ne ha 16"
    )


ISSUE = ("-o", "stramazzo_counts=tricks", "-d", "Anna", "-c", "solo", "-t", "0", "--tricks", "5", "-l", "opponents")


def test_the_issues_deal_is_refused_in_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    db = str(tmp_path / "ledger.sqlite3")
    scored = calabresella("score", "--players", "Anna,Bruno,Carla", *ISSUE, "--monte-thirds", "0")
    assert (scored.returncode, scored.stdout) == (2, "")
    assert scored.stderr == (
        "Error: --tricks 5: at least 19 blank cards for the declarer side's 5 tricks (15 cards) with 0 thirds and "
        "the monte (4 cards) with 0 thirds; the deck has 16\n"
    )
    started = calabresella(
        "--db", db, "evening", "start", "--players", "Anna,Bruno,Carla", "-o", "stramazzo_counts=tricks"
    )
    assert started.returncode == 0, started.stderr
    recorded = calabresella("--db", db, "--lang", "it", "record", *ISSUE[2:], "--monte-thirds", "0")
    assert recorded.returncode == 2 and recorded.stderr.startswith("Errore: --tricks 5: almeno 19 scartine")
    assert recorded.stderr.count("\n") == 1
    assert json.loads(calabresella("--db", db, "deals", "--json").stdout)["deals"] == []
    kept = calabresella("--db", db, "record", *ISSUE[2:], "--monte-thirds", "4")  # 15 blank cards, 4 figures
    assert kept.returncode == 0, kept.stderr
    assert len(json.loads(calabresella("--db", db, "deals", "--json").stdout)["deals"]) == 1


def test_eleven_thirds_in_one_trick_at_quartiglio_without_monte_is_possible_with_the_last_trick() -> None:
    """The issue's second deal: the one trick is the last, 8 thirds in its 4 cards (two aces, two figures) and 3
    for the last trick; with the last trick to the opponents it is refused."""
    args = ("score", "--players", "Anna,Bruno,Carla,Dario", "-P", "quartiglio", "-o", "monte=off", "-o", "sweeps=on")
    deal = ("-d", "Anna", "-c", "solo", "-t", "11", "--tricks", "1")
    assert calabresella(*args, *deal).returncode == 0
    assert calabresella(*args, *deal, "-l", "declarer").returncode == 0
    refused = calabresella(*args, *deal, "-l", "opponents")
    assert refused.returncode == 2
    assert refused.stderr == (
        "Error: --tricks 1: the declarer side's 1 trick (4 cards) would hold 11 thirds; 4 cards hold at most 12, "
        "and never 11\n"
    )


def test_the_phones_api_refuses_the_issues_deal_in_one_line_and_writes_nothing(sqlite_url: str) -> None:
    start(sqlite_url)
    facts = {"declarer": "Anna", "contract": "solo", "thirds": 0, "tricks": 5, "last_trick": "opponents"}
    with viewer(sqlite_url) as phone:
        refused = phone.post("/api/evenings/1/deals", json={**facts, "monte_thirds": 0}, headers=BEARER)
        assert refused.status_code == 422 and "missing" not in refused.json()
        error = refused.json()["error"]
        assert "\n" not in error and "at least 19 blank cards" in error and "the deck has 16" in error
        assert phone.get("/api/evenings/1").json()["revision"] == 0
        assert phone.post("/api/evenings/1/deals", json={**facts, "monte_thirds": 4}, headers=BEARER).status_code == 201
