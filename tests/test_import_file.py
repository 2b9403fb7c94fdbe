"""`import` reads the file as a stream, commits evening by evening, resumes, and refuses hostile files in one line."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, as_document, as_lines
from sqlalchemy import text
from typer.testing import CliRunner

import ledger.store.bulk
from ledger import Ledger
from ledger.cli.main import app
from ledger.errors import LedgerError
from ledger.rules.build import DealInput
from ledger.store import batched_import
from ledger.values import Terms

runner = CliRunner()
HEADER = '{"format": "calabresella-ledger", "version": 3}\n'


def example(name: str = "three_friends.json") -> dict[str, Any]:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def write(path: Path, data: Any) -> Path:
    """An export as JSON Lines (version 3)."""
    path.write_text(as_lines(data), encoding="utf-8")
    return path


def write_document(path: Path, data: Any) -> Path:
    """An export as one JSON document (version 2), on one line."""
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


WRITERS = {"version 3": write, "version 2": write_document}


def deal_count(db: str) -> int:
    with Ledger(db) as ledger, ledger.engine.connect() as connection:
        return connection.execute(text("SELECT COUNT(*) FROM deal")).scalar_one()


def evenings_in_a_row(count: int) -> dict[str, Any]:
    """The example evening `count` times, each starting a day later (so each is a new evening)."""
    data = example()
    first = data["evenings"][0]
    data["evenings"] = [
        {**copy.deepcopy(first), "number": n + 1, "started_at": f"2026-01-{n + 1:02d}T20:00:00+00:00"}
        for n in range(count)
    ]
    return data


@pytest.mark.parametrize("queued", [10_000, 5, 50])
@pytest.mark.parametrize("layout", ["version 3", "version 2 over many lines"])
def test_an_import_gives_the_same_ledger_as_the_file(
    layout: str, queued: int, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Also when rows are inserted a few at a time, in the middle of an evening; the export written back is the
    file's evenings and payments."""
    monkeypatch.setattr(ledger.store.bulk, "QUEUED_ROWS", queued)
    data = example()
    data["evenings"][0]["note"] = "caffè ☕ \u2028 " * 50
    source = tmp_path / "export"
    if layout == "version 3":
        write(source, data)
    else:
        source.write_text(json.dumps(data, indent=3, ensure_ascii=False), encoding="utf-8")
    with Ledger(db_url) as opened:
        summary = opened.import_file(source)
        assert (summary.evenings, summary.deals, summary.skipped) == ((1,), 30, ())
        exported = opened.export()
    assert as_document(exported) == {**data, "version": 3}
    assert exported.count("\n") == 2  # the header and the evening, each on its line


def test_an_export_imported_into_an_empty_ledger_exports_the_same_file(sqlite_url: str, tmp_path: Path) -> None:
    with Ledger(sqlite_url) as opened:
        opened.import_file(EXAMPLES / "three_friends.json")
        opened.import_file(EXAMPLES / "four_players.json")
        opened.paid("Anna", "Bruno", "1.20", evening=1)
        first = tmp_path / "first.jsonl"
        first.write_text(opened.export(), encoding="utf-8")
    with Ledger(str(tmp_path / "second.sqlite3")) as opened:
        opened.import_file(first)
        assert opened.export() == first.read_text(encoding="utf-8")


def test_deals_that_call_cards_of_one_rank_keep_each_its_own_card(sqlite_url: str, tmp_path: Path) -> None:
    """The second evening repeats the first with each called card in another suit, or one by its rank alone: the rules
    never look at the suit, so each is scored once, and each keeps the card it called."""
    data = evenings_in_a_row(2)
    other_suit = {"D": "S", "S": "C", "C": "B", "B": "D"}
    calling = [
        rev["facts"] for deal in data["evenings"][1]["deals"] for rev in deal["revisions"] if rev["facts"].get("called")
    ]
    for facts in calling:
        facts["called"] = facts["called"][0] + other_suit[facts["called"][1]]
    calling[0]["called"] = calling[0]["called"][0]
    source = write(tmp_path / "export.jsonl", data)
    with Ledger(sqlite_url) as opened:
        assert opened.import_file(source).deals == 60
        assert as_document(opened.export()) == {**data, "version": 3}


