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
    """The ledger of `--db` (or the environment, or the default file), closed when the command ends; a command that
    only reads passes `create=False`, so that a mistyped path makes no empty ledger; `default` is the ledger to
    use when neither `--db` nor the environment names one (else the user's default ledger); `source` is where its
    changes come from, for the evenings' change logs."""
    from ledger.service import Ledger

    with Ledger(db_url(ctx) or default, create=create, source=source) as ledger:
        loaded()
        yield ledger


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
