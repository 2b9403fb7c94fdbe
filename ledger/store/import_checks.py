"""What an import refuses before replaying: fields no export of this ledger holds, keys already used, and payments
already recorded.

A bad field is a `TypeError`, `KeyError` or `ValueError` saying which (the importer words it as "a missing or bad
field" on the line it stands on); a value no export holds but that a person may have typed is a `LedgerError` of
its own."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from datetime import datetime
from functools import lru_cache
from typing import Any, NamedTuple

from ledger.clock import as_utc
from ledger.club.values import PAIRINGS
from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.rules.numbers import shortened
from ledger.rules.profiles import Profile, make_profile, started_with
from ledger.rules.seats import name_key
from ledger.rules.text import acts_on_screen
from ledger.store.club import MOST_DEALS, MOST_MINUTES
from ledger.store.evenings import parse_currency
from ledger.store.players import clean_name

MAX_CENTS = 10_000_000
"""The most money a stake or a payment can be, as `paid` and `--stake` accept it."""
MOST_NUMBER = 2**31 - 1
"""The largest evening or deal number the database stores."""


def amount(cents: int) -> str:
    """Cents as the amount typed for them, e.g. `1.20`."""
    return f"{cents // 100}.{cents % 100:02d}"


def exported_time(text: str | None) -> datetime | None:
    """A time as an export writes it; one without an offset is UTC, as the ledger stores them. The same text gives
    the same time, read once (`_read_time`): a deal's creation, its first revision's record and its change are one
    time, written three times."""
    if not text:
        return None
    return _read_time(text) if isinstance(text, str) else _time(text)


def _time(text: str) -> datetime:
    return as_utc(datetime.fromisoformat(text))


_read_time = lru_cache(maxsize=4096)(_time)
"""`_time` of a text, kept for the 4,096 texts read last (only text is kept: anything else fails as it would)."""


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_evening(item: dict[str, Any]) -> tuple[int, datetime]:
    """The evening's number and start; an error for what no export of this ledger holds."""
    number = item["number"]
    if not _whole(number, 1, MOST_NUMBER):
        raise LedgerError(
            _("not a valid export: an evening numbered {number!r} (a whole number from 1)").format(number=number)
        )
    started = item.get("started_at")
    if not started:
        raise LedgerError(
            _("not a valid export: evening {number} has no start time (started_at)").format(number=number)
        )
    if not _whole(item["stake_cents"], 0, MAX_CENTS):
        raise LedgerError(
            _(
                "not a valid export: evening {number} has stake_cents {stake!r} (a whole number from 0 to {most})"
            ).format(number=number, stake=item["stake_cents"], most=MAX_CENTS)
        )
    numbers = Counter(deal["number"] for deal in item["deals"])
    for deal_number, count in numbers.items():
        if not _whole(deal_number, 1, MOST_NUMBER) or count > 1:
            raise LedgerError(
                _(
                    "not a valid export: evening {number} has a deal numbered {deal!r} (deal numbers "
                    "are whole numbers from 1, each once)"
                ).format(number=number, deal=deal_number)
            )
    _texts(item, "place", "note", "void_reason")
    for reopened in item.get("reopened") or []:
        if not isinstance(reopened, dict) or not all(reopened.get(k) for k in ("closed_at", "reopened_at", "reason")):
            raise LedgerError(
                _("not a valid export: evening {number} has a reopening without its times and reason").format(
                    number=number
                )
            )
        _texts(reopened, "reason")
    for deal in item["deals"]:
        _texts(deal, "key", "void_reason")
        for rev in deal["revisions"]:
            _texts(rev, "reason")
        revisions = [rev["revision"] for rev in deal["revisions"]]
        if not revisions or revisions != list(range(1, len(revisions) + 1)):
            raise LedgerError(
                _(
                    "not a valid export: evening {number} deal {deal} has revisions {revisions} (they "
                    "are numbered 1, 2, 3, ... in order)"
                ).format(number=number, deal=deal["number"], revisions=revisions)
            )
    return number, as_utc(datetime.fromisoformat(started))


def check_payment(item: dict[str, Any]) -> int:
    """The payment's cents; an error for what `paid` would refuse."""
    cents = item["cents"]
    _texts(item, "note", "key", "void_reason")
    if not _whole(cents, 1, MAX_CENTS):
        raise LedgerError(
            _("not a valid export: a payment of {cents!r} cents (a whole number from 1 to {most})").format(
                cents=cents, most=MAX_CENTS
            )
        )
    return int(cents)


def plain(text: str) -> bool:
    """Whether the text holds nothing that acts on a screen (`acts_on_screen`, tab and new line allowed): printable
    text never does, so only other text is looked at character by character."""
    return text.isprintable() or not acts_on_screen(text, lines=True)


