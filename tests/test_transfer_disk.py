"""`backup` and `import` where the disk refuses: a missing folder, a folder that cannot be written, a full disk.

Each is `calabresella` as a user runs it: one line on stderr, exit code 2, and no file left behind. The tests run as
root too, where a folder's permissions stop nothing: a read-only or small tmpfs is mounted then, and a full disk is
also made by a limit on the size of the files a real `calabresella` process writes (RLIMIT_FSIZE), which root obeys.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_support import Ran, calabresella

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from workload import write_export

CALABRESELLA = shutil.which("calabresella")
ENV = {k: v for k, v in os.environ.items() if k != "CALABRESELLA_DB"} | {"COLUMNS": "200"}
SMALL = 256 * 1024
"""The room on a small disk: a ledger of a thousand deals (about a megabyte) does not fit."""


def run(*args: str, limit: int | None = None) -> Ran:
    """`calabresella ARGS...`; with `limit`, the installed one in a process of its own, where no file it writes may
    grow past that many bytes (writes past it fail with EFBIG, as on a full disk, instead of killing the process)."""
    if limit is None:
        return calabresella(*args, env={"COLUMNS": "200"})
    assert CALABRESELLA, "the calabresella console script is not installed"

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(
        [CALABRESELLA, *args], capture_output=True, text=True, env=ENV, timeout=300, preexec_fn=limited
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def assert_one_line(done: Ran, *fragments: str) -> None:
    """Exit code 2 and one line on stderr naming the problem, no traceback."""
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, done.stderr[-2000:]
    for fragment in fragments:
        assert fragment in done.stderr, done.stderr


def mount_tmpfs(folder: Path, options: str) -> bool:
    """Mount a tmpfs on the folder (root only); whether it worked."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    return (
        subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True).returncode
        == 0
    )


@pytest.fixture(scope="module")
def big_export(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """An export of a thousand deals or so, and its number of deals."""
    source = tmp_path_factory.mktemp("export") / "big.jsonl"
    return source, write_export(source, 1000)


@pytest.fixture(scope="module")
def ledger_file(tmp_path_factory: pytest.TempPathFactory, big_export: tuple[Path, int]) -> Path:
    """A ledger of the export's deals, larger than `SMALL`, made once for the tests that back it up (which only read
    it)."""
    db = tmp_path_factory.mktemp("ledger") / "ledger.sqlite3"
    done = run("--db", str(db), "import", str(big_export[0]))
    assert done.returncode == 0, done.stderr
    return db


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder no one may write into: a read-only tmpfs as root, else a folder without write permission."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o500)
        yield folder
        folder.chmod(0o700)
        return
    if not mount_tmpfs(folder, "ro,size=1m"):
        pytest.skip("running as root, whom permissions do not stop, and a read-only tmpfs cannot be mounted here")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@dataclass
class FullDisk:
    """A folder whose disk fills after `SMALL` bytes: `run` runs the command there, `grow` makes room."""

    folder: Path
    run: Callable[..., Ran]
    grow: Callable[[], None]


@pytest.fixture(params=["tmpfs", "file size limit"])
def full_disk(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FullDisk]:
    folder = tmp_path / "disk"
    folder.mkdir()
    if request.param == "file size limit":
        room: dict[str, int | None] = {"limit": SMALL}
        yield FullDisk(folder, lambda *args: run(*args, limit=room["limit"]), lambda: room.update(limit=None))
        return
    if not mount_tmpfs(folder, f"size={SMALL}"):
        pytest.skip("a tmpfs can be mounted only by root, where mount is allowed")
    try:
        yield FullDisk(
            folder,
            run,
            lambda: subprocess.run(["mount", "-o", "remount,size=64m", str(folder)], check=True),
        )
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_backup_into_a_missing_folder_is_refused_and_makes_no_folder(ledger_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "deeper" / "b.sqlite3"
    done = run("--db", str(ledger_file), "backup", str(target))
    assert_one_line(done, f"the folder {target.parent} does not exist")
    assert not (tmp_path / "no-such-folder").exists()


def test_backup_under_a_file_is_refused(ledger_file: Path, tmp_path: Path) -> None:
    target = ledger_file / "b.sqlite3"  # a path under a regular file: refused as root too
    done = run("--db", str(ledger_file), "backup", str(target))
    assert_one_line(done, f"the folder {ledger_file} does not exist")


def test_backup_into_a_folder_it_cannot_write_is_one_line(ledger_file: Path, read_only_folder: Path) -> None:
    target = read_only_folder / "b.sqlite3"
    done = run("--db", str(ledger_file), "backup", str(target))
    assert_one_line(done, f"backup {target}: cannot write it (", "nothing was written")
    assert list(read_only_folder.iterdir()) == []


def test_backup_on_a_full_disk_is_one_line_and_leaves_nothing_so_the_retry_works(
    ledger_file: Path, full_disk: FullDisk
) -> None:
    target = full_disk.folder / "b.sqlite3"
    done = full_disk.run("--db", str(ledger_file), "backup", str(target))
    assert_one_line(done, f"backup {target}: cannot write it (", "nothing was written")
    assert list(full_disk.folder.iterdir()) == []
    full_disk.grow()
    again = full_disk.run("--db", str(ledger_file), "backup", str(target))
    assert again.returncode == 0, again.stderr
    assert (
        run("--db", str(target), "evening", "list", "--json").stdout
        == run("--db", str(ledger_file), "evening", "list", "--json").stdout
    )


def test_import_on_a_full_disk_is_one_line_and_resumes_once_there_is_room(
    full_disk: FullDisk, big_export: tuple[Path, int]
) -> None:
    db, (source, deals) = full_disk.folder / "ledger.sqlite3", big_export
    done = full_disk.run("--db", str(db), "import", str(source))
    assert_one_line(done, "cannot be written, its disk may be full")
    full_disk.grow()
    again = full_disk.run("--db", str(db), "import", str(source))
    assert again.returncode == 0, again.stderr
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("SELECT COUNT(*) FROM deal").fetchone() == (deals,)
