"""RULES §3: cappotto and stramazzo, row by row, the facts each row needs, and contradictory facts."""

from __future__ import annotations

import re

import pytest
from rules_cases import ABCD, ABCDE, play
from said import raises_said, said

from ledger.errors import LedgerError, MissingFact
from ledger.rules.build import DealInput, build_facts
from ledger.rules.contracts import Side
from ledger.rules.profiles import make_profile
from ledger.rules.sweeps import Sweep, check_sweep_facts, decide_sweep

DECL, OPP = Side.DECLARER, Side.OPPONENTS
CAP, STR = Sweep.CAPPOTTO, Sweep.STRAMAZZO
NEEDS = {
    0: "tricks",
    35: "tricks",
    3: "last_trick",
    4: "last_trick",
    5: "last_trick",
    30: "last_trick",
    31: "last_trick",
    32: "last_trick",
}


def _rows() -> list[tuple[int, int | None, Side | None, Sweep | None]]:
    """(d, tricks, last trick, outcome) for every d = 0..35 with the fact its row needs."""
    rows: list[tuple[int, int | None, Side | None, Sweep | None]] = []
    rows += [(0, 0, None, CAP), (0, 0, OPP, CAP)]
    rows += [(0, tricks, None, STR) for tricks in (1, 3, 5)] + [(0, 3, OPP, STR)]
    rows += [(d, None, None, STR) for d in (1, 2)] + [(d, 4, OPP, STR) for d in (1, 2)]
    for d in (3, 4, 5):
        rows += [(d, None, DECL, STR), (d, None, OPP, None), (d, 2, DECL, STR)]
    rows += [(d, None, None, None) for d in range(6, 30)]
    rows += [(d, 6, DECL, None) for d in (9, 17, 18, 29)] + [(d, 6, OPP, None) for d in (6, 17, 18, 26)]
    for d in (30, 31, 32):
        rows += [(d, None, OPP, STR), (d, None, DECL, None), (d, 10, OPP, STR)]
    rows += [(d, None, None, STR) for d in (33, 34)] + [(d, 9, DECL, STR) for d in (33, 34)]
    rows += [(35, 12, None, CAP), (35, 12, DECL, CAP)]
    rows += [(35, tricks, None, STR) for tricks in (7, 9, 11)] + [(35, 11, DECL, STR)]
    return rows


def _row_id(row: tuple[int, int | None, Side | None, Sweep | None]) -> str:
    d, tricks, last, outcome = row
    facts = [f"d={d}"] + ([f"tricks={tricks}"] if tricks is not None else [])
    facts += [f"last={last.value}"] if last else []
    return ",".join(facts) + "->" + (outcome.value if outcome else "none")


ROWS = _rows()


def test_the_table_covers_every_d() -> None:
    assert {row[0] for row in ROWS} == set(range(36))


@pytest.mark.parametrize("row", ROWS, ids=_row_id)
def test_sweep_table_row(row: tuple[int, int | None, Side | None, Sweep | None]) -> None:
    d, tricks, last, outcome = row
    check_sweep_facts(d, tricks, last, None, 12)
    assert decide_sweep(d, tricks, last, 12) is outcome


@pytest.mark.parametrize("row", ROWS, ids=_row_id)
def test_sweep_table_row_through_pagat_scoring(row: tuple[int, int | None, Side | None, Sweep | None]) -> None:
    d, tricks, last, outcome = row
    _, result = play(
        declarer="Bruno", contract="solo", thirds=d, tricks=tricks, last_trick=last.value if last else None
    )
    assert result.sweep is outcome
    assert result.declarer_won is (d >= 18)
    multiplier = {None: 1, CAP: 2, STR: 3}[outcome]
    assert result.multiplier == multiplier
    assert result.payouts["Bruno"] == (4 if d >= 18 else -4) * multiplier
    if outcome is not None:
        # a sweep for the declarer only when winning, against only when losing
        assert (d >= 18) == (d >= 30)


