"""No code outside ledger/rules/profiles.py branches on a profile's name: it asks the typed profile."""

from __future__ import annotations

import ast
from pathlib import Path

from ledger.rules.profiles import DEFAULTS, PROFILE_ALIASES

ROOT = Path(__file__).resolve().parent.parent
NAMES = set(DEFAULTS) | set(PROFILE_ALIASES)
ALLOWED = {ROOT / "ledger" / "rules" / "profiles.py"}


def _named_in_comparison(node: ast.Compare) -> bool:
    """`x == "cavendish"`, `x in ("quartiglio", ...)` and the like."""
    for operand in (node.left, *node.comparators):
        values = operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else [operand]
        if any(isinstance(v, ast.Constant) and v.value in NAMES for v in values):
            return True
    return False


def comparisons(path: Path) -> list[str]:
    """`file:line` of every comparison with a profile's name in one source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(ROOT)}:{n.lineno}"
        for n in ast.walk(tree)
        if isinstance(n, ast.Compare) and _named_in_comparison(n)
    ]


def test_the_scan_finds_a_comparison() -> None:
    sample = ROOT / "tests" / "_sample_profile_check.py"
    sample.write_text('def american(profile):\n    return profile.name == "cavendish"\n', encoding="utf-8")
    try:
        assert comparisons(sample) == ["tests/_sample_profile_check.py:2"]
    finally:
        sample.unlink()


def test_no_profile_name_comparison_outside_profiles() -> None:
    sources = [p for folder in ("ledger", "reports") for p in (ROOT / folder).rglob("*.py") if p not in ALLOWED]
    assert len(sources) > 20
    found = [hit for path in sources for hit in comparisons(path)]
    assert found == []
