"""The seating draw of a club night's round: who sits at which table, in which seat, and who sits the round out.

Round 1 is random (or Swiss-like slices of a ranking); later rounds keep repeated opponents, two players who already
sat at one table in an earlier round of the event, to the fewest possible. Small events are searched exhaustively;
larger ones by a bounded local search that always returns in bounded time. Pure: no I/O, standard library only.
"""

from __future__ import annotations

import math
import random
import time
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ledger.errors import LedgerError
from ledger.i18n import _

SIZES = (3, 4, 5)
"""Every table size a game of the family allows: Terziglio 3 or 4, Quartiglio 4, Quintiglio 5."""
EXACT_LIMIT = 20_000
"""The most seatings searched exhaustively: every seating of up to 12 players (15,400 at four tables of 3)."""
SWAPS_WEIGHED = 5_000_000
"""The local search's fixed cap on swaps of two players weighed, whatever the time budget (some seconds)."""


class DrawError(LedgerError, ValueError):
    """A draw or a seating that cannot stand, in words a player understands, naming the value."""


@dataclass(frozen=True)
class Draw:
    """One round's seating."""

    tables: tuple[tuple[str, ...], ...]
    """Each table's players in seat (turn) order, the first deals first; table 1 first."""
    sitting_out: tuple[str, ...]
    """Players present who sit this round out: only when no split of everyone into tables exists."""
    repeats: int
    """Pairs seated at one table who already met in an earlier round."""
    exact: bool
    """True when `repeats` is proven the fewest possible over every seating and every fair choice of who sits out
    (exhaustive search); False for the bounded search, or when who sits out was drawn among too many choices."""


def table_sizes(players: int, sizes: Sequence[int]) -> tuple[int, ...]:
    """The table sizes for this many players: as many tables of the smallest allowed size as possible, the larger
    sizes only as needed; largest first. An empty tuple when no split exists.

    >>> table_sizes(13, (3, 4)), table_sizes(8, (3, 4)), table_sizes(5, (3, 4)), table_sizes(12, (5,))
    ((4, 3, 3, 3), (4, 4), (), ())
    """
    allowed = _allowed(sizes)
    split = _split(players, allowed) if players > 0 else None
    return tuple(sorted(split, reverse=True)) if split else ()


