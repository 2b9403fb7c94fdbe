"""Every section of `reports.stats.statistics` worked out the long way: from the evenings and deals the `Ledger` API
returns (the same values `calabresella deals` shows), in plain Python, one deal at a time.

Nothing here reads the database or uses pandas: the statistics are held to what the ledger says about each deal.
What each number means is in the docstrings of `reports/stats.py` and in RULES.md; the row orders are the ones the
sections promise. A section is a list of rows, each a dict of its columns.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby

from ledger.clock import as_local
from ledger.reports.filters import Filters
from ledger.service import Ledger
from ledger.values import DealView, EveningInfo

Row = dict[str, object]
LADDER = ("chiamo", "mediatore", "solo", "solissimo")
"""Contracts from the lowest bid up (RULES §2, §4)."""
RAISES = (None, "dividete", "scegliete")
"""A solissimo as bid, then raised."""
ELO_K, ELO_START, ELO_SCALE = 24, 1500.0, 400.0
"""The rating of declarers against defenders (the docstring of reports/elo.py)."""


@dataclass(frozen=True)
class Counted:
    """A deal that counts, with its evening."""

    evening: EveningInfo
    deal: DealView

    def seat(self, player: str) -> int:
        """The player's seat counted from the dealer: 1 speaks first, the dealer's seat is last."""
        seated = self.evening.players
        return (seated.index(player) - seated.index(self.deal.dealer) - 1) % len(seated) + 1

    def sits_out(self, player: str) -> bool:
        """The player deals at a table with more seated than play, so holds no seat in the auction."""
        return len(self.evening.players) > self.evening.profile.active_players and player == self.deal.dealer


@dataclass(frozen=True)
class Chosen:
    """The deals that count, as the filters choose them, in playing order, and the ledger's players by name."""

    deals: list[Counted]
    names: list[str]
    player: str | None


def choose(book: Ledger, filters: Filters) -> Chosen:
    """The deals of evenings not voided, not voided themselves, that the filters select."""
    names = [p.name for p in book.players()]
    player = next((n for n in names if n.casefold() == filters.player.casefold()), None) if filters.player else None
    deals = []
    for evening in sorted(book.evenings(), key=lambda e: e.number):
        day = as_local(evening.started_at).date()
        if evening.voided_at is not None or filters.evening not in (None, evening.number):
            continue
        if filters.profile not in (None, evening.profile.name):
            continue
        if (filters.since and day < filters.since) or (filters.until and day > filters.until):
            continue
        _, shown = book.deals(evening.number)
        for deal in sorted(shown, key=lambda d: d.number):
            if not deal.voided and (player is None or player in deal.payouts):
                deals.append(Counted(evening, deal))
    return Chosen(deals, names, player)


def _mean(values: list[int]) -> float | None:
    return sum(values) / len(values) if values else None


def _longest(hits: list[bool]) -> int:
    return max((len(list(run)) for hit, run in groupby(hits) if hit), default=0)


def summary(c: Chosen) -> list[Row]:
    passed = sum(1 for x in c.deals if x.deal.declarer is None)
    deals = len(c.deals)
    return [
        {
            "evenings": len({x.evening.number for x in c.deals}),
            "players": len({p for x in c.deals for p in x.deal.payouts}),
            "deals": deals,
            "played": deals - passed,
            "passed": passed,
            "passed_rate": passed / deals if deals else None,
        }
    ]


def players(c: Chosen) -> list[Row]:
    rows = []
    for name in c.names:
        mine = [x for x in c.deals if name in x.deal.payouts]
        if not mine:
            continue
        points = [x.deal.payouts[name] for x in mine]
        roles = [x.deal.roles[name] for x in mine]
        sweeps = [x.deal.sweep for x in mine]
        thirds = [x.deal.declarer_thirds for x in c.deals if x.deal.declarer == name]
        row: Row = {
            "player": name,
            "evenings": len({x.evening.number for x in mine}),
            "deals": len(mine),
            **{role: roles.count(role) for role in ("declarer", "opponent", "partner")},
            "avg_declarer_thirds": _mean([t for t in thirds if t is not None]),
            "points": sum(points),
            "points_per_deal": _mean(points),
            "points_per_deal_declarer": _mean([p for p, r in zip(points, roles, strict=True) if r == "declarer"]),
            "points_per_deal_opponent": _mean([p for p, r in zip(points, roles, strict=True) if r == "opponent"]),
        }
        for kind in ("cappotto", "stramazzo"):
            row[f"{kind}_for"] = sum(1 for s, p in zip(sweeps, points, strict=True) if s == kind and p > 0)
            row[f"{kind}_against"] = sum(1 for s, p in zip(sweeps, points, strict=True) if s == kind and p < 0)
        row |= {
            "biggest_win": max(max(points), 0),
            "biggest_loss": min(min(points), 0),
            "winning_streak": _longest([p > 0 for p in points]),
            "losing_streak": _longest([p < 0 for p in points]),
        }
        rows.append(row)
    return rows


