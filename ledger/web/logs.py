"""The server's lines in the scorekeeper's terminal.

What came from a request (an address, a header, a path, a name) is shown with its control characters escaped, so
no header can clear the screen, colour it or forge a line; no traceback is printed, only its last line. Lines alike
(the same words outside their parentheses: the same wrong token from the same address, the same failure) are one
line a minute: the next one shown, or the last one at exit, says how many it stands for.
"""

from __future__ import annotations

import atexit
import copy
import logging
import re
import time
from dataclasses import dataclass
from types import TracebackType
from typing import TextIO

from ledger.i18n import _

CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}
"""C0 controls (ESC among them), DEL and C1 controls, each as its `\\xNN`."""
REPEAT_SECONDS = 60.0
"""Lines alike within this time are one line with a count."""
MOST_KEPT = 1000
"""Past this many kinds of line remembered, those whose minute is over are told and forgotten."""


def printable(text: str) -> str:
    """`text` with its control characters escaped.

    >>> printable("10.0.0.1\\x1b[2J\\n\\x9b")
    '10.0.0.1\\\\x1b[2J\\\\x0a\\\\x9b'
    """
    return text.translate(CONTROLS)


def alike(line: str) -> str:
    """What lines alike share: the line without what it says in parentheses.

    >>> alike("refused a wrong API token from 10.0.0.1 (3 in a row; its next try waits 4 s)")
    'refused a wrong API token from 10.0.0.1 ()'
    """
    return re.sub(r"\([^()]*\)", "()", line)


class Escaping(logging.Formatter):
    """`HH:MM:SS line`, escaped, an exception as its one last line."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(message)s", "%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record))

    def formatException(
        self, ei: tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]
    ) -> str:
        kind, error = ei[0], ei[1]
        return f"{kind.__name__}: {error}" if kind is not None else ""

    def formatStack(self, stack_info: str) -> str:
        return ""


@dataclass
class _Run:
    """Lines alike: when one was last shown, and those held back since."""

    shown: float
    held: int = 0
    last: logging.LogRecord | None = None


class Terminal(logging.StreamHandler[TextIO]):
    """Lines on stderr, escaped, one a minute for lines alike."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(Escaping())
        self.runs: dict[str, _Run] = {}

    def emit(self, record: logging.LogRecord) -> None:
        key = alike(record.getMessage())
        run = self.runs.get(key)
        if run is not None and record.created - run.shown < REPEAT_SECONDS:
            run.held, run.last = run.held + 1, record
            return
        if len(self.runs) >= MOST_KEPT:
            self._tell_over(record.created)
        self.runs[key] = _Run(record.created)
        super().emit(_counted(record, run.held + 1, run.shown) if run is not None and run.held else record)

    def _tell_over(self, now: float) -> None:
        """Tell the count of every run whose minute is over, and forget it."""
        for key, run in list(self.runs.items()):
            if now - run.shown >= REPEAT_SECONDS:
                del self.runs[key]
                if run.last is not None:
                    super().emit(_counted(run.last, run.held, run.shown))

    def close(self) -> None:
        """At exit, the count of every line held back."""
        self.acquire()
        try:
            self._tell_over(float("inf"))
        finally:
            self.release()
        super().close()


def _counted(record: logging.LogRecord, count: int, since: float) -> logging.LogRecord:
    """`record`, saying it stands for `count` lines alike since `since`."""
    counted = copy.copy(record)
    counted.msg = _("{line} ({count} like it since {time})").format(
        line=record.getMessage(), count=count, time=time.strftime("%H:%M:%S", time.localtime(since))
    )
    counted.args = ()
    return counted


def to_terminal() -> None:
    """The server's one-line notes (refused tokens, a database that does not answer) on stderr, with the time, what
    came from a request escaped, lines alike one a minute: in `serve`, and in each of its worker processes."""
    handler = Terminal()
    atexit.register(handler.close)  # uvicorn's logging set-up forgets it, and would not tell its counts at exit
    logger = logging.getLogger("calabresella")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
