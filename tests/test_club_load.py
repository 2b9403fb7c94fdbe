"""A club night of phones recording at once, on `calabresella serve` as a process, on a real SQLite file and on
PostgreSQL: 2 tables x 3 phones, 6 phones recording 6 deals each at once with their table's key, some deals sent
again after their answer (an answer lost on the way) or twice at once (a phone retrying before the first answer
came), while the screen at the bar follows the leaderboard and 3 phones watch their tables. Every deal is stored
exactly once, every request is answered 201 or 200, and every figure the event, the season and the leaderboard show
is what a count by hand of the stored payouts gives. The night is `bench/club_bench.py`'s, which plays it at full
size (10 tables, 30 deals a phone, 20 phones watching) and times it."""

from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from club_bench import MIN_DEALS, PHONES, SEASON, Night, club_night, key_for, names, serving

TABLES, DEALS, VIEWERS = 2, 6, 3
"""The smallest night that still has several tables, each phone's deals sent again (the 4th) and twice at once (the
6th), and phones watching more than one table."""
NAMES = names(TABLES)
LONGEST_NIGHT = 60.0
"""A bound on the whole night (a few seconds): a hung server fails the test instead of stalling the suite."""


async def _read_back(base: str, night: Night) -> tuple[dict[int, list[dict[str, Any]]], dict[str, Any], dict[str, Any]]:
    """Every table's deals, the event, the season, as the API gives them after the night."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        deals = {}
        for table in night.tables:
            answer = await client.get(f"/api/evenings/{table.evening}/deals")
            assert answer.status_code == 200, answer.text
            deals[table.evening] = answer.json()["deals"]
        event = await client.get(f"/api/events/{night.event}")
        season = await client.get(f"/api/seasons/{SEASON}")
        revisions = {
            t.evening: (await client.get(f"/api/evenings/{t.evening}")).json()["revision"] for t in night.tables
        }
    assert event.status_code == 200 and season.status_code == 200, (event.text, season.text)
    for viewer in night.viewers:
        assert viewer.events >= 1 and viewer.revision == revisions[viewer.evening], (viewer, revisions)
    return deals, event.json(), season.json()


def _by_hand(deals: dict[int, list[dict[str, Any]]]) -> dict[str, tuple[int, int]]:
    """Each player's game points and deals played, summed from the raw payouts of every deal that stands: a player
    holds cards in every deal of a table of three but a passed one."""
    points: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    for stored in deals.values():
        for deal in stored:
            if deal["voided"]:
                continue
            for player, paid in deal["payouts"].items():
                points[player] += paid
                played[player] += deal["declarer"] is not None
    return {name: (points[name], played[name]) for name in NAMES}


def _per_deal(points: int, played: int) -> float | None:
    return round(points / played, 2) if played else None


def test_a_club_night_of_6_phones_at_once_stores_every_deal_once_and_every_figure_adds_up(
    db_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "serve.log"
    began = time.monotonic()
    with serving(db_url, log) as (base, _pid):
        night = asyncio.run(
            asyncio.wait_for(club_night(base, deals=DEALS, tables=TABLES, viewers=VIEWERS), LONGEST_NIGHT)
        )
        deals, event, season = asyncio.run(_read_back(base, night))
    took = time.monotonic() - began
    assert "Traceback" not in log.read_text(errors="replace"), log.read_text(errors="replace")[-3000:]

    # no request failed: each first send stored (201), each send again and one of each twin answered as a duplicate
    refused = [(a.kind, a.key, a.status, a.body) for a in night.answers if a.status not in (200, 201)]
    assert not refused, f"{len(refused)} refused, e.g. {refused[:3]}"
    assert {a.kind for a in night.answers} == {"first", "again", "twin"}  # both kinds of retry were sent
    said: dict[str, list[tuple[str, int, bool, int]]] = defaultdict(list)
    for a in night.answers:
        said[a.key].append((a.kind, a.status, a.body["duplicate"], a.body["deal"]["number"]))
    assert len(said) == TABLES * PHONES * DEALS
    for key, answers in said.items():
        kinds = Counter(kind for kind, *_ in answers)
        assert kinds in (Counter(first=1), Counter(first=1, again=1), Counter(twin=2)), (key, answers)
        outcome = sorted((status, duplicate) for _kind, status, duplicate, _number in answers)
        assert outcome == [(200, True)] * (len(answers) - 1) + [(201, False)], (key, answers)
        assert len({number for *_, number in answers}) == 1, (key, answers)  # a retry names the deal stored
    answered = {(a.table.evening, a.key): a.deal for a in night.answers}

    # every deal stored exactly once: each table's evening holds its phones' 3 x 6 deals, numbered 1 to 18
    for table in night.tables:
        stored = deals[table.evening]
        assert len(stored) == PHONES * DEALS, (table, len(stored))
        assert sorted(d["number"] for d in stored) == list(range(1, PHONES * DEALS + 1))
        assert not any(d["voided"] for d in stored)
        keys = {key_for(table.evening, phone, n) for phone in range(PHONES) for n in range(DEALS)}
        assert Counter(d["key"] for d in stored) == Counter(keys), table
        assert {d["key"]: d["number"] for d in stored} == {
            key: number for (evening, key), number in answered.items() if evening == table.evening
        }
        assert all(set(d["payouts"]) == set(table.players) for d in stored), table

    hand = _by_hand(deals)
    assert sum(points for points, _d in hand.values()) == 0  # game points are zero-sum
    assert any(played for _p, played in hand.values()) and any(points for points, _d in hand.values())

    # the event's leaderboard: every player's points, deals and points per deal as counted by hand
    shown = {line["player"]: (line["points"], line["deals"], line["per_deal"]) for line in event["standings"]}
    assert shown == {name: (p, d, _per_deal(p, d)) for name, (p, d) in hand.items()}
    seats = {line["player"]: (line["table"], line["seat"]) for line in event["standings"]}
    assert seats == {name: (t.number, t.players.index(name) + 1) for t in night.tables for name in t.players}
    assert [t["deals"] for t in event["rounds"][-1]["tables"]] == [PHONES * DEALS] * TABLES

    # the season's league table: the same figures, one event each, ranked past the season's minimum of deals
    league = {line["player"]: line for line in season["table"]}
    assert set(league) == set(NAMES)
    for name, (points, played) in hand.items():
        line = league[name]
        assert (line["points"], line["deals"], line["per_deal"]) == (points, played, _per_deal(points, played)), line
        assert line["events"] == 1 and line["ranked"] is (played >= MIN_DEALS), line

    # the screen at the bar: its last fragment shows the final points and deals of all 6 players
    assert night.screen.boards, "the leaderboard's stream brought nothing"
    assert night.screen.boards[-1] == hand, night.screen.boards[-1]
    backend = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    print(
        f"club night on {backend}: {len(night.answers)} POSTs in {sum(night.waves):.1f} s, "
        f"{len(night.screen.boards)} leaderboard fragments; test {took:.1f} s"
    )
