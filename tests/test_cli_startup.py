"""Start-up: a command imports its own module and what it uses, nothing more; help still lists every command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger import Ledger
from ledger.cli.main import COMMANDS, app

HEAVY = (
    "pandas",
    "matplotlib",
    "numpy",
    "alembic",
    "rich.progress",
    "prompt_toolkit",
    "reports",
    "psycopg",
    "sqlalchemy.dialects.postgresql",
    "starlette",
    "uvicorn",
    "jinja2",
    "ledger.store.club",
)
"""What no command at the table needs: the reports, another database, the web, the shell, the club store."""
HELP_RENDERER = ("typer.rich_utils", "rich.markdown")
"""What only drawing help needs."""


def loaded_by(*args: str) -> list[str]:
    """The heavy modules and the help renderer's that a fresh interpreter has imported once the command, run as the
    console script runs it, is done."""
    probe = (
        "import json, sys\n"
        "from ledger.cli import run\n"
        f"sys.argv = ['calabresella', *{list(args)!r}]\n"
        "try:\n"
        "    run()\n"
        "except SystemExit as exit:\n"
        "    assert exit.code == 0, exit.code\n"
        f"print(json.dumps([m for m in {HEAVY + HELP_RENDERER!r} if m in sys.modules]))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture
def evening(tmp_path: Path) -> str:
    """A ledger with an evening open."""
    db = str(tmp_path / "ledger.sqlite3")
    started = CliRunner().invoke(app, ["--db", db, "evening", "start", "--players", "Anna,Bruno,Carla"])
    assert started.exit_code == 0, started.output
    return db


def test_record_imports_no_heavy_module(evening: str) -> None:
    assert loaded_by("--db", evening, "record", "--declarer", "Bruno", "--contract", "solo", "--thirds", "22") == []


def test_standings_import_no_heavy_module(evening: str) -> None:
    assert loaded_by("--db", evening, "standings") == []


def test_help_imports_its_renderer_and_no_heavy_module() -> None:
    assert loaded_by("--help") == list(HELP_RENDERER)


def test_importing_the_cli_loads_no_command_module() -> None:
    probe = (
        "import json, sys; import ledger.cli.main; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('ledger.'))))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == [
        "ledger.cli",
        "ledger.cli.app",
        "ledger.cli.click_texts",
        "ledger.cli.main",
        "ledger.errors",
        "ledger.i18n",
    ]


def test_help_lists_every_registered_command() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert all(f" {name} " in result.output for name in COMMANDS)


def test_the_collector_is_paused_while_a_command_loads_and_runs_again_once_its_ledger_is_open(tmp_path: Path) -> None:
    Ledger(str(tmp_path / "ledger.sqlite3")).close()
    probe = (
        "import gc, json, sys\n"
        "from ledger import cli, service\n"
        "seen = {}\n"
        "opening, listing = service.Ledger.__init__, service.Ledger.evenings\n"
        "def opened(self, *args, **options):\n"
        "    seen['while loading'] = gc.isenabled()\n"
        "    opening(self, *args, **options)\n"
        "def evenings(self):\n"
        "    seen['at work'] = gc.isenabled()\n"
        "    return listing(self)\n"
        "service.Ledger.__init__, service.Ledger.evenings = opened, evenings\n"
        f"sys.argv = ['calabresella', '--db', {str(tmp_path / 'ledger.sqlite3')!r}, 'evening', 'list']\n"
        "try:\n"
        "    cli.run()\n"
        "except SystemExit:\n"
        "    pass\n"
        "seen['after'] = gc.isenabled()\n"
        "print(json.dumps(seen))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {
        "while loading": False,
        "at work": True,
        "after": True,
    }


def test_play_pauses_the_collector_while_it_answers_a_line_and_resumes_it_while_it_waits(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite3"
    started = CliRunner().invoke(app, ["--db", str(db), "evening", "start", "--players", "Anna,Bruno,Carla"])
    assert started.exit_code == 0, started.output
    probe = (
        "import gc, json, sys\n"
        "from ledger import cli, service\n"
        "from ledger.cli import play\n"
        "seen = {'reading': set(), 'recording': set()}\n"
        "recording, reading = service.Ledger.record, play.LineReader.read\n"
        "def record(self, *args, **kwargs):\n"
        "    seen['recording'].add(gc.isenabled())\n"
        "    return recording(self, *args, **kwargs)\n"
        "def read(self, *args, **kwargs):\n"
        "    seen['reading'].add(gc.isenabled())\n"
        "    return reading(self, *args, **kwargs)\n"
        "service.Ledger.record, play.LineReader.read = record, read\n"
        f"sys.argv = ['calabresella', '--db', {str(db)!r}, 'play']\n"
        "try:\n"
        "    cli.run()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps({key: sorted(value) for key, value in seen.items()}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        input="bruno solo 22\npass\nanna solo 5\nquit\n",
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"reading": [True], "recording": [False]}
