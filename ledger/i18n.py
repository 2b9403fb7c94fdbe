"""The language the ledger speaks: its gettext catalogs, the language choice and the translation functions.

Every string a person reads goes through `_` (or `ngettext`) when it is shown. Strings defined at import
time, such as Typer help texts, are marked with `N_` (or are docstrings) and translated when the command
tree is localized, just before a command line is parsed (see `ledger.cli.app.localize`).

The command line speaks one language for the whole process (`use_language`); a server answering several
people at once speaks each request's own language inside `speaking(code)`, which holds for the current
context only (its thread or task, and the threads it hands work to).
"""

from __future__ import annotations

import contextlib
import gettext
import os
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from pathlib import Path

DOMAIN = "calabresella"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "it")
LANGUAGE_NAMES = {"en": "English", "it": "italiano"}
"""Each language the ledger speaks, named as its speakers name it."""
SOURCE_LANGUAGE = "en"
LANG_VARIABLE = "CALABRESELLA_LANG"
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


class _State:
    """The process's language and its catalog."""

    language: str = SOURCE_LANGUAGE
    catalog: gettext.NullTranslations = gettext.NullTranslations()


_SPOKEN: ContextVar[tuple[str, gettext.NullTranslations] | None] = ContextVar("calabresella_language", default=None)
"""The current context's language and catalog when `speaking` set one, else None (the process's holds)."""


def _catalog(code: str) -> gettext.NullTranslations:
    """The catalog of `code` (gettext keeps each file read once)."""
    return (
        gettext.NullTranslations()
        if code == SOURCE_LANGUAGE
        else gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
    )


def _current() -> tuple[str, gettext.NullTranslations]:
    return _SPOKEN.get() or (_State.language, _State.catalog)


def _supported(code: str | None) -> str | None:
    """`it`, `it_IT.UTF-8`, `IT` -> `it`; None for a language the ledger does not speak."""
    if not code:
        return None
    short = code.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    return short if short in LANGUAGES else None


def choose_language(option: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """`--lang`, else `CALABRESELLA_LANG`, else the locale (the first of LC_ALL, LC_MESSAGES, LANG that is
    set decides), else English. A value naming a language the ledger does not speak counts as English.

    >>> choose_language(None, {"LANG": "it_IT.UTF-8"}), choose_language("en", {"LANG": "it_IT.UTF-8"})
    ('it', 'en')
    >>> choose_language(None, {"CALABRESELLA_LANG": "it", "LC_ALL": "C"}), choose_language(None, {})
    ('it', 'en')
    """
    env = os.environ if env is None else env
    for value in (option, env.get(LANG_VARIABLE)):
        if value and _supported(value):
            return _supported(value) or SOURCE_LANGUAGE
    for name in LOCALE_VARIABLES:
        if env.get(name):
            return _supported(env[name]) or SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def speaks(code: str) -> bool:
    """Whether the ledger speaks the language `code` names (`it`, `it_IT.UTF-8`, `en`)."""
    return _supported(code) is not None


def spoken_languages() -> str:
    """The languages the ledger speaks, each with its name: `en (English), it (italiano)`."""
    return ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)


def language_in_args(args: Sequence[str]) -> str | None:
    """The value of `--lang X` or `--lang=X` on a command line (before `--`), read ahead of parsing."""
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def use_language(code: str) -> None:
    """Speak `code` (`en` or `it`) from now on, in the whole process."""
    _State.language, _State.catalog = code, _catalog(code)


@contextlib.contextmanager
def speaking(code: str) -> Iterator[None]:
    """Speak `code` inside the block, in the current context only (one request among many at once).

    >>> use_language("en")
    >>> with speaking("it"):
    ...     _("won")
    'vinta'
    >>> _("won")
    'won'
    """
    token = _SPOKEN.set((code, _catalog(code)))
    try:
        yield
    finally:
        _SPOKEN.reset(token)


def language() -> str:
    """The language in use: `en` or `it`."""
    return _current()[0]


def _(message: str) -> str:
    """`message` in the language in use."""
    return _current()[1].gettext(message) if message else message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form fitting `count`, in the language in use."""
    return _current()[1].ngettext(singular, plural, count)


def to_whom(name: str) -> str:
    """`name` as the one something goes to, with the word a sentence of the language in use needs before it: none in
    English (`pays Anna`), `a` in Italian, and `ad` before an a (`ad Anna`, `a Bruno`), as Italian writes it.

    >>> with speaking("it"):
    ...     to_whom("Anna"), to_whom("Àgata"), to_whom("Bruno")
    ('ad Anna', 'ad Àgata', 'a Bruno')
    >>> to_whom("Anna")
    'Anna'
    """
    if language() != "it":
        return name
    first = unicodedata.normalize("NFKD", name)[:1].casefold()
    return f"ad {name}" if first == "a" else f"a {name}"


def N_(message: str) -> str:
    """Mark a string defined at import time for translation; it is translated with `_` when shown."""
    return message
