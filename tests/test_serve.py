"""`calabresella serve` as a process, probed as an attacker on the same network and as a crowded club night: the
token stays out of the process list and the browser, comes from the environment or a file and needs 128 bits;
guessing it is slowed to a few tries a minute, logged one line a minute; a 100 MB body stalls nobody; the server is
idle within two seconds of its last answer and stops within two seconds of Ctrl-C, whatever was queued."""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest
from cli_support import calabresella
from test_web_support import BEARER, HOST, PLAYERS, TOKEN, StoppedClock, TestClient, identity, keys, link, start

from ledger import Ledger
from ledger.values import Terms
from ledger.web.access import cookie_name
from ledger.web.app import create_app
from ledger.web.limits import MOST_BYTES
from ledger.web.token import load_token, token_path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from workload import listening


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def servers(
    db: str, count: int, *args: str, env: dict[str, str] | None = None, open_files: tuple[int, int] | None = None
) -> Iterator[list[tuple[str, subprocess.Popen[str]]]]:
    """`count` `calabresella serve` processes started at once, each on a free loopback port (under the limits of open
    files `open_files`, soft and hard, when given); the base URL and process of each (stdout and stderr in one
    pipe)."""
    ports: list[int] = []
    while len(ports) < count:
        if (port := _free_port()) not in ports:
            ports.append(port)
    environment = {**os.environ, **(env if env is not None else {"CALABRESELLA_TOKEN": TOKEN})}
    with ExitStack() as stack:
        started = []
        for port in ports:
            process = subprocess.Popen(
                ["calabresella", "--db", db, "serve", "--port", str(port), *args],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                env=environment,
                preexec_fn=None
                if open_files is None
                else lambda: resource.setrlimit(resource.RLIMIT_NOFILE, open_files),
            )
            stack.callback(_stop, process)
            started.append((port, process))
        for port, process in started:
            if not listening(port, process, seconds=20):
                said = process.stdout.read() if process.stdout else ""
                raise RuntimeError(f"serve did not start: {said}")
        yield [(f"http://127.0.0.1:{port}", process) for port, process in started]


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        process.wait(10)


