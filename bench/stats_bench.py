"""Benchmark `calabresella stats` and `calabresella chart` on a synthetic ledger: wall and processor time, peak memory.

A few hundred distinct deals are drawn with realistic bids and scored by the rules engine (`ledger.rules`); the
ledger reuses them at random seats and dealers, in evenings of about 40 deals (some with four seated, some deals
voided or amended), bulk-inserted with SQLAlchemy Core executemany in big transactions. Each measurement then runs
in a fresh process, so its peak memory is its own: `stats` (the frames and every section), the raw `pd.read_sql`
of the deals that count and their payouts (the floor under it), the `calabresella stats` command itself (start-up
and output included) and, with `--charts`, each chart of the whole history. With `--before`, each is also measured
with the code of an older checkout:

    python bench/stats_bench.py                      # 1,000,000 deals in a temporary folder
    python bench/stats_bench.py --deals 20000 --db /tmp/small.sqlite3 --keep
    python bench/stats_bench.py --deals 100000 --db postgresql+psycopg://user@host/empty_database
    git worktree add /tmp/before HEAD~5
    python bench/stats_bench.py --db /tmp/small.sqlite3 --reuse --charts --before /tmp/before --save /tmp/charts

The measurements take turns (`--repeat` times each) and the median ratios are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import accumulate
from pathlib import Path
from statistics import median
from typing import Any

from sqlalchemy import Engine, func, insert, select

from ledger.errors import LedgerError
from ledger.rules.build import DealInput, build_facts
from ledger.rules.profiles import make_profile
from ledger.rules.scoring import DealResult, score
from ledger.store.engine import open_ledger
from ledger.store.models import Deal, DealRevision, Evening, Payout, Player, Seat

PLAYERS = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Luca", "Marta", "Nico", "Olga", "Piero")
TEMPLATES_PER_SIZE = 300
DEALS_PER_EVENING = 40
BATCH_DEALS = 100_000
PROFILE = make_profile("pagat")
CHARTS = ("running", "money", "contracts", "thirds", "pairings")
"""The kinds of `calabresella chart`."""


@dataclass(frozen=True)
class Template:
    """A scored deal at placeholder seats `{0}`..`{n-1}` (the dealer is the last), ready to be re-seated."""

    typed: dict[str, Any]
    row: dict[str, Any]
    declarer: int | None
    holder: int | str | None
    payouts: tuple[tuple[int, str, int], ...]


def _draw_input(rng: random.Random, active: tuple[str, ...]) -> DealInput:
    """A plausible deal: passes now and then, chiamo most often, solissimo rarely; thirds around 19."""
    if rng.random() < 0.12:
        return DealInput(passed=True)
    contract = rng.choices(("chiamo", "solo", "solissimo"), weights=(55, 33, 12))[0]
    declarer = rng.choice(active)
    thirds = min(35, max(0, round(rng.gauss({"chiamo": 19, "solo": 20, "solissimo": 21}[contract], 5.5))))
    fields: dict[str, Any] = {"declarer": declarer, "contract": contract, "thirds": thirds}
    if contract == "solissimo" and rng.random() < 0.2:
        fields["aggravation"] = rng.choices(("dividete", "scegliete"), weights=(3, 1))[0]
    if contract == "chiamo":
        fields["called"] = rng.choice(("3D", "3C", "3S", "3B", "3D", "3C", "3S", "3B", "2D", "AS"))
        others = [p for p in active if p != declarer]
        fields["holder"] = rng.choices([*others, "monte", "declarer"], weights=[43] * len(others) + [14, 3])[0]
    if thirds in (0, 35):
        fields["tricks"] = (0 if thirds == 0 else 12) if rng.random() < 0.7 else (1 if thirds == 0 else 11)
    elif 3 <= thirds <= 5 or 30 <= thirds <= 32:
        fields["last_trick"] = rng.choice(("declarer", "opponents"))
    return DealInput(**fields)


def _template(typed: DealInput, seats: tuple[str, ...]) -> Template:
    facts = build_facts(typed, PROFILE, seats, seats[-1])
    result: DealResult = score(facts, PROFILE)
    index = {name: i for i, name in enumerate(seats)}
    roles = []
    for i, name in enumerate(seats):
        role = (
            "passed"
            if result.passed
            else "declarer"
            if name == result.declarer
            else "opponent"
            if name in result.opponents
            else "out"
        )
        roles.append((i, role, result.payouts[name]))
    holder = facts.holder if facts.holder in (None, "monte", "declarer") else index[facts.holder]
    row = {
        "contract": result.contract.value if result.contract else None,
        "aggravation": result.aggravation.value if result.aggravation else None,
        "called": str(facts.called) if facts.called else None,
        "declarer_thirds": facts.thirds,
        "tricks": facts.tricks,
        "last_trick": facts.last_trick.value if facts.last_trick else None,
        "declarer_won": result.declarer_won,
        "sweep": result.sweep.value if result.sweep else None,
        "multiplier": result.multiplier,
        "amount": result.amount,
    }
    return Template(typed.to_dict(), row, index.get(result.declarer or ""), holder, tuple(roles))


def make_templates(rng: random.Random, size: int) -> tuple[list[Template], list[int]]:
    """Distinct scored deals for a table of `size` seats, drawn with the rules engine, and how often each came up
    (the weights to draw them with, so that common deals such as all passing stay common)."""
    seats = tuple(f"Seat{i}" for i in range(size))
    active = seats[:3]
    templates: dict[str, Template] = {}
    drawn: Counter[str] = Counter()
    while len(templates) < TEMPLATES_PER_SIZE:
        typed = _draw_input(rng, active)
        key = json.dumps(typed.to_dict(), sort_keys=True)
        try:
            templates.setdefault(key, _template(typed, seats))
        except LedgerError:
            continue
        drawn[key] += 1
    return list(templates.values()), [drawn[key] for key in templates]


class Generator:
    """Rows for evenings of random seats, each deal a template re-seated at the evening's table."""

    def __init__(self, rng: random.Random, templates: dict[int, tuple[list[Template], list[int]]]) -> None:
        self.rng = rng
        self.templates = {size: (deals, list(accumulate(weights))) for size, (deals, weights) in templates.items()}
        self.deal_id = self.revision_id = 0
        self.start = datetime(2015, 1, 1, 20, tzinfo=UTC)

    def evening(self, number: int, deals: int) -> dict[str, list[dict[str, Any]]]:
        """Every row of one evening: the evening, its seats, deals, revisions and payouts."""
        rng = self.rng
        size = 4 if rng.random() < 0.15 else 3
        seated = rng.sample(range(1, len(PLAYERS) + 1), size)
        started = self.start + timedelta(days=number // 3, hours=number % 3)
        rows: dict[str, list[dict[str, Any]]] = {"evening": [], "seat": [], "deal": [], "revision": [], "payout": []}
        rows["evening"].append(
            {
                "id": number,
                "profile": PROFILE.name,
                "options": dict(PROFILE.options),
                "stake_cents": 10,
                "currency": "EUR",
                "first_dealer_id": seated[0],
                "started_at": started,
                "closed_at": started,
                "revision": deals,
                "place": None,
                "note": None,
            }
        )
        rows["seat"] += [{"evening_id": number, "position": i, "player_id": p} for i, p in enumerate(seated)]
        for n in range(1, deals + 1):
            self.deal_id += 1
            when = started + timedelta(minutes=4 * n)
            voided = rng.random() < 0.01
            rows["deal"].append(
                {
                    "id": self.deal_id,
                    "evening_id": number,
                    "number": n,
                    "key": None,
                    "created_at": when,
                    "voided_at": when if voided else None,
                    "void_reason": "misdeal" if voided else None,
                }
            )
            dealer = (n - 1) % size
            if rng.random() < 0.02:
                self._revision(rows, self._draw(size), seated, dealer, 1, when, superseded=True)
                self._revision(rows, self._draw(size), seated, dealer, 2, when, superseded=False)
            else:
                self._revision(rows, self._draw(size), seated, dealer, 1, when, superseded=False)
        return rows

    def _draw(self, size: int) -> Template:
        deals, weights = self.templates[size]
        return self.rng.choices(deals, cum_weights=weights)[0]

    def _revision(
        self,
        rows: dict[str, list[dict[str, Any]]],
        t: Template,
        seated: list[int],
        dealer: int,
        number: int,
        when: datetime,
        *,
        superseded: bool,
    ) -> None:
        size = len(seated)
        seat = [(i + dealer + 1) % size for i in range(size)]
        self.revision_id += 1
        seated_holder = seated[seat[t.holder]] if isinstance(t.holder, int) else None
        rows["revision"].append(
            {
                "id": self.revision_id,
                "deal_id": self.deal_id,
                "revision": number,
                "recorded_at": when,
                "superseded_at": when if superseded else None,
                "reason": "wrong thirds" if number > 1 else None,
                "profile": PROFILE.name,
                "options": dict(PROFILE.options),
                "dealer_id": seated[seat[-1]],
                "declarer_id": seated[seat[t.declarer]] if t.declarer is not None else None,
                "partner_id": None,
                "holder_id": seated_holder,
                "holder": None if seated_holder else t.holder,
                "calls": None,
                "passed_before": 0,
                **t.row,
            }
        )
        rows["payout"] += [
            {
                "revision_id": self.revision_id,
                "player_id": seated[seat[i]],
                "position": seat[i],
                "role": role,
                "points": points,
            }
            for i, role, points in t.payouts
        ]


def _batches(generator: Generator, total: int) -> Iterator[dict[str, list[dict[str, Any]]]]:
    batch: dict[str, list[dict[str, Any]]] = {}
    evening = made = 0
    while made < total:
        evening += 1
        count = min(total - made, generator.rng.randint(DEALS_PER_EVENING - 15, DEALS_PER_EVENING + 15))
        for table, rows in generator.evening(evening, count).items():
            batch.setdefault(table, []).extend(rows)
        made += count
        if len(batch["deal"]) >= BATCH_DEALS or made >= total:
            yield batch
            batch = {}


def generate(engine: Engine, deals: int, seed: int) -> None:
    """Fill an empty ledger with `deals` deals."""
    rng = random.Random(seed)
    templates = {size: make_templates(rng, size) for size in (3, 4)}
    generator = Generator(rng, templates)
    tables = {
        "evening": Evening.__table__,
        "seat": Seat.__table__,
        "deal": Deal.__table__,
        "revision": DealRevision.__table__,
        "payout": Payout.__table__,
    }
    with engine.begin() as connection:
        connection.execute(
            insert(Player.__table__),
            [
                {"id": i, "name": name, "key": name.lower(), "created_at": generator.start}
                for i, name in enumerate(PLAYERS, start=1)
            ],
        )
    for batch in _batches(generator, deals):
        with engine.begin() as connection:
            for table, rows in batch.items():
                connection.execute(insert(tables[table]), rows)
        print(f"  {generator.deal_id:,} deals written", file=sys.stderr, flush=True)


def _peak_mib() -> float:
    """This process's peak resident memory: VmHWM on Linux (ru_maxrss would include the forking parent's)."""
    status = Path("/proc/self/status")
    if status.exists():
        line = next(line for line in status.read_text().splitlines() if line.startswith("VmHWM:"))
        return int(line.split()[1]) / 1024
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, kilobytes elsewhere
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale / 1024


def measure(kind: str, db: str, save: str | None) -> dict[str, float]:
    """Run one measurement in this (fresh) process: wall and processor seconds, and peak resident memory in MiB.

    `stats` reads the frames and computes every section; `raw` is `pd.read_sql` of the deals that count and their
    payouts, the floor under it; `command` is `calabresella stats` itself, start-up included; `chart:KIND` draws
    that chart of the whole history as `calabresella chart` does, written to `{save}-KIND.png` when `save` is given.
    """
    if kind == "command":
        return _command(db)
    import pandas as pd

    from ledger.reports.frames import load_frames
    from ledger.reports.stats import SECTIONS, statistics
    from ledger.service import Ledger
    from ledger.store.counting import counting_deals, counting_payouts

    engine = open_ledger(db)
    book = Ledger(db)
    baseline = _peak_mib()
    started, processor = time.perf_counter(), time.process_time()
    figures: dict[str, float] = {}
    if kind == "stats":
        frames = load_frames(engine)
        figures["load_frames_s"] = time.perf_counter() - started
        marks = [time.perf_counter()]
        statistics(frames, on_section=lambda _: marks.append(time.perf_counter()))
        marks.append(time.perf_counter())
        figures |= {f"{name}_s": marks[i + 2] - marks[i + 1] for i, name in enumerate(SECTIONS)}
    elif kind == "raw":
        d, r, p = Deal, DealRevision, Payout
        revision = (r.dealer_id, r.declarer_id, r.partner_id, r.contract, r.aggravation, r.called, r.holder_id)
        with engine.connect() as connection:
            deals = pd.read_sql(
                counting_deals(d.id, d.evening_id, d.number, *revision, r.holder, r.declarer_thirds, r.declarer_won),
                connection,
            )
            payouts = pd.read_sql(counting_payouts(d.id, p.player_id, p.position, p.role, p.points), connection)
        figures["rows"] = len(deals) + len(payouts)
    else:
        image = book.chart(kind.removeprefix("chart:"))
        if save:
            Path(f"{save}-{kind.removeprefix('chart:')}.png").write_bytes(image)
    figures |= {
        "seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - processor,
        "peak_mib": _peak_mib(),
        "baseline_mib": baseline,
    }
    book.close()
    return figures


def _command(db: str) -> dict[str, float]:
    """`calabresella stats` itself, start-up and output included, run from this (fresh) process: wall and processor
    seconds and its peak memory."""
    started = time.perf_counter()
    run = [sys.executable, "-P", "-c", "from ledger.cli import run; run()", "--db", db, "stats"]
    subprocess.run(run, capture_output=True, check=True)
    seconds = time.perf_counter() - started
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"seconds": seconds, "cpu_seconds": used.ru_utime + used.ru_stime, "peak_mib": used.ru_maxrss / 1024}


