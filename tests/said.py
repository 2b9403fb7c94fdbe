"""Errors as a player reads them on the command line: the rules name a fact and its value, the command line words
the fact as the option that gives it (`--thirds 36: a deal has only 35 thirds`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from ledger.cli.app import worded
from ledger.errors import LedgerError


def said(error: BaseException) -> str:
    """The error's one line as the command line prints it (after `Error: `)."""
    assert isinstance(error, LedgerError), error
    return worded(error)


@contextmanager
def raises_said(pattern: str) -> Iterator[None]:
    """Like `pytest.raises(LedgerError, match=pattern)`, matched against the line the command line prints."""
    try:
        yield
    except LedgerError as error:
        assert re.search(pattern, said(error)), f"{pattern!r} not in {said(error)!r}"
    else:
        raise AssertionError(f"no LedgerError; expected {pattern!r}")
