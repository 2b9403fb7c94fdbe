"""Start-up: a command imports its own module and what it uses, nothing more; help still lists every command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.cli.main import COMMANDS, app

HEAVY = (
    "pandas",
    "matplotlib",
    "numpy",
    "alembic",
    "rich.progress",
    "prompt_toolkit",
    "ledger.reports",
    "psycopg",
    "sqlalchemy.dialects.postgresql",
    "starlette",
    "uvicorn",
    "jinja2",
    "ledger.store.club",
    "ledger.store.club_models",
)
"""What no command at the table needs: the reports, another database, the web, the shell, the club store and tables."""
HELP_RENDERER = ("typer.rich_utils", "rich.markdown")
"""What only drawing help needs."""


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> dict[str, list[str]]:
    """What one fresh interpreter has imported: of `ledger`, once `ledger.cli.main` is imported ("cli"); then the
    heavy modules and the help renderer's, once each command, run as the console script runs it, is done: `record`
    and `standings` on a ledger with an evening open, then `--help`. The commands run one after another, each
    importing what it needs whatever ran before it: the modules a command adds show up after it."""
    db = str(tmp_path_factory.mktemp("startup") / "ledger.sqlite3")
    shutil.copyfile(sqlite_template, db)
    started = CliRunner().invoke(app, ["--db", db, "evening", "start", "--players", "Anna,Bruno,Carla"])
    assert started.exit_code == 0, started.output
    commands = {
        "record": ["--db", db, "record", "--declarer", "Bruno", "--contract", "solo", "--thirds", "22"],
        "standings": ["--db", db, "standings"],
        "--help": ["--help"],
    }
    probe = (
        "import json, sys\n"
        "import ledger.cli.main\n"
        "seen = {'cli': sorted(m for m in sys.modules if m.startswith('ledger.'))}\n"
        "from ledger.cli import run\n"
        f"for name, args in {commands!r}.items():\n"
        "    sys.argv = ['calabresella', *args]\n"
        "    try:\n"
        "        run()\n"
        "    except SystemExit as exit:\n"
        "        assert exit.code == 0, (name, exit.code)\n"
        f"    seen[name] = [m for m in {HEAVY + HELP_RENDERER!r} if m in sys.modules]\n"
        "print(json.dumps(seen))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_record_imports_no_heavy_module(loaded: dict[str, list[str]]) -> None:
    assert loaded["record"] == []


def test_standings_import_no_heavy_module(loaded: dict[str, list[str]]) -> None:
    assert loaded["standings"] == []


def test_help_imports_its_renderer_and_no_heavy_module(loaded: dict[str, list[str]]) -> None:
    assert loaded["--help"] == list(HELP_RENDERER)


def test_importing_the_cli_loads_no_command_module(loaded: dict[str, list[str]]) -> None:
    assert loaded["cli"] == [
        "ledger.cli",
        "ledger.cli.app",
        "ledger.cli.click_texts",
        "ledger.cli.italian",
        "ledger.cli.main",
        "ledger.errors",
        "ledger.i18n",
    ]


def test_help_lists_every_registered_command() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert all(f" {name} " in result.output for name in COMMANDS)


def test_the_collector_is_paused_while_a_command_loads_and_runs_again_once_its_ledger_is_open(sqlite_url: str) -> None:
    probe = (
        "import gc, json, sys\n"
        "from ledger import cli, service\n"
        "seen = {}\n"
        "opening, listing = service.Ledger.__init__, service.Ledger.evening_page\n"
        "def opened(self, *args, **options):\n"
        "    seen['while loading'] = gc.isenabled()\n"
        "    opening(self, *args, **options)\n"
        "def evenings(self, **page):\n"
        "    seen['at work'] = gc.isenabled()\n"
        "    return listing(self, **page)\n"
        "service.Ledger.__init__, service.Ledger.evening_page = opened, evenings\n"
        f"sys.argv = ['calabresella', '--db', {sqlite_url!r}, 'evening', 'list']\n"
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


def test_play_pauses_the_collector_while_it_answers_a_line_and_resumes_it_while_it_waits(sqlite_url: str) -> None:
    db = Path(sqlite_url)
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
