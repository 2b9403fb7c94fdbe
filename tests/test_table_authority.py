"""Authority is a fact of the ledger: a club table's key writes to its own evening only while its round is open.
After `event round --end` or `event close`, every write with the key (record, amend, void, undo, close, reopen, void
evening) is refused and nothing is written, through the API (Bearer key, 403) and through the pages (the table's
write session opened while the round was open); the organiser's token still writes; a table past its round's deals
records no more; a table's link opened after the round hands out no write session. Seating a round names the round
it makes: two seatings sent at once make one round. Through the Ledger on a real SQLite file and on the real
PostgreSQL server; through the API and the pages on SQLite (a table past its round's deals on PostgreSQL too)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import text
from test_web_support import BEARER, csrf, viewer

from ledger import Ledger
from ledger.errors import FactError, Forbidden
from ledger.store.engine import make_engine, resolve_url
from ledger.values import Writer

SIX = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco")


def _table(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _club(api: Any, **fields: object) -> dict[int, str]:
    """An event seated by hand (Anna's table is evening 1, Dario's evening 2) and each table's key."""
    made = api.post("/api/events", json={"name": "Club night", "players": list(SIX), **fields}, headers=BEARER)
    assert made.status_code == 201, made.text
    seated = api.post("/api/events/1/rounds", json={"tables": [list(SIX[:3]), list(SIX[3:])]}, headers=BEARER)
    assert seated.status_code == 201, seated.text
    links = api.get("/api/events/1/links", headers=BEARER)
    assert links.status_code == 200, links.text
    return {link["evening"]: link["key"] for link in links.json()}


