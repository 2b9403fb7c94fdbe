"""`calabresella serve`: the web pages for the phones at the table, served from the scorekeeper's machine.

Starlette, uvicorn and segno load inside the command, so the other commands start without them; pandas
and matplotlib load only when a report or a chart is asked for.
"""

from __future__ import annotations

import secrets
import socket
from typing import Annotated

import typer

from ledger.cli import loaded
from ledger.cli.app import db_url
from ledger.i18n import _

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def links(host: str, port: int, token: str) -> tuple[str, str]:
    """The link that can write (it carries the token) and the one that can only look."""
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    base = f"http://{f'[{shown}]' if ':' in shown else shown}:{port}"
    return f"{base}/write?token={token}", f"{base}/"


def print_links(write: str, look: str, *, qr: bool) -> None:
    """Both links, each under its QR code when the phones are to scan them."""
    import segno

    for title, url in ((_("Scorekeeper (can write):"), write), (_("Everyone else (can only look):"), look)):
        typer.echo(title)
        if qr:
            segno.make(url, error="m").terminal(compact=True)
        typer.echo(f"  {url}\n")


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
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            envvar="CALABRESELLA_TOKEN",
            show_envvar=True,
            help="The secret in the write link (default: a new random one each start).",
        ),
    ] = None,
) -> None:
    """Serve the evening to the phones at the table: standings that update themselves, deals recorded by tapping.

    Prints two links: the scorekeeper's (it can record deals; opening it once is enough) and one for
    everyone else (it can only look). Several evenings can be open at once. Ctrl-C stops the server.

    [b]Example[/b]: calabresella serve --host 0.0.0.0
    """
    import uvicorn

    from ledger.web.app import create_app

    secret = token or secrets.token_urlsafe(16)
    app = create_app(db_url(ctx), secret)
    write, look = links(host, port, secret)
    print_links(write, look, qr=host not in LOOPBACK)
    loaded()
    uvicorn.run(app, host=host, port=port, log_level="warning")
