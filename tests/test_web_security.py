"""Who may write, and what a hostile name can do: nothing is written without a write session or the token, the token
never reaches a browser, wrong tries are slowed and logged, every form needs its CSRF token and this site's
Origin, only this server's host names are answered, every answer carries the security headers, and everything
typed is shown escaped on every page."""

from __future__ import annotations

import base64
import hashlib
import logging
import re
from pathlib import Path

import pytest
from test_web_support import (
    BEARER,
    TOKEN,
    StoppedClock,
    TestClient,
    csrf,
    forget_wrong_tries,
    keys,
    link,
    scorekeeper,
    start,
    viewer,
)

from ledger import Ledger
from ledger.errors import LedgerError
from ledger.values import Terms
from ledger.web.access import check_token, cookie_name
from ledger.web.app import create_app
from ledger.web.guard import HEADERS
from ledger.web.throttle import FAILED_PAUSE_SECONDS, FIRST_WAIT_SECONDS

WRITES = [
    ("/evenings/1/deals", {"line": "bruno solo 22"}),
    ("/evenings/1/deals/1/amend", {"line": "15", "reason": "x"}),
    ("/evenings/1/deals/1/void", {"reason": "x"}),
    ("/evenings/1/undo", {"seen_revision": "1", "confirm": "yes"}),
    ("/evenings/1/close", {"confirm": "yes"}),
    ("/evenings", {"players": "Dora,Elio,Fede"}),
]
COOKIE = cookie_name(80)
"""The write session's cookie on the test client's server."""


def _one_deal(db: str) -> None:
    start(db)
    with Ledger(db) as ledger:
        ledger.record("carla solo 20")


def _revision(db: str) -> int:
    """The evening's change counter: 1 after its one deal, more after any write."""
    with Ledger(db) as ledger:
        evening = ledger.evening(1)
    return evening.revision + evening.closed


