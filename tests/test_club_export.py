"""Club nights go through an export and an import whole: seasons and events (entrants, rounds, tables) come back as
they were, each table at the evening imported from the export's line; a second or resumed import adds no event
twice; a broken event line is refused on one line, naming it; exports without club lines still import."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, as_document
from sqlalchemy import text
from typer.testing import CliRunner

from ledger import Ledger
from ledger.cli.main import app
from ledger.errors import LedgerError
from ledger.store import batched_import
from ledger.values import Terms

SIX = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
SEASON = "Primavera 2026"
runner = CliRunner()


def play_round(ledger: Ledger, event: int, deals: int = 3) -> None:
    """Each table of the round under way records solos by whoever speaks first, alternately won and lost."""
    current = ledger.club.event(event).current
    assert current is not None
    for table in current.tables:
        for i in range(deals):
            speaker = ledger.evening(table.evening).first_speaker
            ledger.record(f"{speaker} solo {22 if i % 2 == 0 else 14}", evening=table.evening)


def club_ledger(ledger: Ledger) -> None:
    """An evening of its own, two seasons (one without events), a closed event of three rounds (players arriving and
    leaving, the last seated by hand, a deal voided at a table) and an event still playing its first round; a
    payment at a table."""
    ledger.start_evening(["Anna", "Bruno", "Carla"], Terms(stake="0.05"))
    ledger.record("anna solo 22")
    ledger.close_evening()
    ledger.club.start_season(SEASON, min_deals=2)
    ledger.club.start_season("Vuota")
    first = ledger.club.start_event(
        "Venerdì al circolo", SIX, Terms(stake="0.10", place="Circolo ☕"), season=SEASON, round_deals=3
    ).number
    ledger.club.seat_round(first, seed=1)
    play_round(ledger, first)
    ledger.club.seat_round(first, arrived=["Gina"], left=["Anna"], seed=2)
    play_round(ledger, first, deals=4)
    current = ledger.club.event(first).current
    assert current is not None
    ledger.void(2, reason="misdeal", evening=current.tables[0].evening)
    ledger.club.seat_round(first, tables=[["Gina", "Bruno", "Carla"], ["Franco", "Elena", "Dario"]])
    play_round(ledger, first, deals=2)
    ledger.club.close_event(first)
    second = ledger.club.start_event(
        "Torneo", ["Anna", "Bruno", "Carla", "Hugo"], Terms(options=["sweeps=off"]), season=SEASON, pairing="standing"
    ).number
    ledger.club.seat_round(second, seed=3)
    play_round(ledger, second, deals=2)
    current = ledger.club.event(second).current
    assert current is not None
    ledger.paid("Anna", "Bruno", "0.40", evening=current.tables[0].evening)


def club(ledger: Ledger) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Every event and every season as the ledger shows them."""
    events = [ledger.club.event(event.number).to_dict() for event in reversed(ledger.club.events())]
    seasons = [ledger.club.season(season.name).to_dict() for season in reversed(ledger.club.seasons())]
    return events, seasons


def lines(export: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in export.splitlines()]


def kinds(export: str) -> list[str]:
    return [next(iter(line)) for line in lines(export)[1:]]


def counts(db: str, *tables: str) -> list[int]:
    """The rows of each table, read on one connection."""
    with Ledger(db) as opened, opened.engine.connect() as connection:
        return [connection.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one() for table in tables]


def each_line_commits(monkeypatch: pytest.MonkeyPatch) -> None:
    """An import commits each line by itself, with no pause between two (no other writer waits here)."""
    monkeypatch.setattr(batched_import, "BATCH_SECONDS", 0.0)
    monkeypatch.setattr(batched_import, "PAUSE_SECONDS", 0.0)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tuple[Any, Any]]:
    """The club ledger's export (on SQLite) and its events and seasons as the ledger shows them."""
    folder = tmp_path_factory.mktemp("club")
    with Ledger(str(folder / "source.sqlite3")) as opened:
        club_ledger(opened)
        path = folder / "club.jsonl"
        path.write_text(opened.export(), encoding="utf-8")
        return path, club(opened)