def _written(db: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The change log, the deals and the evenings as stored."""
    engine = make_engine(resolve_url(db))
    try:
        with engine.connect() as connection:
            return tuple(  # type: ignore[return-value]
                [tuple(row) for row in connection.execute(text(query)).all()]
                for query in (
                    "SELECT id, evening_id, revision, kind, deal, source FROM evening_change ORDER BY id",
                    "SELECT id, evening_id, number, voided_at, void_reason FROM deal ORDER BY id",
                    "SELECT id, revision, closed_at, voided_at FROM evening ORDER BY id",
                )
            )
    finally:
        engine.dispose()


def _revision(db: str, evening: int = 1) -> int:
    with Ledger(db) as ledger:
        return ledger.evening(evening).revision


ENDS = {
    "round end": ("/api/events/1/rounds/end", "round 1 has ended"),
    "event close": ("/api/events/1/close", "round 1 has ended"),
}


def _api_writes(revision: int) -> list[tuple[str, str, dict[str, object]]]:
    """Every write to evening 1 through the API: what, where, with what body."""
    return [
        ("record", "/api/evenings/1/deals", {"line": "bruno solo 22"}),
        ("amend", "/api/evenings/1/deals/1/amend", {"line": "20", "reason": "recount"}),
        ("void", "/api/evenings/1/deals/1/void", {"reason": "misdeal"}),
        ("undo", "/api/evenings/1/undo", {"seen_revision": revision}),
        ("close", "/api/evenings/1/close", {}),
        ("reopen", "/api/evenings/1/reopen", {"reason": "a deal was left out"}),
        ("void evening", "/api/evenings/1/void", {"reason": "the demo"}),
    ]


@pytest.mark.parametrize("end", sorted(ENDS))
def test_a_tables_key_writes_nothing_after_its_round_through_the_api(sqlite_url: str, end: str) -> None:
    path, said = ENDS[end]
    with viewer(sqlite_url) as api:
        keys = _club(api)
        for line in ("anna solo 22", "bruno solo 22"):
            recorded = api.post("/api/evenings/1/deals", json={"line": line}, headers=_table(keys[1]))
            assert recorded.status_code == 201, recorded.text  # while the round is open, the key writes
        assert api.post(path, json={}, headers=BEARER).status_code == 200
        before = _written(sqlite_url)
        revision = _revision(sqlite_url)
        for what, where, body in _api_writes(revision):
            answer = api.post(where, json=body, headers=_table(keys[1]))
            assert answer.status_code == 403, (what, answer.status_code, answer.text)
            assert said in answer.json()["error"] and "nothing was written" in answer.json()["error"], what
        assert _written(sqlite_url) == before

        # the organiser's token still writes, each in turn
        organiser = [
            ("/api/evenings/1/reopen", {"reason": "a deal was left out"}),
            ("/api/evenings/1/deals", {"line": "carla solo 22"}),
            ("/api/evenings/1/deals/3/amend", {"line": "20", "reason": "recount"}),
            ("/api/evenings/1/deals/3/void", {"reason": "misdeal"}),
            ("/api/evenings/1/undo", None),
            ("/api/evenings/1/close", {}),
            ("/api/evenings/1/void", {"reason": "the demo"}),
        ]
        for where, body in organiser:
            body = body if body is not None else {"seen_revision": _revision(sqlite_url)}
            answer = api.post(where, json=body, headers=BEARER)
            assert answer.status_code in (200, 201), (where, answer.text)
    with Ledger(sqlite_url) as ledger:
        log = ledger.changes(1)
    assert [(c.kind, c.source) for c in log if c.source == "table"] == [("record", "table"), ("record", "table")]
    assert [c.kind for c in log][-7:] == ["reopen", "record", "amend", "void", "undo", "close", "void_evening"]


@pytest.mark.parametrize("end", sorted(ENDS))
def test_a_tables_write_session_writes_nothing_after_its_round_through_the_pages(sqlite_url: str, end: str) -> None:
    path, said = ENDS[end]
    with viewer(sqlite_url) as api, viewer(sqlite_url) as phone:
        keys = _club(api)
        assert phone.get(f"/tables/1?key={keys[1]}").status_code == 303  # the table's phone: its write session
        token = csrf(phone)
        for line in ("anna solo 22", "bruno solo 22"):
            assert phone.post("/evenings/1/deals", data={"csrf": token, "line": line}).status_code == 303
        assert api.post(path, json={}, headers=BEARER).status_code == 200
        before = _written(sqlite_url)
        forms = [
            ("/evenings/1/deals", {"line": "carla solo 22"}),
            ("/evenings/1/deals/1/amend", {"line": "20", "reason": "recount"}),
            ("/evenings/1/deals/1/void", {"reason": "misdeal"}),
            ("/evenings/1/undo", {"confirm": "yes", "seen_revision": str(_revision(sqlite_url))}),
            ("/evenings/1/close", {"confirm": "yes"}),
            ("/evenings/1/reopen", {"reason": "a deal was left out"}),
        ]
        for where, form in forms:
            answer = phone.post(where, data={"csrf": token, **form})
            assert answer.status_code in (403, 422), (where, answer.status_code)
            assert said in answer.text, (where, answer.text[:2000])
        assert _written(sqlite_url) == before
    with Ledger(sqlite_url) as ledger:
        logged = [(c.kind, c.source) for c in ledger.changes(1)][1:]
    assert logged == [("record", "table"), ("record", "table"), ("close", "api")]  # the organiser's end closed it


@pytest.mark.parametrize("end", sorted(ENDS))
def test_a_tables_link_opened_after_its_round_hands_out_no_write_session(sqlite_url: str, end: str) -> None:
    path, _said = ENDS[end]
    with viewer(sqlite_url) as api, viewer(sqlite_url) as late:
        keys = _club(api)
        assert api.post(path, json={}, headers=BEARER).status_code == 200
        opened = late.get(f"/tables/1?key={keys[1]}")
        assert (opened.status_code, opened.headers["location"]) == (303, "/evenings/1")  # the evening, to look at
        assert not late.cookies, dict(late.cookies)  # nothing that could write
        assert late.get("/evenings/1").status_code == 200
        before = _written(sqlite_url)
        refused = late.post("/evenings/1/deals", data={"csrf": "", "line": "carla solo 22"})
        assert refused.status_code in (401, 403)
        assert _written(sqlite_url) == before


def test_the_ledger_refuses_a_tables_writer_after_the_round_and_lets_the_organiser(db_url: str) -> None:
    with Ledger(db_url) as organiser:
        organiser.club.start_event("Club night", SIX)
        organiser.club.seat_round(1, tables=[list(SIX[:3]), list(SIX[3:])])
        table = Writer("table", table=1, session="table 1")
        organiser.record("anna solo 22", evening=1, by=table)
        with pytest.raises(Forbidden, match="one table only"):
            organiser.record("dario solo 22", evening=2, by=table)  # another table's evening
        with pytest.raises(Forbidden, match="one table only"):
            organiser.club.end_round(1, by=table)  # the organiser's work
        organiser.club.end_round(1)
        before = _written(db_url)
        writes: list[Callable[[], object]] = [
            lambda: organiser.record("bruno solo 22", evening=1, by=table),
            lambda: organiser.amend(1, "20", reason="recount", evening=1, by=table),
            lambda: organiser.void(1, reason="misdeal", evening=1, by=table),
            lambda: organiser.undo(evening=1, by=table),
            lambda: organiser.close_evening(1, by=table),
            lambda: organiser.reopen_evening(1, reason="left out", by=table),
            lambda: organiser.void_evening(1, reason="the demo", by=table),
        ]
        for write in writes:
            with pytest.raises(Forbidden, match="round 1 has ended: nothing was written; ask the organiser"):
                write()
        assert _written(db_url) == before
        organiser.reopen_evening(1, reason="left out")  # the organiser may
        assert organiser.record("bruno solo 22", evening=1).deal.number == 2


def test_a_table_past_its_rounds_deals_records_no_more(db_url: str) -> None:
    with viewer(db_url) as api:
        keys = _club(api, round_deals=2)
        for line in ("anna solo 22", "bruno solo 22"):
            assert api.post("/api/evenings/1/deals", json={"line": line}, headers=_table(keys[1])).status_code == 201
        before = _written(db_url)
        third = api.post("/api/evenings/1/deals", json={"line": "carla solo 22"}, headers=_table(keys[1]))
        assert third.status_code == 403, third.text
        assert "its 2 deals are played" in third.json()["error"]
        # and nothing else: its deals are the organiser's to correct now
        for what, where, body in _api_writes(_revision(db_url)):
            answer = api.post(where, json=body, headers=_table(keys[1]))
            assert answer.status_code == 403, (what, answer.text)
            assert "its 2 deals are played" in answer.json()["error"], what
        assert _written(db_url) == before
        # the organiser corrects a deal: the round is still short of a deal, and the table records it
        voided = api.post("/api/evenings/1/deals/2/void", json={"reason": "misdeal"}, headers=BEARER)
        assert voided.status_code == 200, voided.text
        again = api.post("/api/evenings/1/deals", json={"line": "carla solo 22"}, headers=_table(keys[1]))
        assert again.status_code == 201, again.text


def test_a_tables_key_never_takes_back_or_overrides_the_organisers_change(db_url: str) -> None:
    with Ledger(db_url) as organiser:
        organiser.club.start_event("Club night", SIX)
        organiser.club.seat_round(1, tables=[list(SIX[:3]), list(SIX[3:])])
        table = Writer("table", table=1, session="table 1")
        organiser.record("anna solo 22", evening=1, by=table)
        organiser.amend(1, "20", reason="recount", evening=1)  # the organiser's correction
        before = _written(db_url)
        with pytest.raises(Forbidden, match=r"the organiser made this change \(deal 1 amended \(recount\)"):
            organiser.undo(evening=1, by=table)
        with pytest.raises(Forbidden, match="the organiser made this change"):
            organiser.amend(1, "25", reason="recount again", evening=1, by=table)
        with pytest.raises(Forbidden, match="the organiser made this change"):
            organiser.void(1, reason="misdeal", evening=1, by=table)
        with pytest.raises(Forbidden, match="the organiser made this change"):
            organiser.void_evening(1, reason="the demo", by=table)
        assert _written(db_url) == before
        organiser.close_evening(1)  # the organiser closes the table
        closed = _written(db_url)
        with pytest.raises(Forbidden, match=r"the organiser made this change \(evening closed\)"):
            organiser.reopen_evening(1, reason="left out", by=table)
        assert _written(db_url) == closed
        # the table's own changes are its own to take back
        organiser.record("dario solo 22", evening=2, by=Writer("table", table=2, session="table 2"))
        taken = organiser.undo(evening=2, by=Writer("table", table=2, session="table 2"))
        assert taken.taken_back.kind == "record"


# Seating a round names the round it makes


def test_two_seatings_at_once_make_one_round_and_both_are_answered_with_it(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        ledger.club.start_event("Club night", SIX)
    barrier, answers, errors = threading.Barrier(2), [], []

    def seat() -> None:
        try:
            with Ledger(db_url) as mine:
                barrier.wait(10)
                answers.append(mine.club.seat_round(1, round=1, seed=7))
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=seat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    assert len(answers) == 2
    assert [len(a.rounds) for a in answers] == [1, 1]
    assert answers[0].rounds[0].tables == answers[1].rounds[0].tables
    with Ledger(db_url) as ledger:
        assert len(ledger.club.event(1).rounds) == 1
        assert len(ledger.evenings()) == 2  # one round of two tables: two evenings, not four


def test_a_seating_sent_twice_through_the_api_makes_one_round_and_a_round_too_far_ahead_is_refused(
    sqlite_url: str,
) -> None:
    with viewer(sqlite_url) as api:
        made = api.post("/api/events", json={"name": "Club night", "players": list(SIX)}, headers=BEARER)
        assert made.status_code == 201
        sent = [api.post("/api/events/1/rounds", json={"round": 1}, headers=BEARER) for _ in range(2)]
        assert [s.status_code for s in sent] == [201, 201]
        assert sent[0].json()["rounds"] == sent[1].json()["rounds"] and len(sent[0].json()["rounds"]) == 1
        ahead = api.post("/api/events/1/rounds", json={"round": 3}, headers=BEARER)
        assert ahead.status_code == 422, ahead.text
        assert "round 3" in ahead.json()["error"] and "the next round of event 1 is 2" in ahead.json()["error"]
        second = api.post("/api/events/1/rounds", json={"round": 2}, headers=BEARER)
        assert second.status_code == 201 and len(second.json()["rounds"]) == 2
    with Ledger(sqlite_url) as ledger:
        assert len(ledger.club.event(1).rounds) == 2 and len(ledger.evenings()) == 4
        with pytest.raises(FactError, match="the next round of event 1 is 3"):
            ledger.club.seat_round(1, round=5)
