"""`calabresella serve`: the web pages for the phones at the table, served from the scorekeeper's machine.

The write token comes from `CALABRESELLA_TOKEN` or from a file (`--token-file`, by default one per ledger in the
user data folder, made on first use and readable by its owner only), never from the command line, where every
user of the machine can read it in the process list; `--new-token` writes a new one, which ends every write
session. At start it raises its limit of open files to the most it may have (each live page holds one), and says
how many live pages it can hold when that is fewer than it is made for. Starlette, uvicorn and segno load inside the
command, so the other commands start without them; pandas and matplotlib load only when a report or a chart is asked
for.
"""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path
from typing import Annotated

import typer

from ledger.cli import loaded
from ledger.cli.app import db_url
from ledger.cli.main import Language
from ledger.errors import LedgerError
from ledger.fmt import format_count
from ledger.i18n import LANG_VARIABLE, _

LOOPBACK = ("127.0.0.1", "localhost", "::1")
EVERY_ADDRESS = ("0.0.0.0", "::")
STOP_SECONDS = 1
"""After Ctrl-C, how long a request under way may still take before it is cut."""
LIVE_STREAMS = 2000
"""The live pages (phones and screens watching) a server process is made to hold at once, each stream one open file
(its connection): a tournament's, with room."""
OTHER_FILES = 100
"""The files a server process holds open besides its live streams: 19 idle, 22 after pages, reports and writes, and
up to 15 database connections (on SQLite, 3 files each)."""


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def shown_host(host: str) -> str:
    """The address the links name: the network address when listening on every address."""
    return lan_address() if host in EVERY_ADDRESS else host


def allowed_hosts(host: str, more: list[str]) -> list[str]:
    """The host names the server answers for: the addresses it listens on and the one its links name, and any
    more given."""
    if host in EVERY_ADDRESS:
        names = [shown_host(host), *LOOPBACK]
    elif host in LOOPBACK:
        names = list(LOOPBACK)
    else:
        names = [host]
    return list(dict.fromkeys([*names, *more]))


def links(host: str, port: int, key: str) -> tuple[str, str]:
    """The link that can write (it carries the write link's key, not the token) and the one that can only look."""
    shown = shown_host(host)
    base = f"http://{f'[{shown}]' if ':' in shown else shown}:{port}"
    return f"{base}/write?key={key}", f"{base}/"


def print_links(write: str, look: str, *, qr: bool) -> None:
    """Both links, each under its QR code when the phones are to scan them."""
    import segno

    for title, url in ((_("Scorekeeper (can write):"), write), (_("Everyone else (can only look):"), look)):
        typer.echo(title)
        if qr:
            segno.make(url, error="m").terminal(compact=True)
        typer.echo(f"  {url}\n")


