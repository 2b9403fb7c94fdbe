"""A deal's facts written back as a quick line: the line reads back as the same facts, in every profile."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules_properties import NAMES, deals, profiles

from ledger.rules.build import build_facts
from ledger.rules.cards import Card, Rank, Suit
from ledger.rules.contracts import Aggravation, Contract, Side
from ledger.rules.count import Count, parse_count
from ledger.rules.facts import DECLARER, MONTE, DealFacts
from ledger.rules.line import count_word, write_line
from ledger.rules.profiles import Profile, make_profile
from ledger.rules.quick import examples, parse_quick_line
from ledger.rules.validate import validate

ROUND_TRIP = settings(max_examples=200, deadline=None)
SEATED = ("Anna", "Annalisa", "Niccolò", "Gian Luca", "😀Gigi", "Dario")
"""Names a line must tell apart: one the prefix of another, an accent, two words, a symbol, one like `declarer`."""


def read_back(line: str, facts: DealFacts, profile: Profile) -> DealFacts:
    """The facts a line says, at the facts' seats (the dealer from the line when it names one)."""
    quick = parse_quick_line(line, facts.players, profile)
    return build_facts(quick.deal, profile, facts.players, quick.dealer or facts.dealer)


def renamed(facts: DealFacts, names: dict[str, str]) -> DealFacts:
    """The same deal with every seat given another name."""

    def name(seat: str | None) -> str | None:
        return names.get(seat, seat) if seat else seat

    return replace(
        facts,
        players=tuple(names[seat] for seat in facts.players),
        dealer=names[facts.dealer],
        declarer=name(facts.declarer),
        holder=name(facts.holder),
        auction=tuple((names[seat], call) for seat, call in facts.auction),
    )


@st.composite
def auctions(draw: st.DrawFn, facts: DealFacts, profile: Profile) -> tuple[tuple[str, Contract | None], ...]:
    """An auction that ends in the facts' declarer and contract: the seats before the declarer pass, or one of them
    bids lower; the seats after pass, or stay silent after a top bid."""
    speakers = facts.active(profile)
    if facts.declarer is None:
        return tuple((seat, None) for seat in speakers)
    assert facts.contract is not None
    at = speakers.index(facts.declarer)
    calls: list[tuple[str, Contract | None]] = [(seat, None) for seat in speakers]
    calls[at] = (facts.declarer, facts.contract)
    lower = [c for c in profile.bids if profile.level(c) < profile.level(facts.contract)]
    if at and lower and draw(st.booleans()):
        bidder = draw(st.integers(0, at - 1))
        calls[bidder] = (speakers[bidder], draw(st.sampled_from(lower)))
    top = profile.level(facts.contract) == len(profile.ladder) - 1
    return tuple(calls[: at + 1] if top and draw(st.booleans()) else calls)


@st.composite
def played(draw: st.DrawFn) -> tuple[DealFacts, Profile]:
    """Any valid played deal of any profile and options, with or without its auction, at seats with hard names."""
    deal = draw(deals())
    facts = replace(deal.facts(), passed_before=0)
    if draw(st.booleans()):
        facts = replace(facts, auction=draw(auctions(facts, deal.profile)))
    names = dict(zip(NAMES, draw(st.permutations(SEATED)), strict=False))
    return renamed(facts, names), deal.profile


@st.composite
def passed(draw: st.DrawFn) -> tuple[DealFacts, Profile]:
    """A deal everyone passed, with or without its auction."""
    profile = draw(profiles())
    seats = [n for n in profile.seat_counts if profile.sits_out(n) or not profile.dealer_shares]
    players = SEATED[: draw(st.sampled_from(seats))]
    facts = DealFacts(players=players, dealer=draw(st.sampled_from(players)))
    if draw(st.booleans()):
        facts = replace(facts, auction=draw(auctions(facts, profile)))
    return facts, profile


@ROUND_TRIP
@given(st.one_of(played(), passed()), st.booleans())
def test_a_written_line_reads_back_as_the_same_facts(deal: tuple[DealFacts, Profile], dealer: bool) -> None:
    facts, profile = deal
    validate(facts, profile)
    line = write_line(facts, profile, dealer=dealer)
    assert read_back(line, facts, profile) == facts
    assert ("dealer=" in line) is dealer


@given(st.integers(0, 4), st.integers(0, 20), st.booleans())
def test_a_written_count_reads_back_as_the_same_count(aces: int, figures: int, last: bool) -> None:
    count = Count(aces, figures, last)
    assert parse_count(count_word(count)) == count


ABC = ("Anna", "Bruno", "Carla")
ABCDE = (*ABC, "Dario", "Ezio")
D3 = Card(Suit.DENARI, Rank.TRE)

