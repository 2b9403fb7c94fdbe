"""Shared cases for the rules-engine and `calabresella score` tests: the worked examples of RULES §5."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ledger.rules.build import DealInput, build_facts
from ledger.rules.facts import DealFacts
from ledger.rules.profiles import make_profile
from ledger.rules.scoring import DealResult, score

ABC = ("Anna", "Bruno", "Carla")
ABCD = ("Anna", "Bruno", "Carla", "Dario")
ABCDE = ("Anna", "Bruno", "Carla", "Dario", "Ezio")


def play(
    profile: str = "pagat",
    options: Mapping[str, object] | Iterable[str] = (),
    players: tuple[str, ...] = ABC,
    dealer: str | None = None,
    **typed: object,
) -> tuple[DealFacts, DealResult]:
    """Build and score one deal through the library, as the CLI does (dealer: the last seat by default)."""
    rules = make_profile(profile, options)
    facts = build_facts(DealInput(**typed), rules, players, dealer or players[-1])  # type: ignore[arg-type]
    return facts, score(facts, rules)


@dataclass(frozen=True)
class Example:
    """One worked example: the typed deal, the same deal as CLI arguments, and what must come out."""

    id: str
    typed: dict[str, object]
    argv: tuple[str, ...]
    payouts: dict[str, int]
    declarer_won: bool | None
    sweep: str | None
    multiplier: int
    amount: int
    profile: str = "pagat"
    players: tuple[str, ...] = ABC
    dealer: str = "Carla"

    def cli_args(self) -> list[str]:
        """The full `calabresella score ...` argument list, with --json."""
        return [
            "score",
            "--players",
            ",".join(self.players),
            "--dealer",
            self.dealer,
            "--profile",
            self.profile,
            *self.argv,
            "--json",
        ]


EXAMPLES: tuple[Example, ...] = (
    Example(
        "1-bruno-solo-7+1/3",
        {"declarer": "Bruno", "contract": "solo", "points": "7+1/3"},
        ("--declarer", "Bruno", "--contract", "solo", "--points", "7+1/3"),
        {"Anna": -2, "Bruno": 4, "Carla": -2},
        True,
        None,
        1,
        2,
    ),
    Example(
        "2-carla-chiamo-3D-from-anna-5+2/3-last-opp",
        {
            "declarer": "Carla",
            "contract": "chiamo",
            "called": "3D",
            "holder": "Anna",
            "points": "5+2/3",
            "last_trick": "opponents",
        },
        ("-d", "Carla", "-c", "chiamo", "--called", "3D", "--holder", "Anna", "-p", "5+2/3", "-l", "opponents"),
        {"Anna": 1, "Bruno": 1, "Carla": -2},
        False,
        None,
        1,
        1,
    ),
    Example(
        "3-anna-solissimo-dividete-8",
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "dividete", "points": "8"},
        ("-d", "Anna", "-c", "solissimo", "-a", "dividete", "-p", "8"),
        {"Anna": 16, "Bruno": -8, "Carla": -8},
        True,
        None,
        1,
        8,
    ),
    Example(
        "4-anna-solissimo-scegliete-cappotto",
        {"declarer": "Anna", "contract": "solissimo", "aggravation": "scegliete", "thirds": 35, "tricks": 12},
        ("-d", "Anna", "-c", "solissimo", "-a", "scegliete", "-t", "35", "--tricks", "12"),
        {"Anna": 64, "Bruno": -32, "Carla": -32},
        True,
        "cappotto",
        2,
        32,
    ),
    Example(
        "5-bruno-solo-33-stramazzo",
        {"declarer": "Bruno", "contract": "solo", "thirds": 33},
        ("-d", "Bruno", "-c", "solo", "-t", "33"),
        {"Anna": -6, "Bruno": 12, "Carla": -6},
        True,
        "stramazzo",
        3,
        6,
    ),
    Example(
        "6-bruno-chiamo-4-last-declarer-stramazzo-against",
        {"declarer": "Bruno", "contract": "chiamo", "thirds": 4, "last_trick": "declarer"},
        ("-d", "Bruno", "-c", "chiamo", "-t", "4", "--last-trick", "declarer"),
        {"Anna": 3, "Bruno": -6, "Carla": 3},
        False,
        "stramazzo",
        3,
        3,
    ),
    Example(
        "7-bruno-chiamo-4-last-opp-no-sweep",
        {"declarer": "Bruno", "contract": "chiamo", "thirds": 4, "last_trick": "opponents"},
        ("-d", "Bruno", "-c", "chiamo", "-t", "4", "--last-trick", "opponents"),
        {"Anna": 1, "Bruno": -2, "Carla": 1},
        False,
        None,
        1,
        1,
    ),
    Example(
        "8-all-pass",
        {"passed": True},
        ("--passed",),
        {"Anna": 0, "Bruno": 0, "Carla": 0},
        None,
        None,
        1,
        0,
    ),
    Example(
        "9-cavendish-anna-plays-22",
        {"declarer": "Anna", "contract": "play", "points": "22"},
        ("-d", "Anna", "-c", "play", "-p", "22"),
        {"Anna": 18, "Bruno": -9, "Carla": -9},
        True,
        None,
        1,
        9,
        profile="cavendish",
    ),
    Example(
        "10-four-seated-dario-deals-anna-solo-20",
        {"declarer": "Anna", "contract": "solo", "thirds": 20},
        ("-d", "Anna", "-c", "solo", "-t", "20"),
        {"Anna": 4, "Bruno": -2, "Carla": -2, "Dario": 0},
        True,
        None,
        1,
        2,
        players=ABCD,
        dealer="Dario",
    ),
)
EXAMPLE_IDS = [example.id for example in EXAMPLES]
