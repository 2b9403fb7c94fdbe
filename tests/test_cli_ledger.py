"""The `calabresella` command line over the ledger: outputs, JSON, and user errors as one line with exit code 2.

The tests run the Typer app in-process through CliRunner against real SQLite files; one runs the installed
`calabresella` console script in real processes, and one flow runs against the real PostgreSQL server.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, as_document, ready_to_copy
from sqlalchemy import text
from typer.testing import CliRunner, Result

from ledger.cli.main import app
from ledger.store.engine import HEAD, open_ledger, schema_info, transaction
from ledger.store.export import write_export

CALABRESELLA = shutil.which("calabresella")
runner = CliRunner()
CLEAN_ENV = {"CALABRESELLA_DB": None, "COLUMNS": "200"}
SUBPROCESS_ENV = {k: v for k, v in os.environ.items() if k != "CALABRESELLA_DB"} | {"COLUMNS": "200"}


def cli(db: str, *args: str) -> Result:
    """Run `calabresella --db DB ARGS...` in-process."""
    return runner.invoke(app, ["--db", db, *args], env=CLEAN_ENV)


def ok(db: str, *args: str) -> Result:
    """Run a command that must succeed."""
    result = cli(db, *args)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result


def ok_json(db: str, *args: str) -> Any:
    """Run a `--json` command that must succeed and parse its standard output."""
    return json.loads(ok(db, *args, "--json").stdout)


def assert_user_error(exit_code: int, stderr: str, fragment: str) -> None:
    """One line on stderr, starting `Error:`, naming the problem; exit code 2; no traceback."""
    assert exit_code == 2, stderr
    assert stderr.startswith("Error: "), stderr
    assert stderr.endswith("\n") and stderr.count("\n") == 1, repr(stderr)
    assert fragment in stderr, stderr
    assert "Traceback" not in stderr


def snapshot(db: str) -> tuple[dict[str, int], dict[str, Any]]:
    """Row counts and the full export of a ledger, read through the library."""
    engine = open_ledger(db)
    try:
        with transaction(engine) as session:
            buffer = io.StringIO()
            write_export(session, buffer)
            data = as_document(buffer.getvalue())
        with engine.connect() as connection:
            rows = {
                name: connection.execute(text(f"SELECT COUNT(*) FROM {name}")).scalar_one()
                for name in ("player", "player_rename", "evening", "deal", "deal_revision", "payout")
            }
    finally:
        engine.dispose()
    return rows, data


def dump(db: str) -> list[str]:
    """Every row of a SQLite ledger as SQL (cheap enough to take before and after each command)."""
    connection = sqlite3.connect(db)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def evening_with_deals(db: str) -> None:
    """Evening 1, Anna Bruno Carla at 0.10, with two deals: Bruno solo 22, then a passed deal."""
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.10")
    ok(db, "record", "-d", "Bruno", "-c", "solo", "-t", "22")
    ok(db, "record", "--passed")


def closed_evening(db: str) -> None:
    """The same evening, closed."""
    evening_with_deals(db)
    ok(db, "evening", "close")


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Ledger files built once through the command line, copied by the tests that start from them."""
    folder = tmp_path_factory.mktemp("templates")
    built = {}
    for setup in (evening_with_deals, closed_evening):
        path = folder / f"{setup.__name__}.sqlite3"
        setup(str(path))
        built[setup.__name__] = ready_to_copy(path)
    return built


@pytest.fixture
def db(sqlite_url: str) -> str:
    """A fresh SQLite ledger."""
    return sqlite_url


# --- the evening at the table, with --json ---------------------------------------------------------------------


