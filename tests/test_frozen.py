"""Values that say they are frozen are frozen: every profile, fact, result and value the ledger returns hashes,
equal values hash alike, nothing they hold can be changed, and `to_dict()` still gives plain JSON values."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Mapping
from dataclasses import FrozenInstanceError, dataclass, field, fields, is_dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from ledger import Ledger
from ledger.frozen import FrozenDict, Plain, frozen, plain, shown
from ledger.rules.contracts import Contract
from ledger.rules.facts import DealFacts
from ledger.rules.profiles import DEFAULTS, make_profile
from ledger.rules.scoring import score
from ledger.values import Recorded, Terms

PLAYERS = ("Anna", "Bruno", "Carla")


def held(value: Any) -> list[tuple[str, Any]]:
    """Every (name, collection) a frozen value holds, however deep: its mappings and sequences, and theirs."""
    found: list[tuple[str, Any]] = []
    if is_dataclass(value) and not isinstance(value, type):
        for field in fields(value):
            item = getattr(value, field.name)
            if isinstance(item, Mapping | tuple | list | dict | set):
                found.append((f"{type(value).__name__}.{field.name}", item))
            found += held(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            if isinstance(item, Mapping | tuple | list | dict | set):
                found.append(("item", item))
            found += held(item)
    elif isinstance(value, tuple | list):
        for item in value:
            if isinstance(item, Mapping | tuple | list | dict | set):
                found.append(("item", item))
            found += held(item)
    return found


def assert_frozen(value: Any) -> None:
    """The value hashes, no field can be set, and every collection it holds is a tuple, frozenset or FrozenDict
    that refuses a change."""
    hash(value)
    first = fields(value)[0].name
    with pytest.raises(FrozenInstanceError):
        setattr(value, first, getattr(value, first))
    for name, item in held(value):
        assert isinstance(item, tuple | frozenset | FrozenDict), (name, type(item))
        if isinstance(item, FrozenDict) and item:
            key = next(iter(item))
            with pytest.raises(TypeError):
                item[key] = item[key]  # type: ignore[index]
            with pytest.raises(TypeError):
                del item[key]  # type: ignore[attr-defined]
            assert not any(hasattr(item, verb) for verb in ("update", "pop", "clear", "setdefault", "popitem"))


def assert_plain_json(value: Any) -> None:
    """Only dicts with text keys, lists, text, numbers, booleans and None: what `json.dumps` writes as itself."""
    if isinstance(value, dict):
        assert type(value) is dict and all(isinstance(key, str) for key in value)
        for item in value.values():
            assert_plain_json(item)
    elif isinstance(value, list):
        assert type(value) is list
        for item in value:
            assert_plain_json(item)
    else:
        assert value is None or isinstance(value, str | int | float), type(value)


# The read-only mapping


def test_a_frozen_dict_reads_like_a_dict_and_equals_one() -> None:
    points = FrozenDict({"Anna": -2, "Bruno": 4, "Carla": -2})
    assert points["Bruno"] == 4 and points.get("Dario", 0) == 0 and len(points) == 3 and "Anna" in points
    assert list(points.items()) == [("Anna", -2), ("Bruno", 4), ("Carla", -2)]
    plain = {"Anna": -2, "Bruno": 4, "Carla": -2}
    assert points == plain and plain == points
    assert points != {"Anna": -2, "Bruno": 4} and points != [("Anna", -2)]
    assert dict(points) == {"Anna": -2, "Bruno": 4, "Carla": -2} and type(dict(points)) is dict
    assert repr(points) == "{'Anna': -2, 'Bruno': 4, 'Carla': -2}"


def test_equal_frozen_dicts_hash_alike_whatever_their_order() -> None:
    one, other = FrozenDict({"Anna": 1, "Bruno": -1}), FrozenDict({"Bruno": -1, "Anna": 1})
    assert one == other and hash(one) == hash(other)
    assert len({one, other, FrozenDict({"Anna": 2, "Bruno": -2})}) == 2


def test_a_frozen_dict_refuses_every_change() -> None:
    source = {"Anna": 1}
    points = FrozenDict(source)
    source["Anna"] = 99
    assert points["Anna"] == 1, "the mapping is a copy: changing the dict it came from changes nothing"
    with pytest.raises(TypeError):
        points["Anna"] = 2  # type: ignore[index]
    with pytest.raises(TypeError):
        del points["Anna"]  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        points._items = {}  # type: ignore[misc]
    with pytest.raises(AttributeError):
        points.update({"Anna": 3})  # type: ignore[attr-defined]
    assert points == {"Anna": 1}


def test_a_frozen_dict_survives_copy_and_pickle() -> None:
    points = FrozenDict({"Anna": 1, "Bruno": -1})
    for again in (copy.copy(points), copy.deepcopy(points), pickle.loads(pickle.dumps(points))):
        assert type(again) is FrozenDict and again == points and hash(again) == hash(points)


def test_frozen_turns_every_dict_list_and_set_within() -> None:
    value = frozen({"running": [(1, {"Anna": 2})], "seen": {"Anna"}})
    assert isinstance(value, FrozenDict) and value["running"] == ((1, {"Anna": 2}),)
    assert isinstance(value["running"][0][1], FrozenDict) and value["seen"] == frozenset({"Anna"})
    hash(value)


# Back to plain values


@dataclass(frozen=True)
class Seat:
    """A frozen value without `to_dict`: its fields as they are."""

    name: str
    contract: Contract | None = None


@dataclass(frozen=True)
class Table(Plain):
    """A frozen value that says how some of its fields are written."""

    number: int = field(metadata=shown("table", before=("size",)))
    seats: tuple[Seat, ...] = field(metadata=shown(after=("first",)))
    points: Mapping[str, int] = field(metadata=shown(value=lambda table: sum(table.points.values())))
    note: str | None = field(default=None, metadata=shown(hidden=True))
    at: datetime | None = None

    @property
    def size(self) -> int:
        return len(self.seats)

    @property
    def first(self) -> Seat:
        return self.seats[0]


def test_plain_writes_every_collection_enum_and_time_within_as_json_does() -> None:
    at = datetime(2026, 11, 21, 20, 5, tzinfo=timezone(timedelta(hours=1)))
    value = frozen({"running": [(1, {"Anna": 2})], "seen": {"Anna"}, "contract": Contract.SOLO, "at": at})
    assert plain(value) == {
        "running": [[1, {"Anna": 2}]],
        "seen": ["Anna"],
        "contract": "solo",
        "at": "2026-11-21T20:05:00+01:00",
    }
    assert_plain_json(plain(value))
    assert plain(Seat("Anna", Contract.CHIAMO)) == {"name": "Anna", "contract": "chiamo"}


def test_a_value_is_written_in_the_order_its_fields_are_declared_as_shown_says() -> None:
    table = Table(3, (Seat("Anna"), Seat("Bruno", Contract.SOLO)), FrozenDict({"Anna": 2, "Bruno": -2}), note="x")
    written = table.to_dict()
    assert list(written) == ["size", "table", "seats", "first", "points", "at"]
    assert written == {
        "size": 2,
        "table": 3,
        "seats": [{"name": "Anna", "contract": None}, {"name": "Bruno", "contract": "solo"}],
        "first": {"name": "Anna", "contract": None},
        "points": 0,
        "at": None,
    }
    assert plain([table]) == [written] and json.loads(json.dumps(written)) == written


# Rules


@pytest.mark.parametrize("name", DEFAULTS)
def test_every_profile_hashes_and_its_options_cannot_change(name: str) -> None:
    profile = make_profile(name)
    assert_frozen(profile)
    assert profile == make_profile(name, dict(profile.options)) and hash(profile) == hash(make_profile(name))
    assert dict(profile.options) == DEFAULTS[name]
    leads = profile.options["declarer_always_leads"]
    with pytest.raises(TypeError):
        profile.options["declarer_always_leads"] = not leads  # type: ignore[index]
    assert profile.declarer_always_leads is leads


def test_profiles_made_from_words_or_a_dict_are_one_value() -> None:
    by_words, by_dict = make_profile("pagat", ["sweeps=off"]), make_profile("pagat", {"sweeps": False})
    assert by_words == by_dict and hash(by_words) == hash(by_dict)
    assert by_words != make_profile("pagat") and len({by_words, by_dict, make_profile("pagat")}) == 2
    assert make_profile("cavendish").word(Contract.CHIAMO) == "play"


def test_facts_and_their_result_hash_and_equal_deals_hash_alike() -> None:
    profile = make_profile("pagat")
    facts = DealFacts(players=PLAYERS, dealer="Carla", declarer="Bruno", contract=Contract.SOLO, thirds=22)
    same = DealFacts(players=PLAYERS, dealer="Carla", declarer="Bruno", contract=Contract.SOLO, thirds=22)
    assert facts == same and hash(facts) == hash(same)
    result = score(facts, profile)
    assert_frozen(result)
    assert result == score(same, profile) and hash(result) == hash(score(same, profile))
    assert result.payouts == {"Anna": -2, "Bruno": 4, "Carla": -2}
    with pytest.raises(TypeError):
        result.payouts["Bruno"] = 40  # type: ignore[index]
    assert_plain_json(result.to_dict())


# What the ledger returns


@pytest.fixture
def ledger(tmp_path: Path) -> Any:
    """A ledger with an evening of three deals (one amended, one voided), closed, and a payment."""
    with Ledger(str(tmp_path / "ledger.sqlite3")) as opened:
        opened.start_evening(PLAYERS, Terms(stake="0.10", place="Bar Sport"))
        opened.record("bruno solo 22")
        opened.record("anna solo 20")
        opened.record("carla solo 25")
        opened.amend(1, "20", reason="recount")
        opened.void(2, reason="misdeal")
        opened.close_evening(1)
        opened.paid("Anna", "Bruno", "0.20")
        yield opened


def test_every_value_the_ledger_reads_is_frozen_and_reads_again_alike(ledger: Ledger) -> None:
    reads = {
        "players": lambda: tuple(ledger.players()),
        "evenings": lambda: tuple(ledger.evenings()),
        "evening": lambda: ledger.evening(1),
        "deals": lambda: tuple(ledger.deals(1)[1]),
        "history": lambda: tuple(ledger.deal(1, evening=1).revisions),
        "standings": lambda: ledger.standings(1),
        "settlement": lambda: ledger.settle(evening=1, pairs=True),
        "tab": lambda: tuple(ledger.tab(pairs=True)),
        "payments": lambda: tuple(ledger.payments()),
        "stats": lambda: ledger.stats(),
    }
    for name, read in reads.items():
        value, again = read(), read()
        for item in value if isinstance(value, tuple) else (value,):
            assert_frozen(item)
            if name != "stats":
                assert_plain_json(item.to_dict())
        assert value == again and hash(value) == hash(again), name


def test_the_values_hold_what_they_held_as_dicts_and_lists(ledger: Ledger) -> None:
    standings = ledger.standings(1)
    assert standings.points == {"Anna": -4, "Bruno": 2, "Carla": 2}
    assert standings.running == ((1, {"Anna": -2, "Bruno": 4, "Carla": -2}), (3, {"Anna": -4, "Bruno": 2, "Carla": 2}))
    assert standings.to_dict()["running"] == [
        {"deal": 1, "totals": {"Anna": -2, "Bruno": 4, "Carla": -2}},
        {"deal": 3, "totals": {"Anna": -4, "Bruno": 2, "Carla": 2}},
    ]
    settlement = ledger.settle(evening=1)
    assert settlement.evenings == (1,) and settlement.cents == {"Anna": -40, "Bruno": 20, "Carla": 20}
    assert sorted(json.loads(json.dumps(settlement.to_dict()))["payments"], key=lambda p: p["payee"]) == [
        {"payer": "Anna", "payee": "Bruno", "cents": 20, "amount": "0.20 EUR"},
        {"payer": "Anna", "payee": "Carla", "cents": 20, "amount": "0.20 EUR"},
    ]
    deal = ledger.deal(1, evening=1).revisions[-1]
    assert deal.payouts == {"Anna": -2, "Bruno": 4, "Carla": -2} and deal.roles["Bruno"] == "declarer"
    assert ledger.evening(1).cents == {"Anna": -40, "Bruno": 20, "Carla": 20}


def test_what_a_write_returns_is_frozen(tmp_path: Path) -> None:
    with Ledger(str(tmp_path / "ledger.sqlite3")) as ledger:
        ledger.start_evening(PLAYERS)
        written: list[Recorded] = [ledger.record("bruno solo 22"), ledger.amend(1, "20", reason="x"), ledger.undo()]
    for done in written:
        assert_frozen(done)
        assert_plain_json(done.to_dict())
    assert written[0].result is not None and written[0].totals == written[0].result.payouts
    with pytest.raises(TypeError):
        written[0].totals["Anna"] = 1000  # type: ignore[index]
    with pytest.raises(TypeError):
        written[0].deal.payouts["Anna"] = 1000  # type: ignore[index]
