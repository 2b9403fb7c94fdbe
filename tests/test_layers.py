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
BELOW = (
    "ledger.reports",
    "ledger.store",
    "sqlalchemy",
    "sqlmodel",
    "alembic",
    "psycopg",
    "sqlite3",
    "pandas",
    "matplotlib",
)
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
        f"line {line}: {module}"
        for line, module in imported(path)
        if module.startswith(("ledger.store", "ledger.reports"))
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
        "def f(ledger):\n    from ledger.reports.html import render\n    from ledger.store import deals\n"
        "    from ledger.cli.money import tab\n    return ledger.engine\n"
    )
    modules = [module for _, module in imported(bad)]
    assert "sqlalchemy" in modules and "ledger.reports.html" in modules and "ledger.store" in modules
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


LAYERS = {
    "ledger.rules": ("ledger.values", "ledger.summary", "ledger.club", "ledger.store", "ledger.service"),
    "ledger.values": ("ledger.summary", "ledger.recording", "ledger.store", "ledger.service"),
    "ledger.summary": ("ledger.recording", "ledger.store", "ledger.service"),
    "ledger.club": ("ledger.store", "ledger.service"),
    "ledger.store": ("ledger.service", "ledger.recording"),
    "ledger.reports": ("ledger.service", "ledger.recording"),
}
"""What each lower layer never imports (besides the front ends, which nothing below them imports): a value the ledger
returns says nothing in words (`ledger.summary`, the drawing code, draws them of it)."""
FRONT = ("ledger.cli", "ledger.web")


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.glob("ledger/**/*.py")) + sorted(ROOT.glob("reports/**/*.py")):
        if "migrations" not in path.parts:
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            name = f"ledger.{name}" if name.startswith("reports") else name  # the package ledger.reports
            found[name.removesuffix(".__init__")] = path
    return found


def project_imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the project a file imports, wherever (inside functions and under TYPE_CHECKING too: a module
    that needs another's names only to type them still stands on it): `from package import module` names the module,
    not the package."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            inner = [f"{node.module}.{alias.name}" for alias in node.names if f"{node.module}.{alias.name}" in modules]
            found.update(inner)
            if len(inner) < len(node.names):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name in modules}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while (top := stack.pop()) != node:
                group.append(top)
            if group:
                found.append(sorted([node, *group]))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: project_imports(path, modules) - {name} for name, path in modules.items()}


def test_no_module_imports_itself_round_a_circle() -> None:
    assert cycles(_graph()) == []


def test_no_layer_imports_one_above_it() -> None:
    upward = []
    for name, imports in _graph().items():
        for layer, above in LAYERS.items():
            if name == layer or name.startswith(f"{layer}."):
                banned = (*above, *FRONT)
                upward += [f"{name} -> {i}" for i in imports if any(i == b or i.startswith(f"{b}.") for b in banned)]
    assert upward == []


def test_the_circle_and_layer_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """A circle of two modules, closed by an import under TYPE_CHECKING as by one inside a function."""
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    typed = tmp_path / "typed.py"
    typed.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ledger.values import DealView\n")
    assert project_imports(typed, _modules()) == {"ledger.values"}
    inner = tmp_path / "inner.py"
    inner.write_text("def f():\n    from ledger import service\n")
    assert project_imports(inner, _modules()) == {"ledger.service"}
    graph = {"ledger.values": project_imports(inner, _modules()), "ledger.service": project_imports(typed, _modules())}
    assert cycles(graph) == [["ledger.service", "ledger.values"]]
