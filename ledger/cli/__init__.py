"""The `calabresella` command line: thin Typer commands over the library.

Loading the command line creates only long-lived objects (modules, classes, tables), which the cycle collector
would walk over and over for nothing, at start-up and again at exit: `run` pauses it while the command loads, and
`loaded` sets what was loaded aside for good and resumes it once the command has what it needs (its ledger open),
before the work that makes garbage.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


def run() -> None:
    """Console-script entry point."""
    gc.disable()
    try:
        from ledger.cli.main import app

        app()
    finally:
        loaded()


def loaded() -> None:
    """Keep what is loaded out of every later collection, and resume the cycle collector that `run` paused."""
    gc.freeze()
    gc.enable()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector paused while work is under way: work that makes a great many short-lived values
    without cycles (an export, an import), where it would walk the rows held over and over for nothing; or a line
    typed at the table, which is answered first, the collector catching up while the players read the answer."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
