"""A command that only reads makes no ledger: a mistyped `--db` says there is none there (and which ledger file of
that folder was probably meant), and a first `standings` on a new machine says there is no ledger yet; nothing is
written either way. A command that records makes the ledger, as before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer
from cli_support import Ran, calabresella

from ledger import Ledger
from ledger.cli.main import app
from ledger.cli.session import MAKERS

NOT_STARTING = {
    "record": ["--passed"],
    "undo": [],
    "standings": [],
    "amend": ["1", "-t", "20", "-r", "recount"],
    "void": ["1", "-r", "typo"],
    "settle": [],
    "paid": ["Bruno", "Anna", "3.40"],
    "tab": [],
    "deals": [],
    "stats": [],
    "chart": ["running"],
    "report": [],
    "export": [],
    "backup": ["copy.sqlite3"],
    "evening list": [],
    "evening show": [],
    "evening void": ["1", "-r", "typo"],
    "evening close": [],
    "evening reopen": ["1"],
    "players add": ["Dario"],
    "players list": [],
    "players rename": ["Anna", "Annalisa"],
    "deal show": ["1"],
    "db info": [],
    "event seat": [],
    "event round": [],
    "event show": [],
    "event list": [],
    "event close": [],
    "season show": [],
}
"""Every command that neither starts something nor leaves the ledger aside, with arguments that get it as far as
opening the ledger."""
OTHERS = {
    "score": "scores one deal and opens no ledger",
    "serve": "makes the ledger the phones start their evenings in",
    "db upgrade": "creates the schema, its job",
}
"""The commands besides the starting ones (`MAKERS`) that the table above leaves out, and why."""
NOTHING_YET = {"evening list": "No evenings yet: start one", "event list": "No events yet: start one"}
"""The lists, which say that nothing is there yet where there is no ledger."""


def run(*args: str, home: Path | None = None) -> Ran:
    env = {"CALABRESELLA_LANG": "en", "COLUMNS": "200"}
    if home is not None:
        env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"))
    return calabresella(*args, env=env)


def _commands(group: Any, path: tuple[str, ...] = ()) -> Iterator[str]:
    """Every command of the program, as typed after `calabresella` (`db info`)."""
    context = type(group).context_class(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if hasattr(command, "list_commands"):
            yield from _commands(command, (*path, name))
        else:
            yield " ".join((*path, name))


def _typed(command: str) -> list[str]:
    return [*command.split(), *NOT_STARTING[command]]


def test_every_command_is_either_starting_or_checked_here() -> None:
    every = set(_commands(typer.main.get_command(app)))
    assert every == set(NOT_STARTING) | set(OTHERS) | set(MAKERS)


def test_a_mistyped_ledger_is_named_and_nothing_is_made(tmp_path: Path) -> None:
    with Ledger(str(tmp_path / "ledger.sqlite3")) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"])
    before = sorted(p.name for p in tmp_path.iterdir())
    for command in [*map(_typed, NOT_STARTING), ["paid", "--list"]]:
        ran = run("--db", str(tmp_path / "ledgr.sqlite3"), *command)
        assert ran.returncode == 2, (command, ran.stderr)
        wrong, meant = tmp_path / "ledgr.sqlite3", tmp_path / "ledger.sqlite3"
        assert ran.stderr == f"Error: --db '{wrong}': no ledger there; did you mean {meant}?\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_reading_before_anything_is_recorded_says_how_to_start(tmp_path: Path) -> None:
    for command in NOT_STARTING:
        ran = run(*_typed(command), home=tmp_path)
        if command in NOTHING_YET:  # a list: there is nothing in it yet
            assert (ran.returncode, ran.stdout.startswith(NOTHING_YET[command])) == (0, True), ran.stdout
        else:
            assert ran.returncode == 2, (command, ran.stderr)
            assert ran.stderr.startswith("Error: no ledger at ") and ran.stderr.endswith(
                " yet: start one with: calabresella evening start --players Anna,Bruno,Carla\n"
            ), (command, ran.stderr)
        assert not any(tmp_path.iterdir()), (command, "wrote", list(tmp_path.rglob("*")))
    started = run("evening", "start", "--players", "Anna,Bruno,Carla", home=tmp_path)
    assert started.returncode == 0, started.stderr
    assert run("standings", home=tmp_path).returncode == 0