def draw(
    players: Sequence[str],
    sizes: Sequence[int],
    *,
    met: Mapping[frozenset[str], int] | None = None,
    order: Sequence[str] | None = None,
    sat_out: Mapping[str, int] | None = None,
    seed: int | None = None,
    budget_seconds: float = 1.0,
) -> Draw:
    """Draw a round's seating of the players present at tables of the allowed sizes.

    In order of importance: (1) nobody sits out unless no split of everyone exists, then the fewest do, those who
    sat out least (`sat_out`), ties broken by (2) to (4), then by `seed`; (2) the fewest repeats (pairs with `met`
    above 0 at one table); (3) the fewest prior meetings in all; (4) with `order` (best first) players near in rank
    share tables, Swiss-like, else at random. Seats inside a table are random (the first deals first); tables of one
    size come best-ranked first with `order`, else in random order. `met`, `order` and `sat_out` may name absent
    players: they are ignored; players missing from `order` rank after it. Names match case-insensitively.

    Up to 12 players (any event of at most 20,000 seatings, each fair choice of who sits out counted) the search is
    exhaustive and `exact`. Beyond that, who sits out is drawn among those tied, and the seating of the rest is
    searched exhaustively (up to 20,000 seatings, not `exact`) or by a bounded local search that stops at a seating
    with no repeat, after `budget_seconds` (wall clock) or after a fixed number of swaps weighed. The same inputs and
    `seed` give the same draw unless the time budget cut the search short.
    """
    present = _present(players)
    allowed = _allowed(sizes)
    _enough(len(present), allowed)
    if not (budget_seconds >= 0):  # also refuses NaN
        raise DrawError(f"the search budget must be zero or more seconds, not {budget_seconds}")
    deadline = time.monotonic() + budget_seconds
    rng = random.Random(seed)
    index = {_key(name): i for i, name in enumerate(present)}

    # (1) who may sit out: the fewest, from those who sat out least; `owed` must, `bench` of `tied` will
    out_counts = _counts(sat_out, index, "sat out")
    out = next(k for k in range(len(present)) if _split(len(present) - k, allowed))
    tables_sizes = tuple(sorted(_split(len(present) - out, allowed) or (), reverse=True))
    tiebreak = [rng.random() for _ in present]
    turn = sorted(range(len(present)), key=lambda i: (out_counts.get(i, 0), tiebreak[i]))
    line = out_counts.get(turn[out - 1], 0) if out else -1
    owed = [i for i in turn if out_counts.get(i, 0) < line]
    tied = [i for i in turn if out_counts.get(i, 0) == line]
    bench = out - len(owed)
    exact = math.comb(len(tied), bench) * _seatings(tables_sizes) <= EXACT_LIMIT
    if not exact:  # too many choices to search them all: the bench by draw, the seating searched among the rest
        owed, tied, bench = owed + tied[:bench], [], 0

    # (2)-(4) as one weight per pair of players who may sit, compared lexicographically
    seatable = [i for i in range(len(present)) if i not in owed]
    ranks = _ranks(order, present, index)
    met_counts = _met(met, index)
    weights, repeat_unit = _weights(seatable, met_counts, ranks)
    if _seatings(tables_sizes) <= EXACT_LIMIT:
        groups = _exhaustive(tables_sizes, weights, [seatable.index(i) for i in tied], bench, rng)
    else:
        seatable_ranks = [ranks[i] for i in seatable] if ranks is not None else None
        groups = _local(tables_sizes, weights, repeat_unit, seatable_ranks, rng, deadline)
    seated = {seatable[i] for g in groups for i in g}

    # table and seat order
    def table_key(group: list[int]) -> tuple[int, float]:
        best = min(ranks[seatable[i]] for i in group) if ranks is not None else rng.random()
        return (-len(group), best)

    tables = []
    for group in sorted(groups, key=table_key):
        seats = [present[seatable[i]] for i in group]
        rng.shuffle(seats)
        tables.append(tuple(seats))
    repeats = sum(
        1 for g in groups for a, b in combinations(g, 2) if met_counts.get(_pair(seatable[a], seatable[b]), 0)
    )
    return Draw(
        tables=tuple(tables),
        sitting_out=tuple(present[i] for i in range(len(present)) if i not in seated),
        repeats=repeats,
        exact=exact,
    )


def check_seating(
    tables: Sequence[Sequence[str]],
    players: Sequence[str],
    sizes: Sequence[int],
    met: Mapping[frozenset[str], int] | None = None,
) -> int:
    """A seating set by hand: raises DrawError unless every present player sits exactly once (nobody absent,
    nobody twice) at tables of allowed sizes; returns its repeats. Only when no split of everyone exists may the
    fewest possible players sit out."""
    present = _present(players)
    allowed = _allowed(sizes)
    _enough(len(present), allowed)
    index = {_key(name): i for i, name in enumerate(present)}
    if isinstance(tables, str) or not tables:
        raise DrawError(_("the seating has no table"))
    where: dict[int, int] = {}
    for number, table in enumerate(tables, start=1):
        if isinstance(table, str):
            raise DrawError(f"table {number} must list its players, not one name: {table}")
        for name in table:
            if not isinstance(name, str) or not name.strip():
                raise DrawError(_("table {number} has a seat with no player's name").format(number=number))
            player = index.get(_key(name))
            if player is None:
                raise DrawError(_("{name} is not present at this event").format(name=name))
            if player in where:
                if where[player] == number:
                    raise DrawError(
                        _("{name} sits twice at table {number}").format(name=present[player], number=number)
                    )
                raise DrawError(
                    _("{name} sits at two tables: {first} and {second}").format(
                        name=present[player], first=where[player], second=number
                    )
                )
            where[player] = number
        if len(table) not in allowed:
            raise DrawError(
                _("table {number} has {count} players: a table seats {sizes}").format(
                    number=number, count=len(table), sizes=_sizes_words(allowed)
                )
            )
    missing = [present[i] for i in range(len(present)) if i not in where]
    out = len(present) - max((n for n in range(len(present) + 1) if _split(n, allowed)), default=0)
    if missing and (not out or len(missing) != out):
        who = ", ".join(missing)
        rule = (
            _("only {out} of {count} players may sit out").format(out=out, count=len(present))
            if out
            else _("everyone present sits")
        )
        raise DrawError(_("without a seat: {who}; {rule}").format(who=who, rule=rule))
    met_counts = _met(met, index)
    return sum(
        1
        for table in tables
        for a, b in combinations(table, 2)
        if met_counts.get(_pair(index[_key(a)], index[_key(b)]), 0)
    )


