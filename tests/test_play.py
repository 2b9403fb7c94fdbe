"""`calabresella play` driven for real in a pseudo-terminal (pexpect), and in-process with lines piped in; then the
ledger read back."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pexpect
from cli_support import Ran, calabresella

from ledger.recording import record as record_deal
from ledger.rules.build import DealInput
from ledger.store.deals import DealView, deal_history, list_deals, totals
from ledger.store.engine import open_ledger, transaction
from ledger.store.evenings import close_evening, get_seating, start_evening
from ledger.values import Terms

PROMPT = "\x1b[?2004h"
"""prompt_toolkit turns bracketed paste on when a prompt is ready for typing: the moment to send the next line."""
SHOWN = "\x1b[?25h"
"""... and shows the cursor when it has drawn the prompt."""
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
ENV = {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}


def _command() -> list[str]:
    """The installed `calabresella` beside this interpreter."""
    return [shutil.which("calabresella") or "calabresella"]


def _plain(text: str) -> str:
    return ANSI.sub("", text)


class Table:
    """One `calabresella play` in a pseudo-terminal; every exchange ends when the next prompt is ready."""

    def __init__(self, db: Path, *args: str) -> None:
        program, *prefix = _command()
        self.child = pexpect.spawn(
            program,
            [*prefix, "--db", str(db), "play", *args],
            encoding="utf-8",
            timeout=30,
            dimensions=(60, 160),
            env={**ENV, "XDG_STATE_HOME": str(db.parent / "state")},  # the history of typed lines: the test's folder
        )
        self.opening = self.wait()

    def wait(self) -> str:
        """Everything printed up to the next prompt, that prompt's question included."""
        self.child.expect_exact(PROMPT)
        before = self.child.before
        self.child.expect_exact(SHOWN)
        return _plain(before + self.child.before)

    def send(self, line: str) -> str:
        self.child.sendline(line)
        return self.wait()

    def control(self, key: str) -> str:
        self.child.sendcontrol(key)
        return self.wait()

    def close_with(self, line: str | None) -> str:
        """Leave with a line (`quit`), or with Ctrl-D when None; the command must end with status 0."""
        if line is None:
            self.child.sendcontrol("d")
        else:
            self.child.sendline(line)
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == 0
        return _plain(self.child.before)


def _row(output: str, player: str) -> list[str]:
    """The cells of a player's row in the deal table: player, role, game points, total."""
    line = next(line for line in output.splitlines() if line.startswith(player + " "))
    return [cell.strip() for cell in line.split("│")]


def _ledger(db: Path) -> tuple[dict[str, int], list[DealView], int]:
    """Totals, deals and revision of evening 1, read back from the file."""
    engine = open_ledger(str(db))
    try:
        with transaction(engine) as session:
            table = get_seating(session, 1)
            return totals(session, table), list_deals(session, table), table.evening.revision
    finally:
        engine.dispose()


def _open_evening(db: Path, players: tuple[str, ...]) -> None:
    """A new ledger with one open evening of these players."""
    engine = open_ledger(str(db))
    with transaction(engine) as session:
        start_evening(session, players)
    engine.dispose()


def _piped(db: Path, lines: list[str], *args: str) -> Ran:
    """`play` with these lines on stdin (none: an empty input)."""
    given = "\n".join(lines) + "\n" if lines else ""
    return calabresella("--db", str(db), "play", *args, input=given)


