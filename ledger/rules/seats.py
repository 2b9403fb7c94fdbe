"""Seats in turn order (counter-clockwise), the rotating dealer, and matching typed names to seats."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Sequence

from ledger.errors import FactError, LedgerError
from ledger.i18n import _, ngettext


def name_key(name: str) -> str:
    """The form two names are compared in: case and accents ignored (`Niccolò` = `niccolo`)."""
    if name.isascii():  # no accents to take off: the same key, several times sooner
        return name.strip().casefold()
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def typed_key(name: str) -> str:
    """A name as it is typed on a keyboard without symbols: its `name_key` less emoji and other symbols
    (`😀Gigi` = `gigi`)."""
    return "".join(ch for ch in name_key(name) if not unicodedata.category(ch).startswith(("S", "C"))).strip()


def seat_after(players: Sequence[str], name: str) -> str:
    """The next seat in turn order: the right-hand neighbour of `name`."""
    return players[(players.index(name) + 1) % len(players)]


def turn_from(players: Sequence[str], first: str) -> tuple[str, ...]:
    """Every seat once, in turn order, starting with `first`."""
    start = players.index(first)
    return tuple(players[start:]) + tuple(players[:start])


def resolve_player(text: str, players: Sequence[str], fact: str = "player") -> str:
    """The seated player a typed name means: exact (case and accents ignored), else a unique prefix; `fact` is what
    the name was given as (`declarer`, `dealer`, `holder`, ...), for the error."""
    key = name_key(text)
    exact = [p for p in players if name_key(p) == key]
    if exact:
        return exact[0]
    typed = [p for p in players if typed_key(p) == key]
    if len(typed) == 1:
        return typed[0]
    prefixed = [p for p in players if key and (name_key(p).startswith(key) or typed_key(p).startswith(key))]
    if len(prefixed) == 1:
        return prefixed[0]
    if prefixed:
        raise FactError(fact, text, _("ambiguous, it could be {prefixed}").format(prefixed=", ".join(prefixed)))
    raise FactError(
        fact,
        text,
        _("not seated{suggestion}; the players are {seated}").format(
            suggestion=did_you_mean(text, players), seated=", ".join(players)
        ),
    )


def did_you_mean(text: str, names: Iterable[str]) -> str:
    """` (did you mean Marco?)` when one of `names` is close to the mistyped `text`, else nothing."""
    by_key = {name_key(name): name for name in names}
    found = difflib.get_close_matches(name_key(text), list(by_key), n=1, cutoff=0.6)
    return _(" (did you mean {name}?)").format(name=by_key[found[0]]) if found else ""


def check_seats(players: Sequence[str], counts: Sequence[int], profile: str) -> None:
    """Reject blank or repeated names, then seatings with the wrong number of players."""
    keys = [name_key(p) for p in players]
    if not all(keys):
        raise LedgerError(_("players: a name cannot be blank"))
    for index, key in enumerate(keys):
        if key in keys[:index]:
            raise _seated_twice(players[keys.index(key)], players[index])
    if len(players) not in counts:
        allowed = _(" or ").join(map(str, counts))
        raise LedgerError(
            ngettext(
                "{n_players} player: {profile} is played by {allowed} seated players",
                "{n_players} players: {profile} is played by {allowed} seated players",
                len(players),
            ).format(n_players=len(players), profile=profile, allowed=allowed)
        )


def _seated_twice(first: str, second: str) -> LedgerError:
    """`Anna seated twice`, or `Anna and anna are one name` when they differ in case or accents only."""
    if first == second:
        return LedgerError(_("players: {name} seated twice").format(name=first))
    return LedgerError(
        _("players: {first} and {second} are one name, seated twice (names ignore case and accents)").format(
            first=first, second=second
        )
    )