@pytest.mark.parametrize("d", range(36), ids=lambda d: f"d={d}")
def test_missing_fact_only_in_the_rows_that_need_it(d: int) -> None:
    if d in NEEDS:
        with pytest.raises(MissingFact) as caught:
            decide_sweep(d, None, None, 12)
        assert caught.value.fact == NEEDS[d]
        assert isinstance(caught.value, LedgerError)
        flag = "--tricks" if NEEDS[d] == "tricks" else "--last-trick"
        assert flag in said(caught.value) and str(d) in said(caught.value)
    else:
        assert decide_sweep(d, None, None, 12) in (None, STR)


@pytest.mark.parametrize("d", range(36), ids=lambda d: f"d={d}")
def test_missing_fact_only_in_the_rows_that_need_it_through_score(d: int) -> None:
    if d in NEEDS:
        with pytest.raises(MissingFact) as caught:
            play(declarer="Anna", contract="chiamo", thirds=d)
        assert caught.value.fact == NEEDS[d]
    else:
        play(declarer="Anna", contract="chiamo", thirds=d)


@pytest.mark.parametrize("d", sorted(NEEDS), ids=lambda d: f"d={d}")
def test_the_other_fact_does_not_satisfy_a_row(d: int) -> None:
    """Giving the fact a row does not need never replaces the one it does (where 40 cards leave both answers open:
    the declarer side's 2 tricks, or the opponents' 2)."""
    if NEEDS[d] == "tricks":
        last = OPP if d == 0 else DECL
        with pytest.raises(MissingFact) as caught:
            decide_sweep(d, None, last, 12)
    else:
        with pytest.raises(MissingFact) as caught:
            decide_sweep(d, 2 if d < 18 else 10, None, 12)
    assert caught.value.fact == NEEDS[d]


@pytest.mark.parametrize("d", [3, 4, 5, 30, 31, 32], ids=lambda d: f"d={d}")
def test_the_last_trick_is_not_asked_where_the_tricks_tell_it(d: int) -> None:
    """With 6 tricks each, the losing side taking the last trick would hold 0 to 2 thirds in its 6 tricks and the
    monte, 22 cards: at least 20 blank cards, and the deck has 16. So the winners took it: no stramazzo."""
    assert decide_sweep(d, 6, None, 12) is None


CONTRADICTIONS = [
    pytest.param(0, None, DECL, 12, "which alone is 3 thirds", id="d=0-last-declarer"),
    pytest.param(1, None, DECL, 12, "which alone is 3 thirds", id="d=1-last-declarer"),
    pytest.param(2, None, DECL, 12, "which alone is 3 thirds", id="d=2-last-declarer"),
    pytest.param(33, None, OPP, 12, "at most 32", id="d=33-last-opponents"),
    pytest.param(34, None, OPP, 12, "at most 32", id="d=34-last-opponents"),
    pytest.param(35, None, OPP, 12, "at most 32", id="d=35-last-opponents"),
    pytest.param(0, 12, None, 12, "all 35 thirds", id="12-tricks-d=0"),
    pytest.param(20, 12, None, 12, "all 35 thirds", id="12-tricks-d=20"),
    pytest.param(34, 12, None, 12, "all 35 thirds", id="12-tricks-d=34"),
    pytest.param(35, 13, None, 12, "12 tricks", id="13-tricks"),
    pytest.param(20, 40, None, 12, "12 tricks", id="40-tricks"),
    pytest.param(0, -1, None, 12, "12 tricks", id="negative-tricks"),
    pytest.param(1, 0, None, 12, "no trick has no thirds", id="0-tricks-d=1"),
    pytest.param(20, 0, None, 12, "no trick has no thirds", id="0-tricks-d=20"),
    pytest.param(35, 0, None, 12, "no trick has no thirds", id="0-tricks-d=35"),
    pytest.param(0, 0, DECL, 12, "the last trick is a trick", id="0-tricks-last-declarer"),
    pytest.param(35, 12, OPP, 12, "every trick, but the opponents took the last trick", id="12-tricks-last-opponents"),
    pytest.param(35, 10, None, 9, "9 tricks", id="quartiglio-monte-10-tricks"),
    pytest.param(20, 9, None, 9, "all 35 thirds", id="quartiglio-monte-9-tricks-d=20"),
    pytest.param(35, 11, None, 10, "10 tricks", id="quartiglio-no-monte-11-tricks"),
    pytest.param(35, 9, None, 8, "8 tricks", id="quintiglio-9-tricks"),
    pytest.param(
        34,
        1,
        None,
        12,
        "--tricks 1: the cards holding 34 thirds fill 7 to 11 tricks of 12",
        id="34-in-1-trick",
    ),
    pytest.param(
        6,
        6,
        DECL,
        12,
        "--tricks 6: at least 19 blank cards for the declarer side's 6 tricks and the monte \\(22 cards\\) with 3 "
        "thirds besides the last trick's 3; the deck has 16",
        id="6-in-6-tricks-and-the-monte",
    ),
    pytest.param(
        29,
        6,
        OPP,
        12,
        "at least 6 aces for the declarer side's 6 tricks \\(18 cards\\) with 29 thirds; the deck has 4",
        id="29-in-6-tricks-without-the-monte",
    ),
    pytest.param(20, 1, None, 12, "fill 2 to 11 tricks of 12", id="20-in-1-trick"),
]