@contextmanager
def serving(
    db: str, *args: str, env: dict[str, str] | None = None, open_files: tuple[int, int] | None = None
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`calabresella serve` on a free loopback port; its base URL and process (stdout and stderr in one pipe)."""
    with servers(db, 1, *args, env=env, open_files=open_files) as started:
        yield started[0]


def _said(process: subprocess.Popen[str]) -> str:
    """What the stopped server printed."""
    assert process.stdout is not None
    return process.stdout.read()


@pytest.mark.parametrize(
    ("env", "args", "said"),
    [
        ({"CALABRESELLA_TOKEN": "1234"}, [], "the write token has 13 bits as written (4 characters): at least 128"),
        ({"CALABRESELLA_TOKEN": "correct horse battery"}, [], "the write token may hold only A-Z a-z 0-9 - _"),
        ({}, ["--token", TOKEN], "--token would show the token to every user of this machine (in the process list)"),
        ({"CALABRESELLA_TOKEN": TOKEN}, ["--new-token"], "--new-token writes a new token file, but CALABRESELLA_TOKEN"),
    ],
)
def test_a_token_on_the_command_line_or_under_128_bits_is_refused_in_one_line(
    sqlite_url: str, tmp_path: Path, env: dict[str, str], args: list[str], said: str
) -> None:
    environment: dict[str, str | None] = {"CALABRESELLA_TOKEN": None, "XDG_DATA_HOME": str(tmp_path), **env}
    ran = calabresella("--db", sqlite_url, "serve", *args, env=environment)  # refused before a server is made
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert len(ran.stderr.strip().splitlines()) == 1 and said in ran.stderr, ran.stderr


def test_each_ledger_has_a_private_token_file_kept_across_restarts_and_renewed_by_new_token(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe: two servers of one user, each on a ledger of its own, read one token file and took each other's
    links. Here two real servers, given no token, make a file each and say where; the token of one writes nothing
    through the other. The restarts load the file as `serve` does and run the app in this process."""
    monkeypatch.delenv("CALABRESELLA_TOKEN", raising=False)
    monkeypatch.delenv("CALABRESELLA_TOKEN_FILE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    other = str(tmp_path / "other.sqlite3")
    for db in (sqlite_url, other):
        start(db)
    env = {k: v for k, v in os.environ.items() if k != "CALABRESELLA_TOKEN"}
    token_file, other_file = (token_path(identity(db)) for db in (sqlite_url, other))
    with serving(sqlite_url, env=env) as (base, process), serving(other, env=env) as (other_base, other_process):
        token, other_token = token_file.read_text().strip(), other_file.read_text().strip()
        assert token != other_token and token_file.parent == other_file.parent == tmp_path / "calabresella"
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600 and len(token) >= 43
        command_line = Path(f"/proc/{process.pid}/cmdline").read_bytes().decode()
        assert token not in command_line
        with httpx.Client() as phone:
            opened = phone.get(f"{base}{link(sqlite_url, token)}")
            session = phone.cookies[cookie_name(httpx.URL(base).port)]
            assert opened.status_code == 303 and token not in session
            bearer = {"Authorization": f"Bearer {token}"}
            assert (
                phone.post(f"{other_base}/api/evenings/1/deals", json={"line": "pass"}, headers=bearer).status_code
                == 403
            )
        printed = []
        for server in (process, other_process):
            server.send_signal(signal.SIGINT)
            server.wait(5)
            printed.append(_said(server))
    assert link(sqlite_url, token) in printed[0] and token not in printed[0]
    assert f"The write token, for the API: in {token_file}" in printed[0] and str(other_file) in printed[1]
    with Ledger(other) as ledger:
        assert ledger.evening(1).revision == 0

    def restarted(secret: str) -> TestClient:
        """The app as the next `serve` makes it, with the write token it loads, on a phone holding the session."""
        phone = TestClient(create_app(sqlite_url, secret, hosts=(HOST,), clock=StoppedClock()))
        phone.cookies.set(cookie_name(80), session)
        return phone

    with restarted(load_token(token_file)) as phone:  # `serve` again
        assert token_file.read_text().strip() == token
        assert "Record a deal" in phone.get("/evenings/1").text
    with restarted(load_token(token_file, renew=True)) as phone:  # `serve --new-token`
        assert token_file.read_text().strip() != token
        assert "Record a deal" not in phone.get("/evenings/1").text


def test_guessing_the_token_is_slowed_to_a_few_tries_and_each_is_logged(sqlite_url: str) -> None:
    """The probe: 1,275 tries in 9.3 s found `--token 1234`. Here 100 tries at once, then more for 1.5 s: the first
    is refused 403 and sets a wait, which each of the others, coming within it, doubles (up to a minute) and is
    refused 429; each is logged, the first at once and the rest at exit in one line with their count. Each try names
    a new address in X-Forwarded-For, which a server with no `--proxy` does not believe."""
    start(sqlite_url)

    async def guess(base: str) -> list[int]:
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=50)) as client:

            async def one(n: int) -> int:
                forged = {"Authorization": f"Bearer {n:04d}", "X-Forwarded-For": f"203.0.113.{n % 250}"}
                return (await client.post("/api/evenings/1/deals", json={"line": "pass"}, headers=forged)).status_code

            codes = list(await asyncio.gather(*(one(n) for n in range(100))))
            deadline = time.monotonic() + 1.5
            while time.monotonic() < deadline:
                codes.append(await one(len(codes)))
            return codes

    with serving(sqlite_url) as (base, process):
        codes = asyncio.run(guess(base))
        process.send_signal(signal.SIGINT)
        process.wait(5)
        printed = _said(process)
    assert codes.count(403) == 1 and codes.count(429) == len(codes) - 1, codes
    refused = [line for line in printed.splitlines() if "refused a wrong API token from 127.0.0.1" in line]
    assert "Traceback" not in printed and "203.0.113." not in printed
    assert refused[0].endswith("(1 in a row; it waits 1 s)")  # the first at once, the rest at exit
    held = f"({len(codes) - 1} like it since {refused[0][:8]})"
    assert len(refused) == 2 and refused[1].endswith(f"in a row; it waits 60 s) {held}"), refused
    with Ledger(sqlite_url) as ledger:
        assert ledger.evening(1).revision == 0


def test_one_wrong_try_from_an_address_holds_back_none_of_its_right_writes_and_table_links(sqlite_url: str) -> None:
    """The probe: after one wrong token from an address (a venue's NAT), 18 of 20 right writes sent at once, and 9 of
    10 table links opened at once, were answered 429, and still were 130 s later. Here all are served at once, within
    the wrong try's wait (`test_web_security` times a wrong try within it)."""
    players = [f"Player {n:02d}" for n in range(30)]
    with Ledger(sqlite_url) as ledger:
        ledger.club.start_event("Club night", players, Terms(stake="0.10"))
        tables = [table.evening for table in ledger.club.seat_round().rounds[-1].tables]
    table_keys = keys(sqlite_url)

    async def at_once(base: str) -> list[int]:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            guess = {"Authorization": "Bearer 0000"}
            wrong = await client.post("/api/evenings/1/deals", json={"line": "pass"}, headers=guess)
            writes = [
                client.post(f"/api/evenings/{table}/deals", json={"line": "pass", "key": f"k{n}"}, headers=BEARER)
                for n, table in enumerate(tables + tables)
            ]
            links = [client.get(f"/tables/{table}", params={"key": table_keys.table_key(table)}) for table in tables]
            answers = await asyncio.gather(*writes, *links)
        return [wrong.status_code, *(answer.status_code for answer in answers)]

    with serving(sqlite_url) as (base, _process):
        codes = asyncio.run(at_once(base))
    assert codes == [403] + [201] * 20 + [303] * 10, codes
    with Ledger(sqlite_url) as ledger:
        assert [ledger.evening(table).revision for table in tables] == [2] * 10