# profile, the facts (at Anna, Bruno, Carla, Carla dealing, unless they say), the line written
WRITTEN: list[tuple[str, dict[str, object], str]] = [
    ("pagat", {"declarer": "Bruno", "contract": Contract.SOLO, "thirds": 22}, "bruno solo 7+1/3"),
    (
        "pagat",
        {"declarer": "Carla", "contract": Contract.CHIAMO, "called": D3, "holder": "Anna", "thirds": 17}
        | {"last_trick": Side.OPPONENTS},
        "carla chiamo 3D@anna 5+2/3 last=opp",
    ),
    (
        "pagat",
        {"declarer": "Anna", "contract": Contract.SOLISSIMO, "aggravation": Aggravation.SCEGLIETE}
        | {"thirds": 35, "tricks": 12},
        "anna solissimo scegliete 11+2/3 tricks=12",
    ),
    ("pagat", {}, "pass"),
    ("pagat", {"auction": (("Anna", None), ("Bruno", None), ("Carla", None))}, "pass auction=pass,pass,pass"),
    (
        "pagat",
        {"declarer": "Bruno", "contract": Contract.SOLO, "thirds": 4, "last_trick": Side.DECLARER}
        | {"auction": (("Anna", Contract.CHIAMO), ("Bruno", Contract.SOLO), ("Carla", None))},
        "bruno solo 1+1/3 last=decl auction=chiamo,solo,pass",
    ),
    ("cavendish", {"declarer": "Anna", "contract": Contract.CHIAMO, "thirds": 22}, "anna play 22"),
    (
        "cavendish",
        {"declarer": "Anna", "contract": Contract.CHIAMO, "called": Card(Suit.SPADE, Rank.RE), "thirds": 0}
        | {"tricks": 0},
        "anna play called=RS 0 tricks=0",
    ),
    (
        "pagat",
        {"declarer": "Bruno", "contract": Contract.CHIAMO, "called": D3, "holder": MONTE, "thirds": 20},
        "bruno chiamo 3D@monte 6+2/3",
    ),
    (
        "pagat",
        {"declarer": "Bruno", "contract": Contract.CHIAMO, "called": D3, "holder": DECLARER, "thirds": 20},
        "bruno chiamo 3D@declarer 6+2/3",
    ),
    (
        "quintiglio",
        {"players": ABCDE, "dealer": "Ezio", "declarer": "Anna", "contract": Contract.CHIAMO, "called": Rank.TRE}
        | {"holder": "Dario", "thirds": 20},
        "anna chiamo 3@dario 6+2/3",
    ),
    (
        "quartiglio",
        {"players": ABCDE[:4], "dealer": "Dario", "declarer": "Anna", "contract": Contract.MEDIATORE}
        | {"holder": "Carla", "thirds": 30, "last_trick": Side.DECLARER},
        "anna mediatore @carla 10 last=decl",
    ),
    (
        "pagat:stramazzo_counts=tricks",
        {"declarer": "Bruno", "contract": Contract.SOLO, "thirds": 5, "last_trick": Side.DECLARER, "monte_thirds": 0},
        "bruno solo 1+2/3 last=decl monte=0",
    ),
    (
        "pagat",
        {"players": ("Gian Luca", "Niccolò", "Carla"), "declarer": "Niccolò", "contract": Contract.CHIAMO}
        | {"called": D3, "holder": "Gian Luca", "thirds": 18},
        "niccolò chiamo 3D@gian 6",
    ),
]


@pytest.mark.parametrize(("rules", "given", "line"), WRITTEN, ids=[line for _r, _g, line in WRITTEN])
def test_written_lines(rules: str, given: dict[str, object], line: str) -> None:
    name, _sep, option = rules.partition(":")
    profile = make_profile(name, [option] if option else [])
    facts = DealFacts(**{"players": ABC, "dealer": "Carla", **given})  # type: ignore[arg-type]
    validate(facts, profile)
    assert write_line(facts, profile) == line
    assert read_back(line, facts, profile) == facts


def test_the_example_lines_are_written_by_the_writer_as_before() -> None:
    assert examples(ABC, make_profile()) == ("bruno solo 7+1/3", "carla chiamo 3D@anna 5+2/3")
    assert examples(("Gian Luca", "Niccolò", "Carla", "Dario"), make_profile("quartiglio")) == (
        "niccolò solo 7+1/3",
        "carla chiamo 3D@gian 5+2/3",
    )
    assert examples(ABC, make_profile("cavendish")) == ("bruno play 22", "carla play 3D@anna 17")
