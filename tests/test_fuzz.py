"""Random input, seeded so every run sees the same cases: quick lines, command options and `play` lines.

Whatever is typed, the answer is a result or one `LedgerError` (exit code 0 or 2 on the command line),
never a traceback, and an error writes nothing. Most cases run in-process against the pure parser, validator
and scorer; a few hundred run through the command line against a real SQLite file, compared before and after.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from ledger.cli.main import app
from ledger.errors import LedgerError
from ledger.rules.build import build_facts
from ledger.rules.profiles import make_profile
from ledger.rules.quick import parse_quick_line
from ledger.rules.scoring import score

SEATS = {
    "pagat": ("Anna", "Bruno", "Carla"),
    "cavendish": ("Anna", "Bruno", "Carla", "Dario"),
    "tretre": ("Anna", "Bruno", "Carla"),
    "quartiglio": ("Anna", "Bruno", "Carla", "Dario"),
    "quintiglio": ("Anna", "Bruno", "Carla", "Dario", "Elena"),
}
WORDS = [
    "anna",
    "br",
    "Carla",
    "dario",
    "elena",
    "mraco",
    "pass",
    "p",
    "-",
    "chiamo",
    "ch",
    "call",
    "play",
    "solo",
    "so",
    "soli",
    "solissimo",
    "mediatore",
    "me",
    "dividete",
    "di",
    "scegliete",
    "sce",
    "choose",
    "3D",
    "RS",
    "AC",
    "KH",
    "7B",
    "3D@anna",
    "3c@monte",
    "@bruno",
    "@declarer",
    "3S@",
    "@",
    "22",
    "7+1/3",
    "5+2/3",
    "2/3",
    "11+2/3",
    "35",
    "36",
    "22t",
    "0",
    "12",
    "2a10f+u",
    "4a20f+u",
    "5a",
    "21f",
    "u",
    "t=22",
    "t=-1",
    "t=",
    "=5",
    "tricks=12",
    "tricks=0",
    "tricks=99",
    "last=opp",
    "last=decl",
    "last=x",
    "holder=anna",
    "called=3D",
    "dealer=carla",
    "auction=pass,solo,pass",
    "auction=anna:solo",
    "auction=,",
    "c=2a+10f+last",
    "count=9f",
    "points=7",
    "foo=1",
    "é",
    "Ñiccolò",
    "∞",
    "٣",
    "²",
    "1e9",
    "0x10",
    "NaN",
    "--",
    ";",
    "'",
    '"',
    "\x00",
    "\t",
]


def _number(rng: random.Random) -> str:
    """A number as a script might write one: small, signed, fractional, or with thousands of digits."""
    return rng.choice(
        [
            str(rng.randint(0, 40)),
            str(rng.randint(-5, 5)),
            "9" * rng.choice([10, 20, 4301, 5000]),
            str(2 ** rng.choice([31, 63, 64])),
            f"{rng.random():.3f}",
            "1e999999",
            "1" * 100000,
        ]
    )


def _line(rng: random.Random) -> str:
    """A quick line of known words, numbers and junk, in any order."""
    parts = []
    for _ in range(rng.randint(0, 7)):
        kind = rng.random()
        if kind < 0.7:
            parts.append(rng.choice(WORDS))
        elif kind < 0.85:
            parts.append(rng.choice(["", "t=", "tricks=", "c=", "points="]) + _number(rng))
        else:
            parts.append("".join(chr(rng.randint(33, 0x2FF)) for _ in range(rng.randint(1, 6))))
    return " ".join(parts)


def _deal_line(rng: random.Random, players: tuple[str, ...]) -> str:
    """A line as a scorekeeper writes one, right or nearly right."""
    declarer = rng.choice(players).lower()[: rng.randint(1, 5)]
    contract = rng.choice(
        [
            "chiamo 3D@" + rng.choice(players).lower(),
            "chiamo 3c@monte",
            "solo",
            "solissimo",
            "soli di",
            "sce",
            "mediatore",
            "play",
        ]
    )
    count = f"{rng.randint(0, 5)}a{rng.randint(0, 22)}f{rng.choice(['', '+u'])}"
    points = rng.choice(
        [str(rng.randint(0, 35)), f"{rng.randint(0, 11)}+{rng.randint(1, 2)}/3", f"{rng.randint(0, 40)}t", count]
    )
    extra = rng.choice(["", f"tricks={rng.randint(0, 13)}", "last=" + rng.choice(["decl", "opp"])])
    return " ".join((declarer, contract, points, extra))


def test_quick_lines_are_scored_or_refused_with_one_message() -> None:
    rng = random.Random(13)
    profiles = {name: make_profile(name) for name in SEATS}
    outcomes = {"scored": 0, "refused": 0}
    for _ in range(4_000):
        name = rng.choice(list(SEATS))
        players, profile = SEATS[name], profiles[name]
        line = _deal_line(rng, players) if rng.random() < 0.5 else _line(rng)
        try:
            quick = parse_quick_line(line, players, profile)
            facts = build_facts(quick.deal, profile, players, quick.dealer or players[-1])
            result = score(facts, profile)
        except LedgerError as error:
            assert str(error) and "\n" not in str(error), line
            outcomes["refused"] += 1
            continue
        assert sum(result.payouts.values()) == 0, line
        outcomes["scored"] += 1
    assert outcomes["scored"] > 100 and outcomes["refused"] > 1000


def _dump(db: Path) -> list[str]:
    connection = sqlite3.connect(db)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def _options(rng: random.Random) -> list[str]:
    """A command with random options and values, as a script might run it."""
    deal = []
    for _ in range(rng.randint(0, 4)):
        option = rng.choice(
            [
                "-d",
                "-c",
                "-a",
                "--called",
                "--holder",
                "-t",
                "-p",
                "--count",
                "--tricks",
                "-l",
                "--auction",
                "--passed-before",
                "--dealer",
                "--key",
            ]
        )
        value = rng.choice([rng.choice(WORDS), _number(rng)])
        deal += [option, value]
    number = _number(rng)
    return rng.choice(
        [
            ["record", *deal],
            ["record", _line(rng), *deal],
            ["amend", number, *deal, "-r", "fuzz"],
            ["void", number, "-r", rng.choice(["fuzz", " "])],
            ["deals", "-e", number],
            ["deal", "show", number],
            ["paid", rng.choice(["Anna", "Zoe"]), "Bruno", _number(rng)],
            ["paid", "--void", number, "-r", "fuzz"],
            ["settle", "--round-to", _number(rng)],
            ["undo", "--revision", number],
            ["evening", "start", "--players", rng.choice(["A,B,C", "A,A", "A,B", ""]), "--stake", _number(rng)],
        ]
    )


def _is_clean(result: Result) -> bool:
    """Exit 0, or 2 with one `Error:` line; never an exception."""
    if result.exit_code == 0:
        return result.exception is None
    return (
        result.exit_code == 2
        and isinstance(result.exception, SystemExit)
        and result.stderr.startswith("Error: ")
        and result.stderr.count("\n") == 1
    )


@pytest.fixture
def ledger(sqlite_url: str) -> Path:
    """A SQLite ledger with an open evening of three and two deals."""
    db = Path(sqlite_url)
    for args in (
        ["evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.10"],
        ["record", "bruno solo 22"],
        ["record", "pass"],
    ):
        assert CliRunner().invoke(app, ["--db", str(db), *args]).exit_code == 0
    return db


def test_commands_with_random_options_exit_0_or_2_and_an_error_writes_nothing(ledger: Path) -> None:
    rng = random.Random(31)
    runner = CliRunner()
    refused = 0
    before = _dump(ledger)
    for _ in range(150):
        args = _options(rng)
        result = runner.invoke(app, ["--db", str(ledger), *args], env={"CALABRESELLA_DB": None, "COLUMNS": "120"})
        assert _is_clean(result), (args[:6], result.stderr[-300:], result.exception)
        after = _dump(ledger)
        if result.exit_code == 2:
            refused += 1
            assert after == before, args[:6]
        before = after
    assert refused > 100


def test_play_takes_random_lines_without_a_traceback(ledger: Path) -> None:
    rng = random.Random(47)
    lines = [
        rng.choice(
            [
                _line(rng),
                f"amend {_number(rng)} {_line(rng)} reason=fuzz",
                f"void {_number(rng)} fuzz",
                "undo",
                "deals",
                "help " + rng.choice(WORDS),
                "standings",
            ]
        )
        for _ in range(300)
    ]
    result = CliRunner().invoke(
        app,
        ["--db", str(ledger), "play"],
        input="\n".join(lines) + "\nquit\n",
        env={"CALABRESELLA_DB": None, "COLUMNS": "120"},
    )
    assert result.exit_code == 0 and result.exception is None, (result.stderr[-500:], result.exception)
    assert all(line.startswith("Error: ") for line in result.stderr.splitlines())
    assert "Evening 1 stays open. To close it and settle up: calabresella evening close 1;" in result.stdout