def test_a_whole_evening_at_the_table(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite3"
    table = Table(db)
    assert "No open evening" in table.opening and "Players, in turn order" in table.opening
    assert "Profile" in table.send("Anna,Bruno,Carla")
    assert "Stake per game point and its currency (e.g. 0.10 EUR): [0 EUR]" in table.send("")
    out = table.send("0.10")
    rules = "Calabresella (pagat.com rules): cappotto x2, stramazzo x3"
    assert f"Evening 1: Anna, Bruno, Carla · {rules} · stake 0.10 EUR per game point" in out
    assert "Next deal: Carla deals, Anna speaks first." in out

    out = table.send("bruno solo 22")
    assert "Deal 1 recorded · Bruno solo: 22 thirds (7+1/3), won" in out
    assert _row(out, "Bruno") == ["Bruno", "declarer", "+4", "+4"]
    assert _row(out, "Carla") == ["Carla", "opponent, dealer", "-2", "-2"]
    assert "solo 2 = 2 from each opponent" in out
    assert "Next deal: Anna deals, Bruno speaks first." in out

    out = table.send("carla chiamo 3D@anna 17 last=opp")
    assert "Deal 2 recorded · Carla chiamo: 17 thirds (5+2/3), lost" in out
    assert _row(out, "Anna") == ["Anna", "opponent, dealer", "+1", "-1"]
    assert _row(out, "Carla") == ["Carla", "declarer", "-2", "-4"]

    out = table.send("carla solissimo 6+1/3")
    assert "Deal 3 recorded · Carla solissimo: 19 thirds (6+1/3), won" in out
    assert _row(out, "Carla") == ["Carla", "declarer", "+8", "+4"]

    out = table.send("anna solissimo dividete 8")
    assert "Anna solissimo dividete: 24 thirds (8), won" in out
    assert _row(out, "Anna") == ["Anna", "declarer", "+16", "+11"]

    asked = table.send("an soli sc 35")
    assert asked.rstrip().endswith("How many tricks did the declarer side take? (0 to 12, or all)")  # no default
    out = table.send("12")
    assert "Deal 5 recorded · Anna solissimo scegliete: 35 thirds (11+2/3), won, cappotto" in out
    assert "solissimo 4 x scegliete 4 x cappotto 2 = 32 from each opponent" in out
    assert _row(out, "Anna") == ["Anna", "declarer, dealer", "+64", "+75"]

    assert "Who took the last trick? (decl or opp)" in table.send("br ch 4t")
    assert "Error: last trick 'me': allowed are declarer or opponents (also decl, opp)" in table.send("me")
    out = table.send("decl")
    assert "Deal 6 recorded · Bruno chiamo: 4 thirds (1+1/3), lost, stramazzo" in out
    assert _row(out, "Bruno") == ["Bruno", "declarer, dealer", "-6", "-45"]

    out = table.send("pass")
    assert "Deal 7 recorded · All passed." in out
    assert "Next deal: Anna deals, Bruno speaks first." in out

    out = table.send("br so 7+1/3")
    assert "Deal 8 recorded" in out and _row(out, "Bruno") == ["Bruno", "declarer", "+4", "-41"]

    # errors: one line each, the prompt stays usable, nothing is written
    assert "Error: points '12+1/3'" in table.send("bruno solo 12+1/3")
    assert "Error: word 's' is ambiguous: it could be scegliete, solissimo, solo" in table.send("b s 7")
    assert "The declarer side's points?" in table.send("anna solo")
    assert "Deal left: nothing recorded." in table.control("c")
    assert _ledger(db)[2] == 8

    # corrections
    out = table.send("amend 1 5 reason=recount")
    assert "Deal 1 amended (revision 2) · Bruno solo: 15 thirds (5), lost" in out
    assert _row(out, "Bruno") == ["Bruno", "declarer", "-4", "-49"]
    assert "Why? (kept with the correction)" in table.send("amend 4 scegliete")
    out = table.send("it was scegliete")
    assert "Deal 4 amended (revision 2) · Anna solissimo scegliete: 24 thirds (8), won" in out
    assert _row(out, "Anna") == ["Anna", "declarer", "+32", "+96"]
    out = table.send("undo")  # the last change: the amendment goes back to dividete
    assert "Deal 4 back as before its amendment (revision 3) · Anna solissimo dividete: 24 thirds (8), won" in out
    assert _row(out, "Anna") == ["Anna", "declarer", "+16", "+80"]
    out = table.send("undo")  # then the amendment before it
    assert "Deal 1 back as before its amendment (revision 3) · Bruno solo: 22 thirds (7+1/3), won" in out
    out = table.send("undo")  # then the last deal recorded
    assert "Deal 8 undone. Totals: Anna +78, Bruno -45, Carla -33" in out

    # another writer changes the evening: undo now refuses, and nothing changes
    engine = open_ledger(str(db))
    with transaction(engine) as session:
        record_deal(session, get_seating(session, 1), DealInput(passed=True))
    engine.dispose()
    assert "Error: undo refused: evening 1 changed since you saw it (revision 13, now 14)" in table.send("undo")

    out = table.send("deals")
    assert re.search(r"8 │ Anna\s+│ Bruno solo 7\+1/3 .*VOID: undo", out)
    out = table.send("standings")
    assert re.search(r"Anna\s+│\s+\+78 │\s+\+7\.80 EUR", out)
    assert re.search(r"Bruno\s+│\s+-45 │\s+-4\.50 EUR", out)
    out = table.send("settle")
    assert "Bruno pays Anna 4.50 EUR" in out and "Carla pays Anna 3.30 EUR" in out
    assert "amend N FACTS [reason=WHY]" in table.send("help amend")
    assert "Evening 1 stays open. To close it and settle up: calabresella evening close 1;" in table.close_with("quit")

    points, deals, revision = _ledger(db)
    assert points == {"Anna": 78, "Bruno": -45, "Carla": -33}
    assert revision == 14
    assert [d.number for d in deals] == list(range(1, 10))
    assert [d.number for d in deals if d.voided] == [8] and deals[7].void_cause == "undo"
    assert {d.number: d.revision for d in deals if d.revision > 1} == {1: 3, 4: 3}
    assert (deals[0].cause, deals[0].declarer_thirds) == ("undo", 22)
    assert (deals[3].cause, deals[3].aggravation) == ("undo", "dividete")
    assert (deals[1].called, deals[1].holder, deals[1].last_trick) == ("3D", "Anna", "opponents")
    assert (deals[4].sweep, deals[4].tricks) == ("cappotto", 12)
    assert (deals[5].sweep, deals[5].last_trick) == ("stramazzo", "declarer")
    assert [d.passed for d in deals].count(True) == 2
    assert [d.dealer for d in deals[:8]] == ["Carla", "Anna", "Bruno"] * 2 + ["Carla", "Anna"]
    engine = open_ledger(str(db))
    with transaction(engine) as session:
        history = deal_history(session, get_seating(session, 1), 1)
    engine.dispose()
    assert [(v.declarer_thirds, v.payouts["Bruno"]) for v in history] == [(22, 4), (15, -4), (22, 4)]
    assert (tmp_path / "state" / "calabresella" / "play.history").read_text().count("bruno solo 22") == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["ledger.sqlite3", "state"]  # nothing beside the ledger


def test_an_error_leaves_the_prompt_usable_and_the_ledger_untouched(sqlite_url: str) -> None:
    """Each refused line is one error line and writes nothing; the next line is recorded (lines from a pipe: the
    terminal's own handling of errors is shown by test_a_whole_evening_at_the_table)."""
    db = Path(sqlite_url)
    _open_evening(db, ("Anna", "Bruno", "Carla", "Dario"))
    refused = [
        (
            "dario solo 22",
            "Error: declarer 'Dario': Dario deals and sits out; the declarer is one of Anna, Bruno, Carla",
        ),
        ("bruno solo 40t", "Error: points '40t': a deal has only 35 thirds"),
        ("zoe solo 22", "Error: 'zoe' is not a word of the quick syntax"),
        ("anna solo 22 dealer=zoe", "Error: dealer 'zoe': allowed are Anna, Bruno, Carla, Dario"),
        ("amend 3 20 reason=x", "Error: deal 3 does not exist in evening 1: it has no deals yet"),
        ("amend three 20", "Error: amend 'three': give the deal's number first"),
        ("void 1 misdeal", "Error: deal 1 does not exist"),
        ("undo", "Error: undo: evening 1 has no change to take back"),
        ("deals now", "Error: deals 'now': deals takes nothing after it"),
    ]
    done = _piped(db, [line for line, _message in refused] + ["deals", "an so 20"], "--evening", "1")
    assert done.returncode == 0, done.stderr
    assert "Next deal: Dario deals and sits out, Anna speaks first." in done.stdout
    errors = done.stderr.splitlines()
    assert len(errors) == len(refused), errors
    for error, (_line, message) in zip(errors, refused, strict=True):
        assert error.startswith(message), (error, message)
    before, after = done.stdout.split("> an so 20")
    assert "No deals yet." in before and "recorded" not in before
    assert _row(after, "Dario") == ["Dario", "sits out, dealer", "0", "0"]
    assert _row(after, "Anna") == ["Anna", "declarer", "+4", "+4"]
    assert "Next deal: Anna deals and sits out, Bruno speaks first." in after
    points, deals, revision = _ledger(db)
    assert points == {"Anna": 4, "Bruno": -2, "Carla": -2, "Dario": 0}
    assert [(d.number, d.revision) for d in deals] == [(1, 1)] and revision == 1  # the refused lines wrote nothing


def test_plain_lines_from_a_pipe_behave_the_same(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    lines = [
        "Anna,Bruno,Carla",
        "",
        "0 CHF",
        "bruno solo",
        "7+1/3",
        "bruno chiamo 4t",
        "opp",
        "oops",
        "anna solo 35",
        "11",
        "amend 1 20",
        "recount",
        "void 2 misdeal",
        "standings",
    ]
    done = _piped(db, lines)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Players, in turn order (e.g. Anna,Bruno,Carla): Anna,Bruno,Carla\n" in out
    assert "The declarer side's points? (e.g. 7, 7+1/3, 22t in thirds, or a count 2a10f+u) 7+1/3\n" in out
    assert "Deal 1 recorded · Bruno solo: 22 thirds (7+1/3), won" in out
    assert "Who took the last trick? (decl or opp) opp\n" in out
    assert "Deal 2 recorded · Bruno chiamo: 4 thirds (1+1/3), lost" in out
    assert "How many tricks did the declarer side take? (0 to 12, or all) 11\n" in out
    assert "Deal 3 recorded · Anna solo: 35 thirds (11+2/3), won, stramazzo" in out
    assert "Deal 1 amended (revision 2)" in out
    assert "Deal 2 voided (misdeal). Totals: Anna +10, Bruno -2, Carla -8" in out
    assert "Evening 1 stays open. To close it and settle up: calabresella evening close 1;" in out
    assert (
        done.stderr == "Error: 'oops' is not a word of the quick syntax: allowed are a player (Anna, Bruno, "
        "Carla), pass, chiamo, solo, solissimo, dividete, scegliete, or a card such as "
        "3D, RS, AC, KH\n"
    )
    points, deals, revision = _ledger(db)
    assert points == {"Anna": 10, "Bruno": -2, "Carla": -8} and revision == 5
    assert [(d.number, d.revision, d.voided) for d in deals] == [(1, 2, False), (2, 1, True), (3, 1, False)]


def test_the_monte_is_asked_for_only_where_a_stramazzo_counts_tricks_only(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    engine = open_ledger(str(db))
    with transaction(engine) as session:
        start_evening(session, ("Anna", "Bruno", "Carla"), Terms(options=["stramazzo_counts=tricks"]))
    engine.dispose()
    done = _piped(db, ["bruno solo 10t", "decl", "1a3f+u", "2a"])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Who took the last trick? (decl or opp) decl\n" in out
    # Bruno's 10 thirds hold the last trick's 3; what his tricks hold depends on the monte
    assert "How many points were in the monte? (e.g. 1+1/3, 4t in thirds, or a count 1a1f) 1a3f+u\n" in out
    assert (
        done.stderr == "Error: monte '1a3f+u': the monte holds cards, not the last trick; write its aces and figures\n"
    )
    # two aces in the monte: 10 - 3 - 6 = 1 third in his tricks, a stramazzo against him
    assert "Deal 1 recorded · Bruno solo: 10 thirds (3+1/3), lost, stramazzo" in out
    assert "solo 2 x stramazzo 3 = 6 to each opponent" in out
    points, deals, _ = _ledger(db)
    assert points == {"Anna": 6, "Bruno": -12, "Carla": 6} and deals[0].monte_thirds == 6


def test_an_evening_that_cannot_be_opened_is_one_error_line(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    engine = open_ledger(str(db))
    with transaction(engine) as session:
        close_evening(session, start_evening(session, ("Anna", "Bruno", "Carla")))
    engine.dispose()
    for args, message in [
        (["--evening", "5"], "Error: evening 5 does not exist (evenings are 1 to 1)\n"),
        (["--evening", "1"], "Error: evening 1 is closed; to change it: calabresella evening reopen 1"),
    ]:
        done = _piped(db, [], *args)
        assert done.returncode == 2
        assert done.stderr.startswith(message) and done.stderr.count("\n") == 1


def test_help_is_short_and_help_word_explains_one_thing(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    _open_evening(db, ("Anna", "Bruno", "Carla"))
    short = _piped(db, ["help"]).stdout
    syntax = _piped(db, ["help syntax"]).stdout
    amend = _piped(db, ["help am"]).stdout
    assert len(short.split("> help\n")[1].split("Evening 1 stays open")[0].splitlines()) <= 5
    assert "help WORD" in short and "amend" in short
    assert "CARD@HOLDER" in syntax and len(syntax.splitlines()) > 20
    assert "amend 3 20 reason=recount" in amend and "CARD@HOLDER" not in amend
    unknown = _piped(db, ["help frobnicate"])
    assert unknown.stderr.startswith("Error: help 'frobnicate': ask about one of syntax, undo, amend")


def test_a_refused_undo_says_what_to_type_inside_play(sqlite_url: str) -> None:
    db = Path(sqlite_url)
    _open_evening(db, ("Anna", "Bruno", "Carla"))
    # a second scorekeeper records a deal between this session's deal and its undo
    done = _piped(db, ["bruno solo 22"])
    assert done.returncode == 0
    table = Table(db, "--no-history")
    other = calabresella("--db", str(db), "record", "--passed")
    assert other.returncode == 0
    refused = table.send("undo")
    assert "then void N WHY for the one you mean" in refused
    assert "calabresella" not in refused.split("Error:")[1]
    table.close_with(None)  # Ctrl-D leaves as quit does
    assert not (db.parent / "state" / "calabresella" / "play.history").exists()


def test_an_amendment_in_play_is_drawn_from_the_deal_as_play_showed_it(sqlite_url: str) -> None:
    """Another program corrects deal 1 after play showed it: play's correction of it is refused, naming that
    correction, and overwrites nothing; shown again (`deals`), the deal takes play's correction."""
    db = Path(sqlite_url)
    _open_evening(db, ("Anna", "Bruno", "Carla"))
    table = Table(db, "--no-history")
    table.send("bruno solo 22")
    other = calabresella("--db", str(db), "amend", "1", "-t", "15", "-r", "recount")
    assert other.returncode == 0, other.stderr
    refused = table.send("amend 1 anna reason=wrong declarer")
    assert "deal 1 was corrected since you saw it (revision 1, now 2): deal 1 amended (recount)" in refused
    _points, deals, _revision = _ledger(db)
    assert [(d.declarer, d.declarer_thirds, d.revision) for d in deals] == [("Bruno", 15, 2)]
    table.send("deals")
    assert "Deal 1 amended (revision 3)" in table.send("amend 1 anna reason=wrong declarer")
    table.close_with(None)
    _points, deals, _revision = _ledger(db)
    assert [(d.declarer, d.declarer_thirds, d.revision) for d in deals] == [("Anna", 15, 3)]
