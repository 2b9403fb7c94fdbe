"""Player names that are what they look like: nothing invisible or reordering in them, one alphabet, and none
passing for another player's name (Unicode's confusables, as the `confusable_homoglyphs` package ships them).

>>> hidden("Anna"), hidden("An\\u200bna"), hidden("\\u200fAnna"), hidden("Anna\\u200d"), hidden("\\u2764\\ufe0f Anna")
(None, '\\u200b', '\\u200f', '\\u200d', None)
>>> sorted(scripts("\\u0410nna")), sorted(scripts("Niccolò 2")), sorted(scripts("佐藤さくら"))
(['CYRILLIC', 'LATIN'], ['LATIN'], ['HAN', 'HIRAGANA'])
>>> looks_like("\\u0410nna", ["Bruno", "Anna"]), looks_like("\\u0420\\u0430\\u0440\\u0430", ["Papa"])
('Anna', 'Papa')
>>> looks_like("CarIa", ["Carla"]), looks_like("\\uff22runo", ["Bruno"])
('Carla', 'Bruno')
>>> looks_like("Anne", ["Anna"]), looks_like("Ilaria", ["Laura", "Ilario"])
(None, None)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache

from ledger.errors import LedgerError
from ledger.i18n import N_, _

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
"""Control and format characters (zero-width spaces and joiners, direction marks and overrides, soft hyphens),
surrogates, private-use and unassigned code points: none of them shows as a letter."""
BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0")
"""Characters Unicode counts as letters or marks that draw nothing (fillers, the Braille blank, selectors)."""
EMOJI_STYLE = "\ufe0f"
EMOJI_GLUE = frozenset({"\u200d", EMOJI_STYLE})
"""The zero-width joiner and the emoji-style selector, which draw one emoji out of the symbols around them."""
NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})
"""Digits, punctuation, spaces and combining accents go with any alphabet."""
SCRIPT_WORDS = {
    "LATIN": N_("Latin"),
    "CYRILLIC": N_("Cyrillic"),
    "GREEK": N_("Greek"),
    "ARMENIAN": N_("Armenian"),
    "HEBREW": N_("Hebrew"),
    "ARABIC": N_("Arabic"),
    "CHEROKEE": N_("Cherokee"),
    "HAN": N_("Chinese characters"),
}
"""The alphabets a mixed name is most often made of, by their Unicode names, in words of the language in use."""
WRITTEN_TOGETHER = (frozenset({"HAN", "HIRAGANA", "KATAKANA"}), frozenset({"HAN", "HANGUL"}))
"""Scripts one name may mix: Japanese kanji with kana, Korean hanja with hangul."""


def hidden(name: str) -> str | None:
    """The first character of the name that shows as nothing or changes the text's direction, if any (a joiner or
    a selector inside an emoji, as in a family or a red heart, draws the emoji and is kept)."""
    for at, ch in enumerate(name):
        invisible = unicodedata.category(ch) in HIDDEN_CATEGORIES or ch in BLANK_LETTERS or _selector(ch)
        if invisible and not (ch in EMOJI_GLUE and 0 < at < len(name) and _emoji(name[at - 1])):
            return ch
    return None


def _selector(ch: str) -> bool:
    return 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF


def _emoji(ch: str) -> bool:
    return unicodedata.category(ch) in ("So", "Sk") or ch == EMOJI_STYLE


def scripts(name: str) -> set[str]:
    """The alphabets the name's letters come from (digits, punctuation and accents belong to none)."""
    from confusable_homoglyphs import categories

    return {categories.alias(ch) for ch in name} - NEUTRAL_SCRIPTS


def mixes_scripts(name: str) -> bool:
    """Letters from two alphabets that are not written together, like a Cyrillic A (U+0410) among Latin letters."""
    found = scripts(name)
    return len(found) > 1 and not any(found <= together for together in WRITTEN_TOGETHER)


@cache
def _prototype(ch: str) -> str:
    """The one character standing for every character that looks like `ch`: the lowest of all the characters
    linked to it by Unicode's confusables, one look-alike after another."""
    from confusable_homoglyphs import confusables

    linked, todo = {ch}, [ch]
    while todo:
        found = confusables.is_confusable(todo.pop(), greedy=True) or []
        for glyph in (glyph["c"] for entry in found for glyph in entry["homoglyphs"]):
            if len(glyph) == 1 and glyph not in linked:
                linked.add(glyph)
                todo.append(glyph)
    return min(linked)


@lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """What the name looks like: compatibility forms unfolded, accents dropped, each character replaced by the
    prototype of the characters it can be taken for."""
    unfolded = unicodedata.normalize("NFKD", name)
    return "".join(_prototype(ch) for ch in unfolded if not unicodedata.combining(ch))


def looks_like(name: str, others: Iterable[str]) -> str | None:
    """The first of the other names that this one can pass for on screen, case and accents aside, if any."""
    seen = {skeleton(name), skeleton(name.casefold())}
    return next((other for other in others if seen & {skeleton(other), skeleton(other.casefold())}), None)


def check_name(name: str) -> None:
    """An error naming the player name when it hides a character or mixes alphabets."""
    ch = hidden(name)
    if ch is not None:
        raise LedgerError(
            _(
                "player name {name!r}: {code} ({what}) shows as nothing or turns the text around; type the name in "
                "visible letters"
            ).format(name=name, code=f"U+{ord(ch):04X}", what=unicodedata.name(ch, "?"))
        )
    if mixes_scripts(name):
        found = sorted(scripts(name))
        raise LedgerError(
            _(
                "player name {name!r} mixes alphabets ({scripts}): one letter can pass for another; write it in one "
                "alphabet"
            ).format(
                name=name, scripts=", ".join(_(SCRIPT_WORDS[s]) if s in SCRIPT_WORDS else s.title() for s in found)
            )
        )


def check_unlike(name: str, others: Iterable[str]) -> None:
    """An error when the name can pass for one of the other players' names."""
    other = looks_like(name, others)
    if other is not None:
        raise LedgerError(
            _("player name {name!r} looks like {other!r}, a player already: choose a name that looks different").format(
                name=name, other=other
            )
        )
