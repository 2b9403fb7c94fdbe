"""The commands typed at `play`'s prompt: their words in English and in Italian, their help, and which command a
line is.

Both languages' words are understood whatever the language in use; help and completion offer those of the language
in use. A command's word that also names a seated player (`conti` with Conti at the table) is read as a deal when
what follows is not what the command takes: `conti solo 22` is Conti's solo, `conti` alone settles the evening.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ledger.cli.italian import ITALIAN
from ledger.errors import LedgerError
from ledger.i18n import N_, language
from ledger.rules.numbers import read_number
from ledger.rules.quick import SYNTAX, seated

COMMANDS: dict[str, str] = {
    "undo": N_(
        "undo: take back the last change, a deal or an amendment (refused if the evening changed elsewhere since you "
        "saw it)"
    ),
    "amend": N_(
        "amend N FACTS [reason=WHY]: correct deal N with the facts written as in a deal line, e.g.\n"
        "  amend 3 20 reason=recount      (asks why when no reason= is given)"
    ),
    "void": N_("void N WHY: deal N stays in the log but no longer counts, e.g. void 5 misdeal"),
    "deals": N_("deals: the evening's deals, voided ones marked void"),
    "standings": N_("standings: game points and money per player"),
    "settle": N_("settle: who pays whom"),
    "help": N_("help [WORD]: this list, or more about one word, e.g. help syntax, help amend"),
    "close": N_("close: close the evening (after a yes) and show who pays whom; its deals can no longer change"),
    "quit": N_(
        "quit: leave (also Ctrl-D); the evening stays open. At a question, cancel (or Ctrl-C) leaves the deal, and "
        "nothing is recorded."
    ),
}
"""Each command, by its English word, and its help."""
WORDS = {**{word: word for word in COMMANDS}, **{ITALIAN[word]: word for word in COMMANDS}, "exit": "quit", "?": "help"}
"""Every word that names a command, in either language, and the command it names."""
TOPICS = {"syntax": SYNTAX, **COMMANDS}
TOPIC_WORDS = {"syntax": "syntax", ITALIAN["syntax"]: "syntax", **WORDS}
SHORT_HELP = N_(
    "Type a deal, e.g. {solo}, {chiamo} last=opp, or pass (help syntax: all of it).\nCommands: {commands}.\n"
    "help WORD for one of them, e.g. help amend."
)
TAKES_A_DEAL = ("amend", "void")


@dataclass(frozen=True)
class Said:
    """A command as typed: the command (its English word), the word typed for it, and what follows."""

    command: str
    word: str
    rest: str


def word_for(word: str) -> str:
    """A command's (or topic's) word in the language in use."""
    return ITALIAN[word] if language() == "it" else word


def commands() -> list[str]:
    """The commands' words in the language in use, as help lists them and the prompt completes them."""
    return [word_for(command) for command in COMMANDS]


def topics() -> list[str]:
    """The help topics' words in the language in use: the syntax, then each command."""
    return [word_for(topic) for topic in TOPICS]


def topic(text: str) -> str | None:
    """The topic `text` asks about: a topic's word in either language, else the one topic of the language in use
    that it begins; None when it fits none, or more than one."""
    key = text.lower()
    if key in TOPIC_WORDS:
        return TOPIC_WORDS[key]
    found = {TOPIC_WORDS[word] for word in topics() if word.startswith(key)}
    return found.pop() if len(found) == 1 else None


def command_in(line: str, players: Sequence[str]) -> Said | None:
    """The command a line is, if it is one, else None (the line is a deal)."""
    word, _sep, rest = line.strip().partition(" ")
    command, rest = WORDS.get(word.lower()), rest.strip()
    if command is None or (_names_a_player(word, players) and not _takes(command, rest)):
        return None
    return Said(command, word, rest)


def _takes(command: str, rest: str) -> bool:
    """Whether what follows a command's word is what the command takes: a deal's number, a help topic, or nothing."""
    if command in TAKES_A_DEAL:
        return read_number(rest.partition(" ")[0]) is not None
    if command == "help":
        return not rest or topic(rest) is not None
    return not rest


def _names_a_player(word: str, players: Sequence[str]) -> bool:
    """Whether the word is a seated player's name, or a prefix of one (or of several)."""
    try:
        return seated(players).lookup(word, "") is not None
    except LedgerError:
        return True