CHUNK = 16 * 1024
"""A piece of the 100 MB line."""
CHUNKS = 100 * 1024 * 1024 // CHUNK


async def _flood_and_read(base: str) -> tuple[int, int]:
    """One authenticated 100 MB line, with ten reads while it comes: the line stops half-way to the server's limit and
    goes on only once the ten reads are answered (a server that waited for the whole line would answer none of them:
    the reads' own timeout would end the test). Its status, and how many of its pieces were sent."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        reads_done, sent = asyncio.Event(), 0

        async def body() -> AsyncIterator[bytes]:
            nonlocal sent
            for piece in range(CHUNKS):
                if piece * CHUNK == MOST_BYTES // 2:
                    await reads_done.wait()
                sent += 1
                yield b"x" * CHUNK

        flood = asyncio.create_task(
            client.post("/api/evenings/1/deals", content=body(), headers={"Authorization": f"Bearer {TOKEN}"})
        )
        while sent * CHUNK < MOST_BYTES // 2:
            await asyncio.sleep(0.01)
        for _ in range(10):
            assert (await client.get("/api/evenings/1/standings")).status_code == 200
        reads_done.set()
        try:
            status = (await flood).status_code
        except httpx.HTTPError:
            status = 413  # the server answered 413 and closed while the body was still being sent
        return status, sent


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


WRITES = 20
"""Each writer's deals in the burst."""


def test_a_100_mb_body_stalls_nobody_and_after_a_burst_the_server_soon_rests_and_stops_with_phones_watching(
    sqlite_url: str,
) -> None:
    """The probes: one authenticated 100 MB line kept every other client waiting 25.9 s; after 600 deals from 6
    writers the server stayed busy 64 s, and Ctrl-C took about 6 minutes. Here the 100 MB line first: ten reads are
    answered while it comes, and it is refused long before its end. Then 6 writers send 20 deals each while 20 phones
    watch: what the server does after the last deal, until it rests, takes a small part of the processor time the
    deals took (it reads each watched evening once more, not once per deal); Ctrl-C stops it with the phones still
    watching. Nothing here is timed: each wait has only a generous bound that a stuck server would pass."""
    start(sqlite_url)

    def until_idle(pid: int) -> float:
        """The server's processor seconds until a quarter of a second passes with (almost) none."""
        began = before = _cpu_seconds(pid)
        for _ in range(240):
            time.sleep(0.25)
            now = _cpu_seconds(pid)
            if now - before < 0.02:
                return now - began
            before = now
        raise AssertionError(f"the server still works a minute after the burst: {before - began:.1f} processor-s")

    async def burst(base: str, process: subprocess.Popen[str]) -> tuple[float, float]:
        once = httpx.Limits(max_keepalive_connections=0)  # each write on a connection of its own
        async with (
            httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(max_connections=30)) as client,
            httpx.AsyncClient(base_url=base, timeout=60, limits=once) as fresh,
        ):

            async def watch() -> None:
                async with client.stream("GET", "/evenings/1/events") as stream:
                    async for _ in stream.aiter_lines():
                        pass

            phones = [asyncio.create_task(watch()) for _ in range(20)]

            async def writer() -> None:
                for _ in range(WRITES):
                    done = await fresh.post(
                        "/api/evenings/1/deals",
                        json={"line": "bruno solo 22"},
                        headers={"Authorization": f"Bearer {TOKEN}"},
                    )
                    assert done.status_code == 201

            before = _cpu_seconds(process.pid)
            await asyncio.gather(*(writer() for _ in range(6)))
            deals = _cpu_seconds(process.pid) - before
            after = await asyncio.to_thread(until_idle, process.pid)
            process.send_signal(signal.SIGINT)
            await asyncio.to_thread(process.wait, 30)  # the phones still watching
            for phone in phones:
                phone.cancel()
            await asyncio.gather(*phones, return_exceptions=True)
        return deals, after

    with serving(sqlite_url) as (base, process):
        status, sent = asyncio.run(_flood_and_read(base))
        deals, after = asyncio.run(burst(base, process))
        printed = _said(process)
    assert status == 413 and sent < CHUNKS // 100, (status, sent)
    print(f"sent {sent} pieces; {deals:.2f} processor-s for the deals, {after:.2f} after")
    assert after < deals / 4, f"{after:.2f} processor-s after the deals, {deals:.2f} for them"
    assert "Traceback" not in printed
    with Ledger(sqlite_url) as ledger:
        assert len(ledger.deals(1)[1]) == 6 * WRITES and ledger.evening(1).players == PLAYERS
