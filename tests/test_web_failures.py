"""When the database cannot answer (a full disk, a folder turned read-only, a PostgreSQL server restarting), every
page and API call answers 503 with one line and Retry-After, the server logs one line when the outage starts and
one when it ends (with the count of requests answered 503), and no traceback, and it works again by itself once
the database is back. The full disk is a small tmpfs and the
read-only folder a bind mount remounted read-only, so these need root (as the test machine is); they are skipped
elsewhere."""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from cli_support import calabresella
from conftest import _as_postgres, _free_port, _pg_bin
from test_web_support import BEARER, csrf, link, scorekeeper, start

from ledger import Ledger

SAID = "the ledger cannot be written (disk full / read-only / database restarting): try again in a moment"
ENDED = r"the ledger answers again after \d+ s; {count} requests were answered 503 meanwhile"
"""The line that ends an outage."""
PAGES = ("/evenings", "/evenings/1", "/evenings/1/deals", "/evenings/1/settle", "/evenings/1/charts")
API = ("/api/evenings", "/api/evenings/1", "/api/evenings/1/standings", "/api/evenings/1/deals")


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


def _needs_mounts() -> None:
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a small or read-only file system needs root")


def _server_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name.startswith(("calabresella", "uvicorn", "starlette"))]


def _refused_in_one_line(phone: object, caplog: pytest.LogCaptureFixture, token: str, *, reads: bool) -> int:
    """Every write (and every read, when `reads`) answers 503 with the one line; the log has one line for them all,
    no traceback; how many were answered."""
    caplog.clear()
    writes = [
        phone.post("/evenings/1/deals", data={"csrf": token, "line": "anna solo 20"}),  # type: ignore[attr-defined]
        phone.post("/api/evenings/1/deals", json={"line": "anna solo 20"}, headers=BEARER),  # type: ignore[attr-defined]
        phone.post("/api/evenings/1/undo", json={"seen_revision": 1}, headers=BEARER),  # type: ignore[attr-defined]
    ]
    answers = writes + ([phone.get(path) for path in (*PAGES, *API)] if reads else [])  # type: ignore[attr-defined]
    for answer in answers:
        assert answer.status_code == 503, (answer.request.url, answer.status_code, answer.text[:200])
        assert answer.headers["retry-after"] == "5"
        if answer.request.url.path.startswith("/api/"):
            assert answer.json() == {"error": SAID}
        else:
            assert SAID in answer.text and "Traceback" not in answer.text
    lines = _server_lines(caplog)
    assert all(record.exc_info is None and "\n" not in record.getMessage() for record in lines)
    said = [record.getMessage() for record in lines if record.name == "calabresella.web"]
    assert len(said) == 1 and said[0].startswith("the ledger does not answer: "), said
    return len(answers)


