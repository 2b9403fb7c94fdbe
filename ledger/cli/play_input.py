"""Where `play` reads what is typed: a terminal with line editing, history and completion, or plain lines from a pipe
or file, read alike; and one answer to a question, which `cancel` (or Ctrl-C, or the end of input) leaves."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import typer

from ledger.i18n import _

_WORD = re.compile(r"^[^\s@=,:]*")

CANCEL = ("cancel", "lascia")
"""What, typed at a question, leaves it, in English and in Italian (`annulla` voids a deal): nothing is written."""
YES = ("yes", "y", "sì", "si", "s")
"""The answers that say yes, in English and in Italian."""
NO = ("no", "n")
"""The answers that say no, in English and in Italian."""


class Cancelled(Exception):
    """Ctrl-C, the end of input or `cancel` at a question: what was asked for is left and nothing is written."""


class Reader(Protocol):
    """Where lines come from: a terminal with line editing, or plain lines."""

    def unread(self, line: str) -> None:
        """Give a line back: the next `read` returns it."""
        ...

    def read(self, message: str, default: str = "", words: Sequence[str] = ()) -> str:
        """One line; EOFError at the end of input (Ctrl-D), KeyboardInterrupt on Ctrl-C."""
        ...


class GivesBack:
    """A line given back, which the next read returns before reading any other."""

    def __init__(self) -> None:
        self.given_back: list[str] = []

    def unread(self, line: str) -> None:
        """Give a line back: the next `read` returns it."""
        self.given_back.append(line)

    def given(self, message: str) -> str | None:
        """The line given back, shown after the prompt, if there is one."""
        if not self.given_back:
            return None
        sys.stdout.write(f"{message}{self.given_back[-1]}\n")
        return self.given_back.pop()


class LineReader(GivesBack):
    """Plain lines from a pipe or file: each prompt is printed, each answer is the next line (echoed)."""

    def read(self, message: str, default: str = "", words: Sequence[str] = ()) -> str:
        """The next line of stdin (or the one given back), or the default when it is empty."""
        again = self.given(message)
        if again is not None:
            return again
        sys.stdout.write(f"{message}[{default}] " if default else message)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        if not sys.stdin.isatty():
            sys.stdout.write(line if line.endswith("\n") else line + "\n")
        return line.strip() or default


class TerminalReader(GivesBack):
    """prompt_toolkit: line editing, history (in memory or in a file), Tab completion of names and words."""

    def __init__(self, history: Path | None = None) -> None:
        super().__init__()
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory

        self.session: PromptSession[str] = PromptSession(
            history=FileHistory(str(history)) if history else InMemoryHistory(),
            complete_while_typing=False,
            reserve_space_for_menu=0,
        )

    def read(self, message: str, default: str = "", words: Sequence[str] = ()) -> str:
        """A line edited at the terminal, or the default (shown in brackets) when it is left empty."""
        from prompt_toolkit.completion import WordCompleter

        again = self.given(message)
        if again is not None:
            return again
        completer = WordCompleter(list(words), ignore_case=True, pattern=_WORD)
        line = self.session.prompt(f"{message}[{default}] " if default else message, completer=completer)
        return line.strip() or default


def history_file() -> Path | None:
    """The file of the lines typed at `play`, in the user's state folder (~/.local/state/calabresella on Linux), made
    if needed: never beside a ledger, where a backup would leave it behind and a copy of the folder would carry it
    off; None (history in memory only) where that folder cannot be made."""
    from platformdirs import user_state_path

    folder = user_state_path("calabresella", appauthor=False)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / "play.history"


def answered(
    reader: Reader, question: str, default: str = "", words: Sequence[str] = (), leaving: Sequence[str] = CANCEL
) -> str:
    """One answer, the default when it is left empty; Ctrl-C, the end of input or a word of `leaving` (`cancel`)
    leaves the question (Cancelled)."""
    try:
        answer = reader.read(question, default, words)
    except (KeyboardInterrupt, EOFError):
        raise Cancelled from None
    if answer.strip().casefold() in leaving:
        raise Cancelled
    return answer


def yes_or_no(ask: Callable[[], str]) -> bool:
    """Whether the answer `ask` gets says yes; one that says neither yes nor no (`forse`, `yess`) is asked again."""
    while True:
        answer = ask().strip()
        if answer.casefold() in (*YES, *NO):
            return answer.casefold() in YES
        print_error(_("{answer!r}: answer {yes} or {no}").format(answer=answer, yes=_("yes"), no=_("no")))


def print_error(message: str) -> None:
    """An error of what was typed, one line on stderr; what was asked is asked again, or the next line read."""
    typer.echo(_("Error: {message}").format(message=message), err=True)