def _in_child(kind: str, db: str, code: Path, save: Path | None) -> dict[str, float]:
    """One measurement in a fresh process running the ledger and reports of the checkout at `code`."""
    command = [sys.executable, __file__, "--measure", kind, "--db", db]
    command += ["--save", str(save / code.name)] if save else []
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode:
        sys.exit(f"{kind} with {code} failed:\n{done.stderr[-3000:]}")
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def _codes(kind: str, codes: list[Path]) -> list[Path]:
    """The checkouts a kind is measured with: the raw read is the same in each, so only this one's."""
    return codes[:1] if kind == "raw" else codes


def _alternate(
    db: str, kinds: list[str], codes: list[Path], repeat: int, save: Path | None
) -> dict[str, list[dict[str, float]]]:
    """Each kind measured with each checkout's code in turns, `repeat` times, so all see the same machine."""
    runs: dict[str, list[dict[str, float]]] = {f"{kind} {code}": [] for kind in kinds for code in _codes(kind, codes)}
    for n in range(1, repeat + 1):
        for kind in kinds:
            for code in _codes(kind, codes) if n % 2 else reversed(_codes(kind, codes)):
                run = _in_child(kind, db, code, save)
                runs[f"{kind} {code}"].append(run)
                print(
                    f"  run {n}: {kind} ({code}) {run['seconds']:.2f} s (processor {run['cpu_seconds']:.2f} s),"
                    f" {run['peak_mib']:,.0f} MiB",
                    flush=True,
                )
    return runs