def _answers_again(caplog: pytest.LogCaptureFixture, refused: int) -> None:
    """The end of the outage is one line, with the count of requests answered 503."""
    said = [record.getMessage() for record in _server_lines(caplog) if record.name == "calabresella.web"]
    assert len(said) == 2 and f"; {refused} requests were answered 503 meanwhile" in said[1], said


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs."""
    _needs_mounts()
    folder = tmp_path / "small"
    folder.mkdir()
    if not _mount("-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)):
        pytest.skip("this machine does not allow mounting a tmpfs")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def _fill(folder: Path) -> Path:
    """Fill the disk to its last byte; the file that did it."""
    filler = folder / "filler"
    try:
        with filler.open("wb", buffering=0) as out:
            while True:
                out.write(b"\0" * 4096)
    except OSError:
        pass
    return filler


def test_a_full_disk_is_a_503_in_one_line_and_the_server_recovers(
    small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = str(small_disk / "ledger.sqlite3")
    start(db)
    with Ledger(db) as ledger:
        ledger.record("bruno solo 22")
    with scorekeeper(db) as phone:
        token = csrf(phone)
        filler = _fill(small_disk)
        refused = _refused_in_one_line(phone, caplog, token, reads=False)
        assert phone.get("/evenings/1").status_code == 200  # what is stored can still be read: the writes still fail
        filler.unlink()
        assert phone.post("/api/evenings/1/deals", json={"line": "anna solo 20"}, headers=BEARER).status_code == 201
        _answers_again(caplog, refused)
    with Ledger(db) as ledger:
        assert len(ledger.deals(1)[1]) == 2


def test_with_the_writes_failing_only_a_write_that_goes_through_ends_the_outage(
    small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The probe: with the disk full, a deal line with a typo (422) or a stale undo (409), refused for what it asked
    and writing nothing, each said "the ledger answers again", and the next write refused began another outage: four
    lines for one outage, two of them wrong. A wrong write link's key, written down to slow the guesser, is a write
    too."""
    db = str(small_disk / "ledger.sqlite3")
    start(db)
    with Ledger(db) as ledger:
        ledger.record("bruno solo 22")
    with scorekeeper(db) as phone:
        token = csrf(phone)
        filler = _fill(small_disk)
        caplog.clear()
        asked = [
            (phone.get("/write?key=a-wrong-key"), 503),
            (phone.get("/evenings/1"), 200),
            (phone.get("/api/evenings/1/standings"), 200),
            (phone.post("/api/evenings/1/deals", json={"line": "anna sol 20"}, headers=BEARER), 422),
            (phone.post("/evenings/1/deals", data={"csrf": token, "line": "anna sol 20"}), 422),
            (phone.post("/api/evenings/1/undo", json={"seen_revision": 0}, headers=BEARER), 409),
            (phone.post("/api/evenings/1/deals", json={"line": "anna solo 20"}, headers=BEARER), 503),
        ]
        assert [answer.status_code for answer, _status in asked] == [status for _answer, status in asked]
        said = [record.getMessage() for record in _server_lines(caplog) if record.name == "calabresella.web"]
        assert [line for line in said if "the ledger" in line] == [
            f"the ledger does not answer: the ledger sqlite:///{db} cannot be written, its disk may be full: "
            "nothing was written"
        ], said
        filler.unlink()
        assert phone.post("/api/evenings/1/deals", json={"line": "anna solo 20"}, headers=BEARER).status_code == 201
    said = [record.getMessage() for record in _server_lines(caplog) if record.name == "calabresella.web"]
    ended = [line for line in said if "the ledger" in line][1:]
    assert len(ended) == 1 and re.fullmatch(ENDED.format(count=2), ended[0]), said


def test_the_command_line_says_the_disk_is_full_in_one_line(small_disk: Path) -> None:
    db = str(small_disk / "ledger.sqlite3")
    start(db)
    _fill(small_disk)
    ran = calabresella("--db", db, "record", "bruno solo 22")  # a traceback would fail the test
    assert ran.returncode == 2 and len(ran.stderr.strip().splitlines()) == 1
    assert "its disk may be full" in ran.stderr