# --- inputs -----------------------------------------------------------------------------------------------------


def _key(name: str) -> str:
    """A name as compared: trimmed, Unicode-normalised, case-folded."""
    return unicodedata.normalize("NFC", name.strip()).casefold()


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _present(players: Sequence[str]) -> list[str]:
    """The players present, refused when blank or named twice."""
    if isinstance(players, str):
        raise DrawError(f"the players present must be a list of names, not one name: {players}")
    seen: dict[str, str] = {}
    for number, name in enumerate(players, start=1):
        if not isinstance(name, str):
            raise DrawError(f"player {number}'s name must be text, not {name!r}")
        if not name.strip():
            raise DrawError(f"player {number}'s name is blank")
        key = _key(name)
        if key in seen:
            also = "" if seen[key] == name else f" (as {seen[key]} and {name})"
            raise DrawError(f"{name} is present twice{also}")
        seen[key] = name
    return list(players)


def _allowed(sizes: Sequence[int]) -> tuple[int, ...]:
    """The allowed table sizes, smallest first, refused unless each is 3, 4 or 5."""
    if isinstance(sizes, int):
        sizes = (sizes,)
    if not sizes:
        raise DrawError(f"no table size given: a table seats {_sizes_words(SIZES)}")
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
            raise DrawError(f"a table of {size} players is not allowed: a table seats {_sizes_words(SIZES)}")
    return tuple(sorted(set(sizes)))


def _enough(players: int, allowed: tuple[int, ...]) -> None:
    if players < allowed[0]:
        raise DrawError(
            _("only {count} players present: a table seats {sizes}").format(count=players, sizes=_sizes_words(allowed))
        )