def test_a_value_the_export_leaves_out_is_stored_as_null(sqlite_url: str) -> None:
    """None is bound as SQL NULL (through the adapter `ledger.store.engine` registers with sqlite3), imported and live:
    the example's 29 deals that stand and the one recorded after have no void time, its voided deal has one."""
    with Ledger(sqlite_url) as opened:
        opened.import_file(EXAMPLES / "three_friends.json")
        opened.start_evening(["Anna", "Bruno", "Carla"])
        opened.record(DealInput(declarer="Anna", contract="solo", thirds=20))
        with opened.engine.connect() as connection:
            kinds = connection.execute(text("SELECT typeof(voided_at), COUNT(*) FROM deal GROUP BY 1 ORDER BY 1")).all()
    assert [tuple(row) for row in kinds] == [("null", 30), ("text", 1)]


def test_an_interrupted_import_says_what_went_in_and_resumes(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batched_import, "BATCH_SECONDS", 0.0)  # every evening commits by itself
    data = evenings_in_a_row(4)
    good = copy.deepcopy(data)
    data["evenings"][2]["deals"][3]["revisions"][0]["payouts"] = {"Anna": 9, "Bruno": -9, "Carla": 0}
    source = write(tmp_path / "broken.jsonl", data)
    with Ledger(sqlite_url) as opened:
        with pytest.raises(LedgerError) as stopped:
            opened.import_file(source)
        assert str(stopped.value).startswith(f"{source}: line 4: evening 3 deal 4 revision 1: the export says")
        assert "the 2 evening(s) before it are in the ledger (evenings 1 to 2)" in str(stopped.value)
    assert deal_count(sqlite_url) == 60
    with Ledger(sqlite_url) as opened:
        summary = opened.import_file(write(source, good))
    assert (summary.evenings, summary.deals, summary.skipped) == ((3, 4), 60, (1, 2))
    assert deal_count(sqlite_url) == 120