@pytest.mark.parametrize(("d", "tricks", "last", "all_tricks", "why"), CONTRADICTIONS)
def test_contradictions_are_rejected(d: int, tricks: int | None, last: Side | None, all_tricks: int, why: str) -> None:
    with pytest.raises(LedgerError) as caught:
        check_sweep_facts(d, tricks, last, None, all_tricks)
    assert re.search(why, said(caught.value)) and not isinstance(caught.value, MissingFact)


@pytest.mark.parametrize(
    ("d", "tricks", "last"),
    [
        (0, None, DECL),
        (2, None, DECL),
        (34, None, OPP),
        (35, None, OPP),
        (0, 12, None),
        (34, 12, None),
        (35, 13, None),
        (20, 0, None),
        (35, 12, OPP),
        (20, 13, None),
    ],
    ids=lambda v: v.value if isinstance(v, Side) else str(v),
)
@pytest.mark.parametrize("sweeps", ["on", "off"])
def test_contradictions_are_rejected_through_build_whatever_the_sweeps(
    d: int, tricks: int | None, last: Side | None, sweeps: str
) -> None:
    with pytest.raises(LedgerError) as caught:
        play(
            options={"sweeps": sweeps},
            declarer="Anna",
            contract="solo",
            thirds=d,
            tricks=tricks,
            last_trick=last.value if last else None,
        )
    assert not isinstance(caught.value, MissingFact)


QUARTIGLIO_QUINTIGLIO = [
    # (profile, options, d, tricks, last, outcome)
    pytest.param("quartiglio", {}, 35, 9, None, CAP, id="quartiglio-monte-9-tricks-cappotto"),
    pytest.param("quartiglio", {}, 35, 8, None, STR, id="quartiglio-monte-8-tricks-stramazzo"),
    pytest.param("quartiglio", {}, 0, 0, None, CAP, id="quartiglio-monte-0-tricks-cappotto-against"),
    pytest.param("quartiglio", {}, 0, 3, None, STR, id="quartiglio-monte-d=0-3-tricks-stramazzo-against"),
    pytest.param("quartiglio", {}, 31, None, OPP, STR, id="quartiglio-monte-d=31-last-opp"),
    pytest.param("quartiglio", {}, 31, None, DECL, None, id="quartiglio-monte-d=31-last-decl"),
    pytest.param("quartiglio", {}, 4, None, DECL, STR, id="quartiglio-monte-d=4-last-decl"),
    pytest.param("quartiglio", {}, 33, None, None, STR, id="quartiglio-monte-d=33"),
    pytest.param("quartiglio", {}, 20, None, None, None, id="quartiglio-monte-d=20"),
    pytest.param("quartiglio", {"monte": "off"}, 35, 10, None, CAP, id="quartiglio-no-monte-10-tricks-cappotto"),
    pytest.param("quartiglio", {"monte": "off"}, 35, 9, None, STR, id="quartiglio-no-monte-9-tricks-stramazzo"),
    pytest.param("quintiglio", {}, 35, 8, None, CAP, id="quintiglio-8-tricks-cappotto"),
    pytest.param("quintiglio", {}, 35, 7, None, STR, id="quintiglio-7-tricks-stramazzo"),
    pytest.param("quintiglio", {}, 0, 0, None, CAP, id="quintiglio-0-tricks-cappotto-against"),
    pytest.param("quintiglio", {}, 1, None, None, STR, id="quintiglio-d=1"),
    pytest.param("quintiglio", {}, 30, None, OPP, STR, id="quintiglio-d=30-last-opp"),
    pytest.param("quintiglio", {}, 5, None, OPP, None, id="quintiglio-d=5-last-opp"),
]


