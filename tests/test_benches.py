"""Every benchmark in bench/ runs, at a tiny size, so that none can rot: each exits 0 and prints its figures
(no figure is checked: timing lives in the benchmarks, never in the tests). `bench/workload.py` is the library the
others share, run here through them. One runs as a real process, from the command line as a user runs it; the others
run in this process as their `__main__` (the processes they start are real still)."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
TINY = {
    "caches_bench.py": (["--repeat", "1", "--evenings", "2", "--players", "10"], "without it"),
    "club_bench.py": (
        ["--deals", "2", "--waves", "1", "--pause", "0", "--tables", "1", "--viewers", "1", "--language", "it"],
        "in Italian",
    ),
    "export_bench.py": (["--deals", "40", "--repeat", "1"], "x"),
    "import_bench.py": (["--deals", "40", "--repeat", "1", "--records", "0"], "x"),
    "minimal_insert.py": (["--db", "{tmp}/minimal.sqlite3"], ""),
    "pages_bench.py": (
        ["--evenings", "10", "--repeat", "1", "--commands", "1", "--command", "settle"],
        "the list of evenings",
    ),
    "play_bench.py": (["--deals", "3", "--mode", "pipe"], "x"),
    "record_startup.py": (["--runs", "1", "--warm-up", "0", "--commands", "record", "--compiled"], "x"),
    "serve_burst_bench.py": (["--writers", "1", "--deals", "3", "--viewers", "1", "--only-watched"], "x"),
    "stats_bench.py": (["--deals", "200", "--repeat", "1"], "stats / raw read"),
    "web_bench.py": (["--deals", "3", "--viewers", "1", "--taps", "0", "--opens", "0"], "x"),
}
"""Each benchmark's tiny run, and a word its report prints."""
AS_A_PROCESS = "minimal_insert.py"
"""The benchmark run as a real process."""


def test_every_benchmark_is_run_here() -> None:
    assert sorted(TINY) == sorted(path.name for path in BENCH.glob("*.py") if path.name != "workload.py")


@pytest.mark.parametrize("name", sorted(TINY))
def test_the_benchmark_runs_at_a_tiny_size(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    args, printed = TINY[name]
    command = [str(BENCH / name), *(arg.format(tmp=tmp_path) for arg in args)]
    if name == AS_A_PROCESS:
        ran = subprocess.run(
            [sys.executable, *command],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=tmp_path,
            env={**os.environ, "TMPDIR": str(tmp_path)},
        )
        status, out, err = ran.returncode, ran.stdout, ran.stderr
    else:
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("TMPDIR", str(tmp_path))
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        monkeypatch.setattr(sys, "argv", command)
        monkeypatch.setattr(sys, "path", list(sys.path))  # a benchmark puts bench/ first, for `workload`
        try:
            runpy.run_path(command[0], run_name="__main__")
            status: object = 0
        except SystemExit as exited:
            status = exited.code or 0
        out, err = capfd.readouterr()
    assert status == 0, out[-2000:] + err[-3000:]
    assert printed in out and "Traceback" not in err
