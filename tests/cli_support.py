"""The `calabresella` command run in-process, as a shell would run it: its environment, folder and standard input
given, its exit code, standard output and standard error read back (a real process costs a second of start-up;
tests/test_cli_startup.py and a few others keep one for what only a real process shows)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from ledger.cli.main import app

runner = CliRunner()


@dataclass(frozen=True)
class Ran:
    """How a command ended: its exit code and what it printed on each stream."""

    returncode: int
    stdout: str
    stderr: str


def calabresella(
    *args: str,
    env: Mapping[str, str | None] | None = None,
    cwd: Path | None = None,
    input: str | None = None,
) -> Ran:
    """`calabresella ARGS...` with the variables of `env` set (None: unset) for the run, in `cwd`, reading `input`.

    Only the variables given change: `CALABRESELLA_DB` is unset unless given. An exception the command lets out
    fails the test, as a traceback would be a failure of the real command."""
    given = {"CALABRESELLA_DB": None, **(env or {})}
    with contextlib.chdir(cwd or os.getcwd()):
        result = runner.invoke(app, list(args), env=given, input=input, catch_exceptions=False)
    return Ran(result.exit_code, result.stdout, result.stderr)
