"""The command line as a shell sees it: help screens and shell completion."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from cli_support import calabresella
from typer.testing import CliRunner

from ledger.cli.main import app

COMMANDS = ([], ["record"], ["play"], ["deals"], ["evening", "start"], ["settle"], ["export"])
runner = CliRunner()


def _option_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "--" in line]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "root")
def test_flags_show_no_value_in_help(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    help_line = next(line for line in _option_lines(result.output) if "--help" in line)
    assert "<" not in help_line


def test_options_with_a_value_keep_their_type() -> None:
    result = runner.invoke(app, ["record", "--help"], env={"COLUMNS": "200"})
    assert any("--thirds" in line and "<number>" in line for line in _option_lines(result.output))


def test_help_of_the_installed_command_shows_no_bool() -> None:
    done = subprocess.run(
        ["calabresella", "record", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        check=True,
    )
    assert "--passed" in done.stdout and "--json" in done.stdout
    assert "<bool>" not in done.stdout


def test_show_completion_detects_the_shell_it_runs_in() -> None:
    # a second command keeps bash from replacing itself with calabresella, so bash is its parent
    done = subprocess.run(
        ["bash", "-c", "calabresella --show-completion; true"], capture_output=True, text=True, check=True
    )
    assert "complete -o default -F _calabresella_completion calabresella" in done.stdout


# Typer's switch for naming the shell instead of detecting it, read when the command is built.
NAMED_SHELL = {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}


@pytest.fixture
def named_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shell is named on the command line, not detected, while the test runs."""
    for name, value in NAMED_SHELL.items():
        monkeypatch.setenv(name, value)


@pytest.mark.usefixtures("named_shell")
@pytest.mark.parametrize(
    ("shell", "marker"),
    [
        ("bash", "complete -o default -F _calabresella_completion calabresella"),
        ("zsh", "#compdef calabresella"),
        ("fish", "complete --command calabresella"),
    ],
)
def test_show_completion_prints_a_script_for_each_shell(shell: str, marker: str) -> None:
    done = calabresella("--show-completion", shell)
    assert done.returncode == 0, done.stderr
    assert marker in done.stdout


@pytest.mark.usefixtures("named_shell")
def test_install_completion_writes_the_script_into_home(tmp_path: Path) -> None:
    done = calabresella("--install-completion", "bash", env={"HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "bash completion installed" in done.stdout
    assert "_CALABRESELLA_COMPLETE" in (tmp_path / ".bash_completions" / "calabresella.sh").read_text()


def test_completion_offers_the_commands() -> None:
    env = {"_CALABRESELLA_COMPLETE": "complete_bash", "COMP_WORDS": "calabresella rec", "COMP_CWORD": "1"}
    done = calabresella(env=env)
    assert "record" in done.stdout.split()


def test_demo_runs_from_any_folder(tmp_path: Path) -> None:
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "COLUMNS": "200"}
    db = tmp_path / "demo.sqlite3"
    done = calabresella("--db", str(db), "demo", "--example", "four_players", cwd=elsewhere, env=env)
    assert done.returncode == 0, done.stderr
    assert "Recorded the example four_players as evening 1" in done.stdout
    report = elsewhere / "calabresella-demo" / "evening-1.html"
    shown = re.findall(r'<img src="([^"]+)"', report.read_text(encoding="utf-8"))
    assert len(shown) == 5  # the report shows the charts written beside it
    assert all((report.parent / name).read_bytes().startswith(b"\x89PNG") for name in shown)


def test_demo_names_the_shipped_examples(tmp_path: Path) -> None:
    result = runner.invoke(app, ["--db", str(tmp_path / "x.sqlite3"), "demo", "--example", "five"])
    assert result.exit_code == 2
    assert "the shipped examples are four_players, three_friends" in result.stderr