@pytest.mark.parametrize(("profile", "options", "d", "tricks", "last", "outcome"), QUARTIGLIO_QUINTIGLIO)
def test_sweeps_at_four_and_five(
    profile: str, options: dict[str, str], d: int, tricks: int | None, last: Side | None, outcome: Sweep | None
) -> None:
    players = ABCD if profile == "quartiglio" else ABCDE
    _, result = play(
        profile,
        {**options, "sweeps": "on"},
        players,
        declarer="Anna",
        contract="solo",
        thirds=d,
        tricks=tricks,
        last_trick=last.value if last else None,
    )
    assert result.sweep is outcome
    # solo alone against 3 (or 4): the declarer gets (n-1) x amount, amount = 1 x sweep multiplier
    multiplier = {None: 1, CAP: 2, STR: 3}[outcome]
    assert result.amount == multiplier
    assert result.payouts["Anna"] == (len(players) - 1) * multiplier * (1 if d >= 18 else -1)


@pytest.mark.parametrize(
    ("profile", "options", "tricks"),
    [("quartiglio", {}, 10), ("quartiglio", {"monte": "off"}, 11), ("quintiglio", {}, 9)],
    ids=["quartiglio-monte", "quartiglio-no-monte", "quintiglio"],
)
def test_too_many_tricks_at_four_and_five(profile: str, options: dict[str, str], tricks: int) -> None:
    players = ABCD if profile == "quartiglio" else ABCDE
    with raises_said(f"--tricks {tricks}: a deal has {tricks - 1} tricks"):
        play(profile, {**options, "sweeps": "on"}, players, declarer="Anna", contract="solo", thirds=35, tricks=tricks)


@pytest.mark.parametrize(
    ("profile", "players", "d", "fact"),
    [
        ("quartiglio", ABCD, 35, "tricks"),
        ("quartiglio", ABCD, 3, "last_trick"),
        ("quintiglio", ABCDE, 0, "tricks"),
        ("quintiglio", ABCDE, 32, "last_trick"),
    ],
    ids=["quartiglio-35", "quartiglio-3", "quintiglio-0", "quintiglio-32"],
)
def test_sweeps_at_four_and_five_ask_only_when_on(profile: str, players: tuple[str, ...], d: int, fact: str) -> None:
    with pytest.raises(MissingFact) as caught:
        play(profile, {"sweeps": "on"}, players, declarer="Anna", contract="solo", thirds=d)
    assert caught.value.fact == fact
    _, result = play(profile, {}, players, declarer="Anna", contract="solo", thirds=d)  # sweeps off by default
    assert result.sweep is None and result.multiplier == 1


@pytest.mark.parametrize(("thirds", "tricks", "fine"), [(35, 6, False), (35, 7, True), (0, 5, True), (0, 6, False)])
def test_all_the_thirds_need_enough_tricks_to_hold_them(thirds: int, tricks: int, fine: bool) -> None:
    """The 24 counting cards, less the 4 a monte may hold, fill at least 7 tricks of three cards."""
    typed = DealInput(declarer="Bruno", contract="solo", thirds=thirds, tricks=tricks)
    if fine:
        build_facts(typed, make_profile(), ("Anna", "Bruno", "Carla"), "Carla")
    else:
        with raises_said(f"--tricks {tricks}: the cards holding"):
            build_facts(typed, make_profile(), ("Anna", "Bruno", "Carla"), "Carla")