def test_an_evening_through_the_command_line(db: str) -> None:
    started = ok_json(db, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.10")
    assert (started["evening"], started["players"], started["next_dealer"]) == (1, ["Anna", "Bruno", "Carla"], "Carla")

    first = ok_json(db, "record", "-d", "Bruno", "-c", "solo", "-t", "22")
    assert first["deal"]["number"] == 1 and first["deal"]["dealer"] == "Carla"
    assert first["deal"]["payouts"] == {"Anna": -2, "Bruno": 4, "Carla": -2}
    assert first["totals"] == {"Anna": -2, "Bruno": 4, "Carla": -2}
    assert (first["evening_revision"], first["duplicate"]) == (1, False)

    second = ok_json(
        db,
        "record",
        "-d",
        "Carla",
        "-c",
        "chiamo",
        "--called",
        "3D",
        "--holder",
        "Anna",
        "-p",
        "5+2/3",
        "-l",
        "opponents",
    )
    assert second["deal"]["dealer"] == "Anna"
    assert second["deal"]["payouts"] == {"Anna": 1, "Bruno": 1, "Carla": -2}
    third = ok_json(db, "record", "--auction", "solissimo", "-a", "dividete", "-p", "8")
    assert third["deal"]["dealer"] == "Bruno" and third["deal"]["declarer"] == "Carla"
    assert third["deal"]["payouts"] == {"Anna": -8, "Bruno": -8, "Carla": 16}
    passed = ok_json(db, "record", "--passed")
    assert passed["deal"]["dealer"] == "Carla" and passed["deal"]["payouts"] == {"Anna": 0, "Bruno": 0, "Carla": 0}
    assert passed["totals"] == {"Anna": -9, "Bruno": -3, "Carla": 12}

    amended = ok_json(db, "amend", "1", "--thirds", "15", "--reason", "recounted")
    assert amended["deal"]["revision"] == 2 and amended["deal"]["payouts"] == {"Anna": 2, "Bruno": -4, "Carla": 2}
    voided = ok_json(db, "void", "2", "-r", "misdeal")
    assert voided["deal"]["voided"] and voided["deal"]["void_reason"] == "misdeal"
    assert voided["totals"] == {"Anna": -6, "Bruno": -12, "Carla": 18}
    assert voided["evening_revision"] == 6

    before = snapshot(db)
    stale = cli(db, "undo", "--revision", "5")
    assert_user_error(stale.exit_code, stale.stderr, "undo refused")
    assert snapshot(db) == before
    undone = ok_json(db, "undo", "--revision", "6")  # the last change, whatever it was: the void of deal 2
    assert (undone["taken_back"]["kind"], undone["taken_back"]["deal"]) == ("void", 2)
    assert (undone["recorded"]["deal"]["number"], undone["recorded"]["deal"]["voided"]) == (2, False)
    undone = ok_json(db, "undo", "--revision", "7")  # then the amendment of deal 1
    deal = undone["recorded"]["deal"]
    assert undone["taken_back"]["kind"] == "amend" and (deal["number"], deal["revision"], deal["voided"]) == (
        1,
        3,
        False,
    )
    assert deal["payouts"] == {"Anna": -2, "Bruno": 4, "Carla": -2}
    assert deal["cause"] == "undo"
    undone = ok_json(db, "undo", "--revision", "8")  # then the last deal recorded
    assert undone["recorded"]["deal"]["number"] == 4 and undone["recorded"]["deal"]["void_cause"] == "undo"
    ok_json(db, "void", "2", "-r", "misdeal")  # and deal 2 voided again

    deals = ok_json(db, "deals")
    assert [(d["number"], d["revision"], d["voided"]) for d in deals["deals"]] == [
        (1, 3, False),
        (2, 1, True),
        (3, 1, False),
        (4, 1, True),
    ]
    assert deals["deals"][0]["payouts"] == {"Anna": -2, "Bruno": 4, "Carla": -2}

    standings = ok_json(db, "standings")
    assert standings["points"] == {"Anna": -10, "Bruno": -4, "Carla": 14}
    assert standings["cents"] == {"Anna": -100, "Bruno": -40, "Carla": 140}
    assert [r["deal"] for r in standings["running"]] == [1, 3]
    assert standings["running"][-1]["totals"] == standings["points"]

    history = ok_json(db, "deal", "show", "1")
    assert [(r["revision"], r["payouts"], r["reason"]) for r in history["revisions"]] == [
        (1, {"Anna": -2, "Bruno": 4, "Carla": -2}, None),
        (2, {"Anna": 2, "Bruno": -4, "Carla": 2}, "recounted"),
        (3, {"Anna": -2, "Bruno": 4, "Carla": -2}, "undo: back as before the amendment"),
    ]
    assert [r["superseded_at"] is None for r in history["revisions"]] == [False, False, True]

    shown = ok(db, "deal", "show", "1").stdout
    assert "revision 3 counts" in shown
    rows = [line.split() for line in shown.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    assert [row[0] for row in rows] == ["1", "2", "3"]
    assert "recounted" in shown and "Bruno solo 7+1/3" in shown and "Bruno solo 5" in shown
    listing = ok(db, "deals").stdout
    assert "VOID: misdeal" in listing and "VOID: undone" in listing
    assert "-10" in ok(db, "standings").stdout


def test_record_with_a_key_is_stored_once(db: str) -> None:
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla")
    first = ok_json(db, "record", "--passed", "--key", "tablet-7")
    again = ok_json(db, "record", "--passed", "--key", "tablet-7")
    assert (first["duplicate"], again["duplicate"]) == (False, True)
    assert again["deal"]["number"] == first["deal"]["number"] == 1
    text_again = ok(db, "record", "--passed", "--key", "tablet-7").stdout
    assert "recorded already" in text_again
    # without a key two identical passed deals are two deals
    ok(db, "record", "--passed")
    ok(db, "record", "--passed")
    assert [d["number"] for d in ok_json(db, "deals")["deals"]] == [1, 2, 3]


def test_players_add_list_rename(db: str) -> None:
    open_ledger(db).dispose()  # players add makes no ledger: only starting an evening (or an event, an import) does
    ok(db, "players", "add", "Niccolò", "Anna")
    clash = cli(db, "players", "add", "niccolo")
    assert_user_error(clash.exit_code, clash.stderr, "exists already as 'Niccolò'")
    ok(db, "evening", "start", "--players", "Anna,Niccolò,Carla")
    ok(db, "record", "-d", "nicco", "-c", "solo", "-t", "22")
    assert "Niccolò is now Nico." in ok(db, "players", "rename", "NICCOLO", "Nico").stdout
    assert [p["name"] for p in ok_json(db, "players", "list")] == ["Anna", "Carla", "Nico"]
    assert ok_json(db, "deals")["deals"][0]["payouts"] == {"Anna": -2, "Nico": 4, "Carla": -2}
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT old_name, new_name FROM player_rename").fetchall() == [("Niccolò", "Nico")]


def test_evening_list_show_close_and_the_default_evening(db: str) -> None:
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla", "-P", "tretre", "--dealer", "Anna")
    ok(db, "evening", "start", "--players", "Dario,Elena,Franco")
    assert ok_json(db, "record", "--passed")["evening"] == 2
    closed = ok_json(db, "evening", "close")
    assert closed["evening"] == 2 and closed["closed"]
    shown = ok_json(db, "evening", "show")
    assert (shown["evening"], shown["profile"], shown["next_dealer"]) == (1, "tretre", "Anna")
    assert shown["options"]["pot_carryover"] is True
    assert ok_json(db, "record", "--passed")["evening"] == 1
    won = ok_json(db, "record", "-d", "Bruno", "-c", "solo", "-t", "20")
    assert won["deal"]["passed_before"] == 1 and won["deal"]["payouts"] == {"Anna": -2, "Bruno": 4, "Carla": -2}
    listed = ok_json(db, "evening", "list")
    assert [(e["evening"], e["closed"]) for e in listed["evenings"]] == [(2, True), (1, False)] and not listed["next"]


# --- user errors: one line, exit code 2, nothing written ---------------------------------------------------------


ERRORS: list[tuple[str, Callable[[str], None], list[str], str]] = [
    ("unknown-player", evening_with_deals, ["players", "rename", "Zed", "Zoe"], "unknown player 'Zed'"),
    ("closed-evening", closed_evening, ["record", "--evening", "1", "--passed"], "evening 1 is closed"),
    ("closed-amend", closed_evening, ["amend", "1", "-t", "20", "-r", "x", "-e", "1"], "evening 1 is closed"),
    ("no-open-evening", closed_evening, ["record", "--passed"], "no open evening"),
    (
        "two-players",
        evening_with_deals,
        ["evening", "start", "--players", "Anna,Bruno"],
        "2 players: the games are played by 3, 4 or 5 seated players",
    ),
    (
        "players-twice",
        evening_with_deals,
        ["evening", "start", "--players", "Anna,anna"],
        "players: Anna and anna are one name, seated twice",
    ),
    (
        "mistyped-declarer",
        evening_with_deals,
        ["record", "-d", "Burno", "-c", "solo", "-t", "20"],
        "--declarer 'Burno': not seated (did you mean Bruno?)",
    ),
    (
        "dealer-shares-with-three",
        evening_with_deals,
        ["evening", "start", "--players", "A,B,C", "-o", "dealer_shares=on"],
        "dealer_shares=on with 3 seated",
    ),
    (
        "passed-before-without-pot",
        evening_with_deals,
        ["record", "-d", "Bruno", "-c", "solo", "-t", "20", "--passed-before", "1"],
        "pagat carries no pot",
    ),
    (
        "three-at-quartiglio",
        evening_with_deals,
        ["evening", "start", "--players", "A,B,C", "-P", "quartiglio"],
        "3 players: quartiglio is played by 4",
    ),
    (
        "amend-missing-deal",
        evening_with_deals,
        ["amend", "9", "--thirds", "20", "-r", "x"],
        "deal 9 does not exist in evening 1: deals are 1 to 2",
    ),
    ("void-missing-deal", evening_with_deals, ["void", "7", "-r", "x"], "deal 7 does not exist"),
    ("show-missing-deal", evening_with_deals, ["deal", "show", "3"], "deal 3 does not exist"),
    ("missing-evening", evening_with_deals, ["deals", "--evening", "4"], "evening 4 does not exist"),
    ("thirds-36", evening_with_deals, ["record", "-d", "Bruno", "-c", "solo", "--thirds", "36"], "--thirds 36"),
    (
        "thirds-not-a-number",
        evening_with_deals,
        ["record", "-d", "Bruno", "-c", "solo", "--thirds", "lots"],
        "Invalid value for '--thirds'",
    ),
    ("amend-thirds-36", evening_with_deals, ["amend", "1", "--thirds", "36", "-r", "x"], "--thirds 36"),
    ("amend-without-reason", evening_with_deals, ["amend", "1", "--thirds", "20"], "why?"),
    (
        "stale-undo",
        evening_with_deals,
        ["undo", "--revision", "1"],
        "undo refused: evening 1 changed since you saw it (revision 1, now 2): deal 2 recorded: all passed",
    ),
    ("unknown-declarer", evening_with_deals, ["record", "-d", "Zed", "-c", "solo", "-t", "20"], "'Zed'"),
    ("bad-stake", evening_with_deals, ["evening", "start", "--players", "D,E,F", "--stake", "0.105"], "--stake"),
    (
        "unknown-option",
        evening_with_deals,
        ["evening", "start", "--players", "D,E,F", "-o", "mediatore=on"],
        "option 'mediatore' does not exist in profile pagat",
    ),
    # what a script or a broken file may pass
    (
        "evening-2^64",
        evening_with_deals,
        ["deals", "--evening", str(2**64)],
        f"evening {2**64} does not exist (evenings are 1 to 1)",
    ),
    (
        "void-2^63",
        evening_with_deals,
        ["void", str(2**63), "-r", "x"],
        f"deal {2**63} does not exist in evening 1: deals are 1 to 2",
    ),
    ("amend-2^31", evening_with_deals, ["amend", str(2**31), "-t", "20", "-r", "x"], "deal 2147483648 does not"),
    (
        "passed-before-2^63",
        evening_with_deals,
        ["record", "--passed", "--passed-before", str(2**63)],
        f"--passed-before {2**63}: the count of passed deals in a row is 0 to 1000",
    ),
    (
        "paid-void-2^63",
        evening_with_deals,
        ["paid", "--void", str(2**63), "-r", "x"],
        f"payment {2**63} does not exist (payments are 1 to 0)",
    ),
    (
        "paid-evening-2^31",
        evening_with_deals,
        ["paid", "Anna", "Bruno", "1", "-e", str(2**31)],
        "evening 2147483648 does not exist",
    ),
    ("thirds-huge", evening_with_deals, ["record", "bruno solo t=" + "9" * 5000], "a deal has only 35 thirds"),
    ("tricks-huge", evening_with_deals, ["record", "bruno solo 35 tricks=" + "9" * 5000], "at most 12 tricks"),
    ("points-huge", evening_with_deals, ["record", "bruno solo " + "9" * 5000], "a deal has only 35 thirds"),
    ("paid-1e999999", evening_with_deals, ["paid", "Anna", "Bruno", "1e999999"], "paid '1e999999': the amount"),
    ("paid-10^100000", evening_with_deals, ["paid", "Anna", "Bruno", "1" * 100000], "paid '1111111111"),
    (
        "stake-1e999999",
        evening_with_deals,
        ["evening", "start", "--players", "D,E,F", "--stake", "1e999999"],
        "--stake '1e999999'",
    ),
    ("round-to-1e999999", evening_with_deals, ["settle", "--round-to", "1e999999"], "--round-to '1e999999'"),
]


@pytest.mark.parametrize(("setup", "args", "fragment"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_user_error_is_one_line_and_writes_nothing(
    db: str, templates: dict[str, Path], setup: Callable[[str], None], args: list[str], fragment: str
) -> None:
    shutil.copyfile(templates[setup.__name__], db)
    before = dump(db)
    result = cli(db, *args)
    assert_user_error(result.exit_code, result.stderr, fragment)
    assert result.stdout == ""
    assert dump(db) == before


def test_bad_urls_are_one_line_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for url, fragment in (
        ("mysql://x/y", "runs on SQLite or PostgreSQL"),
        ("oracle+cx_oracle://u@h/d", "runs on SQLite or PostgreSQL"),
        ("://nothing", "--db"),
        (str(tmp_path), "a folder: give a file path"),
    ):
        result = runner.invoke(app, ["--db", url, "deals"], env=CLEAN_ENV)
        assert_user_error(result.exit_code, result.stderr, fragment)
    assert list(tmp_path.iterdir()) == []


def test_a_name_that_would_reset_the_terminal_is_refused_and_not_echoed_raw(db: str) -> None:
    open_ledger(db).dispose()
    for args in (["players", "add", "Anna\x1bc"], ["evening", "start", "--players", "Anna\x1bc,Bruno,Carla"]):
        result = runner.invoke(app, ["--db", db, *args], env=CLEAN_ENV)
        assert_user_error(result.exit_code, result.stderr, "control characters")
        assert "\x1b" not in result.stderr
    listed = runner.invoke(app, ["--db", db, "players", "list", "--json"], env=CLEAN_ENV)
    assert listed.exit_code == 0 and json.loads(listed.stdout) == []


def test_unreachable_postgresql_is_an_error_naming_the_server() -> None:
    result = runner.invoke(app, ["--db", "postgresql+psycopg://nobody@127.0.0.1:1/none", "deals"], env=CLEAN_ENV)
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "Error: postgresql+psycopg://nobody@127.0.0.1:1/none: the database server does not answer"
    )
    assert "Traceback" not in result.stderr


def test_unreachable_postgresql_is_one_line() -> None:
    result = runner.invoke(app, ["--db", "postgresql+psycopg://nobody@127.0.0.1:1/none", "deals"], env=CLEAN_ENV)
    assert_user_error(result.exit_code, result.stderr, "127.0.0.1:1")


def test_random_bytes_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(bytes(range(256)) * 16)
    before = junk.read_bytes()
    for args in (["deals"], ["record", "--passed"], ["db", "info"], ["db", "upgrade"], ["players", "add", "Anna"]):
        result = cli(str(junk), *args)
        assert_user_error(result.exit_code, result.stderr, "cannot open it as a ledger database")
    assert junk.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.sqlite3"]


def _foreign(tmp_path: Path) -> Path:
    path = tmp_path / "other-app.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount INTEGER)")
        connection.execute("INSERT INTO invoices (amount) VALUES (10), (20)")
    connection.close()
    return path


def test_a_sqlite_file_of_another_program_is_refused_and_its_data_kept(tmp_path: Path) -> None:
    path = _foreign(tmp_path)
    with sqlite3.connect(path) as connection:
        before = list(connection.iterdump())
    connection.close()
    for args in (["deals"], ["evening", "start", "--players", "A,B,C"], ["db", "upgrade"], ["db", "info"]):
        result = cli(str(path), *args)
        assert_user_error(result.exit_code, result.stderr, "not a Calabresella ledger")
        assert "invoices" in result.stderr
    with sqlite3.connect(path) as connection:
        assert list(connection.iterdump()) == before
    connection.close()


def test_a_sqlite_file_of_another_program_is_not_modified_at_all(tmp_path: Path) -> None:
    path = _foreign(tmp_path)
    before = path.read_bytes()
    result = cli(str(path), "deals")
    assert result.exit_code == 2
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    connection.close()
    assert path.read_bytes() == before


def test_a_ledger_from_a_newer_version_is_a_one_line_error(db: str, tmp_path: Path) -> None:
    evening_with_deals(db)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    connection.close()
    result = cli(db, "deals")
    assert_user_error(result.exit_code, result.stderr, "9999")
    assert not list(tmp_path.glob("*.bak"))


# --- import, export, backup, db ------------------------------------------------------------------------------


def test_import_export_through_the_command_line(db: str, tmp_path: Path) -> None:
    source = EXAMPLES / "three_friends.json"
    assert ok_json(db, "import", str(source))["evenings"] == [1]
    before = snapshot(db)
    assert ok(db, "import", str(source)).stdout == "skipped 1 evening already in this ledger\n"
    tampered = json.loads(source.read_text(encoding="utf-8"))
    tampered["evenings"][0]["deals"][0]["revisions"][0]["payouts"] = {"Anna": -1, "Bruno": 2, "Carla": -1}
    tampered["evenings"][0]["started_at"] = "2026-12-01T20:00:00+00:00"
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(tampered), encoding="utf-8")
    refused = cli(db, "import", str(bad))
    assert_user_error(refused.exit_code, refused.stderr, "the rules give")
    not_json = tmp_path / "notes.json"
    not_json.write_text("Anna +4, Bruno -2", encoding="utf-8")
    garbled = cli(db, "import", str(not_json))
    assert_user_error(garbled.exit_code, garbled.stderr, "notes.json: line 1: not JSON")
    missing = cli(db, "import", str(tmp_path / "nowhere.json"))
    assert_user_error(missing.exit_code, missing.stderr, "no such file")
    assert snapshot(db) == before

    out = tmp_path / "export.jsonl"
    ok(db, "export", "--out", str(out))
    assert as_document(out.read_text(encoding="utf-8")) == before[1]
    assert ok(db, "export").stdout == out.read_text(encoding="utf-8")
    csv_lines = ok(db, "export", "--format", "csv").stdout.splitlines()
    assert len(csv_lines) == 1 + 30 * 3
    standings = ok_json(db, "standings", "--evening", "1")
    assert standings["closed"] is True
    assert sum(standings["points"].values()) == 0


def test_backup_writes_a_ledger_with_the_same_deals(db: str, tmp_path: Path) -> None:
    evening_with_deals(db)
    ok(db, "amend", "1", "-t", "33", "-r", "stramazzo")
    target = tmp_path / "backup.sqlite3"
    assert "Backed up to" in ok(db, "backup", str(target)).stdout
    assert ok_json(str(target), "deals") == ok_json(db, "deals")
    assert ok_json(str(target), "deal", "show", "1") == ok_json(db, "deal", "show", "1")
    assert ok_json(str(target), "db", "info")["revision"] == HEAD
    again = cli(db, "backup", str(target))
    assert_user_error(again.exit_code, again.stderr, "the file exists")


def test_db_info_and_an_empty_path_becoming_a_ledger(tmp_path: Path) -> None:
    fresh = tmp_path / "ledger.sqlite3"
    assert cli(str(fresh), "players", "list").exit_code == 2 and not fresh.exists()  # reading makes no ledger
    ok(str(fresh), "db", "upgrade")
    assert ok_json(str(fresh), "players", "list") == []
    info = ok_json(str(fresh), "db", "info")
    assert (info["revision"], info["head"], info["backend"]) == (HEAD, HEAD, "sqlite")
    assert f"revision: {HEAD}" in ok(str(fresh), "db", "info").stdout
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    ok(str(empty), "db", "upgrade")
    assert ok_json(str(empty), "db", "info")["revision"] == HEAD
    via_url = ok_json(f"sqlite:///{fresh}", "db", "info")
    assert via_url["revision"] == HEAD
    engine = open_ledger(str(empty))
    try:
        assert schema_info(engine)["revision"] == HEAD
    finally:
        engine.dispose()


def test_the_environment_names_the_ledger(db: str) -> None:
    result = runner.invoke(
        app, ["evening", "start", "--players", "Anna,Bruno,Carla", "--json"], env={"CALABRESELLA_DB": db}
    )
    assert result.exit_code == 0, result.stderr
    assert ok_json(db, "evening", "show")["players"] == ["Anna", "Bruno", "Carla"]


@pytest.mark.postgres
def test_the_command_line_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    ok(pg_url, "evening", "start", "--players", "Anna,Bruno,Carla", "--stake", "0.10")
    assert ok_json(pg_url, "record", "-d", "Bruno", "-c", "solo", "-t", "33")["deal"]["payouts"] == {
        "Anna": -6,
        "Bruno": 12,
        "Carla": -6,
    }
    ok(pg_url, "record", "--passed", "--key", "k")
    assert ok_json(pg_url, "record", "--passed", "--key", "k")["duplicate"] is True
    ok(pg_url, "amend", "1", "-t", "20", "-r", "recount")
    assert ok_json(pg_url, "standings")["cents"] == {"Anna": -20, "Bruno": 40, "Carla": -20}
    assert len(ok_json(pg_url, "deal", "show", "1")["revisions"]) == 2
    info = ok_json(pg_url, "db", "info")
    assert (info["backend"], info["revision"]) == ("postgresql", HEAD)
    before = snapshot(pg_url)
    for args, fragment in (
        (["amend", "5", "-t", "20", "-r", "x"], "deal 5 does not exist"),
        (["record", "-d", "Bruno", "-c", "solo", "-t", "36"], "--thirds 36"),
        (["backup", str(tmp_path / "b.sqlite3")], "pg_dump"),
    ):
        result = cli(pg_url, *args)
        assert_user_error(result.exit_code, result.stderr, fragment)
    assert snapshot(pg_url) == before
    assert not (tmp_path / "b.sqlite3").exists()


# --- the real console script ---------------------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed `calabresella` script in a subprocess."""
    assert CALABRESELLA, "the calabresella console script is not installed"
    return subprocess.run([CALABRESELLA, *args], capture_output=True, text=True, env=SUBPROCESS_ENV, timeout=60)


def test_console_script_records_and_refuses(templates: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "open.sqlite3"
    shutil.copyfile(templates["evening_with_deals"], db)
    recorded = run("--db", str(db), "record", "-d", "Anna", "-c", "solo", "-t", "22", "--json")
    assert recorded.returncode == 0, recorded.stderr
    assert json.loads(recorded.stdout)["deal"]["payouts"] == {"Anna": 4, "Bruno": -2, "Carla": -2}
    assert json.loads(recorded.stdout)["totals"] == {"Anna": 2, "Bruno": 2, "Carla": -4}
    before = dump(str(db))
    done = run("--db", str(db), "record", "-d", "Bruno", "-c", "solo", "--thirds", "36")
    assert_user_error(done.returncode, done.stderr, "--thirds 36: a deal has only 35 thirds")
    assert done.stdout == ""
    assert dump(str(db)) == before  # other refusals run in-process: ERRORS and test_bad_urls_are_one_line_errors


def test_a_mistyped_folder_is_an_error_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "ledger.sqlite3"
    result = cli(str(missing), "deals")
    assert_user_error(result.exit_code, result.stderr, "does not exist")
    assert not missing.parent.exists()


def test_names_typed_as_prefixes_are_stored_in_full_and_survive_a_rename(db: str, tmp_path: Path) -> None:
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla")
    ok(db, "record", "br chiamo 3D@an 20")
    shown = ok_json(db, "deal", "show", "1", "--json")
    assert shown["revisions"][0]["declarer"] == "Bruno"
    assert shown["revisions"][0]["holder"] == "Anna"
    ok(db, "players", "rename", "Anna", "Zoe")
    ok(db, "amend", "1", "--thirds", "21", "--reason", "recount")
    exported = tmp_path / "after-rename.json"
    ok(db, "export", "--out", str(exported))
    fresh = str(tmp_path / "fresh.sqlite3")
    ok(fresh, "import", str(exported))
    assert ok_json(fresh, "standings", "--json")["points"] == {"Zoe": -1, "Bruno": 2, "Carla": -1}


def test_an_export_with_a_bad_payment_is_refused_and_writes_nothing(db: str, tmp_path: Path) -> None:
    data = json.loads((EXAMPLES / "three_friends.json").read_text(encoding="utf-8"))
    data["payments"] = [
        {"payer": "Bruno", "payee": "Carla", "cents": "abc", "currency": "EUR", "paid_at": "2026-01-01T00:00:00+00:00"}
    ]
    bad = tmp_path / "bad-payment.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    ok(db, "db", "upgrade")
    before = dump(db)
    result = cli(db, "import", str(bad))
    assert_user_error(result.exit_code, result.stderr, "payment")
    assert dump(db) == before


def test_deals_show_the_called_card_the_outcome_and_an_amendment(db: str) -> None:
    ok(db, "evening", "start", "--players", "Anna,Bruno,Carla,Dario")
    ok(db, "record", "carla chiamo 3D@anna 17 last=opp")
    ok(db, "record", "bruno solo 20")
    ok(db, "amend", "2", "-t", "16", "-r", "recounted")
    rows = [line.split("│") for line in ok(db, "deals").stdout.splitlines()[2:]]
    first, second = ([cell.strip() for cell in row] for row in rows)
    assert first[1:5] == ["Dario (out)", "Carla chiamo 5+2/3", "3D@Anna", "lost"]
    assert second[1:5] == ["Anna (out)", "Bruno solo 5+1/3", "", "lost"]
    assert second[-1] == "amended (recounted): solo 2 = 2 to each opponent"
    assert "sits out" not in first[-1]


def test_a_path_is_printed_whole_and_as_given_brackets_and_all(tmp_path: Path) -> None:
    folder = tmp_path / "club [red]" / ("a folder with a name long enough to pass the width of a terminal" * 2)
    folder.mkdir(parents=True)
    db, copy, out = folder / "ledger.sqlite3", folder / "copy.sqlite3", folder / "evening.json"
    assert runner.invoke(app, ["--db", str(db), "evening", "start", "--players", "Anna,Bruno,Carla"]).exit_code == 0
    backed = runner.invoke(app, ["--db", str(db), "backup", str(copy)])
    exported = runner.invoke(app, ["--db", str(db), "export", "--out", str(out)])
    upgraded = runner.invoke(app, ["--db", str(db), "db", "upgrade"])
    assert backed.output.splitlines() == [f"Backed up to {copy}."], backed.output
    assert exported.output.splitlines() == [f"Wrote {out}."], exported.output
    assert upgraded.exit_code == 0 and len(upgraded.output.splitlines()) == 1, upgraded.output