def test_the_export_writes_seasons_and_events_after_the_evenings_and_payments(
    source: tuple[Path, tuple[Any, Any]],
) -> None:
    exported = source[0].read_text(encoding="utf-8")
    evenings = kinds(exported).count("evening")
    assert kinds(exported) == ["evening"] * evenings + ["payment", "season", "season", "event", "event"]
    seasons = [line["season"] for line in lines(exported) if "season" in line]
    assert [(s["name"], s["min_deals"]) for s in seasons] == [(SEASON, 2), ("Vuota", 0)]
    events = [line["event"] for line in lines(exported) if "event" in line]
    closed, playing = events
    assert closed["season"] == SEASON and closed["place"] == "Circolo ☕" and closed["round_deals"] == 3
    assert closed["closed_at"] is not None and playing["closed_at"] is None
    assert playing["options"]["sweeps"] is False and playing["pairing"] == "standing"
    assert [(e["player"], e["arrived"], e["left"]) for e in closed["entrants"]] == [
        ("Anna", 1, 2),
        ("Bruno", 1, None),
        ("Carla", 1, None),
        ("Dario", 1, None),
        ("Elena", 1, None),
        ("Franco", 1, None),
        ("Gina", 2, None),
    ]
    assert [(r["number"], r["by_hand"], r["ended_at"] is not None) for r in closed["rounds"]] == [
        (1, False, True),
        (2, False, True),
        (3, True, True),
    ]
    evening_players = {
        line["evening"]["number"]: line["evening"]["players"] for line in lines(exported)[1:] if "evening" in line
    }
    shown = source[1][0][0]["rounds"]
    for exported_round, shown_round in zip(closed["rounds"], shown, strict=True):
        assert [t["number"] for t in exported_round["tables"]] == [t["table"] for t in shown_round["tables"]]
        for table, seen in zip(exported_round["tables"], shown_round["tables"], strict=True):
            assert evening_players[table["evening"]] == seen["players"]  # each table names its evening's line


def test_an_export_of_one_evening_has_no_club_lines(source: tuple[Path, tuple[Any, Any]], tmp_path: Path) -> None:
    with Ledger(str(tmp_path / "one.sqlite3")) as opened:
        opened.import_file(source[0])
        table = opened.club.event(1).rounds[0].tables[0].evening
        assert kinds(opened.export(evening=table)) == ["evening"]


def test_an_export_imported_into_an_empty_ledger_shows_the_same_events_and_exports_the_same_lines(
    source: tuple[Path, tuple[Any, Any]], db_url: str
) -> None:
    path, shown = source
    with Ledger(db_url) as opened:
        opened.import_file(path)
        assert club(opened) == shown
        assert opened.export() == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("each_line", [False, True])
