"""Immutable, hashable collections for the values that say they are frozen.

>>> points = FrozenDict({"Anna": -2, "Bruno": 4})
>>> points["Bruno"], len(points), points == {"Anna": -2, "Bruno": 4}, dict(points)
(4, 2, True, {'Anna': -2, 'Bruno': 4})
>>> hash(points) == hash(FrozenDict({"Bruno": 4, "Anna": -2}))
True
>>> points["Anna"] = 0
Traceback (most recent call last):
TypeError: 'FrozenDict' object does not support item assignment
>>> frozen({"running": [(1, {"Anna": 2})]})
{'running': ((1, {'Anna': 2}),)}

`plain` goes back, to what JSON writes: a frozen value is the dict of its fields, in the order they are declared
(each field as `shown` says), every mapping a dict and every tuple a list.

>>> from dataclasses import dataclass, field
>>> @dataclass(frozen=True)
... class Seat(Plain):
...     number: int = field(metadata=shown(key="seat"))
...     points: Mapping[str, int] = field(metadata=shown(after=("best",)))
...     names: tuple[str, ...] = field(default=(), metadata=shown(hidden=True))
...     @property
...     def best(self) -> str:
...         return max(self.points, key=self.points.__getitem__)
>>> Seat(1, FrozenDict({"Anna": 2, "Bruno": 4}), ("Anna",)).to_dict()
{'seat': 1, 'points': {'Anna': 2, 'Bruno': 4}, 'best': 'Bruno'}

A front end that has words to draw of a value gives `drawn`: what it returns of each value written, anywhere within,
is written in its fields' place (a field of the same name), or after them.

>>> Seat(1, FrozenDict({"Anna": 2}), ("Anna",)).to_dict(lambda value: {"seat": "one", "said": "Anna leads"})
{'seat': 'one', 'points': {'Anna': 2}, 'best': 'Anna', 'said': 'Anna leads'}
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, is_dataclass
from datetime import datetime
from enum import Enum
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(Mapping[K, V]):
    """A read-only mapping that hashes; equal to a dict with the same items, and written like one."""

    __slots__ = ("_hash", "_items")
    _items: dict[K, V]
    _hash: int | None

    def __init__(self, items: Mapping[K, V] | None = None) -> None:
        object.__setattr__(self, "_items", dict(items or {}))
        object.__setattr__(self, "_hash", None)

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenDict):
            return self._items == other._items
        return self._items == other if isinstance(other, Mapping) else NotImplemented

    def __hash__(self) -> int:
        known = self._hash
        if known is None:
            known = hash(frozenset(self._items.items()))
            object.__setattr__(self, "_hash", known)
        return known

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"'FrozenDict' object is read-only: cannot set {name}")

    def __repr__(self) -> str:
        return repr(self._items)

    def __reduce__(self) -> tuple[Any, ...]:
        return FrozenDict, (self._items,)


def frozen(value: Any) -> Any:
    """A value with every dict in it a `FrozenDict`, every list or tuple a tuple and every set a frozenset."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, Mapping):
        return FrozenDict({key: item if isinstance(item, _PLAIN) else frozen(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    if isinstance(value, set):
        return frozenset(value)
    return value


_PLAIN = (str, int, float, type(None), FrozenDict)
"""What `frozen` keeps as it is: plain values, and mappings frozen already."""


def freeze(value: object, *names: str) -> None:
    """In a frozen dataclass's `__post_init__`: the named fields made `frozen`, so the value hashes and no one can
    change what it holds (its constructor still takes dicts and lists)."""
    for name in names:
        object.__setattr__(value, name, frozen(getattr(value, name)))


Drawn = Callable[[object], Mapping[str, object]]
"""What a front end draws of a value to write it (see `plain`): the words it says of it, by name, or nothing."""


@dataclass(frozen=True)
class Shown:
    """How `plain` writes one field of a value: under `key` (else the field's name), as `value` draws it from the
    whole value (else the field's own value), or not at all (`hidden`); `flat`, a value's fields written among the
    fields of the value that holds it; `before` and `after` name properties of the value written, under their own
    names, just before and after it."""

    key: str | None = None
    value: Callable[[Any], object] | None = None
    hidden: bool = False
    flat: bool = False
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()


SHOWN = "shown"
"""The key of a field's metadata that holds its `Shown`."""
_AS_IT_IS = Shown()


def shown(
    key: str | None = None,
    *,
    value: Callable[[Any], object] | None = None,
    hidden: bool = False,
    flat: bool = False,
    before: tuple[str, ...] = (),
    after: tuple[str, ...] = (),
) -> dict[str, Shown]:
    """A field's metadata (`field(metadata=shown(...))`) for what `plain` writes of it other than its name and value."""
    return {SHOWN: Shown(key, value, hidden, flat, before, after)}


def plain(value: Any, drawn: Drawn | None = None) -> Any:
    """The value as JSON writes it: a value with `to_dict` (or a frozen value's fields, see `Shown`) as a dict, every
    mapping a dict, every tuple, list or set a list, an enum its value, a time ISO 8601 with its offset; with `drawn`,
    each value within with the words it draws of it."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, str | int | float | None):
        return value
    if isinstance(value, Plain):
        return value.to_dict(drawn)
    if is_dataclass(value) and not isinstance(value, type):
        return _fields(value, drawn)
    if isinstance(value, Mapping):
        return {key: plain(item, drawn) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(item, drawn) for item in value]
    return value.isoformat() if isinstance(value, datetime) else value


def _fields(value: Any, drawn: Drawn | None) -> dict[str, object]:
    written: dict[str, object] = {}
    for each in fields(value):
        how = each.metadata.get(SHOWN, _AS_IT_IS)
        written.update({name: plain(getattr(value, name), drawn) for name in how.before})
        if how.flat:
            written.update(plain(getattr(value, each.name), drawn))
        elif not how.hidden:
            written[how.key or each.name] = plain(how.value(value) if how.value else getattr(value, each.name), drawn)
        written.update({name: plain(getattr(value, name), drawn) for name in how.after})
    written.update(drawn(value) if drawn else {})
    return written


class Plain:
    """For a frozen dataclass: `to_dict()` gives its fields as `plain` values, in the order they are declared, each as
    its `shown` metadata says; `to_dict(drawn)`, with the words `drawn` draws of each value within."""

    def to_dict(self, drawn: Drawn | None = None) -> dict[str, object]:
        """Plain JSON-ready values."""
        return _fields(self, drawn)