@pytest.mark.parametrize(("layout", "where"), [("version 3", "line 4: "), ("version 2", "")])
def test_a_key_used_by_an_earlier_evening_of_the_same_file_is_refused(
    layout: str, where: str, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The earlier evening's deals are written in the same transaction; the later one's key is found there."""
    monkeypatch.setattr(batched_import, "BATCH_SECONDS", 600.0)  # the whole file in one transaction
    data = evenings_in_a_row(3)
    data["evenings"][0]["deals"][4]["key"] = "tablet-1"
    data["evenings"][2]["deals"][7]["key"] = "tablet-1"
    source = WRITERS[layout](tmp_path / "keys", data)
    with Ledger(db_url) as opened, pytest.raises(LedgerError) as refused:
        opened.import_file(source)
    assert str(refused.value) == (
        f"{source}: {where}deal 8 of the export has key 'tablet-1', already used by deal 5 of evening 1; "
        "nothing of that evening was written"
    )
    assert deal_count(db_url) == 0


def test_a_key_the_ledger_holds_is_refused_after_evenings_without_keys(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ledger's keys are read before the import queues its first deals, which take the numbers after its own."""
    monkeypatch.setattr(batched_import, "BATCH_SECONDS", 600.0)  # the whole file in one transaction
    with Ledger(db_url) as opened:
        opened.start_evening(["Dario", "Elena", "Franco"])
        opened.record("dario solo 22", key="tablet-1")
        data = evenings_in_a_row(3)
        data["evenings"][2]["deals"][6]["key"] = "tablet-1"
        with pytest.raises(LedgerError) as refused:
            opened.import_file(write(tmp_path / "keys.jsonl", data))
    assert "line 4: deal 7 of the export has key 'tablet-1', already used by deal 1 of evening 1" in str(refused.value)
    assert deal_count(db_url) == 1


def test_a_key_another_program_recorded_between_two_batches_is_refused(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each batch reads the keys others recorded since the one before."""
    monkeypatch.setattr(batched_import, "BATCH_SECONDS", 0.0)  # every evening commits by itself
    data = evenings_in_a_row(3)
    data["evenings"][1]["deals"][4]["key"] = "tablet-1"
    with Ledger(sqlite_url) as other:
        other.start_evening(["Dario", "Elena", "Franco"])
        pauses = iter([lambda: other.record("dario solo 22", key="tablet-1")])
        monkeypatch.setattr(batched_import.time, "sleep", lambda _: next(pauses, lambda: None)())
        with Ledger(sqlite_url) as opened, pytest.raises(LedgerError) as refused:
            opened.import_file(write(tmp_path / "keys.jsonl", data))
    assert "line 3: deal 5 of the export has key 'tablet-1', already used by deal 1 of evening 1" in str(refused.value)
    assert "the 1 evening(s) before it are in the ledger (evenings 2 to 2)" in str(refused.value)


def test_payments_already_recorded_are_skipped_on_a_second_import(sqlite_url: str, tmp_path: Path) -> None:
    with Ledger(sqlite_url) as opened:
        opened.import_file(EXAMPLES / "three_friends.json")
        opened.paid("Anna", "Bruno", "1.20", evening=1)
        exported = tmp_path / "with-payment.json"
        exported.write_text(opened.export(), encoding="utf-8")
    second = str(tmp_path / "second.sqlite3")
    with Ledger(second) as opened:
        first = opened.import_file(exported)
        again = opened.import_file(exported)
    assert (first.payments, first.payments_skipped) == (1, 0)
    assert (again.evenings, again.skipped, again.payments, again.payments_skipped) == ((), (1,), 0, 1)


def test_payments_with_and_without_keys_in_any_order_go_through_an_export_and_an_import(
    db_url: str, tmp_path: Path
) -> None:
    """A payment with a key is recorded as `paid` records it, between payments queued with the other rows: each
    takes its own number (on SQLite the second one without a key took the keyed one's: the import was refused)."""
    with Ledger(db_url) as opened:
        opened.import_file(EXAMPLES / "three_friends.json")
        opened.paid("Carla", "Anna", "1")
        opened.void_payment(1, reason="twice")
        opened.paid("Carla", "Bruno", "3,20", key="k-1")
        opened.paid("Carla", "Bruno", "0.50")
        opened.paid("Anna", "Carla", "2", key="k-2")
        opened.paid("Bruno", "Anna", "0.10", evening=1)
        exported = tmp_path / "payments.jsonl"
        exported.write_text(opened.export(), encoding="utf-8")
    with Ledger(str(tmp_path / "second.sqlite3")) as opened:
        assert opened.import_file(exported).payments == 5
        assert [(p.id, p.payer, p.payee, p.cents, p.voided) for p in opened.payments()] == [
            (1, "Carla", "Anna", 100, True),
            (2, "Carla", "Bruno", 320, False),
            (3, "Carla", "Bruno", 50, False),
            (4, "Anna", "Carla", 200, False),
            (5, "Bruno", "Anna", 10, False),
        ]
        assert opened.export() == exported.read_text(encoding="utf-8")


def test_every_change_and_its_undo_go_through_an_export_and_an_import(db_url: str, tmp_path: Path) -> None:
    """Amendments, voids, closes, reopenings and a void of the whole evening, each taken back by an undo (an undone
    amendment is a revision the ledger wrote itself, back as before it), on a table whose passed deals carry a pot:
    export, import, export is byte-identical."""
    with Ledger(str(tmp_path / "source.sqlite3")) as opened:
        evening = opened.start_evening(["Anna", "Bruno", "Carla"], Terms(profile="tretre")).number
        opened.record("anna solo 22")
        opened.record(DealInput(passed=True))
        opened.record("bruno solo 14")
        opened.amend(1, DealInput(thirds=14), reason="counted again")
        opened.undo()
        opened.void(2, reason="misdeal")
        opened.undo()
        opened.amend(3, DealInput(thirds=25), reason="counted again")
        opened.close_evening(evening)
        opened.undo(evening=evening)
        opened.close_evening(evening)
        opened.reopen_evening(evening, reason="one more")
        opened.undo(evening=evening)
        opened.void_evening(evening, reason="a practice evening")
        opened.undo(evening=evening)
        exported = opened.export()
    assert [line.get("cause") for line in as_document(exported)["evenings"][0]["deals"][0]["revisions"]] == [
        None,
        None,
        "undo",
    ]
    path = tmp_path / "undone.jsonl"
    path.write_text(exported, encoding="utf-8")
    with Ledger(db_url) as opened:
        opened.import_file(path)
        assert opened.export() == exported


def test_the_command_prints_one_line_per_outcome(sqlite_url: str, tmp_path: Path) -> None:
    source = write(tmp_path / "two.json", evenings_in_a_row(2))
    first = runner.invoke(app, ["--db", sqlite_url, "import", str(source)])
    assert (first.exit_code, first.stdout) == (0, "imported 2 evenings (60 deals)\n")
    source = write(source, evenings_in_a_row(3))
    second = runner.invoke(app, ["--db", sqlite_url, "import", str(source)])
    assert second.stdout == "imported 1 evening (30 deals)\nskipped 2 evenings already in this ledger\n"


def _deal(data: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return data["evenings"][0]["deals"][index]


def _set(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = example()
    change(data)
    return data


HOSTILE: dict[str, tuple[Callable[[], Any], str]] = {
    "duplicate deal number": (lambda: _set(lambda d: _deal(d, 1).update(number=1)), "a deal numbered 1 "),
    "null deal number": (lambda: _set(lambda d: _deal(d).update(number=None)), "a deal numbered None"),
    "repeated revision": (
        lambda: _set(lambda d: _deal(d, 15)["revisions"][1].update(revision=1)),
        "deal 16 has revisions [1, 1]",
    ),
    "no start time": (lambda: _set(lambda d: d["evenings"][0].update(started_at=None)), "has no start time"),
    "missing start time": (lambda: _set(lambda d: d["evenings"][0].pop("started_at")), "has no start time"),
    "huge stake": (lambda: _set(lambda d: d["evenings"][0].update(stake_cents=10**18)), "stake_cents 1000000000"),
    "a stake beyond 64 bits": (  # read as a number all the same (orjson reads it as a float), and refused
        lambda: _set(lambda d: d["evenings"][0].update(stake_cents=10**30)),
        "evening 1 has stake_cents 1e+30 (a whole number from 0 to 10000000)",
    ),
    "negative stake": (lambda: _set(lambda d: d["evenings"][0].update(stake_cents=-10)), "stake_cents -10"),
    "fractional stake": (lambda: _set(lambda d: d["evenings"][0].update(stake_cents=0.5)), "stake_cents 0.5"),
    "repeated key": (
        lambda: _set(lambda d: [_deal(d, i).update(key="tablet-1") for i in (0, 1)]),
        "two deals of one evening have the key 'tablet-1'",
    ),
    "missing field": (lambda: _set(lambda d: _deal(d).pop("revisions")), "evening 1: a missing or bad field"),
    "payouts not a map": (lambda: _set(lambda d: _deal(d)["revisions"][0].update(payouts=[1])), "bad field"),
    "a note not text": (lambda: _set(lambda d: d["evenings"][0].update(note=["x"])), "note ['x'] is not text"),
    "a void reason not text": (
        lambda: _set(lambda d: _deal(d, 2).update(void_reason={"a": 1})),
        "void_reason {'a': 1} is not text",
    ),
    "a note that resets the terminal": (
        lambda: _set(lambda d: d["evenings"][0].update(note="x\x1bc")),
        "note 'x\\x1bc' holds a control character",
    ),
    "a reason holding NUL": (
        lambda: _set(lambda d: _deal(d, 2)["revisions"][0].update(reason="a\x00")),
        "reason 'a\\x00' holds a control character",
    ),
    "a reason not text": (lambda: _set(lambda d: _deal(d, 2)["revisions"][0].update(reason=3)), "reason 3 is not text"),
    "a payment note not text": (
        lambda: _set(
            lambda d: d.update(
                payments=[
                    {
                        "payer": "Anna",
                        "payee": "Bruno",
                        "cents": 120,
                        "currency": "EUR",
                        "evening": 1,
                        "note": {"x": 1},
                        "paid_at": "2026-01-01T23:00:00+00:00",
                    }
                ]
            )
        ),
        "a payment: a missing or bad field (TypeError: note {'x': 1}",
    ),
}


@pytest.mark.parametrize("layout", sorted(WRITERS))
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_file_is_one_line_exit_2_and_nothing_written(
    case: str, layout: str, sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file in one batch, however slow the machine: a payment's line refused keeps nothing of the evening before
    it."""
    monkeypatch.setattr(batched_import, "BATCH_SECONDS", 600.0)
    make, message = HOSTILE[case]
    source = WRITERS[layout](tmp_path / "x", make())
    result = runner.invoke(app, ["--db", sqlite_url, "import", str(source)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"Error: {source}: ") and result.stderr.count("\n") == 1, result.stderr
    if layout == "version 3":  # the evening is line 2, a payment line 3
        assert re.match(rf"Error: {re.escape(str(source))}: line [23]: ", result.stderr), result.stderr
    assert message in result.stderr
    assert "nothing of that evening was written" in result.stderr
    assert deal_count(sqlite_url) == 0


V2 = '{"format": "calabresella-ledger", "version": 2, '
MALFORMED_DOCUMENTS = [
    (V2 + '"evenings": [' + "[" * 100_000 + "]" * 100_000 + "]}", "not a valid export: nested deeper than 12 levels"),
    (V2 + '"evenings": [{"stake_cents": 1' + "0" * 5000 + "}]}", "not JSON (Exceeds the limit"),
    (V2 + '"evenings": [{"stake_cents": NaN}]}', "not JSON (NaN is not JSON)"),
    (V2 + '"evenings": [{"number": 1,', "line 1: not JSON (Expecting property name enclosed in double quotes"),
    (V2 + '"evenings": [{"number": 1 "deals": []}]}', "line 1: not JSON (Expecting ',' delimiter at column 75)"),
    ('{"format": "calabresella-ledger" "version": 2}', "line 1: not JSON (Expecting ',' delimiter at column 34)"),
    ('{"format" "calabresella-ledger"}', "line 1: not JSON (Expecting ':' delimiter at column 11)"),
    (
        '{"format": "calabresella-ledger", 2: 2}',
        "line 1: not JSON (Expecting property name enclosed in double quotes at column 35)",
    ),
    (
        V2 + '"evenings": [], "payments": [],}',
        "line 1: not JSON (Expecting property name enclosed in double quotes at column 80)",
    ),
    (V2 + '"evenings": [{"number": 1, "note": "abc', "line 1: not JSON (Unterminated string starting at column 84)"),
    ('{\n "format": "calabresella-ledger",\n "version": 2\n "evenings": []\n}', "line 4: not JSON (Expecting ','"),
    (V2 + '"evenings": []}\nmore', "line 2: not JSON (Extra data at column 1)"),
    ('{"evenings": [{}], "format": "calabresella-ledger", "version": 2}', "evening None: a missing or bad field"),
    ("[1, 2]", "not a calabresella-ledger export"),
    ("{}", 'not a calabresella-ledger export (no "format": "calabresella-ledger" in its header)'),
    ("Anna +4, Bruno -2", "line 1: not JSON (Expecting value at column 1)"),
    ("", "line 1: not JSON (Expecting value at column 1)"),
    (V2 + '"evenings": 5}', 'not a valid export: "evenings" is not a list'),
    (V2 + '"evenings": [], "payments": {"payer": "Anna"}}', 'not a valid export: "payments" is not a list'),
]
MALFORMED_LINES = [
    (HEADER + '{"evening": ' + "[" * 100_000 + "]" * 100_000 + "}\n", "line 2: not a valid export: nested deeper"),
    (HEADER + '{"evening": {"stake_cents": 1' + "0" * 5000 + "}}\n", "line 2: not JSON (Exceeds the limit"),
    (HEADER + '{"evening": {"stake_cents": NaN}}\n', "line 2: not JSON (NaN is not JSON)"),
    (
        HEADER + '{"evening": {"number": 1,\n',
        "line 2: not JSON (Expecting property name enclosed in double quotes at column 26)",
    ),
    (
        HEADER + '{"comment": 1}\n{"evening": {"number": 1 "deals": []}}\n',
        "line 3: not JSON (Expecting ',' delimiter at column 26)",
    ),
    (HEADER + "\n[1, 2]\n", "line 3: not a valid export: a line that is not a JSON object"),
    (HEADER + '{"evening": 5}\n', "line 2: not a valid export: evening 5: a missing or bad field (TypeError"),
    (HEADER.encode() + b'{"evening": "\xff"}\n', "line 2: not JSON ('utf-8' codec can't decode byte 0xff"),
    ('{"format": "calabresella-ledger", "version": 4}\n', "export version 4: this ledger reads versions 1, 2, 3"),
    ('{"format": "calabresella-ledger", "version": 3, "evenings": []}\n', "export version 3 is JSON Lines"),
    ('{"format": "calabresella", "version": 3}\n{"evening": {}}\n', "not a calabresella-ledger export"),
]


@pytest.mark.parametrize(("text_", "message"), MALFORMED_DOCUMENTS + MALFORMED_LINES)
def test_a_malformed_file_is_one_line_naming_it_exit_2(
    text_: str | bytes, message: str, sqlite_url: str, tmp_path: Path
) -> None:
    source = tmp_path / "bad.json"
    if isinstance(text_, bytes):
        source.write_bytes(text_)
    else:
        source.write_text(text_, encoding="utf-8")
    result = runner.invoke(app, ["--db", sqlite_url, "import", str(source)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"Error: {source}: ") and result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert deal_count(sqlite_url) == 0


def test_fields_the_ledger_does_not_know_are_left_aside_wherever_they_stand(sqlite_url: str, tmp_path: Path) -> None:
    data = example()
    deals = sum(len(evening["deals"]) for evening in data["evenings"])
    document = tmp_path / "annotated.json"
    body = json.dumps(data)
    document.write_text(
        '{"comment": "from the club", ' + body[1:-1] + ', "signed_by": {"name": "Anna"}}', encoding="utf-8"
    )
    lines = tmp_path / "annotated.jsonl"
    lines.write_text(
        '{"format": "calabresella-ledger", "version": 3, "comment": "from the club"}\n'
        '{"signed_by": {"name": "Anna"}}\n\n'
        + json.dumps({"evening": {**data["evenings"][0], "weather": "rain"}, "table": 4})
        + "\n",
        encoding="utf-8",
    )
    for source, db in ((document, sqlite_url), (lines, str(tmp_path / "second.sqlite3"))):
        result = runner.invoke(app, ["--db", db, "import", str(source)])
        assert (result.exit_code, result.stdout) == (0, f"imported 1 evening ({deals} deals)\n"), result.output
        assert deal_count(db) == deals


def test_an_export_in_memory_whose_evenings_are_not_a_list_is_refused(sqlite_url: str) -> None:
    with Ledger(sqlite_url) as ledger, pytest.raises(LedgerError, match='"evenings" is not a list'):
        ledger.import_data({"format": "calabresella-ledger", "version": 2, "evenings": 5})
    assert deal_count(sqlite_url) == 0
