"""The pages over a real SQLite ledger (amend, void and undo from the phone on PostgreSQL too; what the pages ask of
the ledger is checked on both by the store tests): reading, recording by line and by tapping, the questions for missing
facts, corrections, starting and closing an evening, and who may write."""

from __future__ import annotations

import re

from test_web_support import TOKEN, csrf, deal_count, link, scorekeeper, start, viewer

from ledger import Ledger


def test_home_leads_to_the_open_evening_or_to_the_list(sqlite_url: str) -> None:
    with viewer(sqlite_url) as phone:
        assert phone.get("/").headers["location"] == "/evenings"
        start(sqlite_url)
        assert phone.get("/").headers["location"] == "/evenings/1"


def test_the_evening_shows_standings_dealer_and_first_speaker_and_a_viewer_gets_no_forms(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        page = phone.get("/evenings/current")
    assert page.status_code == 200
    assert "<b>Carla</b> deals, <b>Anna</b> speaks first" in page.text
    assert "No deals yet." in page.text
    assert 'name="csrf"' not in page.text and "<form" not in page.text
    assert 'data-events="/evenings/1/events?seen=0"' in page.text


def test_the_write_link_sets_a_strict_httponly_session_cookie_only_with_the_right_key(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        wrong = phone.get("/write?key=guess")
        assert wrong.status_code == 403 and "set-cookie" not in wrong.headers
    with viewer(sqlite_url) as phone:
        right = phone.get(link(sqlite_url))
        cookie = right.headers["set-cookie"].lower()
        assert right.status_code == 303 and right.headers["location"] == "/welcome"
        assert "httponly" in cookie and "samesite=strict" in cookie and TOKEN.lower() not in cookie
        assert right.headers["cache-control"] == "no-store"
        assert 'name="csrf"' in phone.get("/evenings/1").text


def test_a_line_records_the_deal_and_the_result_and_explanation_show_at_once(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        posted = phone.post("/evenings/1/deals", data={"csrf": csrf(phone), "line": "bruno solo 22"})
        assert posted.status_code == 303 and posted.headers["location"] == "/evenings/1?recorded=1"
        page = phone.get(posted.headers["location"]).text
    assert "Deal 1 recorded" in page and "Bruno solo · 7+1/3 · won" in page
    assert "solo 2 = 2 from each opponent" in page
    assert re.search(r"Bruno.*?<td class=\"num big\">\+4</td>\s*<td class=\"num\">\+0.40 EUR</td>", page, re.S)
    assert "<b>Anna</b> deals, <b>Bruno</b> speaks first" in page


def test_a_double_tap_is_one_deal_and_both_answers_say_it_is_recorded(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        form = {"csrf": csrf(phone), "line": "bruno solo 22", "key": "tap-1"}
        first, again = phone.post("/evenings/1/deals", data=form), phone.post("/evenings/1/deals", data=form)
        assert first.headers["location"] == again.headers["location"] == "/evenings/1?recorded=1"
        page = phone.get(again.headers["location"]).text
        assert "Deal 1 recorded" in page and "already" not in page
        by_page = [phone.post("/evenings/1/deals", data={**form, "key": "tap-2"}, headers=PAGE) for _ in range(2)]
        assert [said.json()["location"] for said in by_page] == ["/evenings/1?recorded=2"] * 2
        assert all(
            "Deal 2 recorded" in said.json()["main"] and "already" not in said.json()["main"] for said in by_page
        )
    assert deal_count(sqlite_url) == 2


def test_a_deal_sent_again_long_after_says_it_is_already_recorded_and_what_it_was(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        form = {"csrf": csrf(phone), "line": "bruno solo 22", "key": "tap-1"}
        assert phone.post("/evenings/1/deals", data=form).status_code == 303
        assert phone.post("/evenings/1/deals", data={**form, "key": "tap-2", "line": "pass"}).status_code == 303
        resent = phone.post("/evenings/1/deals", data=form)
        assert resent.status_code == 200 and "Deal 1 is already recorded" in resent.text
        assert "Bruno solo · 7+1/3 · won" in resent.text.split('class="result"')[1].split("</section>")[0]
        said = phone.post("/evenings/1/deals", data=form, headers=PAGE).json()
        assert said["location"] == "/evenings/1" and "Deal 1 is already recorded" in said["main"]
        later = phone.get("/evenings/1?recorded=1").text  # the result's address, opened after another deal
        assert 'class="result"' not in later and "already" not in later and "Deal 1 recorded" not in later
        assert "Deal 2 recorded" in phone.get("/evenings/1?recorded=2").text
    assert deal_count(sqlite_url) == 2


PAGE = {"Sent-By": "page"}
"""The header with which the evening page's own script sends a deal."""


def test_back_then_the_same_deal_is_one_deal_and_another_deal_is_two_without_key_jargon(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        page = phone.get("/evenings/1").text  # the page as Back shows it again, with its key (a phone without script)
        key = re.search(r'name="key" value="([^"]*)"', page).group(1)
        form = {"csrf": csrf(phone), "key": key}
        assert phone.post("/evenings/1/deals", data={**form, "line": "bruno solo 22"}).status_code == 303
        resent = phone.post("/evenings/1/deals", data={**form, "line": "bruno solo 22"})  # Back, the same deal
        assert resent.headers["location"] == "/evenings/1?recorded=1" and deal_count(sqlite_url) == 1
        other = phone.post("/evenings/1/deals", data={**form, "line": "carla solo 20"})  # Back, another deal
        assert other.headers["location"] == "/evenings/1?recorded=2"
        again = phone.post("/evenings/1/deals", data={**form, "line": "carla solo 20"})  # and that one resent
        assert again.headers["location"] == "/evenings/1?recorded=2"
    assert deal_count(sqlite_url) == 2


def test_two_phones_recording_at_once_both_deals_are_kept_in_turn(sqlite_url: str) -> None:
    """A new deal sent from a page that is behind (another phone recorded meanwhile) is the evening's next deal."""
    start(sqlite_url)
    with scorekeeper(sqlite_url) as first, scorekeeper(sqlite_url) as second:
        tokens = [csrf(phone) for phone in (first, second)]
        assert first.post("/evenings/1/deals", data={"csrf": tokens[0], "line": "bruno solo 22"}).status_code == 303
        late = {"csrf": tokens[1], "key": "second-1", "seen_revision": "0", "line": "carla solo 20"}
        assert second.post("/evenings/1/deals", data=late).headers["location"] == "/evenings/1?recorded=2"
    with Ledger(sqlite_url) as ledger:
        assert [(d.declarer, d.dealer) for d in ledger.deals(1)[1]] == [("Bruno", "Carla"), ("Carla", "Anna")]


def test_a_refused_deal_keeps_every_fact_tapped_and_a_question_carries_them(sqlite_url: str) -> None:
    """Anna deals and sits out after another phone's deal: the deal tapped for her comes back with its contract,
    card, holder and points still tapped; a deal asked one more fact carries its taps as they were."""
    start(sqlite_url, ("Anna", "Bruno", "Carla", "Dario"))
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        assert phone.post("/evenings/1/deals", data={"csrf": token, "line": "bruno solo 22"}).status_code == 303
        taps = {"declarer": "Anna", "contract": "chiamo", "rank": "3", "suit": "D", "holder": "Bruno"}
        taps |= {"whole": "7", "third": "1/3"}
        refused = phone.post("/evenings/1/deals", data={"csrf": token, **taps})
        assert refused.status_code == 422 and "Anna deals and sits out" in refused.text
        pad = refused.text.split('class="guided"')[1].split("</form>")[0]
        checked = dict(re.findall(r'name="(\w+)" value="([^"]*)" checked', pad))
        assert checked == {name: value for name, value in taps.items() if name != "declarer"}
        said = phone.post("/evenings/1/deals", data={"csrf": token, **taps}, headers=PAGE)
        assert said.status_code == 422 and "Anna deals and sits out" in said.json()["error"]

        full = {"declarer": "Bruno", "contract": "solo", "whole": "11", "third": "2/3", "key": "k-11"}
        asked = phone.post("/evenings/1/deals", data={"csrf": token, **full})
        carried = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', asked.text))
        assert carried == {"csrf": token, **full, "asking": "tricks"} and "So far: Bruno solo 11+2/3" in asked.text
        question = phone.post("/evenings/1/deals", data={"csrf": token, **full}, headers=PAGE).json()["question"]
        assert "How many tricks did the declarer side take?" in question and 'name="whole" value="11"' in question
        done = phone.post("/evenings/1/deals", data={**carried, "tricks": "12"})
        assert done.headers["location"] == "/evenings/1?recorded=2"
    with Ledger(sqlite_url) as ledger:
        assert [(d.declarer, d.declarer_thirds) for d in ledger.deals(1)[1]] == [("Bruno", 22), ("Bruno", 35)]


def test_a_bad_line_is_one_message_with_the_line_kept_and_nothing_written(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        page = phone.post("/evenings/1/deals", data={"csrf": csrf(phone), "line": "zeno solo 22"})
    assert page.status_code == 422
    assert len(re.findall(r'class="error"', page.text)) == 1 and "zeno" in page.text
    assert 'value="zeno solo 22"' in page.text
    assert deal_count(sqlite_url) == 0


def test_the_guided_form_asks_only_for_the_fact_the_rules_still_need(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        asked = phone.post(
            "/evenings/1/deals",
            data={"csrf": token, "declarer": "Anna", "contract": "solo", "thirds": "35", "key": "k1"},
        )
        assert asked.status_code == 200 and "How many tricks did the declarer side take?" in asked.text
        assert len(re.findall(r'<button name="tricks"', asked.text)) == 13
        carried = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', asked.text))
        assert carried == {
            "csrf": token,
            "key": "k1",
            "declarer": "Anna",
            "contract": "solo",
            "thirds": "35",
            "asking": "tricks",
        }
        done = phone.post("/evenings/1/deals", data={**carried, "tricks": "12"})
        assert done.status_code == 303
        assert "Anna solo · 11+2/3 · won · cappotto" in phone.get(done.headers["location"]).text


def test_the_guided_form_asks_for_the_monte_when_a_stramazzo_counts_tricks_only(sqlite_url: str) -> None:
    start(sqlite_url, options=["stramazzo_counts=tricks"])
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        asked = phone.post("/evenings/1/deals", data={"csrf": token, "line": "anna solo 26 last=opp"})
        assert "How many points were in the monte?" in asked.text
        carried = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', asked.text))
        assert carried["asking"] == "monte_thirds"
        # the opponents took 9 thirds: 3 for the last trick, 2 points (6 thirds) in the monte, none in tricks
        done = phone.post("/evenings/1/deals", data={**carried, "monte_thirds": "2"})
        assert done.status_code == 303
        assert "Anna solo · 8+2/3 · won · stramazzo" in phone.get(done.headers["location"]).text
    with Ledger(sqlite_url) as ledger:
        assert ledger.deals(1)[1][0].monte_thirds == 6


def test_the_guided_form_asks_who_declared_first(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        asked = phone.post("/evenings/1/deals", data={"csrf": csrf(phone), "contract": "solo", "thirds": "20"})
        assert "Who declared?" in asked.text
        assert re.findall(r'<button name="declarer" value="([^"]*)"', asked.text) == ["Anna", "Bruno", "Carla", "pass"]
        carried = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', asked.text))
        assert phone.post("/evenings/1/deals", data={**carried, "declarer": "pass"}).status_code == 422
        assert phone.post("/evenings/1/deals", data={**carried, "declarer": "Carla"}).status_code == 303
    assert deal_count(sqlite_url) == 1


def test_a_short_line_is_completed_question_by_question(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        asked = phone.post("/evenings/1/deals", data={"csrf": csrf(phone), "line": "bruno"})
        assert "Which contract?" in asked.text and '<input type="hidden" name="line" value="bruno">' in asked.text
        carried = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', asked.text))
        asked = phone.post("/evenings/1/deals", data={**carried, "contract": "solissimo scegliete"})
        assert "How many points did the declarer side take?" in asked.text
        carried = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', asked.text))
        wrong = phone.post("/evenings/1/deals", data={**carried, "thirds": "99"})
        assert wrong.status_code == 422 and "How many points" in wrong.text and 'class="error"' in wrong.text
        done = phone.post("/evenings/1/deals", data={**carried, "thirds": "7+1/3"})
        assert done.status_code == 303
    with Ledger(sqlite_url) as ledger:
        deal = ledger.deals(1)[1][0]
    assert (deal.declarer, deal.contract, deal.aggravation, deal.declarer_thirds) == (
        "Bruno",
        "solissimo",
        "scegliete",
        22,
    )


def test_amend_void_and_undo_from_the_phone(db_url: str) -> None:
    start(db_url)
    with scorekeeper(db_url) as phone:
        token = csrf(phone)
        for line in ("bruno solo 22", "carla chiamo 3D@anna 20", "anna solo 19"):
            phone.post("/evenings/1/deals", data={"csrf": token, "line": line})
        deal_page = phone.get("/evenings/1/deals/1").text
        assert "Amend the deal" in deal_page and "Void the deal" in deal_page
        no_reason = phone.post("/evenings/1/deals/1/amend", data={"csrf": token, "line": "15"})
        assert no_reason.status_code == 422 and "reason" in no_reason.text
        amended = phone.post("/evenings/1/deals/1/amend", data={"csrf": token, "line": "15", "reason": "recount"})
        assert "Deal 1 amended" in phone.get(amended.headers["location"]).text
        history = phone.get("/evenings/1/deals/1").text
        assert "Revisions" in history and "recount" in history and "Bruno solo · 5 · lost" in history
        voided = phone.post("/evenings/1/deals/2/void", data={"csrf": token, "reason": "misdeal"})
        assert "Deal 2 voided" in phone.get(voided.headers["location"]).text
        stale = phone.post("/evenings/1/undo", data={"csrf": token, "seen_revision": "3", "confirm": "yes"})
        assert stale.status_code == 422 and "undo refused" in stale.text
        seen = re.search(r'name="seen_revision" value="(\d+)"', stale.text).group(1)
        # the last change first: the void of deal 2, the amendment of deal 1, deal 3; each named as the undo left it
        for taken_back, kind, said in (
            (2, "void", "Deal 2: counts again"),
            (1, "amend", "Deal 1: back as before its amendment"),
            (3, "record", "Deal 3: undone"),
        ):
            assert "Undo: " in stale.text
            undone = phone.post("/evenings/1/undo", data={"csrf": token, "seen_revision": seen, "confirm": "yes"})
            assert undone.headers["location"] == f"/evenings/1?deal={taken_back}&undone={kind}"
            stale = phone.get(undone.headers["location"])
            assert said in stale.text and "recorded</h2>" not in stale.text
            seen = re.search(r'name="seen_revision" value="(\d+)"', stale.text).group(1)
        phone.post("/evenings/1/deals/2/void", data={"csrf": token, "reason": "misdeal"})
        history = phone.get("/evenings/1/deals/1").text
        assert "Bruno solo · 7+1/3 · won" in history and "undo: back as before the amendment" in history
        listed = phone.get("/evenings/1/deals").text
    assert listed.count('class="voided"') == 2 and "void: misdeal" in listed
    log = listed.partition("Every change, newest first")[2]
    assert log.index("9. deal 2 voided (misdeal) · phone") < log.index("6. change 5 taken back · phone")
    assert re.search(r"3\. deal 3 recorded: Anna solo [0-9+/]+ · phone [A-Z2-7]{4} · taken back", log)
    assert re.search(r"5\. deal 2 voided \(misdeal\) · phone [A-Z2-7]{4} · taken back", log)
    assert "0. evening started · program" in log


def test_start_an_evening_from_the_phone_and_several_evenings_at_once(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone, "/evenings/new")
        refused = phone.post("/evenings", data={"csrf": token, "players": "Dora,Dora,Elio", "stake": "0.05"})
        assert refused.status_code == 422 and 'class="error"' in refused.text
        assert 'value="Dora,Dora,Elio"' in refused.text
        started = phone.post(
            "/evenings",
            data={
                "csrf": token,
                "players": "Dora, Elio, Fede",
                "profile": "tretre",
                "stake": "0.05",
                "currency": "CHF",
                "place": "Osteria",
            },
        )
        assert started.headers["location"] == "/evenings/2"
        phone.post("/evenings/1/deals", data={"csrf": token, "line": "bruno solo 22"})
        phone.post("/evenings/2/deals", data={"csrf": token, "line": "elio solo 22"})
        listed = phone.get("/evenings").text
        second = phone.get("/evenings/2").text
    assert "Evening 2" in listed and "Osteria" in listed and "Evening 1" in listed
    assert "Terziglio, long game: no cappotto or stramazzo" in second and "CHF" in second
    assert "Elio solo" in second and "Bruno" not in second


def test_settle_then_close_the_evening(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        phone.post("/evenings/1/deals", data={"csrf": token, "line": "bruno solo 22"})
        settle = phone.get("/evenings/1/settle").text
        assert "<b>Anna</b> pays <b>Bruno</b>" in settle and "0.20 EUR" in settle and "Close the evening" in settle
        unconfirmed = phone.post("/evenings/1/close", data={"csrf": token})  # one tap closes nothing
        assert unconfirmed.status_code == 422 and "Tick the box to close the evening" in unconfirmed.text
        assert "Record a deal" in phone.get("/evenings/1").text
        closed = phone.post("/evenings/1/close", data={"csrf": token, "confirm": "yes"})
        assert closed.headers["location"] == "/evenings/1/settle"
        settled = phone.get("/evenings/1/settle").text
        assert "Closed at" in settled and "Reopen the evening" in settled
        page = phone.get("/evenings/1").text
        assert "Record a deal" not in page and "no deal can change" in page
        assert phone.post("/evenings/1/deals", data={"csrf": token, "line": "anna solo 20"}).status_code == 422
        assert phone.get("/").headers["location"] == "/evenings"
        no_reason = phone.post("/evenings/1/reopen", data={"csrf": token, "reason": " "})
        assert no_reason.status_code == 422 and "why?" in no_reason.text
        reopened = phone.post("/evenings/1/reopen", data={"csrf": token, "reason": "a deal was left out"})
        assert reopened.headers["location"] == "/evenings/1"
        recorded = phone.post("/evenings/1/deals", data={"csrf": token, "line": "anna solo 20"})
        assert recorded.status_code == 303
    with Ledger(sqlite_url) as ledger:
        info, deals = ledger.deals(1)
    assert not info.closed and [d.declarer for d in deals] == ["Bruno", "Anna"]


def test_undo_on_the_phone_asks_first(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        phone.post("/evenings/1/deals", data={"csrf": token, "line": "bruno solo 22"})
        page = phone.get("/evenings/1").text
        assert 'name="confirm" value="yes" required' in page and "Yes, take back the last change" in page
        seen = re.search(r'name="seen_revision" value="(\d+)"', page).group(1)
        unconfirmed = phone.post("/evenings/1/undo", data={"csrf": token, "seen_revision": seen})
        assert unconfirmed.status_code == 422 and "Tick the box to take back the last change" in unconfirmed.text
        with Ledger(sqlite_url) as ledger:
            assert [d.voided for d in ledger.deals(1)[1]] == [False]
        done = phone.post("/evenings/1/undo", data={"csrf": token, "seen_revision": seen, "confirm": "yes"})
        assert done.status_code == 303
    with Ledger(sqlite_url) as ledger:
        assert [d.voided for d in ledger.deals(1)[1]] == [True]


def test_charts_page_and_images(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        assert "No deals yet." in phone.get("/evenings/1/charts").text
        phone.post("/evenings/1/deals", data={"csrf": csrf(phone), "line": "bruno solo 22"})
        page = phone.get("/evenings/1/charts").text
        kinds = re.findall(r"/evenings/1/charts/(\w+)\.png", page)
        assert kinds == ["running", "money", "contracts", "thirds", "pairings"]
        image = phone.get("/evenings/1/charts/running.png")
        assert image.headers["content-type"] == "image/png" and image.content.startswith(b"\x89PNG")
        assert phone.get("/evenings/1/charts/pie.png").status_code == 404


def test_the_evening_report_is_served(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        phone.post("/evenings/1/deals", data={"csrf": csrf(phone), "line": "bruno solo 22"})
        report = phone.get("/evenings/1/report")
    assert report.status_code == 200 and report.text.lower().startswith("<!doctype html>")
    assert "Evening 1" in report.text


def test_unknown_evenings_and_deals(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        assert phone.get("/evenings/first").status_code == 404
        missing = phone.get("/evenings/9")
        assert missing.status_code == 422 and "evening 9 does not exist" in missing.text
        assert phone.get("/evenings/1/deals/4").status_code == 422
        assert phone.get("/nowhere").status_code == 404


def test_a_deal_is_amended_by_tapping_what_changed(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        phone.post("/evenings/1/deals", data={"csrf": token, "line": "carla chiamo 3D@anna 5+2/3 last=opp"})
        page = phone.get("/evenings/1/deals/1").text
        checked = dict(re.findall(r'name="(\w+)" value="([^"]*)" checked', page))
        assert checked == {
            "declarer": "Carla",
            "contract": "chiamo",
            "rank": "3",
            "suit": "D",
            "holder": "Anna",
            "whole": "5",
            "third": "2/3",
        }
        same = phone.post("/evenings/1/deals/1/amend", data={"csrf": token, **checked, "reason": "again"})
        assert same.status_code == 422 and "these are the facts it has already" in same.text
        changed = {**checked, "whole": "6", "third": "", "suit": "C"}
        done = phone.post("/evenings/1/deals/1/amend", data={"csrf": token, **changed, "reason": "recount"})
        assert done.status_code == 303
    with Ledger(sqlite_url) as ledger:
        history = ledger.deal(1, 1).revisions
    assert [(d.revision, d.declarer_thirds, d.called, d.holder, d.reason) for d in history] == [
        (1, 17, "3D", "Anna", None),
        (2, 18, "3C", "Anna", "recount"),
    ]


def _main(page: str) -> str:
    """What a page holds between <main> and </main> (or all of a part of one), its idempotency keys and the time it
    was drawn blanked: each page draws its own."""
    inside = page.split("<main>", 1)[-1].split("</main>", 1)[0]
    inside = re.sub(r'data-drawn="[^"]*"', 'data-drawn=""', inside)
    return re.sub(r'name="key" value="[^"]*"', 'name="key" value=""', inside).strip()


def test_the_pages_own_script_gets_the_evening_page_with_the_result_to_swap_in(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        form = {"csrf": csrf(phone), "line": "bruno solo 22", "key": "k-1", "seen_revision": "0"}
        sent = phone.post("/evenings/1/deals", data=form, headers={"Sent-By": "page"})
        assert sent.status_code == 200 and sent.headers["content-type"].startswith("application/json")
        said = sent.json()
        assert said["location"] == "/evenings/1?recorded=1"
        assert "Deal 1 recorded" in said["main"] and "solo 2 = 2 from each opponent" in said["main"]
        assert re.search(r'<td class="num big">\+4</td>', said["main"])  # the new totals
        assert re.findall(r'name="seen_revision" value="(\d+)"', said["main"]) == ["1"]  # undo
        keys = set(re.findall(r'name="key" value="([^"]*)"', said["main"]))
        assert len(keys) == 1 and "k-1" not in keys  # a fresh key for the next deal
        assert _main(said["main"]) == _main(phone.get(said["location"]).text)  # what a reload of the address shows

        again = phone.post("/evenings/1/deals", data=form, headers={"Sent-By": "page"}).json()
        assert again["location"] == "/evenings/1?recorded=1" and "Deal 1 recorded" in again["main"]
        plain = phone.post(
            "/evenings/1/deals", data={**form, "key": "k-2", "line": "anna solo 20", "seen_revision": "1"}
        )
        assert plain.status_code == 303 and plain.headers["location"] == "/evenings/1?recorded=2"  # without script
        italian = phone.post(
            "/evenings/1/deals",
            data={**form, "key": "k-4", "line": "carla solo 20"},
            headers={"Sent-By": "page", "Accept-Language": "it-IT,it;q=0.9"},
        ).json()
        assert "Smazzata 3 registrata" in italian["main"] and "Registra la smazzata" in italian["main"]
    assert deal_count(sqlite_url) == 3


def test_the_points_can_be_counted_on_the_pad_as_at_the_table(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        assert "Or count the cards: aces, figures, last trick" in phone.get("/evenings/1").text
        counted = {"declarer": "Bruno", "contract": "solo", "aces": "2", "figures": "10", "last": "u"}
        assert phone.post("/evenings/1/deals", data={"csrf": token, **counted}).status_code == 303
        no_last = {"declarer": "Anna", "contract": "solo", "aces": "0", "figures": "1"}
        assert phone.post("/evenings/1/deals", data={"csrf": token, **no_last}).status_code == 303
    with Ledger(sqlite_url) as ledger:
        deals = ledger.deals(1)[1]
    # 2 aces x 3 + 10 figures + the last trick's 3 = 19 thirds; 1 figure = 1 third, the last trick the opponents'
    assert [(d.declarer, d.declarer_thirds, d.last_trick) for d in deals] == [
        ("Bruno", 19, "declarer"),
        ("Anna", 1, "opponents"),
    ]
