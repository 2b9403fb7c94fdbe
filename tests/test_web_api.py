"""The JSON API on SQLite (amend, void, undo, settle and close on PostgreSQL too; what the API asks of the ledger is
checked on both by the store tests): the values' `to_dict()`, Bearer-token writes, one-line 422 errors."""

from __future__ import annotations

import pytest
from test_web_support import BEARER, TOKEN, scorekeeper, start, viewer


def test_reads_need_no_token_and_mirror_the_values(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        evenings = phone.get("/api/evenings").json()["evenings"]
        assert [e["evening"] for e in evenings] == [1] and evenings[0]["players"] == ["Anna", "Bruno", "Carla"]
        assert phone.get("/api/evenings/current").json()["next_dealer"] == "Carla"
        standings = phone.get("/api/evenings/current/standings").json()
        assert standings == {
            "evening": 1,
            "players": ["Anna", "Bruno", "Carla"],
            "points": {"Anna": 0, "Bruno": 0, "Carla": 0},
            "cents": {"Anna": 0, "Bruno": 0, "Carla": 0},
            "currency": "EUR",
            "stake_cents": 10,
            "closed": False,
            "running": [],
            "game_to": None,
            "games": [],
            "games_won": None,
            "settlement": None,
            "voided": False,
            "voided_at": None,
            "void_reason": None,
        }
        assert phone.get("/api/evenings/1/deals").json() == {"evening": 1, "deals": []}


def test_record_by_line_and_by_facts_then_read_back(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        by_line = phone.post("/api/evenings/current/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        assert by_line.status_code == 201
        body = by_line.json()
        assert body["deal"]["declarer"] == "Bruno" and body["totals"] == {"Anna": -2, "Bruno": 4, "Carla": -2}
        assert body["next_dealer"] == "Anna" and body["evening_revision"] == 1
        facts = {
            "declarer": "Carla",
            "contract": "chiamo",
            "called": "3D",
            "holder": "Anna",
            "thirds": 17,
            "last_trick": "opponents",
        }
        by_facts = phone.post("/api/evenings/1/deals", json=facts, headers=BEARER).json()
        assert by_facts["totals"] == {"Anna": -1, "Bruno": 5, "Carla": -4}
        deals = phone.get("/api/evenings/1/deals").json()["deals"]
        assert [(d["number"], d["declarer"], d["holder"]) for d in deals] == [(1, "Bruno", None), (2, "Carla", "Anna")]
        assert phone.get("/api/evenings/1/standings").json()["cents"] == {"Anna": -10, "Bruno": 50, "Carla": -40}
        assert len(phone.get("/api/evenings/1/deals/2").json()["revisions"]) == 1


def test_a_key_stores_a_retried_deal_once(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        deal = {"line": "bruno solo 22", "key": "phone-1"}
        first = phone.post("/api/evenings/1/deals", json=deal, headers=BEARER)
        again = phone.post("/api/evenings/1/deals", json=deal, headers=BEARER)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["duplicate"] is True and again.json()["deal"]["number"] == 1


@pytest.mark.parametrize(
    ("body", "missing"),
    [
        ({"line": "bruno"}, "contract"),
        ({"line": "anna solo 35"}, "tricks"),
        ({"line": "anna solo 4t"}, "last_trick"),
        ({"declarer": "Anna", "contract": "solo"}, "thirds"),
    ],
)
def test_a_missing_fact_is_422_naming_it(sqlite_url: str, body: dict[str, object], missing: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        answer = phone.post("/api/evenings/1/deals", json=body, headers=BEARER)
    assert answer.status_code == 422 and answer.json()["missing"] == missing and answer.json()["error"]


@pytest.mark.parametrize(
    "body",
    [
        {"line": "zeno solo 22"},
        {"line": 22},
        {"line": "bruno solo 22", "thirds": 20},
        {"thirds": "22"},
        {"thirds": True},
        {"passed": 1},
        {"colour": "red"},
        {"line": "bruno solo 22", "key": 7},
        [1, 2],
    ],
)
def test_a_bad_deal_is_one_line_and_nothing_is_written(sqlite_url: str, body: object) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        answer = phone.post("/api/evenings/1/deals", json=body, headers=BEARER)
        assert answer.status_code == 422 and "\n" not in answer.json()["error"] and "missing" not in answer.json()
        assert phone.get("/api/evenings/1").json()["revision"] == 0


def test_a_body_that_is_not_json(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        answer = phone.post("/api/evenings/1/deals", content=b"bruno solo 22", headers=BEARER)
    assert answer.status_code == 422 and "not JSON" in answer.json()["error"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/evenings", {"players": ["Dora", "Elio", "Fede"]}),
        ("/api/evenings/1/deals", {"line": "bruno solo 22"}),
        ("/api/evenings/1/deals/1/amend", {"line": "15", "reason": "recount"}),
        ("/api/evenings/1/deals/1/void", {"reason": "misdeal"}),
        ("/api/evenings/1/undo", {}),
        ("/api/evenings/1/close", {}),
    ],
)
def test_writes_need_the_bearer_token_and_the_cookie_is_not_enough(sqlite_url: str, path: str, body: object) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        phone.post("/api/evenings/1/deals", json={"line": "carla solo 20"}, headers=BEARER)
        assert phone.post(path, json=body).status_code == 401
        assert phone.post(path, json=body, headers={"Authorization": "Bearer guess"}).status_code == 403
        assert phone.post(path, json=body, headers={"Authorization": f"Basic {TOKEN}"}).status_code == 401
        assert phone.get("/api/evenings/1").json()["revision"] == 1
        assert len(phone.get("/api/evenings").json()["evenings"]) == 1


def test_amend_void_undo_settle_close(db_url: str) -> None:
    start(db_url)
    with viewer(db_url) as phone:
        for line in ("bruno solo 22", "carla solo 20", "anna solo 19"):
            phone.post("/api/evenings/1/deals", json={"line": line}, headers=BEARER)
        amended = phone.post("/api/evenings/1/deals/1/amend", json={"line": "15", "reason": "recount"}, headers=BEARER)
        assert amended.json()["deal"]["revision"] == 2 and amended.json()["deal"]["declarer_won"] is False
        by_facts = phone.post("/api/evenings/1/deals/1/amend", json={"thirds": 16, "reason": "again"}, headers=BEARER)
        assert by_facts.json()["deal"]["declarer_thirds"] == 16
        no_reason = phone.post("/api/evenings/1/deals/2/void", json={}, headers=BEARER)
        assert no_reason.status_code == 422 and no_reason.json()["missing"] == "reason"
        voided = phone.post("/api/evenings/1/deals/2/void", json={"reason": "misdeal"}, headers=BEARER).json()
        assert voided["deal"]["voided"] is True
        stale = phone.post("/api/evenings/1/undo", json={"seen_revision": 3}, headers=BEARER)
        assert stale.status_code == 409 and "undo refused" in stale.json()["error"]
        assert phone.post("/api/evenings/1/undo", json={"seen_revision": "6"}, headers=BEARER).status_code == 422
        # undo takes back the last change, whatever it was: the void of deal 2, then the amendments of deal 1
        undone = phone.post("/api/evenings/1/undo", json={"seen_revision": 6}, headers=BEARER).json()
        assert undone["taken_back"]["kind"] == "void" and undone["recorded"]["deal"]["number"] == 2
        assert undone["recorded"]["deal"]["voided"] is False
        undone = phone.post("/api/evenings/1/undo", json={"seen_revision": 7}, headers=BEARER).json()
        deal = undone["recorded"]["deal"]
        assert (deal["number"], deal["revision"], deal["declarer_thirds"]) == (1, 4, 15)
        undone = phone.post("/api/evenings/1/undo", json={"seen_revision": 8}, headers=BEARER).json()
        deal = undone["recorded"]["deal"]
        assert (deal["number"], deal["revision"], deal["declarer_thirds"]) == (1, 5, 22)
        voided = phone.post("/api/evenings/1/deals/2/void", json={"reason": "misdeal"}, headers=BEARER).json()
        undone = phone.post("/api/evenings/1/undo", json={"seen_revision": 10}, headers=BEARER).json()
        assert undone["taken_back"]["kind"] == "void"
        voided = phone.post("/api/evenings/1/deals/2/void", json={"reason": "misdeal"}, headers=BEARER).json()
        assert voided["deal"]["voided"] is True and voided["evening_revision"] == 12
        changes = phone.get("/api/evenings/1/changes").json()
        assert [c["kind"] for c in changes["changes"]][-4:] == ["undo", "void", "undo", "void"]
        assert changes["undo_takes_back"]["kind"] == "void" and changes["undo_takes_back"]["deal"] == 2
        undone = phone.post("/api/evenings/1/undo", json={"seen_revision": 12}, headers=BEARER).json()
        undone = phone.post("/api/evenings/1/undo", json={"seen_revision": 13}, headers=BEARER).json()
        assert undone["taken_back"]["kind"] == "record" and undone["recorded"]["deal"]["number"] == 3
        assert undone["recorded"]["deal"]["voided"] is True
        phone.post("/api/evenings/1/deals/2/void", json={"reason": "misdeal"}, headers=BEARER)
        settlement = phone.get("/api/evenings/1/settlement").json()
        assert settlement["points"] == {"Anna": -2, "Bruno": 4, "Carla": -2}
        closed = phone.post("/api/evenings/current/close", headers=BEARER).json()
        assert closed["closed"] is True and closed["settlement"]["cents"] == {"Anna": -20, "Bruno": 40, "Carla": -20}
        nothing_open = phone.get("/api/evenings/current/standings")
        assert nothing_open.status_code == 422 and "no open evening" in nothing_open.json()["error"]


def test_start_an_evening(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        started = phone.post(
            "/api/evenings",
            json={
                "players": ["Dora", "Elio", "Fede", "Gino"],
                "profile": "pagat",
                "options": ["sweeps=off"],
                "stake": "0.05",
                "currency": "CHF",
            },
            headers=BEARER,
        )
        assert started.status_code == 201
        assert started.json()["options"]["sweeps"] is False and started.json()["stake_cents"] == 5
        refused = phone.post("/api/evenings", json={"players": "Dora,Elio"}, headers=BEARER)
        assert refused.status_code == 422 and "players" in refused.json()["error"]
        unknown = phone.post("/api/evenings", json={"players": ["A", "B", "C"], "colour": "red"}, headers=BEARER)
        assert unknown.status_code == 422 and "colour" in unknown.json()["error"]


def test_unknown_evenings(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        assert phone.get("/api/evenings/x/standings").status_code == 404
        assert phone.get("/api/evenings/x/standings").json() == {"error": "evening 'x': give its number, or current"}
        assert phone.get("/api/evenings/3/deals").status_code == 422