def test_the_change_log_of_an_imported_table_names_its_event_as_a_live_one_does(
    source: tuple[Path, tuple[Any, Any]], db_url: str, each_line: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each change of an evening kept at an event's table names the event, as the change log of the ledger exported
    does; also when the evening's changes went in with a batch before the event's line."""
    if each_line:
        each_line_commits(monkeypatch)
    with Ledger(db_url) as opened:
        opened.import_file(source[0])
        with opened.engine.connect() as connection:
            named = connection.execute(
                text(
                    "SELECT c.event_id, r.event_id FROM evening_change c LEFT JOIN club_table t"
                    " ON t.evening_id = c.evening_id LEFT JOIN club_round r ON r.id = t.round_id"
                    " WHERE c.evening_id IS NOT NULL"
                )
            ).all()
    assert [logged for logged, _ in named] == [table for _, table in named]
    assert {table for _, table in named} == {None, 1, 2}


def renumbered(shown: dict[str, Any], evenings: dict[int, int], events: dict[int, int], seasons: dict[int, int]) -> Any:
    """An event's or a season's `to_dict()` with the numbers of evenings, events and seasons mapped."""
    result = json.loads(json.dumps(shown))
    if "event" in result:
        result["event"] = events[result["event"]]
    if "season" in result and isinstance(result["season"], int):
        result["season"] = seasons[result["season"]]
    for played in result.get("rounds", ()):
        for table in played["tables"]:
            table["evening"] = evenings[table["evening"]]
    for event in result.get("events", ()):
        event["event"] = events[event["event"]]
    return result


def test_into_a_ledger_with_events_of_its_own_every_table_keeps_the_evening_made_of_its_line(
    source: tuple[Path, tuple[Any, Any]], db_url: str
) -> None:
    """Evenings, events and seasons take the ledger's next numbers; compared with those numbers mapped, the events
    and seasons are the same."""
    path, (events, seasons) = source
    with Ledger(db_url) as opened:
        opened.club.start_season("Inverno")
        own = opened.club.start_event("Prova", ["Zeno", "Ugo", "Vito"], season="Inverno").number
        opened.club.seat_round(own, seed=1)
        opened.club.close_event(own)
        summary = opened.import_file(path)
        exported = [line["evening"]["number"] for line in lines(path.read_text(encoding="utf-8")) if "evening" in line]
        evenings = dict(zip(exported, summary.evenings, strict=True))
        assert all(ours != theirs for theirs, ours in evenings.items())
        imported, imported_seasons = club(opened)
        assert imported[0]["name"] == "Prova" and imported_seasons[0]["name"] == "Inverno"
        assert imported[1:] == [renumbered(e, evenings, {1: 2, 2: 3}, {}) for e in events]
        assert imported_seasons[1:] == [renumbered(s, evenings, {1: 2, 2: 3}, {1: 2, 2: 3}) for s in seasons]


def test_importing_twice_adds_no_event_and_no_season(source: tuple[Path, tuple[Any, Any]], db_url: str) -> None:
    path, shown = source
    with Ledger(db_url) as opened:
        first = opened.import_file(path)
        again = opened.import_file(path)
        assert again.evenings == () and again.skipped == first.evenings
        assert club(opened) == shown
    assert counts(db_url, "club_event", "club_season", "club_round") == [2, 2, 4]


def test_an_import_stopped_at_an_event_resumes_without_adding_an_event_twice(
    source: tuple[Path, tuple[Any, Any]], tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every line commits by itself: the first event is in when the second stops the import; run again on the
    fixed file, the first is skipped and the second goes in."""
    each_line_commits(monkeypatch)
    path, shown = source
    good = path.read_text(encoding="utf-8")
    values = lines(good)
    values[-1]["event"]["rounds"][0]["tables"][0]["evening"] = 999
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(json.dumps(value) + "\n" for value in values), encoding="utf-8")
    with Ledger(db_url) as opened:
        with pytest.raises(LedgerError) as stopped:
            opened.import_file(broken)
        message = str(stopped.value)
        assert message.startswith(f"{broken}: line {len(values)}: not a valid export: event 2 round 1 table 1 is")
        assert "nothing of that line was written, but the" in message and "\n" not in message
        assert [event.name for event in opened.club.events()] == ["Venerdì al circolo"]
        assert counts(db_url, "club_round") == [3]
        resumed = opened.import_file(path)
        assert resumed.evenings == () and len(resumed.skipped) == kinds(good).count("evening")
        assert club(opened) == shown
        assert opened.export() == good


def _event(values: list[dict[str, Any]], index: int = 0) -> dict[str, Any]:
    event: dict[str, Any] = [line["event"] for line in values if "event" in line][index]
    return event