def _texts(item: dict[str, Any], *fields: str) -> None:
    """A `TypeError` (a bad field) when one of the fields is neither text nor missing, or would act on a screen."""
    for field in fields:
        value = item.get(field)
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{field} {value!r} is not text")
        if value is not None and not plain(value):
            raise TypeError(f"{field} {shortened(value)!r} holds a control character")


def check_keys(deals: list[dict[str, Any]], holder: Callable[[str], tuple[int, int] | None]) -> None:
    """Refuse an idempotency key that two deals of the evening have, or that a deal of the ledger holds already
    (`holder`: the number and evening of the deal holding a key, if one does)."""
    keys = [deal["key"] for deal in deals if deal.get("key")]
    twice = next((key for key, count in Counter(keys).items() if count > 1), None)
    if twice is not None:
        raise LedgerError(_("not a valid export: two deals of one evening have the key {key!r}").format(key=twice))
    for key in keys:
        held = holder(key)
        if held is not None:
            number, evening = held
            raise LedgerError(
                _(
                    "deal {number} of the export has key {key!r}, already used by deal {used} of evening {evening}"
                ).format(
                    number=next(deal["number"] for deal in deals if deal.get("key") == key),
                    key=key,
                    used=number,
                    evening=evening,
                )
            )


SEASON_FIELDS = frozenset({"name", "min_deals", "created_at"})
RENAME_FIELDS = frozenset({"player", "old_name", "new_name", "renamed_at"})
EVENT_FIELDS = frozenset(
    {
        "number",
        "name",
        "season",
        "profile",
        "options",
        "stake_cents",
        "currency",
        "place",
        "pairing",
        "round_deals",
        "round_minutes",
        "started_at",
        "closed_at",
        "entrants",
        "rounds",
    }
)
ENTRANT_FIELDS = frozenset({"player", "arrived", "left"})
ROUND_FIELDS = frozenset({"number", "repeats", "exact", "by_hand", "started_at", "ended_at", "tables"})
TABLE_FIELDS = frozenset({"number", "evening"})
"""The fields of a season's line, of an event's, and of an event's entrants, rounds and tables: every export writes
each of them, and no other."""
MOST_EVENT_NAME = 60
"""The longest name an event may have, as `start_event` takes it."""


class SeasonLine(NamedTuple):
    """A season of the export, checked."""

    name: str
    min_deals: int
    created_at: datetime


class EventLine(NamedTuple):
    """An event of the export, checked: its rules made a profile, its entrants' names and its rounds' tables as the
    export gives them (tables as (table number, exported evening number))."""

    number: int
    name: str
    season: str | None
    profile: Profile
    stake_cents: int
    currency: str
    place: str | None
    pairing: str
    round_deals: int | None
    round_minutes: int | None
    started_at: datetime
    closed_at: datetime | None
    entrants: list[tuple[str, int, int | None]]
    rounds: list[RoundLine]


class RoundLine(NamedTuple):
    """A round of an exported event, checked."""

    number: int
    repeats: int
    exact: bool
    by_hand: bool
    started_at: datetime
    ended_at: datetime | None
    tables: list[tuple[int, int]]


def _fields(item: object, known: frozenset[str], where: str) -> dict[str, Any]:
    """The item's fields `known`, each present, the others left aside as everywhere in an import (a later export may
    add some); a bad field (`KeyError`, `TypeError`) otherwise."""
    if not isinstance(item, dict):
        raise TypeError(f"{where} {shortened(repr(item))} is not an object")
    missing = sorted(known - item.keys())
    if missing:
        raise KeyError(f"{where}{missing[0]}" if where else missing[0])
    return {name: item[name] for name in known}


def _count_field(item: Mapping[str, Any], field: str, low: int, high: int, *, where: str = "") -> int:
    """A whole number from `low` to `high`, else a bad field."""
    value = item[field]
    if not _whole(value, low, high):
        raise ValueError(f"{where}{field} {shortened(repr(value))} is not a whole number from {low} to {high}")
    return int(value)


def _optional_count(item: Mapping[str, Any], field: str, low: int, high: int, *, where: str = "") -> int | None:
    return None if item[field] is None else _count_field(item, field, low, high, where=where)


def _flag(item: Mapping[str, Any], field: str, where: str) -> bool:
    value = item[field]
    if not isinstance(value, bool):
        raise TypeError(f"{where}{field} {shortened(repr(value))} is not true or false")
    return value


def _moment(item: Mapping[str, Any], field: str, where: str = "", *, required: bool = True) -> datetime | None:
    """A time as an export writes it (ISO 8601; without an offset it is UTC); a bad field when it is not one."""
    value = item[field]
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value:
        raise TypeError(f"{where}{field} {shortened(repr(value))} is not a time")
    return as_utc(datetime.fromisoformat(value))


def _list(item: Mapping[str, Any], field: str, where: str = "") -> list[Any]:
    value = item[field]
    if not isinstance(value, list):
        raise TypeError(f"{where}{field} {shortened(repr(value))} is not a list")
    return value