def _middle(runs: list[dict[str, float]]) -> dict[str, float]:
    """The run of median time (the lower middle one of an even count)."""
    return sorted(runs, key=lambda r: r["seconds"])[(len(runs) - 1) // 2]


def _report(runs: dict[str, list[dict[str, float]]], kinds: list[str], codes: list[Path]) -> None:
    """Per kind, each checkout's median run, its breakdown and peak memory, and the median ratios to the first
    checkout (this one) in the same turns; `stats` also against the raw read."""
    for kind in kinds:
        for code in _codes(kind, codes):
            run = _middle(runs[f"{kind} {code}"])
            processor = median(r["cpu_seconds"] for r in runs[f"{kind} {code}"])
            after = f" (after imports {run['baseline_mib']:,.0f} MiB)" if "baseline_mib" in run else ""
            print(
                f"{kind} ({code}): {run['seconds']:.2f} s, processor {processor:.2f} s (median),"
                f" peak RSS {run['peak_mib']:,.0f} MiB{after}"
            )
            parts = {k.removesuffix("_s"): v for k, v in run.items() if k.endswith("_s")}
            if parts:
                print("  " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in parts.items()))
        now = runs[f"{kind} {codes[0]}"]
        for code in _codes(kind, codes)[1:]:
            pairs = list(zip(now, runs[f"{kind} {code}"], strict=True))
            wall = median(a["seconds"] / b["seconds"] for a, b in pairs)
            processor = median(a["cpu_seconds"] / b["cpu_seconds"] for a, b in pairs)
            print(
                f"{kind}: this checkout / {code}, median of {len(pairs)} runs: {wall:.2f}x (processor {processor:.2f}x)"
            )
    if "stats" in kinds and "raw" in kinds:
        pairs = list(zip(runs[f"stats {codes[0]}"], runs[f"raw {codes[0]}"], strict=True))
        wall = median(a["seconds"] / b["seconds"] for a, b in pairs)
        processor = median(a["cpu_seconds"] / b["cpu_seconds"] for a, b in pairs)
        print(f"stats / raw read, median of {len(pairs)} alternating runs: {wall:.2f}x (processor {processor:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals to generate (default 1,000,000)")
    parser.add_argument(
        "--db",
        help="SQLite file to create, or an empty PostgreSQL database's URL "
        "(default: a temporary SQLite file, deleted afterwards)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement, taken in turns")
    parser.add_argument("--keep", action="store_true", help="keep the generated ledger")
    parser.add_argument("--reuse", action="store_true", help="measure an existing --db without generating (it is kept)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--before", type=Path, help="a checkout of older code to measure in turns with this one")
    parser.add_argument("--charts", action="store_true", help="also draw every chart of the whole history")
    parser.add_argument("--save", type=Path, help="a folder to write the charts drawn to, as CHECKOUT-KIND.png")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.db, args.save)))
        return
    folder = tempfile.TemporaryDirectory(prefix="stats-bench-")
    url = args.db if args.db and "://" in args.db else None
    db = Path(args.db or Path(folder.name) / "bench.sqlite3")
    if not args.reuse:
        if url is None and db.exists():
            sys.exit(f"{db} exists: remove it, or pass --reuse to measure it as it is")
        started = time.perf_counter()
        engine = open_ledger(url or str(db))
        with engine.connect() as connection:
            if connection.execute(select(func.count()).select_from(Player.__table__)).scalar_one():
                sys.exit(f"{url or db} already holds players: give an empty database, or pass --reuse to measure it")
        generate(engine, args.deals, args.seed)
        engine.dispose()
        print(f"generated {args.deals:,} deals in {time.perf_counter() - started:.1f} s")
    if args.before and not (args.before / "ledger").is_dir():
        sys.exit(f"{args.before} holds no checkout of the ledger (no ledger/ folder)")
    codes = [Path(__file__).resolve().parent.parent, *([args.before.resolve()] if args.before else [])]
    kinds = ["stats", "raw", "command", *([f"chart:{kind}" for kind in CHARTS] if args.charts else [])]
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    _report(_alternate(url or str(db), kinds, codes, args.repeat, args.save), kinds, codes)
    if args.keep or args.reuse or url:
        print(f"ledger kept at {url or db}")
    elif not args.db:
        folder.cleanup()
    else:
        for path in db.parent.glob(db.name + "*"):
            path.unlink()


if __name__ == "__main__":
    main()