BROKEN = {
    "an unknown evening": (
        lambda e: e["rounds"][1]["tables"][0].update(evening=99),
        "not a valid export: event 1 round 2 table 1 is evening 99, which no line before it holds",
    ),
    "an evening twice": (
        lambda e: e["rounds"][1]["tables"][0].update(evening=e["rounds"][0]["tables"][0]["evening"]),
        "not a valid export: event 1 has evening 2 at two tables",
    ),
    "a stake as text": (
        lambda e: e.update(stake_cents="10"),
        "event 1: a missing or bad field (ValueError: stake_cents '10' is not a whole number from 0 to 10000000)",
    ),
    "a round seated by hand as text": (
        lambda e: e["rounds"][2].update(by_hand="yes"),
        "event 1: a missing or bad field (TypeError: round 3: by_hand 'yes' is not true or false)",
    ),
    "a start that is no time": (lambda e: e.update(started_at="friday"), "(ValueError: Invalid isoformat string"),
    "rounds missing": (lambda e: e.pop("rounds"), "event 1: a missing or bad field (KeyError: 'rounds')"),
    "a table's evening missing": (
        lambda e: e["rounds"][0]["tables"][1].pop("evening"),
        "(KeyError: 'round 1: table 2: evening')",
    ),
    "rounds not a list": (lambda e: e.update(rounds={}), "(TypeError: rounds {} is not a list)"),
    "an entrant twice": (
        lambda e: e["entrants"][1].update(player="ANNA"),
        "(ValueError: entrant 2: player 'ANNA' is an entrant twice)",
    ),
    "rounds out of order": (
        lambda e: e["rounds"].reverse(),
        "(ValueError: rounds numbered [3, 2, 1] (they are numbered 1, 2, 3, ... in order))",
    ),
    "a season no line holds": (
        lambda e: e.update(season="Estate"),
        "not a valid export: event 1 is of season 'Estate', which no line before it holds",
    ),
    "an unknown pairing": (lambda e: e.update(pairing="alphabetical"), "pairing 'alphabetical' is none of random"),
    "a name that resets the terminal": (lambda e: e.update(name="x\x1bc"), "name 'x\\x1bc' holds a control character"),
    "an unknown profile": (lambda e: e.update(profile="poker"), "profile 'poker': allowed are pagat"),
    "not an object": (lambda e: e.clear(), "event None: a missing or bad field (KeyError: "),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_event_line_is_one_line_naming_it_and_nothing_of_it_is_written(
    case: str, source: tuple[Path, tuple[Any, Any]], tmp_path: Path, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On SQLite only: the refusals are the same code on either database, and the next test holds PostgreSQL to
    # writing nothing of a refused file.
    each_line_commits(monkeypatch)  # the lines before it commit
    change, expected = BROKEN[case]
    values = lines(source[0].read_text(encoding="utf-8"))
    change(_event(values))
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(json.dumps(value) + "\n" for value in values), encoding="utf-8")
    line = next(number for number, value in enumerate(values, 1) if "event" in value)
    with Ledger(sqlite_url) as opened, pytest.raises(LedgerError) as refused:
        opened.import_file(broken)
    message = str(refused.value)
    assert message.startswith(f"{broken}: line {line}: ") and "\n" not in message, message
    assert expected in message, message
    assert "nothing of that line was written" in message
    evenings = kinds(source[0].read_text()).count("evening")
    tables = ("club_event", "club_entrant", "club_round", "club_table", "club_season", "evening")
    assert counts(sqlite_url, *tables) == [0, 0, 0, 0, 2, evenings]


def test_an_evening_at_the_tables_of_two_events_of_the_file_is_refused(
    source: tuple[Path, tuple[Any, Any]], tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batched_import, "BATCH_SECONDS", 600.0)  # the whole file in one transaction
    values = lines(source[0].read_text(encoding="utf-8"))
    taken = _event(values)["rounds"][0]["tables"][0]["evening"]
    _event(values, 1)["rounds"][0]["tables"][0]["evening"] = taken
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(json.dumps(value) + "\n" for value in values), encoding="utf-8")
    with Ledger(db_url) as opened, pytest.raises(LedgerError) as refused:
        opened.import_file(broken)
    assert str(refused.value) == (
        f"{broken}: line {len(values)}: not a valid export: evening {taken} is a table of event 1 and of event 2; "
        "nothing of that line was written"
    )
    assert counts(db_url, "club_event") == [0]  # one transaction: nothing of the file is in