def money(c: Chosen) -> list[Row]:
    held: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
    for x in c.deals:
        for name, points in x.deal.payouts.items():
            held[name, x.evening.currency].append((points * x.evening.stake_cents, x.deal.roles[name]))
    rows = []
    for name, currency in sorted(held, key=lambda key: (c.names.index(key[0]), key[1])):
        cents = held[name, currency]
        rows.append(
            {
                "player": name,
                "currency": currency,
                "deals": len(cents),
                "money_cents": sum(v for v, _ in cents),
                "per_deal_cents": _mean([v for v, _ in cents]),
                "per_deal_declarer_cents": _mean([v for v, r in cents if r == "declarer"]),
                "per_deal_opponent_cents": _mean([v for v, r in cents if r == "opponent"]),
            }
        )
    return rows


def bids(c: Chosen) -> list[Row]:
    bid: Counter[tuple[str, str]] = Counter()
    won: Counter[tuple[str, str]] = Counter()
    for x in c.deals:
        if x.deal.declarer is not None and x.deal.contract is not None:
            bid[x.deal.declarer, x.deal.contract] += 1
            won[x.deal.declarer, x.deal.contract] += bool(x.deal.declarer_won)
    return [
        {"player": p, "contract": k, "bids": bid[p, k], "won": won[p, k], "success_rate": won[p, k] / bid[p, k]}
        for p, k in sorted(bid, key=lambda key: (c.names.index(key[0]), key[1]))
    ]


def contracts(c: Chosen) -> list[Row]:
    played = [x.deal for x in c.deals if x.deal.declarer is not None]
    kinds: dict[tuple[str | None, str | None], list[DealView]] = defaultdict(list)
    for deal in played:
        kinds[deal.contract, deal.aggravation].append(deal)

    def place(key: tuple[str | None, str | None]) -> tuple[int, int, tuple[bool, str], str]:
        contract, aggravation = key
        ladder = LADDER.index(contract) if contract in LADDER else len(LADDER)
        raised = RAISES.index(aggravation) if aggravation in RAISES else 0
        return ladder, raised, (contract is None, contract or ""), aggravation or ""

    rows = []
    for contract, aggravation in sorted(kinds, key=place):
        these = kinds[contract, aggravation]
        won = sum(1 for d in these if d.declarer_won)
        declared = [d.payouts[d.declarer] for d in these if d.declarer in d.payouts]
        rows.append(
            {
                "contract": contract,
                "aggravation": aggravation,
                "deals": len(these),
                "share": len(these) / len(played),
                "won": won,
                "success_rate": won / len(these),
                "avg_declarer_points": _mean(declared),
            }
        )
    return rows


def called(c: Chosen) -> list[Row]:
    calls = [x.deal for x in c.deals if x.deal.called is not None]
    holders = sorted({d.holder or "unknown" for d in calls})
    cards = sorted({d.called for d in calls if d.called})
    counts = Counter((d.called, d.holder or "unknown") for d in calls)
    rows: list[Row] = [
        {"card": card, "calls": sum(counts[card, h] for h in holders), **{h: counts[card, h] for h in holders}}
        for card in cards
    ]
    return sorted(rows, key=lambda row: -int(str(row["calls"])))


def seats(c: Chosen) -> list[Row]:
    counts: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for x in c.deals:
        for name, role in x.deal.roles.items():
            if x.sits_out(name):
                continue
            count = counts[len(x.evening.players), x.seat(name)]
            count[0] += 1
            count[1] += role == "declarer"
            count[2] += role == "declarer" and bool(x.deal.declarer_won)
    return [
        {
            "table_size": size,
            "seat": seat,
            "deals": deals,
            "declarer": declared,
            "bid_rate": declared / deals,
            "won": won,
            "success_rate": won / declared if declared else None,
        }
        for (size, seat), (deals, declared, won) in sorted(counts.items())
    ]


