"""What a request may carry: bodies over 64 KB are refused (413) before they are read whole, every free-text field
over its length, JSON nested deeper than any field and lone surrogates are refused (422) naming the field, and
undo needs the revision the page showed. Nothing is written by any of them."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from test_web_support import BEARER, csrf, deal_count, scorekeeper, start, viewer

from ledger import Ledger
from ledger.web.limits import MOST_BYTES, MOST_CHARACTERS, MOST_OTHER


def _revision(db: str) -> int:
    with Ledger(db) as ledger:
        return ledger.evening(1).revision


def test_a_body_over_64_kb_is_refused_before_it_is_read(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        said = phone.post(
            "/api/evenings/1/deals", headers={**BEARER, "Content-Length": str(100 * 2**20)}, content=b"{}"
        )
        assert said.status_code == 413 and said.json() == {"error": "the request is over 65536 bytes: nothing was read"}

        def streamed() -> Iterator[bytes]:  # no Content-Length: counted as it comes
            yield b'{"line": "pass", "key": "'
            yield from (b"k" * 8192 for _ in range(16))
            yield b'"}'

        chunked = phone.post("/api/evenings/1/deals", headers=BEARER, content=streamed())
        assert chunked.status_code == 413 and "65536 bytes" in chunked.json()["error"]
        page = phone.post("/evenings", content=b"players=" + b"A" * MOST_BYTES)
        assert page.status_code == 413 and "nothing was read" in page.text
    assert deal_count(sqlite_url) == 0


API_FIELDS = [
    ("/api/evenings/1/deals", {"line": "bruno solo 22"}, "key"),
    ("/api/evenings/1/deals", {}, "line"),
    ("/api/evenings/1/deals/1/amend", {"line": "20"}, "reason"),
    ("/api/evenings/1/deals/1/void", {}, "reason"),
    ("/api/evenings", {"players": ["Dora", "Elio", "Fede"]}, "note"),
    ("/api/evenings", {"players": ["Dora", "Elio", "Fede"]}, "place"),
    ("/api/evenings", {"players": ["Dora", "Elio", "Fede"]}, "currency"),
    ("/api/evenings/1/deals", {"line": "bruno solo 22"}, "dealer"),
]


@pytest.mark.parametrize(("path", "body", "field"), API_FIELDS)
def test_every_free_text_field_of_the_api_has_a_length(
    sqlite_url: str, path: str, body: dict[str, object], field: str
) -> None:
    start(sqlite_url)
    with Ledger(sqlite_url) as ledger:
        ledger.record("carla solo 20")
    most = MOST_CHARACTERS.get(field, MOST_OTHER)
    with viewer(sqlite_url) as phone:
        said = phone.post(path, json={**body, field: "x" * (most + 1)}, headers=BEARER)
    assert said.status_code == 422
    assert said.json() == {"error": f"{field}: {most + 1} characters; at most {most}"}
    with Ledger(sqlite_url) as ledger:
        assert ledger.evening(1).revision == 1 and len(ledger.evenings()) == 1


def test_a_list_of_players_has_a_length_too(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        names = phone.post("/api/evenings", json={"players": [f"P{n}" for n in range(201)]}, headers=BEARER)
        long_name = phone.post("/api/evenings", json={"players": ["Anna", "B" * 301, "Carla"]}, headers=BEARER)
    assert names.status_code == long_name.status_code == 422
    assert names.json()["error"] == "players: 201 items; at most 200"  # as many as a club night may have
    assert long_name.json()["error"] == "players: 301 characters; at most 300"


FORM_FIELDS = [
    ("/evenings/1/deals", {}, "line"),
    ("/evenings/1/deals", {"line": "bruno solo 22"}, "key"),
    ("/evenings/1/deals/1/amend", {"line": "20"}, "reason"),
    ("/evenings/1/deals/1/void", {}, "reason"),
    ("/evenings", {"players": "Dora, Elio, Fede"}, "place"),
    ("/evenings", {}, "players"),
    ("/evenings/1/deals", {"declarer": "Bruno", "contract": "solo"}, "thirds"),
]


@pytest.mark.parametrize(("path", "form", "field"), FORM_FIELDS)
def test_every_field_of_the_forms_has_a_length(sqlite_url: str, path: str, form: dict[str, str], field: str) -> None:
    start(sqlite_url)
    with Ledger(sqlite_url) as ledger:
        ledger.record("carla solo 20")
    most = MOST_CHARACTERS.get(field, MOST_OTHER)
    with scorekeeper(sqlite_url) as phone:
        said = phone.post(path, data={**form, "csrf": csrf(phone), field: "x" * (most + 1)})
    assert said.status_code == 422 and f"{field}: {most + 1} characters; at most {most}" in said.text
    with Ledger(sqlite_url) as ledger:
        assert ledger.evening(1).revision == 1 and len(ledger.evenings()) == 1


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/api/evenings/1/deals", "line"),
        ("/api/evenings/1/deals", "thirds"),
        ("/api/evenings", "options"),
        ("/api/evenings", "players"),
        ("/api/evenings/1/undo", "seen_revision"),
    ],
)
def test_json_nested_deeper_than_any_field_is_one_line(sqlite_url: str, path: str, field: str) -> None:
    """The probe: JSON nested 1,000 deep answered 500."""
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        for depth in (1_000, 30_000):
            nested = f'{{"{field}": ' + "[" * depth + "]" * depth + "}"
            said = phone.post(path, content=nested.encode(), headers=BEARER)
            assert said.status_code == 422, depth
            assert len(said.json()["error"]) < 200 and "\n" not in said.json()["error"]
    assert deal_count(sqlite_url) == 0


@pytest.mark.parametrize(
    ("path", "field"), [("/api/evenings/1/deals", "key"), ("/api/evenings/1/deals/1/void", "reason")]
)
def test_a_lone_surrogate_is_not_text(sqlite_url: str, path: str, field: str) -> None:
    start(sqlite_url)
    with Ledger(sqlite_url) as ledger:
        ledger.record("carla solo 20")
    given = {"line": "bruno solo 22"} if "void" not in path else {}
    body = json.dumps({**given, field: "half \ud800 a pair"})  # JSON spells it as \\ud800
    with viewer(sqlite_url) as phone:
        said = phone.post(path, content=body.encode(), headers={**BEARER, "Content-Type": "application/json"})
        named = phone.post(path, content=b'{"\\udfff": 1}', headers=BEARER)
    assert said.status_code == 422 and said.json() == {
        "error": f"{field}: not text (it holds U+D800, half of a character)"
    }
    assert named.status_code == 422 and named.json()["error"].startswith("a field name: not text")
    assert _revision(sqlite_url) == 1


def test_undo_needs_the_revision_the_page_showed(sqlite_url: str) -> None:
    start(sqlite_url)
    with Ledger(sqlite_url) as ledger:
        ledger.record("carla solo 20")
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        for seen in ("", "abc", "1.0", "-1", "\u0661"):  # the last an Arabic-Indic one
            said = phone.post("/evenings/1/undo", data={"csrf": token, "seen_revision": seen, "confirm": "yes"})
            assert said.status_code == 422 and "the evening&#39;s revision this page showed" in said.text, seen
        missing = phone.post("/evenings/1/undo", data={"csrf": token, "confirm": "yes"})
        assert missing.status_code == 422
        for body in ({}, {"seen_revision": None}, {"seen_revision": "1"}):
            api = phone.post("/api/evenings/1/undo", json=body, headers=BEARER)
            assert api.status_code == 422 and "seen_revision" in api.json()["error"], body
        assert _revision(sqlite_url) == 1
        assert phone.post("/api/evenings/1/undo", json={"seen_revision": 1}, headers=BEARER).status_code == 200
    assert _revision(sqlite_url) == 2


def test_the_limits_allow_a_long_evening_of_ordinary_typing(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        body = {"line": "carla chiamo 3D@anna 17 last=opp", "key": "phone-7-" + "x" * 80}
        assert phone.post("/api/evenings/1/deals", json=body, headers=BEARER).status_code == 201
        why = {"reason": "recounted the last trick " * 8}
        assert phone.post("/api/evenings/1/deals/1/void", content=json.dumps(why), headers=BEARER).status_code == 200


def test_a_number_past_any_evening_or_deal_is_not_found_rather_than_a_failure(sqlite_url: str) -> None:
    """Python refuses to read a number of more than 4,300 digits: such a path or revision used to be a 500."""
    start(sqlite_url)
    huge = "9" * 5000
    with viewer(sqlite_url) as phone:
        for path in (
            f"/evenings/{huge}",
            f"/evenings/1/deals/{huge}",
            f"/api/evenings/1/deals/{huge}",
            f"/api/evenings/{huge}",
        ):
            assert phone.get(path).status_code == 404, path[:30]
        assert phone.get(f"/evenings/1?deal={huge}").status_code == 200
        assert phone.get(f"/evenings/1/events?seen={huge}").status_code == 200
        assert phone.get("/evenings/1/events", headers={"Last-Event-ID": huge}).status_code == 200
