"""What each kept cache, lane and poll of the ledger buys: the work it serves timed with it and without it, in the
same run and in turns, and the ratio of the medians (the work without it over the work with it).

Usage: python bench/caches_bench.py [--repeat 5] [--evenings 400] [--players 90] [--only NAME,...]

  rules      the rules engine's counts of the deals 40 cards allow (`heaps._deals`, `heaps.allowed`,
             `sweeps._decided`, `cards.thirds_held`), over 200 deals judged as recorded
  names      the names' skeletons (`names._prototype`, `names.skeleton`): 90 new players, each checked against
             those before, as a club night's start or an import adds them
  settle     the settlement's search over groups of players remembered for the call (`settlement.cache`), an
             evening of 10 players settled
  lists      the statements of the history's lists built once (`evenings._listed_query`, `evenings._seats_query`,
             `club._lines_query`): the newest 50 evenings read as `Ledger.evening_page` reads them
  lane       SQLite's write lane (`Desk._writing`): 4 threads of one program recording 25 deals each at once, the
             p95 of a write; without it each writer polls the database's lock
  poll       the SQLite watcher's ask of `PRAGMA data_version` every 50 ms: one ask's processor time
"""

from __future__ import annotations

import argparse
import functools
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from ledger import Ledger
from ledger.rules import cards, heaps, names, sweeps
from ledger.rules.build import judge
from ledger.values import Terms

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import _draw, _table, club_history

WHAT = ("rules", "names", "settle", "lists", "lane", "poll")


@contextmanager
def uncached(*functions: Any) -> Iterator[None]:
    """Every module of the ledger that holds one of `functions` (a `functools.cache`) holds its bare function."""
    swapped: list[tuple[Any, str, Any]] = []
    for module in [m for name, m in sys.modules.items() if name.startswith("ledger") and m is not None]:
        for attribute, value in list(vars(module).items()):
            if any(value is function for function in functions):
                swapped.append((module, attribute, value))
                setattr(module, attribute, value.__wrapped__)
    try:
        yield
    finally:
        for module, attribute, value in swapped:
            setattr(module, attribute, value)


def in_turns(repeat: int, kept: Callable[[], float], bare: Callable[[], float]) -> tuple[float, float]:
    """The medians of `kept` and `bare` (each returns its figure), run in turns."""
    withs, withouts = [], []
    for _ in range(repeat):
        withs.append(kept())
        withouts.append(bare())
    return statistics.median(withs), statistics.median(withouts)


def report(what: str, unit: str, kept: float, bare: float) -> None:
    print(f"{what}: with it {kept:.3f} {unit}, without it {bare:.3f} {unit}: {bare / kept:.2f}x without")


