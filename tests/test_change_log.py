"""Every change to an evening is a fact of its change log, and undo takes back the last change whatever it was: a
void brings its deal back, an amendment goes back, a close reopens, a reopening closes, a void of the whole evening
is lifted; undo again walks further back. Through the ledger, the command line, `play` and the API, on a real SQLite
file and on the real PostgreSQL server; the log only grows; an evening kept before the log existed gets one rebuilt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from cli_support import calabresella
from sqlalchemy import text
from test_cli_ledger import ok
from test_store_migrations import FIXTURE, _older_ledger
from test_web_support import BEARER, csrf, link, viewer

from ledger import Ledger
from ledger.errors import UndoRefused
from ledger.store.engine import MIGRATIONS, make_engine, resolve_url

PLAYERS = ("Anna", "Bruno", "Carla")
BOTH_STAND = {"Anna": 2, "Bruno": 2, "Carla": -4}
"""Anna solo 22 (Anna +4, the others -2) and Bruno solo 22 (Bruno +4, the others -2), both counting."""


def _start(db: str) -> None:
    with Ledger(db) as ledger:
        ledger.start_evening(PLAYERS)


def _state(db: str) -> tuple[dict[str, int], dict[int, bool], list[tuple[str, int | None, bool]]]:
    """The evening's points, each deal's voided flag and its change log (kind, deal, undone), read back."""
    with Ledger(db) as ledger:
        info, deals = ledger.deals(1)
        log = [(c.kind, c.deal, c.undone) for c in ledger.changes(1)]
        return dict(info.points), {d.number: d.voided for d in deals}, log


AFTER_UNDONE_VOID = [
    ("start", None, False),
    ("record", 1, False),
    ("record", 2, False),
    ("void", 1, True),
    ("undo", 1, False),
]


def _log_rows(db: str) -> list[tuple[Any, ...]]:
    """Every row of the change log table as stored, in the order written."""
    engine = make_engine(resolve_url(db))
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT id, evening_id, revision, kind, deal, deal_revision, undoes, at, source, session, reason"
                    " FROM evening_change WHERE evening_id IS NOT NULL ORDER BY id"
                )
            ).all()
            return [tuple(row) for row in rows]
    finally:
        engine.dispose()


# Undo after a void


def test_undo_after_a_void_brings_the_deal_back_through_the_ledger(db_url: str) -> None:
    _start(db_url)
    with Ledger(db_url, source="terminal") as ledger:
        ledger.record("anna solo 22")
        ledger.record("bruno solo 22")
        ledger.void(1, reason="misdeal")
        undone = ledger.undo()
    assert (undone.taken_back.kind, undone.taken_back.deal, undone.taken_back.reason) == ("void", 1, "misdeal")
    assert undone.recorded is not None and undone.recorded.deal.number == 1 and not undone.recorded.deal.voided
    assert _state(db_url) == (BOTH_STAND, {1: False, 2: False}, AFTER_UNDONE_VOID)


def test_undo_after_a_void_through_the_command_line(db_url: str) -> None:
    ok(db_url, "evening", "start", "--players", ",".join(PLAYERS))
    ok(db_url, "record", "anna solo 22")
    ok(db_url, "record", "bruno solo 22")
    ok(db_url, "void", "1", "--reason", "misdeal")
    said = ok(db_url, "undo").stdout
    assert said.startswith("Taken back: deal 1 voided (misdeal)"), said
    assert "Deal 1 counts again" in said, said
    assert _state(db_url) == (BOTH_STAND, {1: False, 2: False}, AFTER_UNDONE_VOID)


def test_undo_after_a_void_inside_play(db_url: str) -> None:
    _start(db_url)
    lines = ["anna solo 22", "bruno solo 22", "void 1 misdeal", "undo", "quit"]
    done = calabresella("--db", db_url, "play", input="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    assert "Taken back: deal 1 voided (misdeal)" in done.stdout, done.stdout
    assert _state(db_url) == (BOTH_STAND, {1: False, 2: False}, AFTER_UNDONE_VOID)


def test_undo_after_a_void_through_the_api(db_url: str) -> None:
    _start(db_url)
    with viewer(db_url) as api:
        for line in ("anna solo 22", "bruno solo 22"):
            assert api.post("/api/evenings/1/deals", json={"line": line}, headers=BEARER).status_code == 201
        voided = api.post("/api/evenings/1/deals/1/void", json={"reason": "misdeal"}, headers=BEARER)
        assert voided.status_code == 200, voided.text
        seen = voided.json()["evening_revision"]
        answer = api.post("/api/evenings/1/undo", json={"seen_revision": seen}, headers=BEARER)
        assert answer.status_code == 200, answer.text
        undone = answer.json()
        logged = api.get("/api/evenings/1/changes").json()
    assert undone["taken_back"]["kind"] == "void" and undone["taken_back"]["deal"] == 1
    assert undone["recorded"]["deal"]["number"] == 1 and undone["recorded"]["deal"]["voided"] is False
    assert [(c["kind"], c["deal"], c["source"], c["undone"]) for c in logged["changes"]][1:] == [
        ("record", 1, "api", False),
        ("record", 2, "api", False),
        ("void", 1, "api", True),
        ("undo", 1, "api", False),
    ]
    assert logged["undo_takes_back"]["kind"] == "record" and logged["undo_takes_back"]["deal"] == 2
    assert _state(db_url) == (BOTH_STAND, {1: False, 2: False}, AFTER_UNDONE_VOID)


# Undo after amend then void


def test_undo_after_amend_then_void_keeps_the_amendment_and_undo_again_takes_it_back(db_url: str) -> None:
    _start(db_url)
    with Ledger(db_url) as ledger:
        for line in ("anna solo 22", "bruno solo 22", "carla solo 22", "anna solo 22"):
            ledger.record(line)
        ledger.amend(1, "20", reason="recount")
        ledger.void(4, reason="misdeal")
        first = ledger.undo()
        _, deals = ledger.deals(1)
        assert first.taken_back.kind == "void" and first.taken_back.deal == 4
        assert not deals[3].voided  # deal 4 counts again
        assert (deals[0].revision, deals[0].declarer_thirds) == (2, 20)  # the amendment stays
        second = ledger.undo()
        _, deals = ledger.deals(1)
        assert second.taken_back.kind == "amend" and second.taken_back.deal == 1
        assert deals[0].declarer_thirds == 22 and deals[0].cause == "undo"
        assert [d.voided for d in deals] == [False] * 4
        assert [(c.kind, c.deal, c.undone) for c in ledger.changes(1)][5:] == [
            ("amend", 1, True),
            ("void", 4, True),
            ("undo", 4, False),
            ("undo", 1, False),
        ]


# Undo of the evening's own changes; repeated undos walk back


def test_undo_reopens_a_close_closes_a_reopening_and_lifts_a_void_of_the_evening(db_url: str) -> None:
    _start(db_url)
    with Ledger(db_url) as ledger:
        ledger.record("anna solo 22")
        ledger.close_evening(1)
        assert ledger.undo(evening=1).taken_back.kind == "close"
        assert not ledger.evening(1).closed
        ledger.record("bruno solo 22", evening=1)  # open again: it takes a deal

        ledger.close_evening(1)
        ledger.reopen_evening(1, reason="a deal was left out")
        undone = ledger.undo(evening=1)
        assert (undone.taken_back.kind, undone.taken_back.reason, undone.recorded) == (
            "reopen",
            "a deal was left out",
            None,
        )
        assert ledger.evening(1).closed

        ledger.void_evening(1, reason="the demo")
        assert ledger.evening(1).voided_at is not None
        assert ledger.undo(evening=1).taken_back.kind == "void_evening"
        info = ledger.evening(1)
        assert info.voided_at is None and info.closed  # as it was before the void: closed
        assert info.points == BOTH_STAND


def test_repeated_undos_walk_back_and_the_log_lists_every_change(db_url: str) -> None:
    _start(db_url)
    with Ledger(db_url, source="terminal") as ledger:
        ledger.record("anna solo 22")
        ledger.record("bruno solo 22")
        ledger.void(2, reason="misdeal")
        ledger.close_evening(1)
        taken = [ledger.undo(evening=1).taken_back for _ in range(4)]
        assert [(t.kind, t.deal) for t in taken] == [("close", None), ("void", 2), ("record", 2), ("record", 1)]
        info, deals = ledger.deals(1)
        assert not info.closed and [d.voided for d in deals] == [True, True]
        assert all(d.void_cause == "undo" for d in deals)
        assert info.points == {"Anna": 0, "Bruno": 0, "Carla": 0}
        log = ledger.changes(1)
        assert [(c.kind, c.deal, c.reason, c.undone, c.source) for c in log] == [
            ("start", None, None, False, "library"),
            ("record", 1, None, True, "terminal"),
            ("record", 2, None, True, "terminal"),
            ("void", 2, "misdeal", True, "terminal"),
            ("close", None, None, True, "terminal"),
            ("undo", None, None, False, "terminal"),
            ("undo", 2, None, False, "terminal"),
            ("undo", 2, None, False, "terminal"),
            ("undo", 1, None, False, "terminal"),
        ]
        assert [c.undoes for c in log[5:]] == [4, 3, 2, 1]
        assert [c.revision for c in log] == list(range(9)) and info.revision == 8
        assert ledger.last_change(1) is None
        with pytest.raises(Exception, match="no change to take back"):
            ledger.undo(evening=1)


def test_the_log_names_where_each_change_came_from(db_url: str) -> None:
    ok(db_url, "evening", "start", "--players", ",".join(PLAYERS))
    ok(db_url, "record", "anna solo 22")  # terminal
    played = calabresella("--db", db_url, "play", input="bruno solo 22\nquit\n")
    assert played.returncode == 0, played.stderr
    with viewer(db_url) as phone:
        sent = phone.post("/api/evenings/1/deals", json={"line": "carla solo 22"}, headers=BEARER)
        assert sent.status_code == 201, sent.text
        assert phone.get(link(db_url)).status_code == 303  # now the scorekeeper's phone
        form = {"csrf": csrf(phone), "line": "anna solo 22"}
        assert phone.post("/evenings/1/deals", data=form).status_code == 303
        voided = phone.post("/evenings/1/deals/2/void", data={"csrf": csrf(phone), "reason": "misdeal"})
        assert voided.status_code == 303, voided.text
    with Ledger(db_url) as ledger:
        log = ledger.changes(1)
    assert [(c.kind, c.deal, c.source, c.reason) for c in log][1:] == [
        ("record", 1, "terminal", None),
        ("record", 2, "play", None),
        ("record", 3, "api", None),
        ("record", 4, "phone", None),
        ("void", 2, "phone", "misdeal"),
    ]
    assert log[-1].session  # the phone is named (by a name telling nothing of its cookie), so two can be told apart


def test_the_log_is_only_ever_added_to(db_url: str) -> None:
    _start(db_url)
    with Ledger(db_url) as ledger:
        ledger.record("anna solo 22")
        ledger.amend(1, "20", reason="recount")
        ledger.void(1, reason="misdeal")
        ledger.close_evening(1)
        before = _log_rows(db_url)
        for _ in range(3):  # the close, the void, the amendment
            ledger.undo(evening=1)
        after = _log_rows(db_url)
    assert len(before) == 5 and after[: len(before)] == before
    assert len(after) == len(before) + 3 and all(row[3] == "undo" for row in after[len(before) :])


# A stale undo


def test_undo_with_a_stale_revision_is_refused_naming_what_happened_since_and_writes_nothing(db_url: str) -> None:
    _start(db_url)
    with Ledger(db_url) as ledger, Ledger(db_url) as other:
        ledger.record("anna solo 22")
        seen = ledger.evening(1).revision
        other.record("bruno solo 22")
        other.void(1, reason="misdeal")
        rows, state = _log_rows(db_url), _state(db_url)
        with pytest.raises(UndoRefused) as refused:
            ledger.undo(evening=1, seen_revision=seen)
        message = str(refused.value)
        assert f"revision {seen}, now {seen + 2}" in message, message
        assert "deal 2 recorded: Bruno solo" in message and "deal 1 voided (misdeal)" in message, message
        assert _log_rows(db_url) == rows and _state(db_url) == state
        assert ledger.undo(evening=1, seen_revision=seen + 2).taken_back.kind == "void"  # seen now: taken back


def test_a_stale_undo_through_the_api_is_refused_and_writes_nothing(db_url: str) -> None:
    _start(db_url)
    with viewer(db_url) as api:
        first = api.post("/api/evenings/1/deals", json={"line": "anna solo 22"}, headers=BEARER).json()
        api.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        rows = _log_rows(db_url)
        answer = api.post("/api/evenings/1/undo", json={"seen_revision": first["evening_revision"]}, headers=BEARER)
    assert answer.status_code in (409, 422), answer.text
    assert "deal 2 recorded: Bruno solo" in json.dumps(answer.json()), answer.text
    assert _log_rows(db_url) == rows


# An evening kept before the change log


def _alembic(db: str, target: str, upgrade: bool) -> None:
    engine = make_engine(resolve_url(db))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.upgrade if upgrade else command.downgrade)(config, target)
    finally:
        engine.dispose()


def test_a_ledger_from_before_the_log_has_it_rebuilt_and_undo_walks_back_there(db_url: str) -> None:
    _start(db_url)
    with Ledger(db_url) as ledger:
        for line in ("anna solo 22", "bruno solo 22", "carla solo 22"):
            ledger.record(line)
        ledger.amend(1, "20", reason="recount")
        ledger.void(2, reason="misdeal")
        ledger.close_evening(1)
        ledger.reopen_evening(1, reason="a deal was left out")
        kept = [(c.revision, c.kind, c.deal, c.reason) for c in ledger.changes(1)]
    _alembic(db_url, "0011", upgrade=False)  # as an older program kept it: no change log
    with Ledger(db_url) as ledger:  # opening upgrades it
        rebuilt = ledger.changes(1)
        assert [(c.revision, c.kind, c.deal, c.reason) for c in rebuilt] == kept
        assert {c.source for c in rebuilt} == {"unknown"}
        assert [ledger.undo(evening=1).taken_back.kind for _ in range(3)] == ["reopen", "close", "void"]
        assert ledger.undo(evening=1).taken_back.kind == "amend"
        info, deals = ledger.deals(1)
        assert not info.closed and [d.voided for d in deals] == [False, False, False]
        assert deals[0].declarer_thirds == 22


def test_the_fixture_ledger_of_schema_0002_has_its_log_rebuilt_and_undo_works_there(tmp_path: Path) -> None:
    """SQLite only: the fixture is what the code of schema 0002 wrote to a SQLite file."""
    path = tmp_path / "older.sqlite3"
    _older_ledger(path, json.loads(FIXTURE.read_text(encoding="utf-8"))["rows"]).dispose()
    with Ledger(str(path)) as ledger:
        log = ledger.changes(1)
        assert [(c.kind, c.deal) for c in log] == [
            ("start", None),
            ("record", 1),
            ("record", 2),
            ("record", 3),
            ("record", 4),
            ("record", 5),
            ("amend", 1),
            ("void", 4),
            ("record", 6),
            ("undo", 6),
            ("record", 7),
        ]
        assert log[-1].revision == ledger.evening(1).revision == 10
        assert [c.undone for c in log] == [False] * 8 + [True, False, False]
        assert ledger.undo(evening=1).taken_back.deal == 7
        second = ledger.undo(evening=1)  # past the undo and the deal it took back: the void of deal 4
        assert (second.taken_back.kind, second.taken_back.deal, second.taken_back.reason) == ("void", 4, "misdeal")
        _, deals = ledger.deals(1)
        assert [d.number for d in deals if d.voided] == [6, 7]


@pytest.mark.parametrize(("change", "deal"), [("amend", 8), ("void", 1), ("void", 7)])
def test_the_live_part_names_the_deal_undo_would_take_back_as_it_stands(
    sqlite_url: str, change: str, deal: int
) -> None:
    """Within the last six deals the live read takes the deal from those it read; an older one is read on its own:
    either way it is the deal's current revision, as its history ends."""
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(("Anna", "Bruno", "Carla"))
        for _ in range(8):
            ledger.record("anna solo 22")
        if change == "amend":
            ledger.amend(deal, "15", reason="miscounted")
        else:
            ledger.void(deal, reason="misdealt")
        last = ledger.live(6).undo
        assert last is not None
        changed, shown = last
        assert (changed.kind, changed.deal) == (change, deal)
        assert shown == ledger.deal(deal).revisions[-1]
        assert shown is not None and shown.voided == (change == "void")