def pairings(c: Chosen) -> list[Row]:
    pairs: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for x in c.deals:
        defenders = sorted((n for n, r in x.deal.roles.items() if r == "opponent"), key=c.names.index)
        for i, a in enumerate(defenders):
            for b in defenders[i + 1 :]:
                pair = pairs[a, b]
                pair[0] += 1
                pair[1] += x.deal.payouts[a]
                pair[2] += x.deal.payouts[b]
                pair[3] += bool(x.deal.declarer_won)
    return [
        {
            "player_a": a,
            "player_b": b,
            "deals": deals,
            "points_a": points_a,
            "points_b": points_b,
            "declarer_won": won,
            "declarer_success_rate": won / deals,
        }
        for (a, b), (deals, points_a, points_b, won) in sorted(
            pairs.items(), key=lambda item: (c.names.index(item[0][0]), c.names.index(item[0][1]))
        )
    ]


def ratings(c: Chosen) -> list[Row]:
    rating = dict.fromkeys(c.names, ELO_START)
    defence = dict.fromkeys(c.names, ELO_START)
    games, won, defended = Counter[str](), Counter[str](), Counter[str]()
    expected: dict[str, float] = defaultdict(float)
    for x in c.deals:
        declarer, team = x.deal.declarer, [n for n, r in x.deal.roles.items() if r == "opponent"]
        if declarer is None or not team:
            continue
        e = 1 / (1 + 10 ** ((sum(defence[d] for d in team) / len(team) - rating[declarer]) / ELO_SCALE))
        change = ELO_K * (bool(x.deal.declarer_won) - e)
        rating[declarer] += change
        games[declarer] += 1
        won[declarer] += bool(x.deal.declarer_won)
        expected[declarer] += e
        for d in team:
            defence[d] -= change / len(team)
            defended[d] += 1
    shown = [name for name in c.names if games[name] or defended[name]]
    return [
        {
            "player": name,
            "rating": rating[name],
            "declarer_deals": games[name],
            "won": won[name],
            "expected_won": expected[name],
            "defence_rating": defence[name],
            "defended_deals": defended[name],
        }
        for name in sorted(shown, key=lambda name: (-rating[name], name))
    ]


def games(c: Chosen) -> list[Row]:
    """A game adds up an evening's deals until a player's total reaches N; the most points win it, a tie going to
    that deal's declarer when among the leaders, else to all of them."""
    played: dict[str, list[int]] = {}
    for _, deals in groupby(c.deals, key=lambda x: x.evening.number):
        totals: dict[str, int] = {}
        for x in deals:
            goal = x.evening.profile.game_to
            if goal is None:
                break
            for name, points in x.deal.payouts.items():
                totals[name] = totals.get(name, 0) + points
            best = max(totals.values())
            if best >= goal:
                leaders = [name for name, total in totals.items() if total == best]
                winners = [x.deal.declarer] if x.deal.declarer in leaders else leaders
                for name in totals:
                    counts = played.setdefault(name, [0, 0])
                    counts[0] += 1
                    counts[1] += name in winners
                totals = {}
    return [
        {"player": name, "games": played[name][0], "games_won": played[name][1]}
        for name in sorted(played, key=str.casefold)
    ]


SECTIONS: dict[str, Callable[[Chosen], list[Row]]] = {
    "summary": summary,
    "players": players,
    "money": money,
    "bids": bids,
    "contracts": contracts,
    "called": called,
    "seats": seats,
    "pairings": pairings,
    "ratings": ratings,
    "games": games,
}


def statistics(book: Ledger, filters: Filters) -> dict[str, list[Row]]:
    """Every section; with a player filter, the sections about players keep the rows about that player."""
    chosen = choose(book, filters)
    tables = {name: section(chosen) for name, section in SECTIONS.items()}
    if chosen.player is not None:
        for name in ("players", "money", "bids", "ratings", "games"):
            tables[name] = [row for row in tables[name] if row["player"] == chosen.player]
        tables["pairings"] = [row for row in tables["pairings"] if chosen.player in (row["player_a"], row["player_b"])]
    return tables
