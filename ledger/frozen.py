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
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
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
