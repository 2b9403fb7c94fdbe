"""Club nights through `Ledger`, on a real SQLite file and a real PostgreSQL server: events, rounds seated at tables
(each an evening), players arriving and leaving, the leaderboard and the season's league counted by hand."""

from __future__ import annotations

import threading
from collections import defaultdict
from itertools import combinations

import pytest

from ledger import Ledger
from ledger.errors import LedgerError
from ledger.values import Terms

SEVEN = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina"]


def by_hand(ledger: Ledger, evenings: list[int]) -> dict[str, tuple[int, int]]:
    """Game points and deals played per player, summed from every deal's payouts and roles (an evening voided whole
    counts nowhere)."""
    figures: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
    for evening in evenings:
        info, deals = ledger.deals(evening)
        if info.voided_at is not None:
            continue
        for deal in deals:
            if deal.voided:
                continue
            for name, points in deal.payouts.items():
                figures[name][0] += points
                figures[name][1] += deal.roles[name] in ("declarer", "partner", "opponent")
    return {name: (points, played) for name, (points, played) in figures.items()}


def play_round(ledger: Ledger, number: int, deals: int = 3) -> None:
    """Each table of the round under way records solos by whoever speaks first, alternately won and lost."""
    current = ledger.club.event(number).current
    assert current is not None
    for table in current.tables:
        for i in range(deals):
            speaker = ledger.evening(table.evening).first_speaker
            ledger.record(f"{speaker} solo {22 if i % 2 == 0 else 14}", evening=table.evening)


