"""Open the ledger named by `--db` for one command."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from ledger.cli import loaded
from ledger.cli.app import db_url

if TYPE_CHECKING:
    from ledger.service import Ledger
    from ledger.values import EveningInfo


@contextmanager
def open_ledger(
    ctx: typer.Context, *, create: bool = True, default: str | None = None, source: str = "terminal"
) -> Iterator[Ledger]:
    """The ledger of `--db` (or the environment, or the default file), closed when the command ends. Only the
    commands of `MAKERS` make one where there is none, and take it away again when they fail, so that a mistyped
    path never leaves an empty ledger (`create=False`: not even they); `default` is the ledger to use when neither
    `--db` nor the environment names one (else the user's default ledger); `source` is where its changes come from,
    for the evenings' change logs."""
    from ledger.database import new_ledger_file, remove_ledger_file
    from ledger.service import Ledger

    given = db_url(ctx) or default
    makes = create and " ".join(ctx.command_path.split()[1:]) in MAKERS
    made = new_ledger_file(given) if makes else None
    try:
        with Ledger(given, create=makes, source=source) as ledger:
            loaded()
            yield ledger
    except BaseException as error:
        if made is not None and not _succeeded(error):
            remove_ledger_file(made)
        raise


MAKERS = ("evening start", "event start", "season start", "import", "demo", "play")
"""The commands that start something, which make a ledger where there is none (only when they succeed); any other
says there is none."""


def _succeeded(error: BaseException) -> bool:
    """Whether a command that ended by raising `error` ended well (`typer.Exit(0)`)."""
    return isinstance(error, typer.Exit) and error.exit_code == 0


def evening_to_read(ledger: Ledger, evening: int | None, *, quiet: bool = False) -> EveningInfo:
    """The evening a command that reads shows: the one given, else the open one, else the latest, which it names
    (unless `quiet`, for output read by programs)."""
    from ledger.cli.render import console
    from ledger.fmt import format_time
    from ledger.i18n import _

    info = ledger.evening(evening, latest=True)
    if evening is None and info.closed and not quiet:
        said = _("No evening is open: this is the latest, evening {number}, closed {closed}.")
        console.print(said.format(number=info.number, closed=format_time(info.closed_at)), style="dim")
    return info