def _numbered(numbers: list[int], what: str) -> None:
    """Rounds and tables are numbered 1, 2, 3, ... in order, as they were seated."""
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError(f"{what} numbered {numbers} (they are numbered 1, 2, 3, ... in order)")


def check_season(item: object) -> SeasonLine:
    """A season of the export; a bad field for what no export holds, an error for a name a season cannot have."""
    season = _fields(item, SEASON_FIELDS, "")
    name = season["name"]
    if not isinstance(name, str):
        raise TypeError(f"name {shortened(repr(name))} is not text")
    created = _moment(season, "created_at")
    assert created is not None
    return SeasonLine(clean_name(name), _count_field(season, "min_deals", 0, MOST_DEALS * 100), created)


class RenameLine(NamedTuple):
    """A player's rename of the export, checked: the player by the name the evening lines give them."""

    player: str
    old_name: str
    new_name: str
    renamed_at: datetime


def check_rename(item: object) -> RenameLine:
    """A rename of the export; a bad field for what no export holds."""
    rename = _fields(item, RENAME_FIELDS, "")
    _texts(rename, "player", "old_name", "new_name")
    player, old, new = (rename[field] for field in ("player", "old_name", "new_name"))
    if not all(isinstance(name, str) and name.strip() for name in (player, old, new)):
        raise TypeError(f"a rename names no player: {shortened(repr((player, old, new)))}")
    renamed = _moment(rename, "renamed_at")
    assert renamed is not None
    return RenameLine(clean_name(player), clean_name(old), clean_name(new), renamed)


def check_event(item: object) -> EventLine:
    """An event of the export with its entrants and rounds; a bad field for what no export holds."""
    event = _fields(item, EVENT_FIELDS, "")
    number = _count_field(event, "number", 1, MOST_NUMBER)
    _texts(event, "name", "season", "profile", "place")
    name = event["name"]
    if name is None or name != " ".join(name.split()) or not 1 <= len(name) <= MOST_EVENT_NAME:
        raise ValueError(f"name {shortened(repr(name))} is not an event's name (1 to {MOST_EVENT_NAME} characters)")
    options = event["options"]
    if not isinstance(options, dict):
        raise TypeError(f"options {shortened(repr(options))} is not an object")
    if event["pairing"] not in PAIRINGS:
        raise ValueError(f"pairing {shortened(repr(event['pairing']))} is none of {', '.join(PAIRINGS)}")
    started = _moment(event, "started_at")
    assert started is not None
    entrants, seen = [], set()
    for place, entrant in enumerate(_list(event, "entrants"), 1):
        where = f"entrant {place}: "
        fields = _fields(entrant, ENTRANT_FIELDS, where)
        player = fields["player"]
        if not isinstance(player, str):
            raise TypeError(f"{where}player {shortened(repr(player))} is not text")
        if name_key(player) in seen:
            raise ValueError(f"{where}player {shortened(player)!r} is an entrant twice")
        seen.add(name_key(player))
        arrived = _count_field(fields, "arrived", 1, MOST_NUMBER, where=where)
        entrants.append((player, arrived, _optional_count(fields, "left", arrived, MOST_NUMBER, where=where)))
    rounds = [_round(played, f"round {place}: ") for place, played in enumerate(_list(event, "rounds"), 1)]
    _numbered([played.number for played in rounds], "rounds")
    return EventLine(
        number=number,
        name=name,
        season=event["season"],
        profile=make_profile(event["profile"] or "", started_with(event["profile"] or "", options)),
        stake_cents=_count_field(event, "stake_cents", 0, MAX_CENTS),
        currency=parse_currency(event["currency"]),
        place=event["place"],
        pairing=event["pairing"],
        round_deals=_optional_count(event, "round_deals", 1, MOST_DEALS),
        round_minutes=_optional_count(event, "round_minutes", 1, MOST_MINUTES),
        started_at=started,
        closed_at=_moment(event, "closed_at", required=False),
        entrants=entrants,
        rounds=rounds,
    )


def _round(item: object, where: str) -> RoundLine:
    played = _fields(item, ROUND_FIELDS, where)
    tables = []
    for place, table in enumerate(_list(played, "tables", where), 1):
        at = f"{where}table {place}: "
        fields = _fields(table, TABLE_FIELDS, at)
        tables.append(
            (
                _count_field(fields, "number", 1, MOST_NUMBER, where=at),
                _count_field(fields, "evening", 1, MOST_NUMBER, where=at),
            )
        )
    _numbered([number for number, _evening in tables], f"{where}tables")
    started = _moment(played, "started_at", where)
    assert started is not None
    return RoundLine(
        number=_count_field(played, "number", 1, MOST_NUMBER, where=where),
        repeats=_count_field(played, "repeats", 0, MOST_NUMBER, where=where),
        exact=_flag(played, "exact", where),
        by_hand=_flag(played, "by_hand", where),
        started_at=started,
        ended_at=_moment(played, "ended_at", where, required=False),
        tables=tables,
    )
