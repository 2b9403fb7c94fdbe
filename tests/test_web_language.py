"""The pages in each phone's language: Italian when the browser prefers it (or the switch chose it), English
otherwise; headings, buttons, money, the live feed and the Ledger's errors alike, one request never leaking its
language into another's."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

from test_web_live import _events
from test_web_support import BEARER, csrf, deal_count, scorekeeper, start, viewer

ITALIAN = {"Accept-Language": "it-IT,it;q=0.9"}
ENGLISH = {"Accept-Language": "en"}


def _standing(page: str, name: str) -> str:
    """The money cell of a player's row in the standings."""
    found = re.search(rf"<th>{name}.*?<td class=\"num big\">[^<]*</td>\s*<td class=\"num\">([^<]*)</td>", page, re.S)
    assert found, f"no standings row for {name}"
    return found.group(1)


def test_an_italian_browser_gets_the_evening_in_italian_and_an_english_one_in_english(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        italian = phone.get("/evenings/1", headers=ITALIAN).text
        english = phone.get("/evenings/1", headers=ENGLISH).text
    assert '<html lang="it">' in italian and "<h1>Serata 1</h1>" in italian
    assert "Registra la smazzata" in italian and "Punti del chiamante" in italian
    assert "<b>Anna</b> dà le carte, <b>Bruno</b> è di mano" in italian
    assert "0,10\xa0€ per punto" in italian and _standing(italian, "Bruno") == "+0,40\xa0€"
    assert "Bruno solo · 7+1/3 · vinta" in italian and "Evening" not in italian
    assert '<html lang="en">' in english and "<h1>Evening 1</h1>" in english and "Record the deal" in english
    assert _standing(english, "Bruno") == "+0.40 EUR" and "Serata" not in english


def test_a_browser_preferring_another_language_to_italian_and_english_gets_the_one_it_ranks_higher(
    sqlite_url: str,
) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        assert "<h1>Serata 1</h1>" in phone.get("/evenings/1", headers={"Accept-Language": "fr,it;q=0.8,en;q=0.5"}).text
        assert "<h1>Evening 1</h1>" in phone.get("/evenings/1", headers={"Accept-Language": "fr"}).text
        assert "<h1>Evening 1</h1>" in phone.get("/evenings/1").text


def test_the_switch_sets_a_cookie_that_wins_over_the_browser_and_goes_back_to_the_page(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        page = phone.get("/evenings/1", headers=ITALIAN).text
        assert 'href="/language/en?next=/evenings/1"' in page and '<b aria-current="true">IT</b>' in page
        switched = phone.get("/language/en?next=/evenings/1")
        assert switched.status_code == 303 and switched.headers["location"] == "/evenings/1"
        assert "lang=en" in switched.headers["set-cookie"]
        assert "<h1>Evening 1</h1>" in phone.get("/evenings/1", headers=ITALIAN).text
        phone.get("/language/it?next=/evenings/1")
        assert "<h1>Serata 1</h1>" in phone.get("/evenings/1", headers=ENGLISH).text
        assert phone.get("/language/it?next=//elsewhere.example/").headers["location"] == "/"


def test_concurrent_requests_in_different_languages_do_not_leak_into_each_other(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)

        def heading(italian: bool) -> tuple[bool, str]:
            page = phone.get("/evenings/1", headers=ITALIAN if italian else ENGLISH).text
            return italian, page

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(heading, [n % 2 == 0 for n in range(40)]))
    for italian, page in answers:
        expected = ("<h1>Serata 1</h1>", "+0,40\xa0€") if italian else ("<h1>Evening 1</h1>", "+0.40 EUR")
        assert expected[0] in page and _standing(page, "Bruno") == expected[1]


def test_a_bad_line_comes_back_in_the_phone_language(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        token = csrf(phone)
        italian = phone.post("/evenings/1/deals", data={"csrf": token, "line": "zeno solo 22"}, headers=ITALIAN)
        english = phone.post("/evenings/1/deals", data={"csrf": token, "line": "zeno solo 22"}, headers=ENGLISH)
    assert italian.status_code == english.status_code == 422
    error = re.search(r'<p class="error" role="alert">([^<]*)</p>', italian.text)
    assert error and "&#39;zeno&#39;: parola sconosciuta" in error.group(1)
    assert "parola sconosciuta" not in english.text and "zeno" in english.text
    assert deal_count(sqlite_url) == 0


def test_the_live_feed_speaks_each_phone_language(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url, stream_seconds=1.0) as phone:  # time enough for a first read on a busy machine
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        [(_, italian)] = _events(phone.get("/evenings/1/events", headers=ITALIAN).text)
        [(_, english)] = _events(phone.get("/evenings/1/events", headers=ENGLISH).text)
    assert "Ultime smazzate" in italian and "+0,40\xa0€" in italian
    assert "Last deals" in english and "+0.40 EUR" in english


def test_the_charts_page_and_a_refused_write_are_in_italian_too(sqlite_url: str) -> None:
    start(sqlite_url)
    with viewer(sqlite_url) as phone:
        assert "Serata 1: grafici" in phone.get("/evenings/1/charts", headers=ITALIAN).text
        refused = phone.post("/evenings/1/deals", data={"line": "bruno solo 22"}, headers=ITALIAN)
    assert refused.status_code == 401 and "Solo il telefono del segnapunti può scrivere" in refused.text


def test_italian_pages_say_who_pays_whom_and_what_is_missing_as_players_say_it(sqlite_url: str) -> None:
    start(sqlite_url)
    with scorekeeper(sqlite_url) as phone:
        phone.post("/api/evenings/1/deals", json={"line": "bruno solo 22"}, headers=BEARER)
        settle = phone.get("/evenings/1/settle", headers=ITALIAN).text
        question = phone.post("/evenings/1/deals", data={"csrf": csrf(phone), "line": "anna solo"}, headers=ITALIAN)
        missing = phone.get("/nowhere", headers=ITALIAN)
        no_evening = phone.get("/evenings/9", headers=ITALIAN)
    assert "<b>Anna</b> dà a <b>Bruno</b>" in settle and "paga" not in settle
    assert "Lascia perdere: non scrivere niente" in question.text and "Annulla" not in question.text
    assert missing.status_code == 404 and "<h1>Pagina non trovata</h1>" in missing.text
    assert no_evening.status_code == 422 and "<h1>Qualcosa non torna</h1>" in no_evening.text
    assert "la serata 9 non esiste" in no_evening.text