def test_a_club_night_seats_every_present_player_once_and_its_leaderboard_counts_by_hand(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        started = ledger.club.start_event("Venerdì al circolo", SEVEN, Terms(stake="0.10"), round_deals=3)
        assert started.present == tuple(SEVEN) and started.current is None
        event = ledger.club.seat_round(started.number, seed=7)
        current = event.current
        assert current is not None
        assert sorted(len(t.players) for t in current.tables) == [3, 4]
        assert sorted(name for t in current.tables for name in t.players) == sorted(SEVEN)
        for table in current.tables:
            evening = ledger.evening(table.evening)
            assert evening.players == table.players
            assert evening.next_dealer == table.players[0]  # seat 1 deals first
            assert evening.stake_cents == 10
        play_round(ledger, started.number)
        event = ledger.club.event(started.number)
        counted = by_hand(ledger, [t.evening for t in current.tables])
        for line in event.standings:
            assert (line.points, line.deals) == counted[line.player]
            place = current.table_of(line.player)
            assert place is not None and (line.table, line.seat) == (place[0].number, place[1])
        assert [line.points for line in event.standings] == sorted(
            (line.points for line in event.standings), reverse=True
        )
        assert sum(line.points for line in event.standings) == 0


def test_later_rounds_avoid_repeated_opponents_and_end_the_round_before(db_url: str) -> None:
    nine = [f"Giocatore{i}" for i in range(9)]
    with Ledger(db_url) as ledger:
        number = ledger.club.start_event("Torneo", nine).number
        met: set[frozenset[str]] = set()
        for _round in range(4):  # nine players at tables of three: four rounds can all be new opponents
            event = ledger.club.seat_round(number, seed=_round)
            current = event.current
            assert current is not None and current.repeats == 0 and current.exact
            pairs = {frozenset(pair) for t in current.tables for pair in combinations(t.players, 2)}
            assert not pairs & met
            met |= pairs
        event = ledger.club.seat_round(number, seed=9)  # a fifth round must repeat
        assert event.current is not None and event.current.repeats > 0
        assert all(r.ended_at is not None for r in event.rounds[:-1])
        closed = [t.closed for r in event.rounds[:-1] for t in r.tables]
        assert closed and all(closed)


def test_players_arrive_and_leave_between_rounds(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        number = ledger.club.start_event("Serata", SEVEN[:6]).number
        ledger.club.seat_round(number, seed=1)
        event = ledger.club.seat_round(number, arrived=["Gina", "Zoe"], left=["Anna"], seed=2)
        seated = sorted(name for t in event.rounds[-1].tables for name in t.players)
        assert seated == sorted(["Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Zoe"])
        assert "Anna" not in event.present and {"Gina", "Zoe"} <= set(event.present)
        anna = next(line for line in event.standings if line.player == "Anna")
        assert not anna.present and anna.table is None
        event = ledger.club.seat_round(number, arrived=["Anna"], seed=3)
        assert "Anna" in {name for t in event.rounds[-1].tables for name in t.players}


def test_five_present_at_tables_of_three_or_four_one_sits_out(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        number = ledger.club.start_event("Pochi", SEVEN[:5]).number
        event = ledger.club.seat_round(number, seed=1)
        first = event.rounds[-1]
        assert len(first.sitting_out) == 2 or len(first.sitting_out) == 1
        assert sum(len(t.players) for t in first.tables) + len(first.sitting_out) == 5
        event = ledger.club.seat_round(number, seed=2)
        assert not set(first.sitting_out) & set(event.rounds[-1].sitting_out)  # who sat out plays next


def test_a_seating_by_hand_is_checked_and_a_refusal_writes_nothing(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        number = ledger.club.start_event("A mano", SEVEN).number
        evenings_before = len(ledger.evenings())
        for tables, said in (
            ([["Anna", "Bruno", "Carla"], ["Anna", "Dario", "Elena", "Franco"]], "Anna"),
            ([["Anna", "Bruno", "Carla"], ["Dario", "Elena", "Franco", "Zoe"]], "Zoe"),
            ([["Anna", "Bruno"], ["Carla", "Dario", "Elena", "Franco", "Gina"]], "2"),
        ):
            with pytest.raises(LedgerError, match=said):
                ledger.club.seat_round(number, tables=tables)
            assert ledger.club.event(number).rounds == () and len(ledger.evenings()) == evenings_before
        event = ledger.club.seat_round(
            number, tables=[["gina", "Bruno", "Carla"], ["Anna", "Dario", "Elena", "Franco"]]
        )
        assert event.rounds[-1].by_hand and event.rounds[-1].tables[0].players == ("Gina", "Bruno", "Carla")


def test_refusals_name_the_value(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        for call, said in (
            (lambda: ledger.club.start_event("x", SEVEN, round_deals=0), "deals"),
            (lambda: ledger.club.start_event("x", SEVEN, pairing="elo"), "pairing"),
            (lambda: ledger.club.start_event("x", ["Anna", "Bruno"]), "2 players"),
            (lambda: ledger.club.start_event("x", SEVEN, Terms(profile="quintiglio"), season="nessuna"), "season"),
            (lambda: ledger.club.start_event("", SEVEN), "name"),
            (lambda: ledger.club.event(99), "event 99 does not exist"),
        ):
            with pytest.raises(LedgerError, match=said):
                call()
        assert ledger.club.events() == []
        number = ledger.club.start_event("Chiusa", SEVEN).number
        ledger.club.close_event(number)
        with pytest.raises(LedgerError, match="closed"):
            ledger.club.seat_round(number)


def test_the_season_league_counts_by_hand_ranks_by_the_minimum_and_rates_skill_apart(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        ledger.club.start_season("Autunno", min_deals=4)
        evenings: list[int] = []
        for night, players in enumerate((SEVEN, SEVEN[:6])):
            number = ledger.club.start_event(f"Serata {night + 1}", players, season="autunno").number
            event = ledger.club.seat_round(number, seed=night)
            play_round(ledger, number, deals=2 + night)
            evenings += [t.evening for t in event.rounds[-1].tables]
            ledger.club.close_event(number)
        ledger.club.start_event("Fuori stagione", SEVEN)  # not in the season
        season = ledger.club.season("Autunno")
        counted = by_hand(ledger, evenings)
        assert {line.player: (line.points, line.deals) for line in season.table} == counted
        gina = next(line for line in season.table if line.player == "Gina")
        assert gina.events == 1
        ranked = [line for line in season.table if line.ranked]
        assert all(line.deals >= 4 for line in ranked)
        assert all(not line.ranked for line in season.table[len(ranked) :])
        assert [line.per_deal for line in ranked] == sorted((line.per_deal or 0 for line in ranked), reverse=True)
        played = [line for line in season.table if line.deals]
        assert all(line.skill is not None and line.sigma is not None for line in played)
        assert len(season.events) == 2


def test_two_organisers_seating_at_once_make_two_rounds_one_after_the_other(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        number = ledger.club.start_event("Di corsa", [f"P{i}" for i in range(12)]).number
    errors: list[BaseException] = []

    def seat() -> None:
        try:
            with Ledger(db_url) as mine:
                mine.club.seat_round(number)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=seat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with Ledger(db_url) as ledger:
        event = ledger.club.event(number)
        assert [r.number for r in event.rounds] == [1, 2]
        assert event.rounds[0].ended_at is not None and event.current is event.rounds[1]
        evenings = [t.evening for r in event.rounds for t in r.tables]
        assert len(set(evenings)) == len(evenings) == 8


def test_the_leaderboard_read_again_after_each_change_counts_by_hand(db_url: str) -> None:
    with Ledger(db_url) as ledger, Ledger(db_url) as fresh:
        number = ledger.club.start_event("Night", SEVEN[:6], round_deals=3).number
        current = ledger.club.seat_round(number, seed=3).current
        assert current is not None
        first, second = (table.evening for table in current.tables)
        play_round(ledger, number)

        def board_read_again() -> None:
            """The leaderboard of the ledger that read it before, and of one that never did, each as counted by
            hand."""
            counted = by_hand(fresh, [first, second])
            for board in (ledger.club.event(number), fresh.club.event(number)):
                assert {line.player: (line.points, line.deals) for line in board.standings} == {
                    name: counted.get(name, (0, 0)) for name in SEVEN[:6]
                }

        board_read_again()
        speaker = ledger.evening(first).first_speaker
        for change in (
            lambda: ledger.record(f"{speaker} solo 22", evening=first),
            lambda: ledger.amend(1, "20", reason="recounted", evening=first),
            lambda: ledger.void(2, reason="misdeal", evening=first),
            lambda: ledger.undo(evening=first),
            lambda: ledger.void_evening(first, reason="played by the wrong rules"),
        ):
            change()
            board_read_again()
        ledger.record(f"{ledger.evening(second).first_speaker} solo 14", evening=second)
        board_read_again()


def test_the_leaderboard_read_again_from_the_one_shown_is_the_whole_read_until_a_round_changes(db_url: str) -> None:
    """After deals, corrections, voids, undos and tables closed or opened again, the board read by its tables and
    leaderboard alone from the one shown before is the board read whole; once a player is renamed, a round seated or
    ended or the event closed, it asks for a whole read."""
    with Ledger(db_url) as ledger:
        number = ledger.club.start_event("Night", SEVEN[:6], round_deals=6).number
        current = ledger.club.seat_round(number, seed=3).current
        assert current is not None
        first, second = (table.evening for table in current.tables)
        shown = ledger.club.event(number)
        speaker = ledger.evening(first).first_speaker
        other = ledger.evening(second).first_speaker
        for change in (
            lambda: ledger.record(f"{speaker} solo 22", evening=first),
            lambda: ledger.record(f"{other} solo 14", evening=second),
            lambda: ledger.record(f"{speaker} solo 8", evening=first),
            lambda: ledger.amend(1, "20", reason="recounted", evening=first),
            lambda: ledger.void(2, reason="misdeal", evening=first),
            lambda: ledger.undo(evening=first),
            lambda: ledger.close_evening(second),
            lambda: ledger.reopen_evening(second, reason="one more deal"),
            lambda: ledger.void_evening(first, reason="played by the wrong rules"),
        ):
            change()
            after = ledger.club.event_after_deals(shown)
            assert after == ledger.club.event(number)
            assert after is not None and after != shown
            shown = after
        assert [line.player for line in shown.standings] != sorted(SEVEN[:6])  # ranked by points, not by name
        for frame_change in (
            lambda: ledger.rename_player("Anna", "Annalisa"),
            lambda: ledger.club.end_round(number),
            lambda: ledger.club.seat_round(number, seed=4),
            lambda: ledger.club.close_event(number),
        ):
            frame_change()
            assert ledger.club.event_after_deals(shown) is None
            shown = ledger.club.event(number)