def open_files() -> int | None:
    """Raise this process's limit of open files (its workers inherit it) to the most it may have: its hard limit, or
    what the live streams need where that is unlimited. The limit now; None when there is none."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(soft, LIVE_STREAMS + OTHER_FILES) if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # a system that allows fewer than it says keeps its limit
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def serve(
    ctx: typer.Context,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Address to listen on: 127.0.0.1 (this machine only) or 0.0.0.0 (the phones on the "
            "network, which get QR codes to scan).",
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", help="Port to listen on.", min=1, max=65535)] = 8000,
    token_file: Annotated[
        Path | None,
        typer.Option(
            "--token-file",
            help="The file holding the write token (default: the ledger's own in the user data folder, made on "
            "first use; serve says which). CALABRESELLA_TOKEN, when set, is the token instead; either needs at "
            "least 128 bits (22 characters of A-Z a-z 0-9 - _).",
            dir_okay=False,
        ),
    ] = None,
    new_token: Annotated[
        bool,
        typer.Option(
            "--new-token", help="Write a new random token into the token file: every phone's write session ends."
        ),
    ] = False,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="One more host name the phones may use to reach this server (e.g. scores.local); the addresses "
            "it listens on and the one its links name are always allowed.",
        ),
    ] = None,
    lang: Annotated[
        Language | None,
        typer.Option(
            "--lang",
            help="The phones' language, unless a phone asks for Italian or English itself (default: this command's "
            "language: CALABRESELLA_LANG, else the locale, else English).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            help="Worker processes serving at once (a tournament: one per processor); they share the ledger, the "
            "live pages and the throttle of wrong tokens through the database.",
            min=1,
            max=64,
        ),
    ] = 1,
    proxy: Annotated[
        str | None,
        typer.Option(
            "--proxy",
            help="The reverse proxies in front of this server (ADDR[,ADDR]): their X-Forwarded-For and "
            "X-Forwarded-Proto are believed, nobody else's; without it no forwarded header is believed. 127.0.0.1 "
            "believes every program on this machine: give it only for a proxy on this machine, where nobody you do "
            "not trust runs programs, and keep --host 127.0.0.1, so that the phones come in through the proxy.",
        ),
    ] = None,
    token: Annotated[str | None, typer.Option("--token", hidden=True)] = None,
) -> None:
    """Serve the evening to the phones at the table: standings that update themselves, deals recorded by tapping.

    Prints two links: the scorekeeper's (it can record deals; opening it once gives the phone a write session
    for a week) and one for everyone else (it can only look). Several evenings can be open at once. The server
    answers only for its own host names, refuses bodies over 64 KB and text fields over their length, and slows
    down and logs wrong tokens. Ctrl-C stops it within two seconds.

    [b]Examples[/b]: calabresella serve --host 0.0.0.0 · a tournament behind a reverse proxy:
    calabresella --db postgresql://club@db/club serve --workers 4 --proxy 127.0.0.1 --allow-host scores.example.org
    """
    from ledger.web.token import TOKEN_FILE_VARIABLE, TOKEN_VARIABLE, load_token, token_path

    if token is not None:
        raise LedgerError(
            _(
                "--token would show the token to every user of this machine (in the process list): put it in "
                "{variable} or in a file given with --token-file"
            ).format(variable=TOKEN_VARIABLE)
        )
    import uvicorn

    from ledger.database import ledger_environment
    from ledger.server_store import ServerStore
    from ledger.service import Ledger
    from ledger.web.access import Keys
    from ledger.web.app import HOSTS_VARIABLE, create_app
    from ledger.web.logs import to_terminal
    from ledger.web.protocol import Connection

    hosts = allowed_hosts(host, allow_host or [])
    proxies = [address.strip() for address in (proxy or "").split(",") if address.strip()]
    named = ledger_environment(db_url(ctx))
    (db,) = named.values()
    with Ledger(db) as ledger:  # made or upgraded once, before any worker opens it
        identity = ServerStore(ledger).identity()
    kept = token_path(identity, token_file)
    secret = load_token(kept, new_token)
    write, look = links(host, port, Keys(secret, identity).link_key)
    print_links(write, look, qr=host not in LOOPBACK)
    if TOKEN_VARIABLE not in os.environ:
        typer.echo(_("The write token, for the API: in {path}").format(path=kept))
    typer.echo(_("Answers for: {hosts}").format(hosts=", ".join(hosts)))
    files = open_files()
    if files is not None and files - OTHER_FILES < LIVE_STREAMS:
        typer.echo(
            _(
                "This machine lets the server hold {files} files open: about {streams} live pages at once, not the "
                "{needed} it is made for; raise the limit of open files (ulimit -n) to serve more"
            ).format(
                files=format_count(files),
                streams=format_count(max(files - OTHER_FILES, 0)),
                needed=format_count(LIVE_STREAMS),
            )
        )
    to_terminal()
    loaded()
    settings = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "timeout_graceful_shutdown": STOP_SECONDS,
        "http": Connection,
        "ws": "none",  # no page speaks WebSocket: an upgrade is an HTTP request, answered by the app like any other
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": ",".join(proxies),
    }
    if workers > 1:
        os.environ.update({**named, HOSTS_VARIABLE: ",".join(hosts)})
        if TOKEN_VARIABLE not in os.environ:
            os.environ[TOKEN_FILE_VARIABLE] = str(kept)
        if lang is not None:
            os.environ[LANG_VARIABLE] = lang.value
        uvicorn.run("ledger.web.app:from_environment", factory=True, workers=workers, **settings)  # type: ignore[arg-type]
        return
    app = create_app(db, secret, hosts=hosts)
    uvicorn.Server(uvicorn.Config(app, **settings)).run()  # type: ignore[arg-type]