def test_a_read_only_ledger_is_served_and_a_write_is_a_503_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A folder cannot be remounted read-only while the server has the ledger open for writing: it is read-only
    from the start, as a ledger on a read-only disk or a copy handed round."""
    _needs_mounts()
    source, served = tmp_path / "source", tmp_path / "served"
    source.mkdir()
    served.mkdir()
    start(str(source / "ledger.sqlite3"))
    with Ledger(str(source / "ledger.sqlite3")) as ledger:
        ledger.record("bruno solo 22")
    if not _mount("--bind", str(source), str(served)):
        pytest.skip("this machine does not allow bind mounts")
    try:
        assert _mount("-o", "remount,bind,ro", str(served))
        with scorekeeper(str(served / "ledger.sqlite3")) as phone:
            token = csrf(phone)
            assert all(phone.get(path).status_code == 200 for path in (*PAGES, *API))
            _refused_in_one_line(phone, caplog, token, reads=False)
    finally:
        subprocess.run(["umount", str(served)], capture_output=True)


class Cluster:
    """A PostgreSQL server of this test's own, to stop and start under a running app."""

    def __init__(self) -> None:
        initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        if not initdb or not pg_ctl:
            pytest.skip("no PostgreSQL binaries (initdb, pg_ctl) on this machine")
        self.pg_ctl = pg_ctl
        self.workdir = Path(tempfile.mkdtemp(prefix="calabresella-pg-restart-"))
        if os.geteuid() == 0:
            shutil.chown(self.workdir, "postgres", "postgres")
        self.user = "postgres" if os.geteuid() == 0 else os.environ.get("USER", "postgres")
        self.data = self.workdir / "data"
        subprocess.run(
            _as_postgres([initdb, "-D", str(self.data), "-U", self.user, "-A", "trust", "--no-sync"]),
            check=True,
            capture_output=True,
        )
        self.port = _free_port()

    def start(self) -> None:
        options = f"-p {self.port} -k {self.workdir} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.workdir / "log")
        subprocess.run(
            _as_postgres([self.pg_ctl, "-D", str(self.data), "-o", options, "-l", log, "-w", "start"]),
            check=True,
            capture_output=True,
        )

    def stop(self) -> None:
        subprocess.run(
            _as_postgres([self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop"]), capture_output=True
        )

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/postgres"


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    server = Cluster()
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


@pytest.mark.postgres
def test_a_postgresql_restart_is_a_503_in_one_line_and_the_server_recovers(
    cluster: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    start(cluster.url)
    with scorekeeper(cluster.url) as phone:
        token = csrf(phone)
        assert phone.get("/evenings/1/events").status_code == 200  # a phone watching: the feed's watch task reads too
        cluster.stop()
        refused = _refused_in_one_line(phone, caplog, token, reads=True)
        cluster.start()
        assert phone.get("/evenings/1").status_code == 200
        assert phone.post("/evenings/1/deals", data={"csrf": token, "line": "anna solo 20"}).status_code == 303
        _answers_again(caplog, refused)
        assert phone.get(link(cluster.url)).status_code == 303
    with Ledger(cluster.url) as ledger:
        assert len(ledger.deals(1)[1]) == 1


@pytest.mark.postgres
def test_a_database_that_refuses_the_servers_user_is_an_outage_in_one_line_too(
    cluster: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    """The probe: a failure other than the database not answering (here PostgreSQL refusing the server's user its
    tables, as after a wrong GRANT) was answered 422, as if the phone had asked something wrong, showing the
    database's address, with no line in the terminal; and it said "the ledger answers again" in an outage under
    way."""
    admin = psycopg.connect(f"postgresql://{cluster.user}@127.0.0.1:{cluster.port}/postgres", autocommit=True)
    with admin:
        admin.execute("CREATE ROLE keeper LOGIN")
        admin.execute("CREATE DATABASE club OWNER keeper")
    url = f"postgresql+psycopg://keeper@127.0.0.1:{cluster.port}/club"
    start(url)
    club = psycopg.connect(f"postgresql://{cluster.user}@127.0.0.1:{cluster.port}/club", autocommit=True)
    with club, scorekeeper(url) as phone:
        assert phone.get("/evenings/1").status_code == 200
        club.execute("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM keeper")
        caplog.clear()
        refused = [
            phone.get("/evenings/1"),
            phone.get("/api/evenings/1"),
            phone.post("/api/evenings/1/deals", json={"line": "anna solo 20"}, headers=BEARER),
        ]
        for answer in refused:
            assert answer.status_code == 503 and answer.headers["retry-after"] == "5", answer.text
            assert SAID in answer.text and "keeper@" not in answer.text
        club.execute("GRANT ALL ON ALL TABLES IN SCHEMA public TO keeper")
        assert phone.get("/evenings/1").status_code == 200  # a read: the write refused has not gone through yet
        assert phone.post("/api/evenings/1/deals", json={"line": "anna solo 20"}, headers=BEARER).status_code == 201
    said = [record.getMessage() for record in _server_lines(caplog) if record.name == "calabresella.web"]
    assert len(said) == 2 and re.fullmatch(ENDED.format(count=3), said[1]), said
    assert said[0] == (
        f"the ledger does not answer: postgresql+psycopg://keeper@127.0.0.1:{cluster.port}/club: the database does "
        "not let this user do it: nothing was written"
    )
