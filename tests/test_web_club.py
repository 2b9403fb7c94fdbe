"""Club nights on the web, over real SQLite ledgers: each table's link writes to its own evening and nowhere else;
the API seats rounds (drawn or by hand, players arriving and leaving), ends them and closes the event, its figures
the sums of the tables' deals; the event's page finds a player's seat, the leaderboard follows the deals live, the
scoresheets print one per table; names are shown as typed, never acted on; the pages speak Italian."""

from __future__ import annotations

import html
import re
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from test_web_support import BEARER, HOST, TOKEN, csrf, deal_count, forget_wrong_tries, keys, scorekeeper, viewer

from ledger import Ledger
from ledger.web.access import Keys
from ledger.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SIX = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco")
SEVEN = (*SIX, "Gina")
ITALIAN = {"Accept-Language": "it-IT,it;q=0.9"}
Phone = TestClient


# Helpers


def _start(phone: Phone, players: tuple[str, ...] = SIX, **fields: object) -> dict[str, Any]:
    """Start an event through the API with the server's token; the event as the API shows it."""
    body = {"name": "Club night", "players": list(players), "stake": "0.10", **fields}
    made = phone.post("/api/events", json=body, headers=BEARER)
    assert made.status_code == 201, made.text
    return made.json()


def _seat(phone: Phone, body: dict[str, Any] | None = None, event: int = 1) -> Any:
    return phone.post(f"/api/events/{event}/rounds", json=body or {}, headers=BEARER)


def _seated(phone: Phone, body: dict[str, Any] | None = None, event: int = 1) -> dict[str, Any]:
    """Seat the next round (it must work); the event."""
    seated = _seat(phone, body, event)
    assert seated.status_code == 201, seated.text
    return seated.json()


def _table(key: str) -> dict[str, str]:
    """The API header of a table's key."""
    return {"Authorization": f"Bearer {key}"}


def _keys(phone: Phone, event: int = 1) -> dict[int, str]:
    """Each table evening of the round under way with its key, as the links API gives them."""
    links = phone.get(f"/api/events/{event}/links", headers=BEARER)
    assert links.status_code == 200, links.text
    return {link["evening"]: link["key"] for link in links.json()}


def _event(phone: Phone, event: int = 1) -> dict[str, Any]:
    return phone.get(f"/api/events/{event}").json()


def _evenings(db: str) -> list[int]:
    with Ledger(db) as ledger:
        return sorted(info.number for info in ledger.evenings())


def _standing(db: str, evening: int) -> list[tuple[str | None, int | None]]:
    """Declarer and thirds of each deal of the evening that stands (not voided nor undone)."""
    with Ledger(db) as ledger:
        return [(deal.declarer, deal.declarer_thirds) for deal in ledger.deals(evening)[1] if not deal.voided]


def _one_line_refusal(answer: Any) -> str:
    """A 422 with one line, nothing more."""
    assert answer.status_code == 422, answer.text
    said = answer.json()["error"]
    assert said and "\n" not in said and "Traceback" not in said
    return said


def _by_hand(phone: Phone) -> dict[str, Any]:
    """Six players at two tables of three, seated by hand: Anna's table is evening 1, Dario's evening 2."""
    _start(phone)
    return _seated(phone, {"tables": [list(SIX[:3]), list(SIX[3:])]})


@contextmanager
def _bar_screen(db: str) -> Iterator[TestClient]:
    """The screen at the bar: like the tests' viewer, but its live stream stays open long enough to see a deal
    come in while it is open."""
    app = create_app(db, TOKEN, hosts=(HOST,), stream_seconds=20)
    with TestClient(app, follow_redirects=False) as screen:
        yield screen


def _next_board(lines: Iterator[str]) -> tuple[str, str]:
    """(id, data) of the next leaderboard event of a server-sent event stream being read."""
    fields: dict[str, list[str]] = {}
    for line in lines:
        if line:
            name, _colon, value = line.partition(": ")
            fields.setdefault(name, []).append(value)
            continue
        if "data" in fields:
            assert fields["event"] == ["evening"]
            return fields["id"][0], "\n".join(fields["data"])
        fields = {}
    raise AssertionError("the stream ended without another leaderboard")


def _points(fragment: str) -> dict[str, str]:
    """Each player's points on a leaderboard (as shown: `+4`, `-2`, `0`)."""
    rows = re.findall(r"<th>([^<]*)</th>\s*<td class=\"num big\">([^<]*)</td>", fragment)
    return {html.unescape(name): points for name, points in rows}


