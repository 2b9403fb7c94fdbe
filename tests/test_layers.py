"""The layers of DESIGN.md hold: the front ends (`ledger/cli`, `ledger/web`) reach the ledger only through `Ledger`,
and the command modules do not import each other."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FRONT_ENDS = sorted((ROOT / "ledger" / "cli").glob("*.py")) + sorted((ROOT / "ledger" / "web").glob("*.py"))
BELOW = ("reports", "ledger.store", "sqlalchemy", "sqlmodel", "alembic", "psycopg", "sqlite3", "pandas", "matplotlib")
"""What a front end never imports: the store, the reports, or anything that opens a database or draws a chart."""
COMMANDS = ("deals", "demo", "evenings", "money", "play", "players", "reporting", "score", "serve", "transfer")
"""The modules of `ledger/cli` that hold commands."""


def imported(path: Path) -> Iterator[tuple[int, str]]:
    """Every module the file imports, anywhere in it (inside functions and `if TYPE_CHECKING:` too)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module
            yield from ((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)


def named(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("path", FRONT_ENDS, ids=named)
def test_a_front_end_imports_nothing_below_the_ledger(path: Path) -> None:
    below = [f"line {line}: {module}" for line, module in imported(path) if module.split(".")[0] in BELOW]
    below += [
        f"line {line}: {module}" for line, module in imported(path) if module.startswith(("ledger.store", "reports"))
    ]
    assert not below, f"{named(path)} reaches below Ledger: {below}"


@pytest.mark.parametrize("path", FRONT_ENDS, ids=named)
def test_a_front_end_opens_no_engine_or_session(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    touched = [
        f"line {node.lineno}: .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in ("engine", "raw_connection")
    ]
    touched += [
        f"line {node.lineno}: {node.func.id}()"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("Session", "create_engine", "make_engine", "transaction", "reading")
    ]
    assert not touched, f"{named(path)} opens the database itself: {touched}"


@pytest.mark.parametrize("name", COMMANDS)
def test_a_command_module_imports_no_other_command_module(name: str) -> None:
    path = ROOT / "ledger" / "cli" / f"{name}.py"
    others = {f"ledger.cli.{other}" for other in COMMANDS if other != name}
    found = [f"line {line}: {module}" for line, module in imported(path) if module in others]
    assert not found, f"cli/{name}.py imports another command module: {found}"


def test_the_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The scans above are not vacuous: a file that breaks each rule is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from sqlalchemy import Engine\n"
        "def f(ledger):\n    from reports.html import render\n    from ledger.store import deals\n"
        "    from ledger.cli.money import tab\n    return ledger.engine\n"
    )
    modules = [module for _, module in imported(bad)]
    assert "sqlalchemy" in modules and "reports.html" in modules and "ledger.store" in modules
    assert "ledger.cli.money" in modules
    assert any(isinstance(n, ast.Attribute) and n.attr == "engine" for n in ast.walk(ast.parse(bad.read_text())))


BELOW_FRONT_ENDS = sorted(
    [*(ROOT / "ledger" / "rules").glob("*.py"), *(ROOT / "ledger" / "store").glob("*.py")]
    + [ROOT / "ledger" / name for name in ("service.py", "recording.py", "summary.py", "errors.py", "values.py")]
)
FLAG = re.compile(r"(?<![\w-])--[a-z]")


def said_texts(path: Path) -> Iterator[tuple[int, str]]:
    """Every string of the file but its docstrings (of modules, classes, functions and names): what it can say to a
    person."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


@pytest.mark.parametrize("path", BELOW_FRONT_ENDS, ids=named)
def test_nothing_below_the_front_ends_names_a_command_line_flag(path: Path) -> None:
    """The rules and the store name facts; the command line says `--thirds`, `play` says `prese=`, a page its field."""
    flags = [f"line {line}: {text!r}" for line, text in said_texts(path) if FLAG.search(text)]
    assert not flags, f"{named(path)} names a command-line flag: {flags}"


def test_the_flag_scan_finds_a_flag(tmp_path: Path) -> None:
    path = tmp_path / "rules.py"
    path.write_text('"""Docstrings may say --thirds."""\nraise LedgerError(_("--thirds {n}: too many"))\n')
    assert [text for _, text in said_texts(path) if FLAG.search(text)] == ["--thirds {n}: too many"]
