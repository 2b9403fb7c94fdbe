"""The ledger's one write path. Replaces tests/test_web_turns.py, which tested the web's own lane (`ledger.web.turns`,
removed when `Ledger` took over the writes): the lane's turns are now `Ledger.in_turn` (a watcher's read waits for the
write under way and sees what it did, a page's read does not wait), and writers in several threads and programs each
get the next deal and the next revision of the change log, none lost or doubled. The web's "a retry that stored
nothing tells nobody" is now the channel's business (a notice of a revision already shown is not read again)."""

from __future__ import annotations

import threading

from ledger import Ledger

PLAYERS = ("Anna", "Bruno", "Carla")


def test_a_watchers_read_in_turn_waits_for_the_write_under_way_on_sqlite_and_a_page_read_does_not(db_url: str) -> None:
    """On SQLite a program's writes and its watchers' reads take one lane; on PostgreSQL there is none (reads never
    wait for writes there), so a watcher's read answers beside the write with what was committed before it."""
    postgres = db_url.startswith("postgresql")
    with Ledger(db_url) as ledger:
        ledger.start_evening(PLAYERS)
        writing, release, read_done = threading.Event(), threading.Event(), threading.Event()
        watched: list[int] = []

        def write() -> None:
            def hold() -> None:
                writing.set()
                release.wait(30)
                ledger.record("bruno solo 22")

            ledger.in_turn(hold)

        def watch() -> None:
            watched.append(ledger.in_turn(lambda: ledger.evening(1).revision))
            read_done.set()

        writer = threading.Thread(target=write)
        writer.start()
        assert writing.wait(30)
        watcher = threading.Thread(target=watch)
        watcher.start()
        assert ledger.evening(1).revision == 0  # a page's read answers beside the write
        assert read_done.wait(30 if postgres else 0.5) is postgres
        release.set()
        writer.join(30)
        watcher.join(30)
        assert watched == ([0] if postgres else [1])  # on SQLite it read what the write did


def test_writers_in_several_threads_get_every_deal_and_revision_once(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        ledger.start_evening(PLAYERS)
    barrier, errors = threading.Barrier(3), []

    def keep(declarer: str) -> None:
        try:
            with Ledger(db_url) as mine:
                barrier.wait(30)
                for _ in range(5):
                    mine.record(f"{declarer} solo 22", evening=1)
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=keep, args=(name,)) for name in PLAYERS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    with Ledger(db_url) as ledger:
        info, deals = ledger.deals(1)
        log = ledger.changes(1)
    assert [d.number for d in deals] == list(range(1, 16)) and info.revision == 15
    assert [(c.revision, c.kind, c.deal) for c in log[1:]] == [(n, "record", n) for n in range(1, 16)]
    assert info.points == {"Anna": 0, "Bruno": 0, "Carla": 0}  # five solos each: every deal counted once