def _text(page: str) -> str:
    """What a page shows: its text and the attributes read out or shown by its script, tags left out."""
    said = re.findall(r'(?:title|alt|aria-label|data-lost|data-back|placeholder)="([^"]*)"', page)
    body = re.sub(r"<script.*?</script>|<style.*?</style>|<svg.*?</svg>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body) + " " + " ".join(said))


# Each table's link writes to its own evening only


def test_a_table_key_records_on_its_own_evening_through_the_api_and_nowhere_else(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _by_hand(phone)
        keys = _keys(phone)
        assert sorted(keys) == [1, 2]
        own = phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=_table(keys[1]))
        assert own.status_code == 201, own.text
        other = phone.post("/api/evenings/2/deals", json={"line": "elena solo 22"}, headers=_table(keys[1]))
        assert other.status_code == 403 and "one table only (evening 1)" in other.json()["error"]
        current = phone.post("/api/evenings/current/deals", json={"line": "elena solo 22"}, headers=_table(keys[1]))
        assert current.status_code == 403
        for path, body in (
            ("/api/evenings/2/close", {}),
            ("/api/evenings/2/void", {"reason": "not ours"}),
            ("/api/evenings/2/undo", {"seen_revision": 0}),
            ("/api/evenings", {"players": ["Anna", "Bruno", "Carla"]}),
        ):
            refused = phone.post(path, json=body, headers=_table(keys[1]))
            assert refused.status_code == 403, (path, refused.text)
        assert phone.post("/api/evenings/1/undo", json={"seen_revision": 1}, headers=_table(keys[1])).status_code == 200
        assert phone.post("/api/evenings/1/deals", json={"line": "carla solo 21"}, headers=_table(keys[1])).is_success
    assert _standing(sqlite_url, 1) == [("Carla", 21)] and deal_count(sqlite_url, 2) == 0
    assert _evenings(sqlite_url) == [1, 2]
    with Ledger(sqlite_url) as ledger:
        assert ledger.evening(2).closed_at is None and ledger.evening(2).voided_at is None


def test_a_table_link_gives_the_phone_a_session_that_writes_on_its_evening_only(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _by_hand(phone)
        link = phone.get("/api/events/1/links", headers=BEARER).json()[0]
        opened = phone.get(link["link"])
        assert opened.status_code == 303 and opened.headers["location"] == "/evenings/1"
        assert opened.headers["cache-control"] == "no-store" and link["key"] not in opened.headers["set-cookie"]
        own = phone.get("/evenings/1").text
        assert "<form" in own and 'class="viewer"' not in own
        token = csrf(phone, "/evenings/1")
        recorded = phone.post("/evenings/1/deals", data={"csrf": token, "line": "bruno solo 22"})
        assert recorded.status_code == 303 and recorded.headers["location"] == "/evenings/1?recorded=1"

        other = phone.get("/evenings/2").text
        assert "<form" not in other and 'name="csrf"' not in other and 'class="viewer"' in other
        refused = phone.post("/evenings/2/deals", data={"csrf": token, "line": "elena solo 22"})
        assert refused.status_code == 403 and "one table only (evening 1)" in refused.text
        assert phone.post("/evenings/2/close", data={"csrf": token}).status_code == 403
        assert phone.post("/evenings/2/undo", data={"csrf": token, "seen_revision": "0"}).status_code == 403
        started = phone.post("/evenings", data={"csrf": token, "players": "Anna, Bruno, Carla"})
        assert started.status_code == 403
        event = phone.get("/events/1").text  # the table's phone is shown no table's link
        assert "<svg" not in event and "/tables/" not in event and 'class="viewer"' in event
    assert deal_count(sqlite_url, 1) == 1 and deal_count(sqlite_url, 2) == 0
    assert _evenings(sqlite_url) == [1, 2]


def test_the_scorekeeper_sees_each_tables_link_and_qr_code_and_a_viewer_none(sqlite_url: str) -> None:
    with scorekeeper(sqlite_url) as keeper:
        _by_hand(keeper)
        page = keeper.get("/events/1")
        keys = _keys(keeper)
        links = re.findall(r'<p class="hint link">http://testserver/tables/(\d+)\?key=([^<]+)</p>', page.text)
        assert {int(evening): html.unescape(key) for evening, key in links} == keys
        assert page.text.count('<svg viewBox="0 0 ') == 2
    with viewer(sqlite_url) as phone:
        page = phone.get("/events/1").text
        assert "<svg" not in page and "/tables/" not in page and "?key=" not in page


def test_the_scorekeeper_trying_a_tables_link_keeps_writing_everywhere(sqlite_url: str) -> None:
    with scorekeeper(sqlite_url) as keeper:
        _by_hand(keeper)
        link = keeper.get("/api/events/1/links", headers=BEARER).json()[0]["link"]
        opened = keeper.get(link)
        assert opened.status_code == 303 and opened.headers["location"] == "/evenings/1"
        assert "set-cookie" not in opened.headers
        assert "<form" in keeper.get("/evenings/2").text
        form = {"csrf": csrf(keeper, "/evenings/2"), "line": "elena solo 22"}
        assert keeper.post("/evenings/2/deals", data=form).status_code == 303
        assert keeper.get("/events/1").text.count("/tables/") == 2
    assert deal_count(sqlite_url, 2) == 1


def test_the_page_showing_the_tables_keys_is_not_kept_in_a_cache(sqlite_url: str) -> None:
    with scorekeeper(sqlite_url) as keeper:
        _by_hand(keeper)
        assert keeper.get("/events/1").headers["cache-control"] == "no-store"
    with viewer(sqlite_url) as phone:
        assert "no-store" not in phone.get("/events/1").headers.get("cache-control", "")


FORGED: dict[str, Callable[[Keys], str]] = {
    "another token's": lambda own: Keys(TOKEN + "-another-server", own.ledger).table_key(1),
    "another ledger's": lambda own: Keys(TOKEN, "another ledger").table_key(1),  # the same token, another ledger
    "table 2's on evening 1": lambda own: own.table_key(2).replace("2.", "1.", 1),
    "one character changed": lambda own: own.table_key(1)[:-1] + ("A" if own.table_key(1)[-1] != "A" else "B"),
    "no signature": lambda _own: "1.",
    "no evening's": lambda _own: "1",
    "the write link's": lambda own: own.link_key,  # the whole server's write link key is no API token
}
"""Table keys for evening 1 that are none, from this server's keys."""


@pytest.mark.parametrize("forgery", sorted(FORGED))
def test_a_forged_or_foreign_table_key_writes_nothing(sqlite_url: str, forgery: str) -> None:
    forged = FORGED[forgery](keys(sqlite_url))
    with viewer(sqlite_url) as phone:
        _by_hand(phone)
        answer = phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=_table(forged))
        assert answer.status_code == 403 and "token is wrong" in answer.json()["error"]
    forget_wrong_tries(sqlite_url)  # as if the guesser had waited its wait out
    with viewer(sqlite_url) as phone:
        opened = phone.get(f"/tables/1?key={forged}")
        assert opened.status_code == 403 and "set-cookie" not in opened.headers
        assert "<form" not in phone.get("/evenings/1").text
    assert deal_count(sqlite_url, 1) == 0


def test_a_table_key_cannot_start_seat_end_or_close_events_nor_read_the_links(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _by_hand(phone)
        key = _table(_keys(phone)[1])
        for path, body in (
            ("/api/events/1/rounds", {}),
            ("/api/events/1/rounds", {"tables": [list(SIX[:3]), list(SIX[3:])]}),
            ("/api/events/1/rounds/end", {}),
            ("/api/events/1/close", {}),
            ("/api/events", {"name": "Mine", "players": list(SIX)}),
            ("/api/seasons", {"name": "Mine"}),
        ):
            refused = phone.post(path, json=body, headers=key)
            assert refused.status_code == 403, (path, refused.text)
            assert phone.post(path, json=body).status_code == 401
        assert phone.get("/api/events/1/links", headers=key).status_code == 403
        assert phone.get("/api/events/1/links").status_code == 401
        event = _event(phone)
        listed = phone.get("/api/events").json()
        assert [line["event"] for line in listed["events"]] == [event["event"]] and listed["next"] is None
        assert listed["events"][0] == {
            "event": event["event"],
            "name": event["name"],
            "season": event["season"],
            "started_at": event["started_at"],
            "closed_at": None,
            "closed": False,
            "place": event["place"],
            "players": len(event["standings"]),
            "rounds": len(event["rounds"]),
        }
        assert phone.get("/api/seasons").json() == []
    assert len(event["rounds"]) == 1 and event["rounds"][0]["ended_at"] is None and not event["closed"]
    assert _evenings(sqlite_url) == [1, 2]


# The API


def test_an_event_is_started_seated_by_draw_then_by_hand_ended_and_closed(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        started = _start(phone, SEVEN, place="Bar Sport", round_deals=12)
        assert started["present"] == list(SEVEN) and started["rounds"] == [] and started["round_deals"] == 12
        assert [line["player"] for line in started["standings"]] == sorted(SEVEN)

        drawn = _seated(phone, {"seed": 7})["rounds"]
        assert len(drawn) == 1 and not drawn[0]["by_hand"] and drawn[0]["ended_at"] is None
        tables = drawn[0]["tables"]
        assert sorted(len(t["players"]) for t in tables) == [3, 4]
        assert sorted(name for t in tables for name in t["players"]) == sorted(SEVEN)
        assert [t["evening"] for t in tables] == [1, 2] and drawn[0]["sitting_out"] == []

        by_hand = [["Gina", "Franco", "Elena"], ["Dario", "Carla", "Bruno", "Anna"]]
        rounds = _seated(phone, {"tables": by_hand})["rounds"]
        assert rounds[0]["ended_at"] is not None and all(t["closed"] for t in rounds[0]["tables"])
        assert rounds[1]["by_hand"] and [t["players"] for t in rounds[1]["tables"]] == by_hand
        assert [t["evening"] for t in rounds[1]["tables"]] == [3, 4]
        with Ledger(sqlite_url) as ledger:  # the first to sit deals first; each table plays the event's stake
            assert [ledger.evening(n).first_dealer for n in (3, 4)] == ["Gina", "Dario"]
            assert {ledger.evening(n).stake_cents for n in (1, 2, 3, 4)} == {10}

        ended = phone.post("/api/events/1/rounds/end", json={}, headers=BEARER)
        assert ended.status_code == 200 and ended.json()["rounds"][1]["ended_at"] is not None
        assert all(t["closed"] for t in ended.json()["rounds"][1]["tables"])
        assert "no round under way" in _one_line_refusal(phone.post("/api/events/1/rounds/end", headers=BEARER))

        _seated(phone, {"seed": 1})
        closed = phone.post("/api/events/1/close", json={}, headers=BEARER)
        assert closed.status_code == 200 and closed.json()["closed"] and closed.json()["closed_at"]
        assert closed.json()["rounds"][2]["ended_at"] is not None
        assert "closed" in _one_line_refusal(_seat(phone))
        assert "closed" in _one_line_refusal(phone.post("/api/events/1/close", headers=BEARER))
        assert [e["event"] for e in phone.get("/api/events").json()["events"]] == [1]
    assert _evenings(sqlite_url) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("tables", "said"),
    [
        ([["Anna", "Bruno", "Carla"], ["Anna", "Dario", "Elena"]], "Anna"),  # twice
        ([["Anna", "Bruno", "Carla"], ["Dario", "Elena", "Zeno"]], "Zeno"),  # not at the event
        ([["Anna", "Bruno", "Carla", "Dario"]], "Elena"),  # Elena and Franco left without a seat
        ([["Anna", "Bruno"], ["Carla", "Dario", "Elena", "Franco"]], "2"),  # a table of two
    ],
)
def test_a_seating_by_hand_that_cannot_be_is_one_line_and_writes_nothing(
    sqlite_url: str, tables: list[list[str]], said: str
) -> None:
    with viewer(sqlite_url) as phone:
        before = _by_hand(phone)
        answer = _seat(phone, {"tables": tables, "arrived": ["Gina"]})
        assert said in _one_line_refusal(answer)
        after = _event(phone)
    assert after == before  # the round under way is still on, its tables open; Gina did not arrive
    assert after["rounds"][0]["ended_at"] is None and "Gina" not in after["present"]
    assert _evenings(sqlite_url) == [1, 2]


@pytest.mark.parametrize(
    "body",
    [
        {"left": ["Zeno"]},
        {"arrived": ["Anna"]},
        {"arrived": ["Hugo", "hugo"]},
        {"tables": [["Anna", "Bruno", "Carla"], "Dario"]},
        {"tables": "Anna, Bruno, Carla"},
        {"seed": "seven"},
        {"pairing": "standing"},
        {"arrived": "Hugo"},
    ],
)
def test_a_bad_round_body_is_one_line_and_writes_nothing(sqlite_url: str, body: dict[str, Any]) -> None:
    with viewer(sqlite_url) as phone:
        before = _by_hand(phone)
        _one_line_refusal(_seat(phone, body))
        assert _event(phone) == before
    assert _evenings(sqlite_url) == [1, 2]


def test_players_who_arrive_and_leave_are_counted_in_and_out_of_the_next_round(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _by_hand(phone)
        keys = _keys(phone)
        assert phone.post("/api/evenings/1/deals", json={"line": "anna solo 24"}, headers=_table(keys[1])).is_success
        event = _seated(phone, {"arrived": ["Gina", "Hugo"], "left": ["Anna"], "seed": 3})
        seated = sorted(name for t in event["rounds"][1]["tables"] for name in t["players"])
        assert seated == sorted(["Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Hugo"])
        assert sorted(event["present"]) == seated
        lines = {line["player"]: line for line in event["standings"]}
        assert not lines["Anna"]["present"] and lines["Anna"]["table"] is None and lines["Anna"]["points"] > 0
        assert lines["Hugo"]["present"] and lines["Hugo"]["deals"] == 0 and lines["Hugo"]["table"] is not None
        back = _seated(phone, {"arrived": ["Anna"], "left": ["Hugo", "Gina"], "seed": 3})
        assert sorted(back["present"]) == sorted(SIX) and back["rounds"][2]["sitting_out"] == []


def test_the_links_open_each_table_of_the_round_under_way(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _start(phone, SEVEN)
        assert phone.get("/api/events/1/links", headers=BEARER).json() == []
        _seated(phone, {"seed": 2})
        links = phone.get("/api/events/1/links", headers=BEARER).json()
        assert [(link["table"], link["evening"]) for link in links] == [(1, 1), (2, 2)]
        for link in links:
            assert link["link"] == f"/tables/{link['evening']}?key={link['key']}"
            assert link["key"] == keys(sqlite_url).table_key(link["evening"]) and TOKEN not in link["key"]
        _seated(phone, {"seed": 2})
        assert [link["evening"] for link in phone.get("/api/events/1/links", headers=BEARER).json()] == [3, 4]
        phone.post("/api/events/1/close", headers=BEARER)
        assert phone.get("/api/events/1/links", headers=BEARER).json() == []


def _played(deal: dict[str, Any], name: str, seats: int) -> bool:
    """Whether the player held cards in the deal: someone declared, and they were not the dealer sitting out."""
    return deal["declarer"] is not None and not (seats == 4 and name == deal["dealer"])


def test_the_event_figures_are_the_sums_of_its_tables_deals(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _start(phone, SEVEN)
        _seated(phone, {"tables": [["Anna", "Bruno", "Carla", "Dario"], ["Elena", "Franco", "Gina"]]})
        keys = _keys(phone)
        for evening, lines in {
            1: ["bruno solo 22", "pass", "dario solo 15", "anna solo 26", "carla solo 19"],
            2: ["elena solo 24", "franco solo 12", "gina solo 21"],
        }.items():
            for line in lines:
                done = phone.post(f"/api/evenings/{evening}/deals", json={"line": line}, headers=_table(keys[evening]))
                assert done.status_code == 201, done.text
        voided = phone.post("/api/evenings/1/deals/3/void", json={"reason": "misdeal"}, headers=_table(keys[1]))
        amended = phone.post(
            "/api/evenings/2/deals/2/amend",
            json={"line": "franco solo 20", "reason": "recount"},
            headers=_table(keys[2]),
        )
        assert voided.status_code == 200 and amended.status_code == 200, (voided.text, amended.text)
        _seated(phone, {"seed": 5})
        for evening, key in _keys(phone).items():
            players = phone.get(f"/api/evenings/{evening}").json()["players"]
            for line in (f"{players[1]} solo 23", f"{players[2]} solo 14"):
                assert phone.post(f"/api/evenings/{evening}/deals", json={"line": line}, headers=_table(key)).is_success

        event = _event(phone)
        points = {name: 0 for name in SEVEN}
        played = {name: 0 for name in SEVEN}
        for played_round in event["rounds"]:
            for table in played_round["tables"]:
                deals = phone.get(f"/api/evenings/{table['evening']}/deals").json()["deals"]
                standing = [deal for deal in deals if not deal["voided"]]
                assert table["deals"] == len(standing)
                for deal in standing:
                    for name, won in deal["payouts"].items():
                        points[name] += won
                        played[name] += _played(deal, name, len(table["players"]))
    lines = event["standings"]
    assert {line["player"]: line["points"] for line in lines} == points
    assert {line["player"]: line["deals"] for line in lines} == played
    assert sum(points.values()) == 0 and any(points.values())
    for line in lines:
        assert line["per_deal"] == (round(line["points"] / line["deals"], 2) if line["deals"] else None)
    ranked = sorted(lines, key=lambda line: (-line["points"], -(line["per_deal"] or 0), line["player"].casefold()))
    assert lines == ranked


# The pages


def test_each_seated_player_finds_the_table_and_seat_the_api_gives(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _start(phone, SEVEN)
        tables = _seated(phone, {"seed": 11})["rounds"][0]["tables"]
        for table in tables:
            for seat, name in enumerate(table["players"], start=1):
                page = phone.get("/events/1", params={"player": name.lower()})
                assert page.status_code == 200
                found = page.text.split('<div class="result seat-found">')[1].split("</div>")[0]
                assert f"<h2>{name}</h2>" in found
                assert f"Table {table['table']}, seat {seat}" in found
                assert f'href="/evenings/{table["evening"]}"' in found
                others = [other for other in table["players"] if other != name]
                assert f"With {', '.join(others)}." in found
                assert ("You deal first." if seat == 1 else f"{table['players'][0]} deals first.") in found
        page = phone.get("/events/1").text
        for name in SEVEN:
            assert f'href="/events/1?player={name}"' in page
        for table in tables:
            assert f"Table {table['table']}</a>" in page
            assert "".join(f"<li>{name}</li>" for name in table["players"]) in re.sub(r" <small.*?</small>", "", page)


def test_a_player_sitting_out_is_told_so_and_a_stranger_is_not_at_the_event(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _start(phone, SIX[:5])
        out = _seated(phone, {"seed": 4})["rounds"][0]["sitting_out"]
        assert out
        for name in out:
            page = phone.get("/events/1", params={"player": name}).text
            assert "You sit this round out." in page and "seat-found" in page and "Table 1, seat" not in page
        assert f"Sitting this round out: {', '.join(out)}." in phone.get("/events/1").text
        stranger = phone.get("/events/1", params={"player": "Zeno"}).text
        assert "Zeno is not at this event." in stranger and "seat-found" not in stranger
        phone.post("/api/events/1/rounds/end", headers=BEARER)
        between = phone.get("/events/1", params={"player": "Anna"}).text
        assert "No round is under way." in between and "Waiting for the next round to be seated." in between


HOSTILE = ("<script>alert(1)</script>", 'O\'Brien "Bob"', "Zed & <b>Co</b>", "L" * 40, "Dora", "Ezio")
EVENT_NAME = '<i>Night</i> & "quotes"'
RAW = ("<script>alert", "<em>", "<b>Co</b>", "<i>Night", "<img", "<u>Bar", '"Bob""', "onerror=")


def test_hostile_names_are_shown_as_typed_on_every_club_page(sqlite_url: str) -> None:
    with scorekeeper(sqlite_url) as phone:
        made = phone.post("/api/seasons", json={"name": "<em>Autumn</em>"}, headers=BEARER)
        assert made.status_code == 201, made.text
        _start(phone, HOSTILE, name=EVENT_NAME, place="<u>Bar</u>", season="<em>Autumn</em>")
        _seated(phone, {"tables": [list(HOSTILE[:3]), list(HOSTILE[3:])]})
        key = _keys(phone)[1]
        assert phone.post("/api/evenings/1/deals", json={"line": "o'brien solo 22"}, headers=_table(key)).is_success
        pages = {
            path: phone.get(path)
            for path in (
                "/events",
                "/events/1",
                "/events/1/board",
                "/events/1/board/live",
                "/events/1/sheets",
                *(f"/events/1?player={quote(name)}" for name in HOSTILE),
                f"/events/1?player={quote('<svg onload=alert(3)>')}",
            )
        }
    for path, page in pages.items():
        assert page.status_code == 200, path
        for raw in (*RAW, "<svg onload"):
            assert raw not in page.text, (path, raw)
    shown = {path: html.unescape(_text(page.text)) for path, page in pages.items()}
    assert EVENT_NAME in shown["/events"] and "<u>Bar</u>" in shown["/events"]
    for path in ("/events/1", "/events/1/board", "/events/1/sheets"):
        assert EVENT_NAME in shown[path], path
        for name in HOSTILE:
            assert name in shown[path], (path, name)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages["/events/1/board/live"].text
    for seat, name in enumerate(HOSTILE[:3], start=1):
        assert f"Table 1, seat {seat}" in shown[f"/events/1?player={quote(name)}"], name
    assert "Table 2, seat 1" in shown[f"/events/1?player={'L' * 40}"]
    assert "<svg onload=alert(3)> is not at this event." in shown[f"/events/1?player={quote('<svg onload=alert(3)>')}"]
    chips = re.findall(r'<a class="chip" href="([^"]*)"', pages["/events/1"].text)
    assert all(re.fullmatch(r"/events/1\?player=[A-Za-z0-9%._~/-]+", href) for href in chips), chips
    assert sorted(parse_qs(urlsplit(href).query)["player"][0] for href in chips) == sorted(HOSTILE)


def test_the_board_stream_sends_the_leaderboard_then_a_new_one_after_each_deal(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _by_hand(phone)
        keys = _keys(phone)
    with _bar_screen(sqlite_url) as screen:
        page = screen.get("/events/1/board").text
        assert 'data-events="/events/1/board/live"' in page and '<script src="/static/live.js"' in page
        assert "<form" not in page and set(_points(page).values()) == {"0"}
        with screen.stream("GET", "/events/1/board/live") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            assert stream.headers["cache-control"] == "no-store"
            lines = stream.iter_lines()
            first_id, first = _next_board(lines)
            assert _points(first) == {name: "0" for name in SIX} and "Round 1" in first
            recorded = screen.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=_table(keys[1]))
            assert recorded.status_code == 201
            second_id, second = _next_board(lines)
            assert int(second_id) > int(first_id)
            assert _points(second) == {
                "Bruno": "+4",
                "Anna": "-2",
                "Carla": "-2",
                "Dario": "0",
                "Elena": "0",
                "Franco": "0",
            }
            assert second.index("Bruno") < second.index("Dario") < second.index("Anna")
            with Ledger(sqlite_url) as terminal:  # a deal recorded elsewhere: the screen's poll finds it
                terminal.record("elena solo 24", evening=2)
            third_id, third = _next_board(lines)
            assert int(third_id) > int(second_id) and _points(third)["Elena"] == "+4"
            assert _points(third)["Dario"] == "-2"
            end = threading.Timer(0.2, lambda: screen.post("/api/events/1/rounds/end", headers=BEARER))
            end.start()
            _fourth_id, fourth = _next_board(lines)
            end.join()
            assert "Waiting for the next round to be seated." in fourth and _points(fourth) == _points(third)
            close = threading.Timer(0.2, lambda: screen.post("/api/events/1/close", headers=BEARER))
            close.start()
            _fifth_id, fifth = _next_board(lines)  # closed between rounds: nothing else changed, the board says so
            close.join()
            assert "The event is closed." in fifth and _points(fifth) == _points(third)


def test_a_deal_tapped_on_a_tables_phone_reaches_the_board_without_waiting_for_its_poll(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _by_hand(phone)
        keys = _keys(phone)
    with _bar_screen(sqlite_url) as screen:  # only the server's own writes can tell the board
        assert screen.get(f"/tables/1?key={keys[1]}").status_code == 303
        form = csrf(screen)
        with screen.stream("GET", "/events/1/board/live") as stream:
            lines = stream.iter_lines()
            _next_board(lines)
            sent = {"csrf": form, "line": "bruno solo 22", "key": "tapped-1"}
            tapped = screen.post(
                "/evenings/1/deals", data=sent, headers={"Sent-By": "page", "Origin": f"http://{HOST}"}
            )
            assert tapped.status_code == 200 and "main" in tapped.json()
            _id, after = _next_board(lines)
            assert _points(after)["Bruno"] == "+4"


def test_the_board_of_a_language_is_sent_in_that_language(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _by_hand(phone)
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        italian = phone.get("/events/1/board/live", headers=ITALIAN).text
        english = phone.get("/events/1/board/live").text
    assert "<th>Player</th>" in english and "<th>Giocatore</th>" in italian
    assert "4.00" in english and "4,00" in italian and "4.00" not in italian


def test_the_sheets_page_has_the_results_and_one_scoresheet_per_table(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _start(phone, SEVEN, place="Bar Sport")
        assert phone.get("/events/1/sheets").text.count('class="sheet scoresheet"') == 0
        tables = _seated(phone, {"seed": 9})["rounds"][0]["tables"]
        page = phone.get("/events/1/sheets").text
        sheets = page.split('<section class="sheet scoresheet">')[1:]
        assert len(sheets) == len(tables) == 2
        for table, sheet in zip(tables, sheets, strict=True):
            assert f"Round 1 · Table {table['table']}" in sheet and f"Evening {table['evening']}" in sheet
            header = sheet.split("</thead>")[0]
            assert [html.unescape(n) for n in re.findall(r'<th class="num">([^<]*)</th>', header)[2:]] == table[
                "players"
            ]
            assert sheet.count('<tr><td class="num">') == 24
            assert f"{table['players'][0]} deals first." in sheet
        assert page.count('<table class="board">') == 1 and "Results" in page
        phone.post("/api/events/1/rounds/end", headers=BEARER)  # the round ended: its sheets still print
        assert phone.get("/events/1/sheets").text.count('class="sheet scoresheet"') == 2


def test_a_missing_event_is_one_line_as_a_missing_evening_is(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        assert "No club nights yet" in phone.get("/events").text
        _start(phone)
        for path in ("/events/2", "/events/2/board", "/events/2/sheets", "/events/2/board/live"):
            answer = phone.get(path)
            assert answer.status_code == 422, (path, answer.status_code)
            assert "event 2 does not exist (events are 1 to 1)" in answer.text and "Traceback" not in answer.text
        for path in ("/events/0", "/events/x", "/events/-1", "/events/99999999999999999999"):
            assert phone.get(path).status_code == 404, path
        assert "event 2 does not exist" in _one_line_refusal(phone.get("/api/events/2"))
        assert phone.get("/api/events/x").status_code == 404


# In Italian


def _club_strings() -> list[str | tuple[str, ...]]:
    """The strings of the club pages' templates."""
    from babel.messages.extract import extract_from_dir

    from tools.catalog import JINJA_OPTIONS, KEYWORDS, METHODS, TEMPLATES

    return [
        message
        for filename, _line, message, _comments, _context in extract_from_dir(
            TEMPLATES, method_map=METHODS[1:], options_map={"**.html": JINJA_OPTIONS}, keywords=KEYWORDS
        )
        if "club" in filename
    ]


def _fragments(message: str | tuple[str, ...]) -> set[str]:
    """The words of an English string between its placeholders, long enough not to be found by chance."""
    texts = (message,) if isinstance(message, str) else message
    parts = (part.strip(" .,:·") for text in texts for part in re.split(r"%\(\w+\)[sd]", text))
    return {part for part in parts if len(re.sub(r"\W", "", part)) >= 4}


def test_the_club_pages_in_italian_leave_no_english_behind(sqlite_url: str) -> None:
    with scorekeeper(sqlite_url) as phone:
        _start(phone, SIX[:5], name="Serata al circolo", round_deals=12, round_minutes=90)
        _seated(phone, {"seed": 4})
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        phone.get("/language/it")
        out = _event(phone)["rounds"][0]["sitting_out"][0]
        seated = _event(phone)["rounds"][0]["tables"][0]["players"][1]
        pages = {
            path: phone.get(path).text
            for path in (
                "/events",
                "/events/1",
                f"/events/1?player={seated}",
                f"/events/1?player={out}",
                "/events/1?player=Zeno",
                "/events/1/board",
                "/events/1/board/live",
                "/events/1/sheets",
            )
        }
    english = set().union(*map(_fragments, _club_strings()))
    for path, page in pages.items():
        if not path.endswith("/live"):
            assert '<html lang="it">' in page, path
        shown = _text(page)
        left = sorted(fragment for fragment in english if fragment in shown)
        assert not left, f"{path} shows English: {left}"
        assert not re.search(r"\b(Table|Round|Leaderboard|Points|Deals|seat|Results|Player)\b", shown), path
    assert "4,00" in pages["/events/1/board"] and "4.00" not in pages["/events/1/board"]


# A table's own page says where it plays


def test_a_tables_evening_page_says_its_round_and_table_and_how_far_the_round_is(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        _start(phone, round_deals=12, round_minutes=45)
        _seated(phone, {"tables": [list(SIX[:3]), list(SIX[3:])]})
        keys = _keys(phone)
        for line in ("elena solo 22", "pass", "franco solo 14"):
            assert phone.post("/api/evenings/2/deals", json={"line": line}, headers=_table(keys[2])).is_success
        second, first = _text(phone.get("/evenings/2").text), _text(phone.get("/evenings/1").text)
        italian = _text(phone.get("/evenings/2", headers=ITALIAN).text)
        fragment = phone.get("/evenings/2/events").text
        started = _event(phone)["rounds"][0]["started_at"]
        assert phone.post("/api/events/1/rounds/end", json={}, headers=BEARER).is_success
        over = _text(phone.get("/evenings/2").text)
    assert "Club night · round 1, table 2 · 3 of 12 deals played · until " in " ".join(second.split())
    assert "round 1, table 1 · 0 of 12 deals played" in " ".join(first.split())
    assert "turno 1, tavolo 2 · giocate 3 su 12 smazzate · fino alle " in " ".join(italian.split())
    assert "3 of 12 deals played" in fragment and 'href="/events/1"' in fragment  # the live part, as it changes
    assert "round over" in over and "deals played" not in over
    assert started


def test_an_evening_of_its_own_says_nothing_of_rounds(sqlite_url: str) -> None:
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"])
    with viewer(sqlite_url) as phone:
        page = _text(phone.get("/evenings/1").text)
    assert "round" not in page.lower() and "table 1" not in page.lower()
