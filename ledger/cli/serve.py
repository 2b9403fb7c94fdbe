"""`calabresella serve`: the web pages for the phones at the table, served from the scorekeeper's machine.

The write token comes from `CALABRESELLA_TOKEN` or from a file (`--token-file`, by default `serve-token` in the
user data folder, made on first use and readable by its owner only), never from the command line, where every
user of the machine can read it in the process list; `--new-token` writes a new one, which ends every write
session. Starlette, uvicorn and segno load inside the command, so the other commands start without them; pandas
and matplotlib load only when a report or a chart is asked for.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer

from ledger.cli import loaded
from ledger.cli.app import db_url
from ledger.errors import LedgerError
from ledger.i18n import _

LOOPBACK = ("127.0.0.1", "localhost", "::1")
EVERY_ADDRESS = ("0.0.0.0", "::")
TOKEN_VARIABLE = "CALABRESELLA_TOKEN"
STOP_SECONDS = 1
"""After Ctrl-C, how long a request under way may still take before it is cut."""


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


def token_path() -> Path:
    """`serve-token` in the user data folder."""
    from platformdirs import user_data_path

    return user_data_path("calabresella", appauthor=False) / "serve-token"


def load_token(file: Path | None, renew: bool) -> str:
    """The write token: `CALABRESELLA_TOKEN`, else the token file's (a new random one when it has none yet, or when
    `renew` asks for one)."""
    given = os.environ.get(TOKEN_VARIABLE)
    if given is not None:
        if renew:
            raise LedgerError(
                _(
                    "--new-token writes a new token file, but {variable} is set: unset it, or set a new token in it"
                ).format(variable=TOKEN_VARIABLE)
            )
        return given.strip()
    path = file or token_path()
    try:
        if renew or not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            token = secrets.token_urlsafe(32)
            path.unlink(missing_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w", encoding="ascii") as out:
                out.write(token + "\n")
            return token
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise LedgerError(
            _("--token-file {path!r}: cannot use it ({reason})").format(
                path=str(path), reason=getattr(error, "strerror", None) or error
            )
        ) from None


def log_to_terminal() -> None:
    """The server's one-line notes (refused tokens, a database that does not answer) on stderr, with the time."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    logger = logging.getLogger("calabresella")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


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
            help="The file holding the write token (default: serve-token in the user data folder, made on first "
            "use). CALABRESELLA_TOKEN, when set, is the token instead; either needs at least 128 bits "
            "(22 characters of A-Z a-z 0-9 - _).",
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
    token: Annotated[str | None, typer.Option("--token", hidden=True)] = None,
) -> None:
    """Serve the evening to the phones at the table: standings that update themselves, deals recorded by tapping.

    Prints two links: the scorekeeper's (it can record deals; opening it once gives the phone a write session
    for a week) and one for everyone else (it can only look). Several evenings can be open at once. The server
    answers only for its own host names, refuses bodies over 64 KB and text fields over their length, and slows
    down and logs wrong tokens. Ctrl-C stops it within two seconds.

    [b]Example[/b]: calabresella serve --host 0.0.0.0
    """
    if token is not None:
        raise LedgerError(
            _(
                "--token would show the token to every user of this machine (in the process list): put it in "
                "{variable} or in a file given with --token-file"
            ).format(variable=TOKEN_VARIABLE)
        )
    import uvicorn

    from ledger.web.access import Access
    from ledger.web.app import create_app

    secret = load_token(token_file, new_token)
    hosts = allowed_hosts(host, allow_host or [])
    app = create_app(db_url(ctx), secret, hosts=hosts)
    write, look = links(host, port, Access(secret).link_key)
    print_links(write, look, qr=host not in LOOPBACK)
    typer.echo(_("Answers for: {hosts}").format(hosts=", ".join(hosts)))
    log_to_terminal()
    loaded()

    class Server(uvicorn.Server):
        """uvicorn, which on Ctrl-C also ends the live streams at once instead of waiting for them to end."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if hasattr(app.state, "stop"):
                app.state.stop()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=STOP_SECONDS)
    Server(config).run()