def _sizes_words(sizes: Sequence[int]) -> str:
    words = [str(s) for s in sorted(sizes)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + _(" or ") + words[-1]


def _counts(counts: Mapping[str, int] | None, index: Mapping[str, int], what: str) -> dict[int, int]:
    """Counts by player present; absent players ignored, negative counts refused."""
    found: dict[int, int] = {}
    for name, count in (counts or {}).items():
        if count < 0:
            raise DrawError(f"{name} {what} {count} times: a count cannot be negative")
        player = index.get(_key(name))
        if player is not None:
            found[player] = found.get(player, 0) + count
    return found


def _met(met: Mapping[frozenset[str], int] | None, index: Mapping[str, int]) -> dict[tuple[int, int], int]:
    """Prior meetings by pair of players present; pairs with an absent player ignored."""
    found: dict[tuple[int, int], int] = {}
    for pair, count in (met or {}).items():
        names = list(pair)
        if len(names) != 2 or not all(isinstance(name, str) for name in names):
            raise DrawError(f"a pair of players who met must name two players, not {len(names)}: {pair}")
        if count < 0:
            raise DrawError(f"{names[0]} and {names[1]} met {count} times: a count cannot be negative")
        a, b = index.get(_key(names[0])), index.get(_key(names[1]))
        if a is not None and b is not None and a != b:
            found[_pair(a, b)] = found.get(_pair(a, b), 0) + count
    return found


def _ranks(order: Sequence[str] | None, present: Sequence[str], index: Mapping[str, int]) -> list[int] | None:
    """Each present player's rank (0 best) by `order`; players it does not name rank after it, as listed."""
    if order is None:
        return None
    if isinstance(order, str):
        raise DrawError(f"the ranking must be a list of names, not one name: {order}")
    position: dict[int, int] = {}
    seen: set[str] = set()
    for name in order:
        key = _key(name)
        if key in seen:
            raise DrawError(f"{name} is ranked twice")
        seen.add(key)
        if key in index:
            position[index[key]] = len(position)
    ranked = sorted(range(len(present)), key=lambda i: (position.get(i, len(present)), i))
    ranks = [0] * len(present)
    for rank, player in enumerate(ranked):
        ranks[player] = rank
    return ranks


def _weights(
    seated: list[int], met: Mapping[tuple[int, int], int], ranks: list[int] | None
) -> tuple[list[list[int]], int]:
    """The cost of seating two seated players together, so that a seating's sum compares as (repeats, prior
    meetings, rank gaps); and the cost of one repeat."""
    n = len(seated)
    spread_unit = 1 if ranks is None else 2 * n * n + 1  # above any seating's sum of rank gaps
    meetings = sum(met.get(_pair(a, b), 0) for a, b in combinations(seated, 2))
    repeat_unit = (meetings + 1) * spread_unit  # above any seating's meetings and rank gaps
    weights = [[0] * n for _ in range(n)]
    for i, j in combinations(range(n), 2):
        count = met.get(_pair(seated[i], seated[j]), 0)
        gap = abs(ranks[seated[i]] - ranks[seated[j]]) if ranks is not None else 0
        weights[i][j] = weights[j][i] = (repeat_unit if count else 0) + count * spread_unit + gap
    return weights, repeat_unit


# --- splits -----------------------------------------------------------------------------------------------------


def _split(players: int, ascending: Sequence[int]) -> list[int] | None:
    """Table sizes summing to `players`, the most tables of the smallest size first; None when none do."""
    if players == 0:
        return []
    if not ascending or players < 0:
        return None
    smallest, larger = ascending[0], ascending[1:]
    for count in range(players // smallest, -1, -1):
        rest = _split(players - count * smallest, larger)
        if rest is not None:
            return [smallest] * count + rest
    return None


def _seatings(sizes: Sequence[int]) -> int:
    """How many ways there are to seat sum(sizes) players at unnumbered tables of these sizes."""
    ways = math.factorial(sum(sizes))
    for size in sizes:
        ways //= math.factorial(size)
    for count in Counter(sizes).values():
        ways //= math.factorial(count)
    return ways


# --- exhaustive search ------------------------------------------------------------------------------------------


def _exhaustive(
    sizes: Sequence[int], weights: list[list[int]], tied: Sequence[int], bench: int, rng: random.Random
) -> list[list[int]]:
    """The cheapest seating by branch and bound over every split of the players but `bench` of `tied`, who sit out,
    for every such choice; ties go to the first found in a random order."""
    shuffled = list(range(len(weights)))
    rng.shuffle(shuffled)
    benches = list(combinations(tied, bench))
    rng.shuffle(benches)
    left = Counter(sizes)
    chosen: list[list[int]] = []
    best: list[list[int]] = []
    best_cost = -1

    def seat(remaining: list[int], cost: int) -> bool:
        """Seat `remaining`; True once a seating costing nothing is found (none can be cheaper)."""
        nonlocal best, best_cost
        if not remaining:
            if best_cost < 0 or cost < best_cost:
                best, best_cost = [list(t) for t in chosen], cost
            return cost == 0
        first, rest = remaining[0], remaining[1:]
        row = weights[first]
        for size in sorted(left, reverse=True):
            if not left[size]:
                continue
            left[size] -= 1
            for others in combinations(rest, size - 1):
                added = cost + sum(row[o] for o in others)
                added += sum(weights[a][b] for a, b in combinations(others, 2))
                if best_cost >= 0 and added >= best_cost:
                    continue
                chosen.append([first, *others])
                done = seat([p for p in rest if p not in others], added)
                chosen.pop()
                if done:
                    left[size] += 1
                    return True
            left[size] += 1
        return False

    for sitting in benches:
        if seat([p for p in shuffled if p not in sitting], 0):
            break
    return best


# --- bounded local search ---------------------------------------------------------------------------------------


def _greedy(
    sizes: Sequence[int], weights: list[list[int]], ranks: list[int] | None, rng: random.Random
) -> list[list[int]]:
    """Tables filled one by one, each next player the cheapest to add; with ranks, each table starts from the
    best-ranked player left and ties go to the better rank, else both at random."""
    remaining = list(range(len(weights)))
    rng.shuffle(remaining)
    if ranks is not None:
        remaining.sort(key=ranks.__getitem__)
    tables: list[list[int]] = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            best = min(range(len(remaining)), key=lambda k: sum(weights[remaining[k]][t] for t in table))
            table.append(remaining.pop(best))
        tables.append(table)
    return tables


def _local(
    sizes: Sequence[int],
    weights: list[list[int]],
    repeat_unit: int,
    ranks: list[int] | None,
    rng: random.Random,
    deadline: float,
) -> list[list[int]]:
    """A tabu search by swaps of players between tables, restarted when stuck; stops at a seating without repeats,
    at the deadline or after `SWAPS_WEIGHED`, then polishes the best seating found by plain descent."""
    n = len(weights)
    weighed = 0

    def more() -> bool:
        return weighed < SWAPS_WEIGHED and time.monotonic() < deadline

    def start(tables: list[list[int]]) -> tuple[list[int], list[list[int]], int]:
        table_of = [0] * n
        for t, table in enumerate(tables):
            for p in table:
                table_of[p] = t
        at = [[sum(weights[p][q] for q in table) for table in tables] for p in range(n)]
        cost = sum(weights[a][b] for table in tables for a, b in combinations(table, 2))
        return table_of, at, cost

    def swap(a: int, b: int, table_of: list[int], tables: list[list[int]], at: list[list[int]]) -> None:
        ta, tb = table_of[a], table_of[b]
        for p in range(n):
            row, change = at[p], weights[p][b] - weights[p][a]
            row[ta] += change
            row[tb] -= change
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        table_of[a], table_of[b] = tb, ta

    def delta(a: int, b: int, table_of: list[int], at: list[list[int]]) -> int:
        ta, tb = table_of[a], table_of[b]
        return at[b][ta] - at[a][ta] + at[a][tb] - at[b][tb] - 2 * weights[a][b]

    def descend(table_of: list[int], tables: list[list[int]], at: list[list[int]], cost: int) -> int:
        nonlocal weighed
        improved = True
        while improved and more():
            improved = False
            weighed += n * n
            for a in range(n):
                for b in range(n):
                    if table_of[a] != table_of[b] and (d := delta(a, b, table_of, at)) < 0:
                        swap(a, b, table_of, tables, at)
                        cost += d
                        improved = True
        return cost

    tables = _greedy(sizes, weights, ranks, rng)
    table_of, at, cost = start(tables)
    cost = descend(table_of, tables, at, cost)
    best, best_cost = [list(t) for t in tables], cost
    tabu = [[0] * len(sizes) for _ in range(n)]
    stall, stall_limit = 0, 20 * n
    move = 0
    while best_cost >= repeat_unit and more():
        move += 1
        candidates: list[tuple[int, int]] = []
        lowest = 0
        for a in range(n):
            ta = table_of[a]
            if at[a][ta] < repeat_unit:  # a has no repeat at its table
                continue
            weighed += n
            for b in range(n):
                tb = table_of[b]
                if tb == ta:
                    continue
                d = delta(a, b, table_of, at)
                if (tabu[a][tb] > move or tabu[b][ta] > move) and cost + d >= best_cost:
                    continue
                if not candidates or d < lowest:
                    candidates, lowest = [(a, b)], d
                elif d == lowest:
                    candidates.append((a, b))
        if not candidates:
            stall = stall_limit
        else:
            a, b = candidates[rng.randrange(len(candidates))]
            ta, tb = table_of[a], table_of[b]
            swap(a, b, table_of, tables, at)
            cost += lowest
            tenure = 3 + rng.randrange(max(3, n // 4))
            tabu[a][ta] = tabu[b][tb] = move + tenure
            if cost < best_cost:
                best, best_cost, stall = [list(t) for t in tables], cost, 0
            else:
                stall += 1
        if stall >= stall_limit:  # restart from a fresh random greedy seating
            tables = _greedy(sizes, weights, None, rng)
            table_of, at, cost = start(tables)
            cost = descend(table_of, tables, at, cost)
            tabu = [[0] * len(sizes) for _ in range(n)]
            stall = 0
            if cost < best_cost:
                best, best_cost = [list(t) for t in tables], cost
    table_of, at, cost = start(best)
    descend(table_of, best, at, cost)
    return best