@pytest.mark.parametrize(("path", "form"), WRITES)
def test_no_write_without_a_write_session_or_with_a_forged_one(
    sqlite_url: str, path: str, form: dict[str, str]
) -> None:
    _one_deal(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        token, session = csrf(phone), phone.cookies[COOKIE]
    opened, _dot, signature = session.rpartition(".")
    sid, _dot, issued = opened.partition(".")
    forged = [
        "guess",
        TOKEN,
        f"{sid[::-1]}.{issued}.{signature}",  # another id under the same signature
        f"{sid}.{int(issued) + 1}.{signature}",  # a later start, to outlive the week
        f"{opened}.{signature[:-1]}",
    ]
    with viewer(sqlite_url) as phone:
        assert phone.post(path, data={**form, "csrf": token}).status_code == 401
        for cookie in forged:
            phone.cookies.set(COOKIE, cookie)
            refused = phone.post(path, data={**form, "csrf": token})
            assert refused.status_code == 401 and "open the scorekeeper&#39;s link again" in refused.text
    with Ledger(sqlite_url) as ledger:
        assert len(ledger.evenings()) == 1
    assert _revision(sqlite_url) == 1


@pytest.mark.parametrize(("path", "form"), WRITES)
def test_a_form_needs_its_csrf_token_and_this_sites_origin(sqlite_url: str, path: str, form: dict[str, str]) -> None:
    _one_deal(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        assert phone.post(path, data=form).status_code == 403
        assert phone.post(path, data={**form, "csrf": "0" * len(token)}).status_code == 403
        for foreign in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site", "Origin": "null"}):
            assert phone.post(path, data={**form, "csrf": token}, headers=foreign).status_code == 403
        assert _revision(sqlite_url) == 1
        own = {"Origin": "http://testserver"}
        assert phone.post(path, data={**form, "csrf": token}, headers=own).status_code == 303


def test_the_csrf_token_belongs_to_the_write_session(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        old = csrf(phone)
    with scorekeeper(sqlite_url) as phone:
        assert csrf(phone) != old
        assert phone.post("/evenings/1/deals", data={"line": "bruno solo 22", "csrf": old}).status_code == 403


SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
IMG_NAME = '"><img src onerror>'


def test_hostile_names_places_reasons_and_lines_are_shown_escaped_on_every_page(sqlite_url: str) -> None:
    start(sqlite_url, (SCRIPT, IMG_NAME, "Carla"), place=IMG)
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        pages = {"line": phone.post("/evenings/1/deals", data={"csrf": token, "line": f"{IMG} solo"}).text}
        phone.post("/evenings/1/deals", data={"csrf": token, "line": "<scr solo 22"})
        phone.post("/evenings/1/deals", data={"csrf": token, "line": '"> chiamo 3D@<scr 17 last=opp'})
        phone.post("/evenings/1/deals/2/amend", data={"csrf": token, "line": "19", "reason": IMG})
        phone.post("/evenings/1/deals/1/void", data={"csrf": token, "reason": SCRIPT})
        guided = {"csrf": token, "declarer": '">', "contract": "chiamo"}
        pages["question"] = phone.post("/evenings/1/deals", data=guided).text
        pages["bad card"] = phone.post("/evenings/1/deals", data={**guided, "called": IMG, "thirds": "20"}).text
        for path in (
            "/evenings",
            "/evenings/1",
            "/evenings/1?deal=2",
            "/evenings/1/deals",
            "/evenings/1/deals/1",
            "/evenings/1/deals/2",
            "/evenings/1/settle",
            "/evenings/1/charts",
            "/evenings/new",
        ):
            pages[path] = phone.get(path).text
        pages["events"] = phone.get("/evenings/1/events").text
    for where, html in pages.items():
        assert SCRIPT not in html and "<img src=x" not in html and "<img src onerror" not in html, where
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages["/evenings/1"]
    assert "&#34;&gt;&lt;img src onerror&gt;" in pages["/evenings/1"]
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in pages["/evenings/1/deals/2"]
    assert "How many points" in pages["question"] and 'name="declarer" value="&#34;&gt;"' in pages["question"]
    assert "&gt;&lt;img src=x onerror=alert(1)&gt;" in pages["bad card"]  # in the error line, escaped
    assert re.search(r"&lt;script&gt;alert\(1\)&lt;/script&gt;", pages["/evenings/1/deals"])


def test_the_write_link_key_is_compared_whole(sqlite_url: str) -> None:
    start(sqlite_url)
    key = keys(sqlite_url).link_key
    for guess in ("", key[:-1], key + "x", key.upper(), TOKEN):
        forget_wrong_tries(sqlite_url)
        with viewer(sqlite_url) as phone:
            wrong = phone.get("/write", params={"key": guess})
            assert wrong.status_code == 403 and COOKIE not in phone.cookies


PAGES = (
    "/",
    "/welcome",
    "/evenings",
    "/evenings/new",
    "/evenings/1",
    "/evenings/1?deal=1",
    "/evenings/1/deals",
    "/evenings/1/deals/1",
    "/evenings/1/settle",
    "/evenings/1/charts",
    "/evenings/1/events",
    "/api/evenings",
    "/api/evenings/1",
    "/api/evenings/1/deals",
)


def test_the_token_never_reaches_a_browser_and_the_link_key_stays_out_of_the_pages(sqlite_url: str) -> None:
    _one_deal(sqlite_url)
    key = keys(sqlite_url).link_key
    with scorekeeper(sqlite_url) as phone:
        assert phone.cookies[COOKIE] != TOKEN and TOKEN not in phone.cookies[COOKIE]
        for path in PAGES:
            answer = phone.get(path, follow_redirects=True)
            assert answer.status_code == 200, path
            seen = answer.text + str(answer.headers)
            assert TOKEN not in seen and key not in seen, path


def test_a_write_session_and_its_forms_outlive_a_restart_with_the_same_token_only(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        session, token = phone.cookies[COOKIE], csrf(phone)
    with viewer(sqlite_url) as restarted:
        restarted.cookies.set(COOKIE, session)
        assert restarted.post("/evenings/1/deals", data={"csrf": token, "line": "bruno solo 22"}).status_code == 303
    app = create_app(sqlite_url, TOKEN + "-new", hosts=["testserver"])
    with TestClient(app, follow_redirects=False) as renewed:
        renewed.cookies.set(COOKIE, session)
        refused = renewed.post("/evenings/1/deals", data={"csrf": token, "line": "carla solo 20"})
        assert refused.status_code == 401 and "the scorekeeper&#39;s link has changed" in refused.text
    assert _revision(sqlite_url) == 1


def test_a_server_of_another_ledger_takes_none_of_the_keys_even_with_the_same_token(
    sqlite_url: str, tmp_path: Path
) -> None:
    """The probe: two servers of one user (one token file) took each other's write link, a session cookie renamed to
    the other's port, and a table key on the other ledger's evening of the same number. Here two servers with the
    same token, each on a ledger of its own with club tables on evenings 1 and 2: every key writes on its own ledger
    only (the cookie of both is the test client's port's)."""
    other = str(tmp_path / "other.sqlite3")
    for db in (sqlite_url, other):
        with Ledger(db) as ledger:
            ledger.club.start_event(
                "Club night", ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fede"], Terms(stake="0.10")
            )
            ledger.club.seat_round()
    table = {"Authorization": f"Bearer {keys(sqlite_url).table_key(1)}"}
    clock = StoppedClock()
    with scorekeeper(sqlite_url) as first, viewer(other, clock=clock) as second:
        assert first.post("/api/evenings/1/deals", json={"line": "pass"}, headers=table).status_code == 201
        assert second.get(link(sqlite_url)).status_code == 403 and COOKIE not in second.cookies
        clock.move(FIRST_WAIT_SECONDS)  # the wait of the wrong link is over: the next wrong try is a first one
        refused = second.post("/api/evenings/1/deals", json={"line": "pass"}, headers=table)
        assert refused.status_code == 403 and refused.json() == {"error": "the token is wrong: nothing was written"}
        second.cookies.set(COOKIE, first.cookies[COOKIE])
        refused = second.post("/evenings/1/deals", data={"csrf": csrf(first), "line": "pass"})
        assert refused.status_code == 401 and "the scorekeeper&#39;s link has changed" in refused.text
        assert "Record a deal" not in second.get("/evenings/1").text
    with Ledger(sqlite_url) as ledger, Ledger(other) as second_ledger:
        assert [ledger.evening(1).revision, second_ledger.evening(1).revision] == [1, 0]


@pytest.mark.parametrize("token", ["1234", "correct horse battery staple", "a" * 24, "0123456789abcdef" * 1 + "0" * 15])
def test_a_token_under_128_bits_or_with_other_characters_is_refused(token: str) -> None:
    with pytest.raises(LedgerError, match="the write token"):
        check_token(token)


@pytest.mark.parametrize(
    "token",
    [
        "kQ8v-Zr3xL0_pT6mWc2YhJ",
        "9f1c3ab27e4d58c06b7a1e2f3d9c0b84",
        "482913075561239874602138457720913856472",
        "q7x2mzk9v4t1c8w3n6b0p5r2d",
    ],
)
def test_a_token_of_128_bits_as_written_is_taken(token: str) -> None:
    check_token(token)


@pytest.mark.parametrize("token", ["A" * 22, "0123456789abcdef" * 2, "1" * 39, "abc123" * 6])
def test_a_token_of_128_bits_that_anyone_could_guess_is_refused(token: str) -> None:
    with pytest.raises(LedgerError, match="the write token"):
        check_token(token)


def test_a_wrong_try_within_the_wait_doubles_it_a_right_one_is_served_at_once_and_each_is_one_line(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The probe: after one wrong try from an address, its right tries were refused (429) until a wrong try an hour
    later. Now the wait holds back wrong tries only, and ends the address's record when it is over."""
    start(sqlite_url)
    caplog.set_level(logging.WARNING, logger="calabresella")
    clock = StoppedClock()
    guess = {"Authorization": "Bearer x"}
    with viewer(sqlite_url, clock=clock) as phone:
        began = clock.now()
        assert phone.get("/write?key=guess").status_code == 403  # waits 1 s
        assert clock.now() - began == FAILED_PAUSE_SECONDS  # the answer waited
        assert phone.get(link(sqlite_url)).status_code == 303 and COOKIE in phone.cookies  # at once, in the wait
        assert phone.post("/api/evenings/1/deals", json={"line": "pass"}, headers=BEARER).status_code == 201
        second = phone.post("/api/evenings/1/deals", json={"line": "pass"}, headers=guess)
        assert second.status_code == 429 and second.headers["retry-after"] == "2"  # 2 s from the try
        assert "too many wrong tokens from testclient: try again in 2 s" in second.json()["error"]
        third = phone.get("/write?key=guess")
        assert third.status_code == 429 and third.headers["retry-after"] == "4"
        clock.move(4 - FAILED_PAUSE_SECONDS)  # the wait set by the third try is over: a wrong try is a first again
        assert phone.post("/api/evenings/1/deals", json={"line": "pass"}, headers=guess).status_code == 403
    lines = [record.getMessage() for record in caplog.records if record.name == "calabresella.web"]
    assert lines == [
        "refused a wrong write link from testclient (1 in a row; it waits 1 s)",
        "refused a wrong API token from testclient (2 in a row; it waits 2 s)",
        "refused a wrong write link from testclient (3 in a row; it waits 4 s)",
        "refused a wrong API token from testclient (1 in a row; it waits 1 s)",
    ]
    assert _revision(sqlite_url) == 1


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", ""])
def test_only_the_servers_own_host_names_are_answered(sqlite_url: str, host: str) -> None:
    _one_deal(sqlite_url)
    with viewer(sqlite_url) as phone:
        for path in ("/evenings/1", "/api/evenings/1/standings", "/static/live.js"):
            refused = phone.get(path, headers={"Host": host})
            assert refused.status_code == 421 and "Bruno" not in refused.text, path
            assert refused.headers["content-security-policy"] == HEADERS["Content-Security-Policy"]
        assert phone.get("/evenings/1", headers={"Host": "testserver:8000"}).status_code == 200


def test_the_addresses_listened_on_are_allowed_ipv6_included(sqlite_url: str) -> None:
    _one_deal(sqlite_url)
    app = create_app(sqlite_url, TOKEN)  # loopback only, as `serve` without --host
    with TestClient(app, base_url="http://127.0.0.1:8000") as phone:
        for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"):
            assert phone.get("/api/evenings/1", headers={"Host": host}).status_code == 200, host
        assert phone.get("/api/evenings/1", headers={"Host": "192.168.1.20:8000"}).status_code == 421


def test_every_answer_carries_the_security_headers(sqlite_url: str) -> None:
    _one_deal(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        answers = {path: phone.get(path) for path in (*PAGES, "/static/style.css", "/evenings/9", "/nowhere")}
        answers["post"] = phone.post("/evenings/1/deals", data={"csrf": csrf(phone), "line": "bruno solo 22"})
        answers["api 401"] = phone.post("/api/evenings/1/undo", json={})
        answers["413"] = phone.post("/api/evenings/1/deals", content=b"x" * 70_000, headers=BEARER)
    for where, answer in answers.items():
        for name, value in HEADERS.items():
            assert answer.headers.get(name) == value, (where, name)
    assert "frame-ancestors 'none'" in HEADERS["Content-Security-Policy"]
    assert "script-src 'self';" in HEADERS["Content-Security-Policy"]


def test_the_change_log_names_each_phone_by_a_name_that_tells_nothing_of_its_cookie(sqlite_url: str) -> None:
    """The probe: the change log, which anyone may read (the API's, the export's), named a phone by the first six
    characters of its write session's cookie. Now by four letters and digits derived with a key of the server's: the
    same for each change of one phone, another for another phone, and shown on the deals page."""
    start(sqlite_url)
    with scorekeeper(sqlite_url) as anna, scorekeeper(sqlite_url) as bruno:
        for phone, line in ((anna, "anna solo 22"), (anna, "bruno solo 22"), (bruno, "carla solo 22")):
            assert phone.post("/evenings/1/deals", data={"csrf": csrf(phone), "line": line}).status_code == 303
        cookies = [phone.cookies[COOKIE] for phone in (anna, bruno)]
        changes = anna.get("/api/evenings/1/changes").json()["changes"]
        listed = anna.get("/evenings/1/deals").text
    names = [change["session"] for change in changes if change["source"] == "phone"]
    assert len(names) == 3 and names[0] == names[1] != names[2], names
    assert all(re.fullmatch("[A-Z2-7]{4}", name) and name not in cookie for name in names for cookie in cookies)
    for number, name in zip((1, 2, 3), names, strict=True):
        assert re.search(rf"{number}\. deal {number} recorded: \w+ solo [0-9+/]+ · phone {name}<", listed), listed


def test_the_report_allows_its_own_styles_and_images_and_no_script(sqlite_url: str) -> None:
    _one_deal(sqlite_url)
    with viewer(sqlite_url) as phone:
        report = phone.get("/evenings/1/report")
    policy = report.headers["content-security-policy"]
    style = re.search(r"<style>(.*?)</style>", report.text, re.S)
    assert style is not None
    digest = base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode()
    assert policy == (
        f"default-src 'none'; style-src 'sha256-{digest}'; img-src 'self' data:; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'none'"
    )
    assert "<script" not in report.text