def test_the_command_refuses_a_broken_event_line_on_one_line_exit_2(
    source: tuple[Path, tuple[Any, Any]], tmp_path: Path, sqlite_url: str
) -> None:
    values = lines(source[0].read_text(encoding="utf-8"))
    _event(values, 1)["round_minutes"] = 0
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(json.dumps(value) + "\n" for value in values), encoding="utf-8")
    result = runner.invoke(app, ["--db", sqlite_url, "import", str(broken)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"Error: {broken}: line {len(values)}: not a valid export: event 2: a missing or bad field (ValueError: "
        "round_minutes 0 is not a whole number from 1 to 1440); nothing of that line was written\n"
    )
    assert counts(sqlite_url, "club_event") == [0]


def test_a_table_already_kept_by_an_event_of_the_ledger_is_refused(
    source: tuple[Path, tuple[Any, Any]], tmp_path: Path, db_url: str
) -> None:
    """The file's evenings are the ledger's (skipped), but the event is another: its tables cannot be theirs too."""
    path, _shown = source
    values = lines(path.read_text(encoding="utf-8"))
    _event(values)["name"] = "Venerdì, un altro"
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text("".join(json.dumps(value) + "\n" for value in values), encoding="utf-8")
    with Ledger(db_url) as opened:
        opened.import_file(path)
        with pytest.raises(LedgerError) as refused:
            opened.import_file(renamed)
    table = _event(values)["rounds"][0]["tables"][0]["evening"]
    assert (
        f"event 1 of the export has round 1 table 1 at evening {table}, already a table of event 1; nothing of that "
        "line was written"
    ) in str(refused.value)
    assert counts(db_url, "club_event") == [2]


def test_exports_without_club_lines_still_import(tmp_path: Path, db_url: str) -> None:
    """A version 2 document, and a version 3 export of a ledger without club nights (which writes none)."""
    with Ledger(db_url) as opened:
        summary = opened.import_file(EXAMPLES / "three_friends.json")
        assert summary.evenings == (1,) and opened.club.events() == [] and opened.club.seasons() == []
        exported = opened.export()
    assert kinds(exported) == ["evening"]
    assert as_document(exported)["evenings"][0]["number"] == 1
    path = tmp_path / "plain.jsonl"
    path.write_text(exported, encoding="utf-8")
    with Ledger(str(tmp_path / "second.sqlite3")) as opened:
        assert opened.import_file(path).evenings == (1,)
        assert opened.club.events() == [] and opened.export() == exported


def test_fields_a_later_export_may_add_to_club_lines_are_left_aside(
    source: tuple[Path, tuple[Any, Any]], tmp_path: Path, sqlite_url: str
) -> None:
    values = lines(source[0].read_text(encoding="utf-8"))
    event = _event(values)
    event["weather"] = "rain"
    event["entrants"][0]["colour"] = "red"
    event["rounds"][0]["tables"][0]["lamp"] = True
    annotated = tmp_path / "annotated.jsonl"
    annotated.write_text("".join(json.dumps(value) + "\n" for value in values), encoding="utf-8")
    with Ledger(sqlite_url) as ledger:
        ledger.import_file(annotated)
        assert [e.name for e in ledger.club.events()] == [
            e["name"] for e in reversed([v["event"] for v in values if "event" in v])
        ]


def test_an_import_counts_club_nights_and_seasons_and_a_season_of_another_minimum_is_refused(
    source: tuple[Path, tuple[Any, Any]], tmp_path: Path
) -> None:
    path, _shown = source
    db = str(tmp_path / "club.sqlite3")
    first = runner.invoke(app, ["--db", db, "import", str(path)])
    assert first.exit_code == 0, first.output
    assert "imported 2 seasons\nimported 2 club nights\n" in first.stdout
    again = runner.invoke(app, ["--db", db, "import", str(path)])
    assert "skipped 2 club nights already in this ledger" in again.stdout
    assert (
        "season 'Primavera 2026' joined this ledger's season of that name (the same minimum of deals)" in again.stdout
    )
    other = str(tmp_path / "other.sqlite3")
    with Ledger(other) as opened:
        opened.club.start_season(SEASON, min_deals=5)
    refused = runner.invoke(app, ["--db", other, "import", str(path)])
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1, refused.output
    assert "season 'Primavera 2026' is in this ledger already, with a minimum of 5 deals, and in the export with 2" in (
        refused.stderr
    )
    with Ledger(other) as opened:
        assert opened.club.season(SEASON).to_dict()["min_deals"] == 5 and opened.club.events() == []


def test_a_rename_repeated_goes_through_an_export_and_an_import_and_only_once(tmp_path: Path, db_url: str) -> None:
    """A player renamed to a name, back, and to it again: each of the three renames is kept, and an import of the same
    file again adds none."""
    with Ledger(str(tmp_path / "source.sqlite3")) as opened:
        opened.start_evening(["Anna", "Bruno", "Carla"])
        opened.record("anna solo 22")
        for old, new in (("Anna", "Annalisa"), ("Annalisa", "Anna"), ("Anna", "Annalisa"), ("Bruno", "Bruce")):
            opened.rename_player(old, new)
        exported = opened.export()
    path = tmp_path / "renamed.jsonl"
    path.write_text(exported, encoding="utf-8")
    renames = [
        (r["player"], r["old_name"], r["new_name"]) for r in (v["rename"] for v in lines(exported) if "rename" in v)
    ]
    assert renames == [
        ("Annalisa", "Anna", "Annalisa"),
        ("Annalisa", "Annalisa", "Anna"),
        ("Annalisa", "Anna", "Annalisa"),
        ("Bruce", "Bruno", "Bruce"),
    ]
    with Ledger(db_url) as opened:
        opened.import_file(path)
        assert opened.export() == exported
        opened.import_file(path)
        assert opened.export() == exported
