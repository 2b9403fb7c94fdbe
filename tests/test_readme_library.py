"""The README's library example runs as printed and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _library_example() -> str:
    section = README.read_text(encoding="utf-8").split("## As a library", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]


def test_the_library_example_prints_its_comments(tmp_path: Path) -> None:
    code = _library_example()
    expected = [
        comment.strip()
        for line in code.splitlines()
        if line.lstrip().startswith("print(")
        for comment in [line.split("#", 1)[1]]
    ]
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(README), "exec"), {})
    finally:
        os.chdir(cwd)
    assert out.getvalue().splitlines() == expected
    assert (tmp_path / "club.sqlite3").exists()
