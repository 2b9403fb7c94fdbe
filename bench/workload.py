"""What the benchmarks share: large exports (the example evening repeated, each copy starting a day later), a club's
history (`club_history`), the raw insert they are measured against, and their options and figures."""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import os
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlmodel import SQLModel

import ledger.store.club_models  # noqa: F401 (the club's tables, in the metadata `rows_of` reads)
from ledger import Ledger
from ledger.errors import LedgerError
from ledger.rules.build import DealInput, judge
from ledger.rules.facts import DealFacts
from ledger.rules.profiles import Profile, make_profile
from ledger.rules.seats import seat_after
from ledger.store.export import FORMAT
from ledger.summary import UNDO
from ledger.values import Terms, Writer

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "three_friends.json"


def write_export(path: Path, deals: int) -> int:
    """An export (JSON Lines) of at least `deals` deals (whole evenings), a line each; its number of deals."""
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    evening = data["evenings"][0]
    per_evening = len(evening["deals"])
    count = -(-deals // per_evening)
    start = datetime(2020, 1, 1, 20, tzinfo=UTC)
    with path.open("w", encoding="utf-8") as out:
        out.write('{"format": "calabresella-ledger", "version": 3}\n')
        for number in range(1, count + 1):
            copy_ = {
                **copy.deepcopy(evening),
                "number": number,
                "started_at": (start + timedelta(days=number)).isoformat(),
                "closed_at": None,
            }
            for deal in copy_["deals"]:
                deal["key"] = None
            out.write(json.dumps({"evening": copy_}, ensure_ascii=False) + "\n")
    return count * per_evening


CLUB = (
    "Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Luca", "Marta", "Niccolò", "Olga", "Piero",
    "Rita", "Sandro", "Tina", "Ugo", "Vera", "Walter", "Zeno", "Ada", "Beppe", "Cinzia", "Dino", "Ebe",
)  # fmt: skip
"""The members of the club whose history `club_history` makes."""
GAMES = (("pagat", 3, 55), ("pagat", 4, 10), ("tretre", 3, 15), ("quartiglio", 4, 12), ("quintiglio", 5, 8))
"""The games the club plays: profile, players seated, how often (in a hundred evenings)."""
CONTRACTS = {"chiamo": 50, "mediatore": 12, "solo": 30, "solissimo": 10}
"""How often each contract is the one played, where a profile has it."""
LIVE_SHARE, LIVE_MOST = 100, 1_000
"""One deal in `LIVE_SHARE` of a club's history, `LIVE_MOST` at most, is recorded through `Ledger` as the phones
record it (the rest is its past, imported): a write at a time takes some 20 ms on a busy machine."""


def club_history(database: Path, deals: int, seed: int = 1) -> int:
    """A ledger at `database` holding a club's history of about `deals` deals; how many it holds.

    Its past is many evenings of the club's members in every game the ledger scores (drawn tables, half of them
    recorded on phones, which send each deal with a key; deals drawn and scored by the rules engine, some amended,
    voided or taken back; an evening reopened now and then; payments after them), written through the ledger's import
    a few hundred evenings at a time. Then the present, one deal in `LIVE_SHARE` (`LIVE_MOST` at most), is recorded
    through `Ledger` one write at a time, as from the phones and the terminal: evenings with amendments, voids, undos,
    a reopening and a voided evening, payments (one voided), renames (one player renamed to a name, back, and to it
    again) and a club night of two rounds in a season."""
    rng = random.Random(seed)
    live = min(deals, max(30, min(deals // LIVE_SHARE, LIVE_MOST)))
    with Ledger(str(database), source="terminal") as ledger:
        made = _past(ledger, rng, deals - live)
        made += _present(ledger, rng, live)
    return made


def _draw(rng: random.Random, profile: Profile, players: tuple[str, ...], dealer: str) -> DealInput:
    """A deal as typed at the table, one the rules accept: passes now and then, mostly chiamo and solo, thirds
    around 19, the auction said now and then."""
    active = DealFacts(players=players, dealer=dealer).active(profile)
    while True:
        if rng.random() < 0.1:
            return DealInput(passed=True)
        bids = [c.value for c in profile.bids]
        contract = rng.choices(bids, weights=[CONTRACTS[c] for c in bids])[0]
        declarer = rng.choice(active)
        fields: dict[str, Any] = {"contract": contract}
        fields["thirds"] = thirds = min(35, max(0, round(rng.gauss(19, 6))))
        if rng.random() < 0.15:
            fields["auction"] = ",".join(contract if seat == declarer else "pass" for seat in active)
        else:
            fields["declarer"] = declarer
        if contract == "solissimo" and rng.random() < 0.2:
            fields["aggravation"] = rng.choice(("dividete", "dividete", "scegliete"))
        if contract in ("chiamo", "mediatore"):
            fields["called"] = rng.choice(("3D", "3C", "3S", "3B", "3D", "3C", "2D", "AS"))
            fields["holder"] = rng.choice([*(seat for seat in active if seat != declarer), "monte"])
        if thirds in (0, 35):
            fields["tricks"] = (0 if thirds == 0 else 12) if rng.random() < 0.7 else (1 if thirds == 0 else 11)
        elif 3 <= thirds <= 5 or 30 <= thirds <= 32:
            fields["last_trick"] = rng.choice(("declarer", "opponents"))
        typed = DealInput(**fields)
        try:
            judge(typed, profile, players, dealer)
        except LedgerError:
            continue
        return typed


def _table(rng: random.Random) -> tuple[Profile, tuple[str, ...]]:
    """An evening's game and players, drawn from the club."""
    name, seated, _ = rng.choices(GAMES, weights=[weight for *_, weight in GAMES])[0]
    return make_profile(name), tuple(rng.sample(CLUB, seated))


def _past(ledger: Ledger, rng: random.Random, deals: int) -> int:
    """The club's past, imported a few hundred evenings at a time; how many deals it holds."""
    made, number, start = 0, 0, datetime(2019, 1, 4, 20, 30, tzinfo=UTC)
    evenings: list[dict[str, Any]] = []
    payments: list[dict[str, Any]] = []
    while made < deals:
        number += 1
        evening = _past_evening(
            rng, number, start + timedelta(days=2 * number), min(deals - made, 30 + rng.randrange(16))
        )
        evenings.append(evening)
        made += len(evening["deals"])
        if rng.random() < 0.35:
            payments.append(_payment(rng, evening))
        if len(evenings) == 200 or made >= deals:
            ledger.import_data({"format": FORMAT, "version": 1, "evenings": evenings, "payments": payments})
            evenings, payments = [], []
    return made


def _past_evening(rng: random.Random, number: int, started: datetime, count: int) -> dict[str, Any]:
    """An evening of the past as a version 1 export holds it: what was typed for each revision, and the payouts."""
    profile, players = _table(rng)
    at, dealer, streak, changes = started, players[0], 0, 0
    phone = rng.random() < 0.5  # recorded on a phone, which sends each deal with a key of its own
    deals = []
    for deal_number in range(1, count + 1):
        revisions: list[dict[str, Any]] = []
        for revision in range(1, 3 if rng.random() < 0.04 else 2):
            typed = _draw(rng, profile, players, dealer)
            if profile.pot_carryover and not typed.passed:
                typed = replace(typed, passed_before=streak)
            payouts = judge(typed, profile, players, dealer)[1].payouts
            at += timedelta(minutes=3 + rng.randrange(3))
            if revisions:
                revisions[-1]["superseded_at"] = at.isoformat()
            revisions.append(
                {
                    "revision": revision,
                    "recorded_at": at.isoformat(),
                    "superseded_at": None,
                    "reason": "wrong thirds" if revision > 1 else None,
                    "dealer": dealer,
                    "typed": typed.to_dict(),
                    "payouts": dict(payouts),
                }
            )
        passed = typed.passed
        voided = None if passed else rng.choices((None, "misdeal", UNDO), weights=(97, 2, 1))[0]
        streak = streak + 1 if passed else 0
        changes += len(revisions) + (voided is not None)
        deals.append(
            {
                "number": deal_number,
                "key": f"{rng.getrandbits(64):016x}" if phone else None,
                "created_at": revisions[0]["recorded_at"],
                "voided_at": (at + timedelta(seconds=40)).isoformat() if voided else None,
                "void_reason": voided if voided != UNDO else None,
                "void_cause": UNDO if voided == UNDO else None,
                "revisions": revisions,
            }
        )
        dealer = seat_after(players, dealer)
    reopened = []
    if rng.random() < 0.03:
        reopened.append(
            {
                "closed_at": (started + timedelta(minutes=90)).isoformat(),
                "reopened_at": (started + timedelta(minutes=95)).isoformat(),
                "reason": "one more round",
            }
        )
    return {
        "number": number,
        "players": list(players),
        "first_dealer": players[0],
        "profile": profile.name,
        "options": dict(profile.options),
        "stake_cents": rng.choice((5, 10, 10, 20, 50)),
        "currency": "EUR",
        "place": rng.choice(("Circolo Arci", "Bar Sport", None)),
        "note": None,
        "started_at": started.isoformat(),
        "closed_at": (at + timedelta(minutes=10)).isoformat(),
        "pot_out": streak if profile.pot_carryover else 0,
        "reopened": reopened,
        "revision": changes + 1 + 2 * len(reopened),
        "deals": deals,
    }


def _payment(rng: random.Random, evening: dict[str, Any]) -> dict[str, Any]:
    """Money handed over after an evening, from a player to another; one in twenty voided later."""
    payer, payee = rng.sample(evening["players"], 2)
    paid_at = datetime.fromisoformat(evening["closed_at"]) + timedelta(minutes=5)
    voided = rng.random() < 0.05
    return {
        "payer": payer,
        "payee": payee,
        "cents": 10 * rng.randrange(1, 60),
        "currency": "EUR",
        "evening": evening["number"],
        "note": None,
        "paid_at": paid_at.isoformat(),
        "key": None,
        "voided_at": (paid_at + timedelta(days=1)).isoformat() if voided else None,
        "void_reason": "entered twice" if voided else None,
    }


def _present(ledger: Ledger, rng: random.Random, deals: int) -> int:
    """This season, recorded write by write as the phones and the terminal record it; how many deals it holds."""
    known = {player.name for player in ledger.players()}
    ledger.add_players([name for name in CLUB if name not in known])
    season = ledger.club.start_season("Stagione corrente", min_deals=10)
    for old, new in (("Ugo", "Ugolino"), ("Ugolino", "Ugo"), ("Ugo", "Ugolino"), ("Ebe", "Ebe Rossi")):
        ledger.rename_player(old, new)
    members = [name for name in CLUB if name not in ("Ugo", "Ebe")] + ["Ugolino", "Ebe Rossi"]
    made, evenings = 0, 0
    while made < deals:
        profile, players = _table(rng)
        players = tuple(members[CLUB.index(p)] if p in ("Ugo", "Ebe") else p for p in players)
        by = Writer("phone", session=f"phone-{rng.randrange(1, 9)}") if evenings % 2 else Writer("terminal")
        number = ledger.start_evening(players, Terms(profile=profile.name, stake="0.10"), by=by).number
        made += _play(ledger, rng, number, min(deals - made, 20 + rng.randrange(10)), by)
        ledger.close_evening(number, by=by)
        if evenings % 5 == 1:
            ledger.reopen_evening(number, reason="one more deal", by=by)
            made += _play(ledger, rng, number, 1, by)
            ledger.close_evening(number, by=by)
        if evenings == 2:
            ledger.void_evening(number, reason="a practice evening", by=by)
        payer, payee = rng.sample(players, 2)
        paid = ledger.paid(payer, payee, "1.20", evening=number)
        if evenings == 3:
            ledger.void_payment(paid.id, reason="entered twice")
        evenings += 1
    event = ledger.club.start_event(
        "Torneo di fine stagione", members[:9], Terms(stake="0.10"), season=season.name, round_deals=3
    )
    for round_seed in (1, 2):
        ledger.club.seat_round(event.number, seed=round_seed)
        current = ledger.club.event(event.number).current
        assert current is not None
        for table in current.tables:
            made += _play(ledger, rng, table.evening, 3, Writer("phone", session=f"table-{table.number}"))
    ledger.club.close_event(event.number)
    return made


def _play(ledger: Ledger, rng: random.Random, evening: int, count: int, by: Writer) -> int:
    """`count` deals recorded at an evening, a few of them amended, voided or taken back at once; `count`."""
    shown = ledger.evening(evening)
    profile = shown.profile
    for _ in range(count):
        dealer = shown.next_dealer
        key = f"{rng.getrandbits(64):016x}" if by.session else None  # a phone sends each deal with a key of its own
        recorded = ledger.record(_draw(rng, profile, shown.players, dealer), evening=evening, key=key, by=by)
        number = recorded.deal.number
        roll = rng.random()
        if roll < 0.05 and recorded.result is not None and not recorded.result.passed:
            thirds = _draw(rng, profile, shown.players, dealer).thirds
            with contextlib.suppress(LedgerError):  # thirds that do not fit the deal's other facts: left as it was
                ledger.amend(number, DealInput(thirds=thirds), reason="wrong thirds", evening=evening, by=by)
                if rng.random() < 0.2:
                    ledger.undo(evening=evening, by=by)  # the amendment taken back
        elif roll < 0.07:
            ledger.void(number, reason="misdeal", evening=evening, by=by)
        elif roll < 0.09:
            ledger.undo(evening=evening, by=by)
        shown = ledger.evening(evening)
    return count


def rows_of(database: Path) -> dict[str, tuple[list[str], list[tuple[object, ...]]]]:
    """Every row of the ledger's tables (an import wrote them), table by table in the order their rows can be
    inserted: the columns and the rows."""
    with sqlite3.connect(database) as connection:
        out = {}
        for table in SQLModel.metadata.sorted_tables:
            cursor = connection.execute(f'SELECT * FROM "{table.name}"')
            rows = cursor.fetchall()
            if rows:
                out[table.name] = ([c[0] for c in cursor.description], rows)
        return out


def raw_insert(schema_from: Path, target: Path, rows: dict[str, tuple[list[str], list[tuple[object, ...]]]]) -> None:
    """The baseline: a new file with the ledger's schema and settings, then one executemany per table, one commit."""
    with sqlite3.connect(schema_from) as source:
        statements = [
            sql
            for (sql,) in source.execute(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
            )
        ]
    connection = sqlite3.connect(target, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = FULL")
    connection.execute("PRAGMA foreign_keys = ON")
    for sql in statements:
        connection.execute(sql)
    connection.execute("BEGIN IMMEDIATE")
    for table, (columns, values) in rows.items():
        marks = ", ".join("?" * len(columns))
        connection.executemany(f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({marks})', values)
    connection.execute("COMMIT")
    connection.close()


def turns(doc: str | None, deals: int, repeat: int) -> argparse.Namespace:
    """The options of a benchmark that times a ledger of `--deals` deals against its baseline `--repeat` times."""
    return options(doc, deals, repeat).parse_args()


def options(doc: str | None, deals: int, repeat: int) -> argparse.ArgumentParser:
    """The parser of `turns`, for a benchmark that takes more options."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--repeat", type=int, default=repeat)
    return parser


def spread(ratios: list[float]) -> str:
    """`2.4x (2.0-3.0x)`: the median ratio and the range of the turns."""
    return f"{statistics.median(ratios):.1f}x ({min(ratios):.1f}-{max(ratios):.1f}x)"


def calabresella() -> str:
    """The `calabresella` installed beside this interpreter, else the one on the PATH."""
    beside = Path(sys.executable).parent / "calabresella"
    return str(beside) if beside.exists() else shutil.which("calabresella") or "calabresella"


def listening(port: int, process: subprocess.Popen[Any], seconds: float = 30.0) -> bool:
    """Whether `process` comes to listen on loopback `port` within `seconds` (False: it stopped, or took longer)."""
    deadline = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def timed_raw_insert(ledger: Path, target: Path) -> float:
    """Seconds for `raw_insert` of the rows of `ledger` (read beforehand, not timed) into `target`."""
    rows = rows_of(ledger)
    start = time.perf_counter()
    raw_insert(ledger, target, rows)
    return time.perf_counter() - start


if __name__ == "__main__":
    print(timed_raw_insert(Path(sys.argv[1]), Path(sys.argv[2])))


def cpu_seconds(pid: int) -> float:
    """The processor time process `pid` has used so far, user and system, from /proc (Linux); OSError when it is
    gone."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
