"""Who may write, and what a hostile name can do: nothing is written without the token, every form needs its
CSRF token and this site's Origin, and everything typed is shown escaped on every page."""

from __future__ import annotations

import re

import pytest
from test_web_support import TOKEN, csrf, scorekeeper, start, viewer

from ledger import Ledger
from ledger.web.access import COOKIE

WRITES = [
    ("/evenings/1/deals", {"line": "bruno solo 22"}),
    ("/evenings/1/deals/1/amend", {"line": "15", "reason": "x"}),
    ("/evenings/1/deals/1/void", {"reason": "x"}),
    ("/evenings/1/undo", {"seen_revision": "1"}),
    ("/evenings/1/close", {}),
    ("/evenings", {"players": "Dora,Elio,Fede"}),
]


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
def test_no_write_without_the_cookie_or_with_a_wrong_one(db_url: str, path: str, form: dict[str, str]) -> None:
    _one_deal(db_url)
    with scorekeeper(db_url) as phone:
        token = csrf(phone)
    with viewer(db_url) as phone:
        assert phone.post(path, data={**form, "csrf": token}).status_code == 401
        phone.cookies.set(COOKIE, "guess")
        assert phone.post(path, data={**form, "csrf": token}).status_code == 403
    with Ledger(db_url) as ledger:
        assert len(ledger.evenings()) == 1
    assert _revision(db_url) == 1


@pytest.mark.parametrize(("path", "form"), WRITES)
def test_a_form_needs_its_csrf_token_and_this_sites_origin(db_url: str, path: str, form: dict[str, str]) -> None:
    _one_deal(db_url)
    with scorekeeper(db_url) as phone:
        token = csrf(phone)
        assert phone.post(path, data=form).status_code == 403
        assert phone.post(path, data={**form, "csrf": "0" * len(token)}).status_code == 403
        foreign = {"Origin": "http://evil.example"}
        assert phone.post(path, data={**form, "csrf": token}, headers=foreign).status_code == 403
        assert _revision(db_url) == 1
        own = {"Origin": "http://testserver"}
        assert phone.post(path, data={**form, "csrf": token}, headers=own).status_code == 303


def test_the_csrf_token_belongs_to_this_server_start(db_url: str) -> None:
    start(db_url)
    with scorekeeper(db_url) as phone:
        old = csrf(phone)
    with scorekeeper(db_url) as phone:
        assert csrf(phone) != old
        assert phone.post("/evenings/1/deals", data={"line": "bruno solo 22", "csrf": old}).status_code == 403


SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
IMG_NAME = '"><img src onerror>'


def test_hostile_names_places_reasons_and_lines_are_shown_escaped_on_every_page(db_url: str) -> None:
    start(db_url, (SCRIPT, IMG_NAME, "Carla"), place=IMG)
    with scorekeeper(db_url) as phone:
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
    assert 'value="&#34;&gt;&lt;img src=x onerror=alert(1)&gt;"' in pages["bad card"]
    assert re.search(r"&lt;script&gt;alert\(1\)&lt;/script&gt;", pages["/evenings/1/deals"])


def test_the_write_token_is_compared_whole(db_url: str) -> None:
    start(db_url)
    with viewer(db_url) as phone:
        for guess in ("", TOKEN[:-1], TOKEN + "x", TOKEN.upper()):
            assert phone.get("/write", params={"token": guess}).status_code == 403
