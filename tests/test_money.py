"""Money at the end of the evening through the command line: settle, paid, tab, and closing an evening."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import copy_ledger, ready_to_copy
from said import raises_said
from typer.testing import CliRunner

from ledger.cli.main import app
from ledger.store.engine import open_ledger, transaction
from ledger.store.money import choose_evenings, record_payment, settle, tab
from ledger.values import Terms

runner = CliRunner()
ENV = {"CALABRESELLA_DB": None, "COLUMNS": "200"}


def run(db: str, *args: str) -> str:
    """A command that must succeed; its stdout."""
    result = runner.invoke(app, ["--db", db, *args], env=ENV)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def as_json(db: str, *args: str) -> Any:
    return json.loads(run(db, *args, "--json"))


def error(db: str, *args: str) -> str:
    """A command that must fail as a user error: one line, exit code 2; the line."""
    result = runner.invoke(app, ["--db", db, *args], env=ENV)
    assert result.exit_code == 2, result.stdout
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


def payments(settlement: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(p["payer"], p["payee"], p["cents"]) for p in settlement["payments"]]


@pytest.fixture(scope="module")
def three_evenings(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    """Three evenings: 0.10 EUR, 0.50 EUR, 1.00 CHF a game point; built once, copied by each test."""
    path = copy_ledger(sqlite_template, tmp_path_factory.mktemp("money"), "money.sqlite3")
    db = str(path)
    run(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.10")
    run(db, "record", "-d", "Bruno", "-c", "solo", "-t", "22")  # Bruno +4, others -2
    run(db, "record", "-d", "Carla", "-c", "chiamo", "-t", "17", "-l", "opponents")  # Carla -2, others +1
    run(db, "evening", "close")
    run(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.50")
    run(db, "record", "-d", "Anna", "-c", "solissimo", "-a", "dividete", "-t", "24")  # Anna +16, others -8
    run(db, "evening", "close")
    run(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "1", "--currency", "CHF")
    run(db, "record", "-d", "Bruno", "-c", "solo", "-t", "22")  # Bruno +4, others -2
    return ready_to_copy(path)


@pytest.fixture
def ledger(tmp_path: Path, three_evenings: Path) -> str:
    """A copy of the three evenings for one test."""
    return str(copy_ledger(three_evenings, tmp_path, "money.sqlite3"))


def test_settle_one_evening_with_the_fewest_payments(ledger: str) -> None:
    first = as_json(ledger, "settle", "--evening", "1")
    assert first["points"] == {"Anna": -1, "Bruno": 5, "Carla": -4}
    assert first["cents"] == {"Anna": -10, "Bruno": 50, "Carla": -40}
    assert payments(first) == [("Anna", "Bruno", 10), ("Carla", "Bruno", 40)]
    text = run(ledger, "settle", "--evening", "1")
    assert "Anna pays Bruno 0.10 EUR" in text and "Carla pays Bruno 0.40 EUR" in text


def test_settle_several_evenings_with_different_stakes(ledger: str) -> None:
    with transaction(open_ledger(ledger)) as session:
        result = settle(session, choose_evenings(session, 1) + choose_evenings(session, 2))
    assert result.cents == {"Anna": -10 + 800, "Bruno": 50 - 400, "Carla": -40 - 400}
    assert [(p.payer, p.payee, p.cents) for p in result.payments] == [("Bruno", "Anna", 350), ("Carla", "Anna", 440)]


def test_mixing_currencies_is_refused(ledger: str) -> None:
    assert "mix currencies" in error(ledger, "settle", "--since", "2000-01-01")


def test_cash_rounding_and_the_unsimplified_pairs(ledger: str) -> None:
    rounded = as_json(ledger, "settle", "--evening", "1", "--round-to", "0.50")
    assert payments(rounded) == [("Carla", "Bruno", 50)]
    assert rounded["rounding"] == {"Anna": 10, "Carla": -10}
    assert sum(rounded["rounding"].values()) == 0
    pairs = as_json(ledger, "settle", "--evening", "1", "--pairs")["pairs"]
    assert [(p["payer"], p["payee"], p["cents"]) for p in pairs] == [
        ("Anna", "Bruno", 20),
        ("Carla", "Anna", 10),
        ("Carla", "Bruno", 30),
    ]
    assert "--round-to" in error(ledger, "settle", "--evening", "1", "--round-to", "0.001")


def test_paid_and_the_tab_across_evenings(ledger: str) -> None:
    before = {t["currency"]: t for t in as_json(ledger, "tab")}
    assert before["EUR"]["balances"] == {"Anna": 790, "Bruno": -350, "Carla": -440}
    assert before["CHF"]["balances"] == {"Anna": -200, "Bruno": 400, "Carla": -200}
    assert "Recorded payment 1: Carla paid Anna 4.40 EUR." in run(
        ledger, "paid", "carla", "anna", "4.40", "--currency", "eur"
    )
    after = {t["currency"]: t for t in as_json(ledger, "tab")}
    assert after["EUR"]["balances"] == {"Anna": 350, "Bruno": -350}
    assert [(p["payer"], p["payee"], p["cents"]) for p in after["EUR"]["suggested"]] == [("Bruno", "Anna", 350)]
    assert after["CHF"] == before["CHF"]
    run(ledger, "paid", "Anna", "Bruno", "2", "--currency", "CHF")
    run(ledger, "paid", "Carla", "Bruno", "2", "--currency", "CHF")
    run(ledger, "paid", "Bruno", "Anna", "3.50", "--currency", "EUR")
    assert "The tab is clear" in run(ledger, "tab")


def test_payment_errors_write_nothing(ledger: str) -> None:
    assert "unknown player" in error(ledger, "paid", "Zoe", "Anna", "1")
    assert "cannot pay themselves" in error(ledger, "paid", "Anna", "anna", "1")
    assert "abc" in error(ledger, "paid", "Anna", "Bruno", "abc")
    assert "three-letter" in error(ledger, "paid", "Anna", "Bruno", "1", "--currency", "euro")
    with transaction(open_ledger(ledger)) as session:
        assert {t.currency: t.balances for t in tab(session)}["EUR"] == {"Anna": 790, "Bruno": -350, "Carla": -440}


def test_closing_an_evening_prints_its_settlement_and_standings_show_it(ledger: str) -> None:
    closed = as_json(ledger, "evening", "close")
    assert closed["evening"] == 3
    assert payments(closed["settlement"]) == [("Anna", "Bruno", 200), ("Carla", "Bruno", 200)]
    assert payments(as_json(ledger, "standings", "--evening", "1")["settlement"]) == [
        ("Anna", "Bruno", 10),
        ("Carla", "Bruno", 40),
    ]
    assert "2 payments settle it" in run(ledger, "standings", "--evening", "2")


def test_record_payment_in_the_library(sqlite_url: str) -> None:
    engine = open_ledger(sqlite_url)
    with transaction(engine) as session:
        from ledger.store.evenings import start_evening

        start_evening(session, ("Anna", "Bruno", "Carla"), Terms(currency="CHF"))
        entry = record_payment(session, "Anna", "Bruno", "1.25")
    assert (entry.cents, entry.currency) == (125, "CHF")
    engine.dispose()


def test_a_payment_key_stores_it_once_and_a_reused_key_with_other_facts_is_refused(db_url: str) -> None:
    from ledger import Ledger

    with Ledger(db_url) as book:
        book.start_evening(["Lucia", "Nadia", "Marco"], Terms(stake="0.10"))
        book.record("marco solo 22")
        first = book.paid("Lucia", "Marco", "0,20", key="lucia-1")
        again = book.paid("Lucia", "Marco", "0.20", key="lucia-1")
        assert not first.duplicate and again.duplicate and again.id == first.id
        with raises_said(r"--key 'lucia-1': holds payment 1 \(Lucia paid Marco 0.20 EUR\)"):
            book.paid("Lucia", "Marco", "0.30", key="lucia-1")
        assert [p.id for p in book.payments()] == [1]
        assert book.tab()[0].balances == {"Marco": 20, "Nadia": -20}


def test_a_voided_payment_stays_listed_and_no_longer_counts(db_url: str) -> None:
    from ledger import Ledger

    with Ledger(db_url) as book:
        book.start_evening(["Lucia", "Nadia", "Marco"], Terms(stake="0.10"))
        book.record("marco solo 22")
        book.paid("Lucia", "Marco", "0.20")
        book.paid("Lucia", "Marco", "0.20")
        voided = book.void_payment(2, reason="typed twice")
        assert voided.voided and voided.void_reason == "typed twice"
        assert [(p.id, p.voided) for p in book.payments()] == [(1, False), (2, True)]
        assert book.tab()[0].balances == {"Marco": 20, "Nadia": -20}
        for number, reason, message in [
            (2, "again", "payment 2 is voided already"),
            (9, "x", "payments are 1 to 2"),
            (1, " ", "why?"),
        ]:
            with raises_said(message):
                book.void_payment(number, reason=reason)


def test_payment_keys_and_voids_survive_an_export_and_import(
    db_url: str, tmp_path: Path, sqlite_template: Path
) -> None:
    """A voided payment stays voided in a copy made by export and import, and its key still guards a retry."""
    from ledger import Ledger

    with Ledger(db_url) as book:
        book.start_evening(["Lucia", "Nadia", "Marco"], Terms(stake="0.10"))
        book.record("marco solo 22")
        book.paid("Lucia", "Marco", "0.20", key="cash-1")
        book.paid("Nadia", "Marco", "0.20")
        book.void_payment(2, reason="typed in error")
        exported = tmp_path / "book.json"
        exported.write_text(book.export(), encoding="utf-8")
    with Ledger(str(copy_ledger(sqlite_template, tmp_path, "copy.sqlite3"))) as copy:
        copy.import_file(exported)
        assert [(p.payer, p.key, p.voided, p.void_reason) for p in copy.payments()] == [
            ("Lucia", "cash-1", False, None),
            ("Nadia", None, True, "typed in error"),
        ]
        assert copy.tab()[0].balances == {"Marco": 20, "Nadia": -20}
        assert copy.paid("Lucia", "Marco", "0.20", key="cash-1").duplicate


def test_paying_more_than_owed_records_it_with_a_warning(sqlite_url: str) -> None:
    db = sqlite_url
    run(db, "evening", "start", "--players", "Lucia,Nadia,Marco", "--stake", "0.10")
    run(db, "record", "marco solo 22")
    result = runner.invoke(app, ["--db", db, "paid", "Lucia", "Marco", "3,70"], env=ENV)
    assert result.exit_code == 0
    assert result.stderr == "Warning: Lucia owed 0.20 EUR in all; this pays 3.50 EUR more than that.\n"
    fair = runner.invoke(app, ["--db", db, "paid", "Nadia", "Marco", "0.20"], env=ENV)
    assert fair.exit_code == 0 and fair.stderr == ""


def test_paid_lists_and_voids_payments_on_the_command_line(sqlite_url: str) -> None:
    db = sqlite_url
    run(db, "evening", "start", "--players", "Lucia,Nadia,Marco", "--stake", "0.10")
    run(db, "record", "marco solo 22")
    run(db, "paid", "Lucia", "Marco", "0.20", "--key", "k")
    assert "recorded already with this key; nothing written" in run(db, "paid", "Lucia", "Marco", "0.20", "--key", "k")
    assert "--key 'k': holds payment 1" in error(db, "paid", "Lucia", "Marco", "0.30", "--key", "k")
    assert "Payment 1 voided (wrong): Lucia paid Marco 0.20 EUR no longer counts." in run(
        db, "paid", "--void", "1", "--reason", "wrong"
    )
    listed = run(db, "paid", "--list")
    assert "VOID: wrong" in listed and "Lucia" in listed
    assert [p["voided"] for p in as_json(db, "paid", "--list")] == [True]
    assert "one of them" in error(db, "paid", "Lucia", "--list")


def test_the_tab_is_one_line_per_player_and_per_payment_with_pairs_on_request(ledger: str) -> None:
    text = run(ledger, "tab")
    assert "per pair" not in text.lower()
    assert "To clear it:\n  Bruno pays Anna 3.50 EUR\n  Carla pays Anna 4.40 EUR\n" in text
    assert "Won and lost per pair in EUR, deal by deal over every evening, before any payment" in run(
        ledger, "tab", "--pairs"
    )


def test_numbers_beyond_the_columns_are_errors_on_every_backend(db_url: str) -> None:
    from ledger import Ledger

    with Ledger(db_url) as book:
        book.start_evening(["Lucia", "Nadia", "Marco"])
        for call in (
            lambda: book.deals(2**31),
            lambda: book.void(2**31, reason="x"),
            lambda: book.void_payment(2**31, reason="x"),
            lambda: book.paid("Lucia", "Nadia", "1", evening=2**31),
        ):
            with raises_said("2147483648 does not exist"):
                call()
        assert book.payments() == []