def timed(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return (time.process_time() - start) * 1000


def rules(args: argparse.Namespace) -> None:
    rng = random.Random(3)
    deals = []
    for _ in range(200):
        profile, players = _table(rng)
        deals.append((_draw(rng, profile, players, players[0]), profile, players))
    caches = (heaps._deals, heaps.allowed, sweeps._decided, cards.thirds_held)

    def judged() -> None:
        for typed, profile, players in deals:
            judge(typed, profile, players, players[0])

    def bare() -> float:
        with uncached(*caches):
            return timed(judged)

    kept, without = in_turns(args.repeat, lambda: timed(judged), bare)
    report("the rules' card counts, 200 deals judged", "ms", kept, without)
    report("  a deal", "ms", kept / 200, without / 200)


NAMES = [
    first + end
    for first in ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Luca", "Marta")
    for end in ("", "ella", "ino", "one", "etta", "uccio", "aro", "ina", "olo", "ia")
]


def names_(args: argparse.Namespace) -> None:
    added_names = NAMES[: args.players]

    def added() -> None:
        for index, name in enumerate(added_names):
            names.looks_like(name, added_names[:index])

    def fresh() -> float:  # a new program: nothing remembered yet
        names._prototype.cache_clear()
        names.skeleton.cache_clear()
        return timed(added)

    def bare() -> float:
        with uncached(names._prototype, names.skeleton):
            return timed(added)

    kept, without = in_turns(max(1, args.repeat // 3), fresh, bare)
    report(f"the names' skeletons, {len(added_names)} players added one by one", "ms", kept, without)


def settle(args: argparse.Namespace) -> None:
    from ledger import settlement

    rng = random.Random(5)
    balances: list[dict[str, int]] = []
    for _ in range(20):
        values = [rng.choice((-20, -10, 10, 20)) for _ in range(9)]  # a stake of 10 cents, a few points each
        balances.append({**{f"P{i}": v for i, v in enumerate(values)}, "P9": -sum(values)})

    def settled() -> None:
        for owed in balances:
            settlement.fewest_payments(owed)

    def bare() -> float:
        settlement.cache = lambda function: function  # type: ignore[assignment]
        try:
            return timed(settled)
        finally:
            settlement.cache = functools.cache  # type: ignore[assignment]

    kept, without = in_turns(args.repeat, lambda: timed(settled), bare)
    report("the settlement's search remembered, an evening of 10 players", "ms", kept / 20, without / 20)


def lists(args: argparse.Namespace, folder: Path) -> None:
    from ledger.store import club, evenings

    database = folder / "lists.sqlite3"
    club_history(database, args.evenings * 40)
    with Ledger(str(database)) as ledger:
        caches = (evenings._listed_query, evenings._seats_query, club._lines_query)

        def read() -> float:
            start = time.process_time()
            for _ in range(20):
                ledger.evening_page()
                ledger.club.event_page()
            return (time.process_time() - start) * 1000 / 20

        def bare() -> float:
            with uncached(*caches):
                return read()

        read()
        kept, without = in_turns(args.repeat, read, bare)
    report(f"the lists' statements built once, the newest 50 of {args.evenings} evenings", "ms", kept, without)


def lane(args: argparse.Namespace, folder: Path) -> None:
    def run(locked: bool) -> float:
        database = folder / f"lane-{time.monotonic_ns()}.sqlite3"
        with Ledger(str(database)) as ledger:
            if not locked:
                ledger._writing = nullcontext()
            rng = random.Random(7)
            profile, players = _table(rng)
            tables = [ledger.start_evening(players, Terms(profile=profile.name)).number for _ in range(4)]
            times: list[float] = []

            def writer(evening: int) -> None:
                mine = random.Random(evening)
                for _ in range(25):
                    shown = ledger.evening(evening)
                    typed = _draw(mine, shown.profile, shown.players, shown.next_dealer)
                    start = time.perf_counter()
                    ledger.record(typed, evening=evening)
                    times.append((time.perf_counter() - start) * 1000)

            threads = [threading.Thread(target=writer, args=(number,)) for number in tables]
            start = time.process_time()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            spent[locked].append((time.process_time() - start) * 1000 / len(times))
        return statistics.quantiles(times, n=20)[-1]

    spent: dict[bool, list[float]] = {True: [], False: []}
    kept, without = in_turns(args.repeat, lambda: run(True), lambda: run(False))
    report("the write lane, 4 writers at once, p95 of a write", "ms", kept, without)
    report("  processor time a write", "ms", statistics.median(spent[True]), statistics.median(spent[False]))


def poll(args: argparse.Namespace, folder: Path) -> None:
    database = folder / "poll.sqlite3"
    with Ledger(str(database)):
        pass
    raw = sqlite3.connect(database)
    asks = 2000
    start = time.process_time()
    for _ in range(asks):
        raw.execute("PRAGMA data_version").fetchone()
    each = (time.process_time() - start) / asks * 1e6
    raw.close()
    print(
        f"the watcher's ask of PRAGMA data_version: {each:.1f} us of processor time;"
        f" 20 asks a second: {each * 20 / 1e4:.4f} % of a processor"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--evenings", type=int, default=400)
    parser.add_argument("--players", type=int, default=90, help="the players the names' part adds")
    parser.add_argument("--only", default=",".join(WHAT))
    args = parser.parse_args()
    chosen = args.only.split(",")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for what in chosen:
            if what == "rules":
                rules(args)
            elif what == "names":
                names_(args)
            elif what == "settle":
                settle(args)
            elif what == "lists":
                lists(args, folder)
            elif what == "lane":
                lane(args, folder)
            elif what == "poll":
                poll(args, folder)


if __name__ == "__main__":
    main()
