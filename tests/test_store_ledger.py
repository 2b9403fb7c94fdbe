"""The ledger's storage layer on a real SQLite file and a real PostgreSQL database (the `db_url` fixture).

Players, evenings, deals, the dealer rotation, idempotency keys, and the corrections (amend, void, undo) that
never lose an earlier revision; standings checked against numbers computed by hand from RULES.md.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import as_document
from said import raises_said
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

from ledger import Ledger
from ledger.errors import LedgerError
from ledger.recording import amend as amend_deal
from ledger.recording import record as record_deal
from ledger.recording import undo as undo_last
from ledger.recording import void as void_deal
from ledger.rules.build import DealInput
from ledger.rules.text import acts_on_screen
from ledger.store.deals import Recorded, deal_history, list_deals, next_dealer, running_totals, totals
from ledger.store.engine import ENV_VAR, HEAD, open_ledger, resolve_url, schema_info, transaction
from ledger.store.evenings import Seating, close_evening, get_seating, list_evenings, start_evening
from ledger.store.export import write_export
from ledger.store.players import add_player, find_player, get_player, list_players, rename_player
from ledger.store.standings import standings
from ledger.summary import explanation, why, why_voided
from ledger.values import Terms

TABLES = ("player", "player_rename", "evening", "seat", "deal", "deal_revision", "payout", "payment")
ABC = ("Anna", "Bruno", "Carla")


def begin(engine: Engine, players: tuple[str, ...] = ABC, **kwargs: Any) -> int:
    """Start an evening and return its number."""
    with transaction(engine) as session:
        dealer = kwargs.pop("dealer", None)
        return start_evening(session, players, Terms(**kwargs), dealer=dealer).number


def record(
    engine: Engine, evening: int | None = None, *, dealer: str | None = None, key: str | None = None, **facts: Any
) -> Recorded:
    """Record one deal the way the CLI does: one transaction, the default evening when none is given."""
    with transaction(engine) as session:
        table = get_seating(session, evening, open_only=evening is None)
        return record_deal(session, table, DealInput(**facts), dealer=dealer, key=key)


def table(engine: Engine, evening: int | None = None) -> Seating:
    """The evening with its seats (read in its own transaction)."""
    with transaction(engine) as session:
        return get_seating(session, evening)


def counts(engine: Engine) -> dict[str, int]:
    """Rows per ledger table."""
    with engine.connect() as connection:
        return {name: connection.execute(text(f"SELECT COUNT(*) FROM {name}")).scalar_one() for name in TABLES}


def snapshot(engine: Engine) -> tuple[dict[str, int], dict[str, Any]]:
    """Everything the ledger holds: row counts and the full export (every revision, every void)."""
    with transaction(engine) as session:
        buffer = io.StringIO()
        write_export(session, buffer)
        data = as_document(buffer.getvalue())
    return counts(engine), data


def payouts(engine: Engine, evening: int | None = None) -> list[tuple[int, dict[str, int], bool]]:
    """(number, payouts of the current revision, voided) for every deal."""
    with transaction(engine) as session:
        return [(v.number, v.payouts, v.voided) for v in list_deals(session, get_seating(session, evening))]


def _three_deals(engine: Engine) -> int:
    """Worked examples 1, 2, 3 of RULES.md at a 0.10 stake: Carla, Anna, Bruno deal in turn."""
    number = begin(engine, stake="0.10")
    record(engine, declarer="Bruno", contract="solo", thirds=22)
    record(engine, declarer="Carla", contract="chiamo", called="3D", holder="Anna", thirds=17, last_trick="opponents")
    record(engine, declarer="Anna", contract="solissimo", aggravation="dividete", thirds=24)
    return number


# --- schema -------------------------------------------------------------------------------------------------


def test_open_creates_the_schema_and_reopening_keeps_the_data(empty_db_url: str) -> None:
    first = open_ledger(empty_db_url)
    try:
        assert schema_info(first)["revision"] == HEAD
        assert counts(first) == dict.fromkeys(TABLES, 0)
        begin(first)
        record(first, declarer="Bruno", contract="solo", thirds=22)
    finally:
        first.dispose()
    again = open_ledger(empty_db_url)
    try:
        assert payouts(again) == [(1, {"Anna": -2, "Bruno": 4, "Carla": -2}, False)]
        assert schema_info(again)["revision"] == HEAD
    finally:
        again.dispose()


# --- players --------------------------------------------------------------------------------------------------


def test_player_names_are_unique_regardless_of_case_and_accents(engine: Engine) -> None:
    with transaction(engine) as session:
        add_player(session, "Niccolò")
        add_player(session, "Bruno")
    for clash in ("niccolo", "NICCOLÒ", "  Niccolo  ", "niccolò"):
        with pytest.raises(LedgerError, match="exists already as 'Niccolò'"), transaction(engine) as session:
            add_player(session, clash)
    with transaction(engine) as session:
        assert [p.name for p in list_players(session)] == ["Bruno", "Niccolò"]
        found = find_player(session, "NICCOLO")
        assert found is not None and found.name == "Niccolò"
        assert get_player(session, "niccolo").name == "Niccolò"
    with pytest.raises(LedgerError, match=r"unknown player 'Zed'.*Bruno, Niccolò"), transaction(engine) as session:
        rename_player(session, "Zed", "Zoe")
    with pytest.raises(LedgerError, match="'Bruno' exists already"), transaction(engine) as session:
        rename_player(session, "niccolo", "BRUNO")
    assert counts(engine)["player"] == 2
    assert counts(engine)["player_rename"] == 0


@pytest.mark.parametrize("name", ["An\x1bcna", "Bell\x07", "Carla\x00", "\u202eanolraC", "Dario\x7f", "Ezio\x9b"])
def test_a_name_a_terminal_would_act_on_is_refused(name: str, engine: Engine) -> None:
    with pytest.raises(LedgerError, match="control characters"), transaction(engine) as session:
        add_player(session, name)
    with transaction(engine) as session:
        add_player(session, "Bruno")
    with pytest.raises(LedgerError, match="control characters"), transaction(engine) as session:
        rename_player(session, "Bruno", name)
    with pytest.raises(LedgerError, match="control characters"), transaction(engine) as session:
        start_evening(session, (name, "Bruno", "Carla"))
    with transaction(engine) as session:
        assert [p.name for p in list_players(session)] == ["Bruno"]


def test_names_in_any_script_with_marks_and_emoji_are_kept() -> None:
    for name in ("Niccolò", "Zoë", "Ángel Ñ", "李小龙", "👨‍👩‍👧 family", "עברית", "Ḁ̈"):
        assert not acts_on_screen(name), name


FREE_TEXT: dict[str, Any] = {
    "evening note": lambda ledger, text: ledger.start_evening(["Dario", "Elena", "Fabio"], note=text),
    "evening place": lambda ledger, text: ledger.start_evening(["Dario", "Elena", "Fabio"], Terms(place=text)),
    "deal key": lambda ledger, text: ledger.record("bruno solo 22", evening=1, key=text),
    "amend reason": lambda ledger, text: ledger.amend(1, DealInput(thirds=20), reason=text, evening=1),
    "void reason": lambda ledger, text: ledger.void(1, reason=text, evening=1),
    "payment note": lambda ledger, text: ledger.paid("Anna", "Bruno", "1", note=text),
    "payment key": lambda ledger, text: ledger.paid("Anna", "Bruno", "1", key=text),
    "payment void reason": lambda ledger, text: ledger.void_payment(1, reason=text),
}


@pytest.mark.parametrize("field", sorted(FREE_TEXT))
def test_free_text_that_would_act_on_a_screen_or_that_postgresql_refuses_is_an_error(field: str, db_url: str) -> None:
    with Ledger(db_url) as ledger:
        ledger.start_evening(["Anna", "Bruno", "Carla"])
        ledger.record("bruno solo 22", evening=1)
        ledger.paid("Carla", "Bruno", "0.50")
        before = counts(ledger.engine), ledger.export()
        for text_ in ("a\x00b", "reset\x1bc", "\u202eevil", "bell\x07"):
            with raises_said("no control characters"):
                FREE_TEXT[field](ledger, text_)
        assert (counts(ledger.engine), ledger.export()) == before
        FREE_TEXT[field](ledger, "two lines\n\tand a tab")


def test_rename_keeps_history_and_logs_the_old_name(engine: Engine) -> None:
    begin(engine)
    record(engine, declarer="Bruno", contract="solo", thirds=22)
    record(engine, declarer="Anna", contract="solo", thirds=10)
    with transaction(engine) as session:
        rename_player(session, "bruno", "Bruce")
    with transaction(engine) as session:
        t = get_seating(session)
        assert t.players == ("Anna", "Bruce", "Carla")
        views = list_deals(session, t)
        assert [v.payouts for v in views] == [
            {"Anna": -2, "Bruce": 4, "Carla": -2},
            {"Anna": -4, "Bruce": 2, "Carla": 2},
        ]
        assert [v.to_dict()["declarer"] for v in views] == ["Bruce", "Anna"]
        assert [v.payouts for v in deal_history(session, t, 1)] == [{"Anna": -2, "Bruce": 4, "Carla": -2}]
        assert totals(session, t) == {"Anna": -6, "Bruce": 6, "Carla": 0}
        assert find_player(session, "Bruno") is None
    with engine.connect() as connection:
        log = connection.execute(text("SELECT old_name, new_name FROM player_rename")).all()
    assert [tuple(row) for row in log] == [("Bruno", "Bruce")]
    # the new name is what new deals use
    assert record(engine, declarer="Bruce", contract="solo", thirds=22).deal.payouts == {
        "Anna": -2,
        "Bruce": 4,
        "Carla": -2,
    }


# --- evenings -------------------------------------------------------------------------------------------------


def test_evening_pins_profile_options_stake_and_seat_order(engine: Engine) -> None:
    number = begin(
        engine,
        ("Carla", "Anna", "Bruno"),
        profile="italian",
        options=["sweeps=off"],
        stake="0,15",
        currency="chf",
        place="Bar",
        dealer="anna",
    )
    t = table(engine, number)
    assert t.players == ("Carla", "Anna", "Bruno")
    assert (t.evening.profile, t.evening.stake_cents, t.evening.currency) == ("pagat", 15, "CHF")
    assert t.evening.options["sweeps"] is False
    assert t.evening.options["stramazzo_multiplier"] == 3
    with engine.connect() as connection:
        seats = connection.execute(
            text(
                "SELECT s.position, p.name FROM seat s JOIN player p ON p.id = s.player_id "
                "WHERE s.evening_id = :e ORDER BY s.position"
            ),
            {"e": number},
        ).all()
    assert [tuple(s) for s in seats] == [(0, "Carla"), (1, "Anna"), (2, "Bruno")]
    # the deal is scored with the evening's options (no stramazzo at 33) and they are stored with it
    done = record(engine, declarer="Anna", contract="solo", thirds=33)
    assert done.deal.dealer == "Anna"
    assert done.deal.payouts == {"Carla": -2, "Anna": 4, "Bruno": -2}
    assert done.deal.sweep is None
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT profile, options FROM deal_revision ORDER BY id DESC")).first()
    assert (stored[0], json.loads(stored[1]) if isinstance(stored[1], str) else stored[1]) == (
        "pagat",
        t.evening.options,
    )
    with transaction(engine) as session:
        result = standings(session, get_seating(session, number))
    assert result.cents == {"Carla": -30, "Anna": 60, "Bruno": -30}
    assert result.currency == "CHF"
    # another evening with a changed multiplier scores with its own options
    other = begin(engine, ("Dario", "Elena", "Franco"), options={"stramazzo_multiplier": "4"})
    done = record(engine, other, declarer="Elena", contract="solo", thirds=33)
    assert done.deal.payouts == {"Dario": -8, "Elena": 16, "Franco": -8}
    assert "stramazzo 4" in explanation(done.deal)


def test_wrong_number_of_players_is_refused_and_nothing_is_written(engine: Engine) -> None:
    for profile, players in (
        ("pagat", ("Anna", "Bruno")),
        ("pagat", ("A", "B", "C", "D", "E")),
        ("quartiglio", ABC),
        ("quintiglio", ("A", "B", "C", "D")),
    ):
        with (
            pytest.raises(LedgerError, match=rf"{len(players)} players: {profile} is played by"),
            transaction(engine) as session,
        ):
            start_evening(session, players, Terms(profile=profile))
    with pytest.raises(LedgerError, match="seated twice"), transaction(engine) as session:
        start_evening(session, ("Anna", "anna", "Bruno"))
    assert counts(engine) == dict.fromkeys(TABLES, 0)


def test_the_last_open_evening_is_the_default_and_a_closed_one_refuses_changes(engine: Engine) -> None:
    first = begin(engine)
    second = begin(engine, ("Dario", "Elena", "Franco"))
    assert table(engine).number == second
    record(engine, declarer="Elena", contract="solo", thirds=22)
    with transaction(engine) as session:
        close_evening(session, get_seating(session))
    assert table(engine).number == first
    assert record(engine, declarer="Anna", contract="solo", thirds=22).deal.payouts == {
        "Anna": 4,
        "Bruno": -2,
        "Carla": -2,
    }
    third = begin(engine, ("Gina", "Anna", "Bruno"))
    assert table(engine).number == third
    with transaction(engine) as session:
        assert [t.number for t in list_evenings(session)] == [third, second, first]

    before = snapshot(engine)
    with raises_said(f"evening {second} is closed"):
        record(engine, second, passed=True)
    with pytest.raises(LedgerError, match="closed"), transaction(engine) as session:
        amend_deal(session, get_seating(session, second), 1, DealInput(thirds=10), "recount")
    with pytest.raises(LedgerError, match="closed"), transaction(engine) as session:
        void_deal(session, get_seating(session, second), 1, "misdeal")
    with pytest.raises(LedgerError, match="closed"), transaction(engine) as session:
        undo_last(session, get_seating(session, second))
    with pytest.raises(LedgerError, match="closed already"), transaction(engine) as session:
        close_evening(session, get_seating(session, second))
    with raises_said("evening 9 does not exist"):
        table(engine, 9)
    assert snapshot(engine) == before

    for number in (first, third):
        with transaction(engine) as session:
            close_evening(session, get_seating(session, number))
    with raises_said("no open evening"):
        record(engine, passed=True)


# --- deals: rotation, keys ---------------------------------------------------------------------------------


def test_dealer_rotates_after_every_deal_including_passed_ones(engine: Engine) -> None:
    begin(engine)  # Carla, the last listed, deals first
    dealers = []
    for facts in (
        {"passed": True},
        {"declarer": "Bruno", "contract": "solo", "thirds": 22},
        {"passed": True},
        {"auction": "pass,pass,pass"},
        {"declarer": "Anna", "contract": "chiamo", "called": "3D", "holder": "Bruno", "thirds": 20},
    ):
        with transaction(engine) as session:
            expected = next_dealer(session, get_seating(session))
        done = record(engine, **facts)
        assert done.deal.dealer == expected
        dealers.append(done.deal.dealer)
    assert dealers == ["Carla", "Anna", "Bruno", "Carla", "Anna"]
    assert [p for _, p, _ in payouts(engine)] == [
        {"Anna": 0, "Bruno": 0, "Carla": 0},
        {"Anna": -2, "Bruno": 4, "Carla": -2},
        {"Anna": 0, "Bruno": 0, "Carla": 0},
        {"Anna": 0, "Bruno": 0, "Carla": 0},
        {"Anna": 2, "Bruno": -1, "Carla": -1},
    ]
    # overridden: the rotation continues from the dealer who actually dealt
    assert record(engine, passed=True, dealer="carla").deal.dealer == "Carla"
    assert record(engine, passed=True).deal.dealer == "Anna"
    with raises_said("not seated"):
        record(engine, passed=True, dealer="Zed")
    assert counts(engine)["deal"] == 7


def test_four_seated_rotation_and_the_dealer_sits_out(engine: Engine) -> None:
    begin(engine, ("Anna", "Bruno", "Carla", "Dario"), dealer="Dario")
    first = record(engine, declarer="Anna", contract="solo", thirds=20)
    assert first.deal.dealer == "Dario"
    assert first.deal.payouts == {"Anna": 4, "Bruno": -2, "Carla": -2, "Dario": 0}
    assert first.deal.roles == {"Anna": "declarer", "Bruno": "opponent", "Carla": "opponent", "Dario": "out"}
    assert [record(engine, passed=True).deal.dealer for _ in range(4)] == ["Anna", "Bruno", "Carla", "Dario"]


def test_key_stores_a_deal_at_most_once_and_identical_deals_without_key_are_kept(engine: Engine) -> None:
    first_evening = begin(engine)
    first = record(engine, key="phone-1", declarer="Bruno", contract="solo", thirds=22)
    again = record(engine, key="phone-1", declarer="Bruno", contract="solo", thirds=22)
    assert not first.duplicate and again.duplicate
    assert again.deal.number == first.deal.number == 1
    assert again.evening_revision == first.evening_revision
    assert again.totals == {"Anna": -2, "Bruno": 4, "Carla": -2}
    assert (counts(engine)["deal"], counts(engine)["deal_revision"]) == (1, 1)
    # no key: two identical passed deals, then two identical played deals, all stored
    record(engine, passed=True)
    record(engine, passed=True)
    record(engine, declarer="Bruno", contract="solo", thirds=22, dealer="Bruno")
    record(engine, declarer="Bruno", contract="solo", thirds=22, dealer="Bruno")
    assert [(n, v) for n, _, v in payouts(engine)] == [(i, False) for i in range(1, 6)]
    with transaction(engine) as session:
        assert totals(session, get_seating(session)) == {"Anna": -6, "Bruno": 12, "Carla": -6}
    # a key belongs to one deal of one evening
    second = begin(engine, ("Dario", "Elena", "Franco"))
    with raises_said(f"--key 'phone-1': used for deal 1 of evening {first_evening}"):
        record(engine, second, key="phone-1", passed=True)
    assert counts(engine)["deal"] == 5


def test_a_key_retried_with_other_facts_is_an_error_naming_the_deal(engine: Engine) -> None:
    begin(engine)
    record(engine, key="phone-1", declarer="Bruno", contract="solo", thirds=22)
    record(engine, passed=True)
    # the same facts later in the evening (the rotation moved on): the stored deal, nothing written
    assert record(engine, key="phone-1", declarer="Bruno", contract="solo", thirds=22).duplicate
    for other in (
        {"declarer": "Bruno", "contract": "solo", "thirds": 20},
        {"passed": True},
        {"declarer": "Bruno", "contract": "solo"},
        {"declarer": "Bruno", "contract": "solo", "thirds": 22, "dealer": "Bruno"},
    ):
        with raises_said(
            r"--key 'phone-1': holds deal 1 of evening \d+ \(Bruno solo 7\+1/3\), recorded with other facts"
        ):
            record(engine, key="phone-1", **other)
    assert (counts(engine)["deal"], counts(engine)["deal_revision"]) == (2, 2)


def test_invalid_deal_is_refused_and_nothing_is_written(engine: Engine) -> None:
    begin(engine)
    record(engine, passed=True)
    before = snapshot(engine)
    for facts in (
        {"declarer": "Bruno", "contract": "solo", "thirds": 36},
        {"declarer": "Bruno", "contract": "solo", "thirds": -1},
        {"declarer": "Zed", "contract": "solo", "thirds": 20},
        {"declarer": "Bruno", "contract": "solo", "thirds": 0, "tricks": 13},
        {"passed": True, "declarer": "Bruno"},
    ):
        with pytest.raises(LedgerError):
            record(engine, **facts)
    assert snapshot(engine) == before


# --- corrections: amend, void, undo ------------------------------------------------------------------------


def test_amend_void_undo_keep_every_revision_and_standings_are_exact(engine: Engine) -> None:
    number = _three_deals(engine)
    assert [p for _, p, _ in payouts(engine)] == [
        {"Anna": -2, "Bruno": 4, "Carla": -2},
        {"Anna": 1, "Bruno": 1, "Carla": -2},
        {"Anna": 16, "Bruno": -8, "Carla": -8},
    ]
    with transaction(engine) as session:
        assert totals(session, get_seating(session)) == {"Anna": 15, "Bruno": -3, "Carla": -12}

    # amend deal 1 twice: lost with 15 thirds, then won with 33 (stramazzo x3)
    with transaction(engine) as session:
        first = amend_deal(session, get_seating(session), 1, DealInput(thirds=15), "recounted")
    assert first.deal.revision == 2 and first.deal.payouts == {"Anna": 2, "Bruno": -4, "Carla": 2}
    assert first.totals == {"Anna": 19, "Bruno": -11, "Carla": -8}
    with transaction(engine) as session:
        second = amend_deal(session, get_seating(session), 1, DealInput(thirds=33), "recounted again")
    assert second.deal.revision == 3 and second.deal.payouts == {"Anna": -6, "Bruno": 12, "Carla": -6}
    assert (second.deal.sweep, second.deal.multiplier, second.deal.dealer) == ("stramazzo", 3, "Carla")
    assert second.totals == {"Anna": 11, "Bruno": 5, "Carla": -16}

    with transaction(engine) as session:
        voided = void_deal(session, get_seating(session), 2, "misdeal")
    assert voided.deal.voided and voided.deal.void_reason == "misdeal"
    assert voided.totals == {"Anna": 10, "Bruno": 4, "Carla": -14}
    assert voided.evening_revision == 6

    # a passed deal 4 (Carla deals: the seat after Bruno, dealer of deal 3), a stale undo, then undo
    four = record(engine, passed=True)
    assert (four.deal.number, four.deal.dealer, four.evening_revision) == (4, "Carla", 7)
    before = snapshot(engine)
    with pytest.raises(LedgerError, match=r"undo refused.*revision 6, now 7"), transaction(engine) as session:
        undo_last(session, get_seating(session), seen_revision=6)
    assert snapshot(engine) == before
    with transaction(engine) as session:
        undone = undo_last(session, get_seating(session), seen_revision=7)
    assert undone.recorded is not None and undone.taken_back.kind == "record"
    deal = undone.recorded.deal  # undo returns what it took back and the deal as it stands now
    assert (deal.number, deal.void_cause, why_voided(deal), undone.evening_revision) == (
        4,
        "undo",
        "undone",
        8,
    )

    with transaction(engine) as session:
        t = get_seating(session, number)
        views = list_deals(session, t)
        assert [(v.number, v.revision, v.voided, v.void_reason, why_voided(v)) for v in views] == [
            (1, 3, False, None, None),
            (2, 1, True, "misdeal", "misdeal"),
            (3, 1, False, None, None),
            (4, 1, True, None, "undone"),
        ]
        history = deal_history(session, t, 1)
        assert [(v.revision, v.payouts, v.reason, v.declarer_thirds) for v in history] == [
            (1, {"Anna": -2, "Bruno": 4, "Carla": -2}, None, 22),
            (2, {"Anna": 2, "Bruno": -4, "Carla": 2}, "recounted", 15),
            (3, {"Anna": -6, "Bruno": 12, "Carla": -6}, "recounted again", 33),
        ]
        superseded = [v.superseded_at for v in history]
        assert superseded[0] is not None and superseded[1] is not None and superseded[2] is None
        assert superseded[0] <= superseded[1]
        voided_history = deal_history(session, t, 2)
        assert [(v.revision, v.voided, v.payouts) for v in voided_history] == [
            (1, True, {"Anna": 1, "Bruno": 1, "Carla": -2})
        ]
        result = standings(session, t)
        assert result.points == {"Anna": 10, "Bruno": 4, "Carla": -14}
        assert result.cents == {"Anna": 100, "Bruno": 40, "Carla": -140}
        assert running_totals(t, list_deals(session, t)) == [
            (1, {"Anna": -6, "Bruno": 12, "Carla": -6}),
            (3, {"Anna": 10, "Bruno": 4, "Carla": -14}),
        ]
        assert t.evening.revision == 8
        # the next dealer follows the last deal that stands (deal 3, dealt by Bruno)
        assert next_dealer(session, t) == "Carla"
    assert {k: counts(engine)[k] for k in ("deal", "deal_revision", "payout")} == {
        "deal": 4,
        "deal_revision": 6,
        "payout": 18,
    }


def test_bad_corrections_are_refused_and_nothing_is_written(engine: Engine) -> None:
    _three_deals(engine)
    with transaction(engine) as session:
        void_deal(session, get_seating(session), 3, "misdeal")
    before = snapshot(engine)
    attempts = [
        (lambda s, t: amend_deal(s, t, 1, DealInput(thirds=10), None), "why?"),
        (lambda s, t: amend_deal(s, t, 1, DealInput(thirds=10), "  "), "why?"),
        (lambda s, t: void_deal(s, t, 1, ""), "why?"),
        (lambda s, t: amend_deal(s, t, 9, DealInput(thirds=10), "x"), "deal 9 does not exist.*1 to 3"),
        (lambda s, t: void_deal(s, t, 9, "x"), "deal 9 does not exist.*1 to 3"),
        (lambda s, t: deal_history(s, t, 0), "deal 0 does not exist"),
        (lambda s, t: amend_deal(s, t, 1, DealInput(), "x"), "at least one fact"),
        (lambda s, t: amend_deal(s, t, 1, DealInput(thirds=36), "x"), "35"),
        (lambda s, t: amend_deal(s, t, 3, DealInput(thirds=10), "x"), r"deal 3 is voided.*\(misdeal\)"),
        (lambda s, t: void_deal(s, t, 3, "again"), "voided already"),
        (lambda s, t: undo_last(s, t, seen_revision=0), "undo refused"),
    ]
    for attempt, message in attempts:
        with pytest.raises(LedgerError, match=message), transaction(engine) as session:
            attempt(session, get_seating(session))
    assert snapshot(engine) == before


def test_undo_takes_back_the_last_deal_that_stands(engine: Engine) -> None:
    begin(engine)
    with pytest.raises(LedgerError, match="no change to take back"), transaction(engine) as session:
        undo_last(session, get_seating(session))
    record(engine, declarer="Bruno", contract="solo", thirds=22)
    record(engine, declarer="Carla", contract="solo", thirds=22)
    for expected in (2, 1):
        with transaction(engine) as session:
            undone = undo_last(session, get_seating(session))
            assert undone.recorded is not None and undone.recorded.deal.number == expected
    with pytest.raises(LedgerError, match="no change to take back"), transaction(engine) as session:
        undo_last(session, get_seating(session))
    assert [(n, v) for n, _, v in payouts(engine)] == [(1, True), (2, True)]
    with transaction(engine) as session:
        assert totals(session, get_seating(session)) == {"Anna": 0, "Bruno": 0, "Carla": 0}
        assert next_dealer(session, get_seating(session)) == "Carla"
    # the numbers go on: an undone deal keeps its number
    assert record(engine, passed=True).deal.number == 3


def test_amend_can_change_the_dealer_and_the_contract(engine: Engine) -> None:
    _three_deals(engine)
    with transaction(engine) as session:
        done = amend_deal(
            session, get_seating(session), 2, DealInput(contract="solo", thirds=20), "it was solo", dealer="Bruno"
        )
    assert done.deal.dealer == "Bruno"
    assert (done.deal.contract, done.deal.called) == ("solo", None)
    assert done.deal.payouts == {"Anna": -2, "Bruno": -2, "Carla": 4}
    with transaction(engine) as session:
        history = deal_history(session, get_seating(session), 2)
    assert [(v.dealer, v.contract, v.called) for v in history] == [("Anna", "chiamo", "3D"), ("Bruno", "solo", None)]


# --- tretre: the pot of passed deals ---------------------------------------------------------------------------


def test_tretre_pot_carryover_multiplies_the_next_played_deal(engine: Engine) -> None:
    begin(engine, profile="tretre")
    record(engine, passed=True)
    record(engine, auction="pass,pass,pass")
    won = record(engine, declarer="Anna", contract="solo", thirds=20)
    assert won.deal.passed_before == 2
    assert won.deal.payouts == {"Anna": 6, "Bruno": -3, "Carla": -3}
    plain = record(engine, declarer="Bruno", contract="chiamo", called="3D", holder="Anna", thirds=10)
    assert plain.deal.passed_before == 0
    assert plain.deal.payouts == {"Anna": 1, "Bruno": -2, "Carla": 1}
    record(engine, passed=True)
    lost = record(engine, declarer="Carla", contract="solissimo", aggravation="dividete", thirds=17)
    assert lost.deal.passed_before == 1
    # +2/-1 base, dividete x2, pot of one passed deal x2: 4 to each opponent
    assert lost.deal.payouts == {"Anna": 4, "Bruno": 4, "Carla": -8}
    with transaction(engine) as session:
        assert totals(session, get_seating(session)) == {"Anna": 11, "Bruno": -1, "Carla": -10}
    # amending the played deal keeps its pot
    with transaction(engine) as session:
        done = amend_deal(session, get_seating(session), 6, DealInput(thirds=20), "recount")
    assert done.deal.passed_before == 1
    assert done.deal.payouts == {"Anna": -4, "Bruno": -4, "Carla": 8}
    # without the option a passed deal carries nothing
    begin(engine, ("Dario", "Elena", "Franco"), profile="tretre", options=["pot_carryover=off"])
    record(engine, passed=True)
    flat = record(engine, declarer="Dario", contract="solo", thirds=20)
    assert flat.deal.passed_before == 0
    assert flat.deal.payouts == {"Dario": 2, "Elena": -1, "Franco": -1}


def test_a_pot_carries_over_in_any_profile_that_says_so(engine: Engine) -> None:
    begin(engine, options=["pot_carryover=on"])
    record(engine, passed=True)
    record(engine, passed=True)
    # pagat: solo 2 x pot 3 (two passed deals) = 6 from each opponent
    won = record(engine, declarer="Anna", contract="solo", thirds=20)
    assert won.deal.passed_before == 2 and won.deal.payouts == {"Anna": 12, "Bruno": -6, "Carla": -6}
    begin(engine, ("Dario", "Elena", "Franco"), profile="cavendish", options=["pot_carryover=on"])
    record(engine, passed=True)
    # cavendish: 22 - 13 = 9, x pot 2 (one passed deal) = 18 from each opponent
    played = record(engine, declarer="Dario", contract="play", thirds=22)
    assert played.deal.passed_before == 1 and played.deal.payouts == {"Dario": 36, "Elena": -18, "Franco": -18}


def test_monte_thirds_are_stored_read_back_and_kept_by_an_amend(engine: Engine) -> None:
    begin(engine, options=["stramazzo_counts=tricks"])
    # the opponents' 9 thirds: the last trick's 3 and a monte of 6, none in tricks: solo 2 x stramazzo 3
    done = record(engine, declarer="Anna", contract="solo", thirds=26, last_trick="opponents", monte_thirds=6)
    assert done.deal.monte_thirds == 6 and done.deal.payouts == {"Anna": 12, "Bruno": -6, "Carla": -6}
    # it was a chiamo of a three, the suit not said, that Bruno held: the monte stays, 1 x stramazzo 3 from each
    with transaction(engine) as session:
        change = DealInput(contract="chiamo", called="3", holder="Bruno")
        amended = amend_deal(session, get_seating(session), 1, change, "it was chiamo")
    assert (amended.deal.contract, amended.deal.called, amended.deal.holder) == ("chiamo", "3", "Bruno")
    assert amended.deal.monte_thirds == 6 and amended.deal.sweep == "stramazzo"
    assert amended.deal.payouts == {"Anna": 6, "Bruno": -3, "Carla": -3}
    with transaction(engine) as session:
        first, second = deal_history(session, get_seating(session), 1)
    assert (first.monte_thirds, first.called, second.monte_thirds, second.called) == (6, None, 6, "3")


def test_tretre_pot_follows_corrections_of_earlier_deals(engine: Engine) -> None:
    begin(engine, profile="tretre")
    record(engine, passed=True)
    record(engine, passed=True)
    assert record(engine, declarer="Anna", contract="solo", thirds=20).deal.payouts == {
        "Anna": 6,
        "Bruno": -3,
        "Carla": -3,
    }
    record(engine, declarer="Bruno", contract="solo", thirds=10)
    with transaction(engine) as session:
        void_deal(session, get_seating(session), 1, "misdeal")
    assert payouts(engine)[2][1] == {"Anna": 4, "Bruno": -2, "Carla": -2}
    with transaction(engine) as session:
        done = amend_deal(
            session, get_seating(session), 2, DealInput(declarer="Bruno", contract="solo", thirds=20), "it was played"
        )
    assert done.deal.payouts == {"Anna": -1, "Bruno": 2, "Carla": -1}
    assert done.totals == {"Anna": 2, "Bruno": -1, "Carla": -1}
    with transaction(engine) as session:
        t = get_seating(session)
        history = deal_history(session, t, 3)
        assert [(v.revision, v.passed_before, v.payouts) for v in history] == [
            (1, 2, {"Anna": 6, "Bruno": -3, "Carla": -3}),
            (2, 1, {"Anna": 4, "Bruno": -2, "Carla": -2}),
            (3, 0, {"Anna": 2, "Bruno": -1, "Carla": -1}),
        ]
        assert [(v.reason, v.cause, v.cause_deal) for v in history] == [
            (None, None, None),
            (None, "pot", 1),
            (None, "pot", 2),
        ]
        assert why(history[1]) == "pot of passed deals changed by deal 1"
        assert [v.revision for v in deal_history(session, t, 4)] == [1]
        assert standings(session, t).points == {"Anna": 2, "Bruno": -1, "Carla": -1}
        assert t.evening.revision == 6


# --- where the ledger is --------------------------------------------------------------------------------------


def test_resolve_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    assert resolve_url("ledger.sqlite3") == f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    assert resolve_url("sqlite:///x.db") == "sqlite:///x.db"
    assert resolve_url("postgresql://anna@db.example/ledger") == "postgresql+psycopg://anna@db.example/ledger"
    assert resolve_url("postgresql+psycopg://anna:pw@h:5433/l") == "postgresql+psycopg://anna:pw@h:5433/l"
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "from-env.sqlite3"))
    assert resolve_url(None) == f"sqlite:///{tmp_path / 'from-env.sqlite3'}"
    assert resolve_url("given.sqlite3") == f"sqlite:///{tmp_path / 'given.sqlite3'}"
    for odd in ("serate #1?/club.sqlite3", "club 50%20.sqlite3", "Università/è?x=1.sqlite3"):
        assert make_url(resolve_url(odd)).database == str(tmp_path / odd), odd  # the very file, not a part of it
    for bad, message in (
        ("mysql://x/y", "runs on SQLite or PostgreSQL"),
        (str(tmp_path), "a folder: give a file path"),
        ("://", "not a database URL"),
    ):
        with raises_said(message):
            resolve_url(bad)
    assert list(tmp_path.iterdir()) == []


def test_a_deal_recorded_before_a_rename_can_still_be_amended(engine: Engine) -> None:
    begin(engine)
    record(engine, auction="Anna:pass,Bruno:chiamo,pass", called="3D", holder="carla", thirds=20)
    with transaction(engine) as session:
        rename_player(session, "Bruno", "Roberto")
        rename_player(session, "carla", "Chiara")
    with transaction(engine) as session:
        done = amend_deal(session, get_seating(session), 1, DealInput(thirds=15), "recounted")
    assert done.totals == {"Anna": 1, "Roberto": -2, "Chiara": 1}
    assert done.deal.auction == (("Anna", "pass"), ("Roberto", "chiamo"), ("Chiara", "pass"))
    assert done.deal.holder == "Chiara"


def test_a_long_read_never_keeps_a_writer_waiting(sqlite_url: str) -> None:
    import sqlite3

    from ledger.store.engine import reading

    opened = open_ledger(sqlite_url)
    try:
        with reading(opened).connect() as connection, connection.begin():
            assert connection.execute(text("SELECT COUNT(*) FROM player")).scalar_one() == 0
            writer = sqlite3.connect(sqlite_url, timeout=0.5)
            with writer:
                writer.execute("INSERT INTO player (name, key, created_at) VALUES ('Zoe', 'zoe', '2026-01-01')")
            writer.close()
    finally:
        opened.dispose()
    assert counts_after(sqlite_url) == 1


def counts_after(path: str) -> int:
    """Players in a SQLite ledger, read with the plain driver."""
    import sqlite3

    connection = sqlite3.connect(path)
    try:
        return connection.execute("SELECT COUNT(*) FROM player").fetchone()[0]
    finally:
        connection.close()
