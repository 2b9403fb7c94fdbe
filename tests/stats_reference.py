"""Every section of `reports.stats.statistics`, computed the plain way: the rows as the ledger stores them, read
with `pd.read_sql`, and straightforward pandas over them, one player, currency or group at a time.

This is the specification the fast path (`reports/frames.py` with its packed columns, `reports/stats.py` with its
codes and bincounts) is held to, so it shares nothing with them. What each number means is in the docstrings of
`reports/stats.py` and in RULES.md; the row orders are the ones the sections promise.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import groupby

import numpy as np
import pandas as pd
from sqlalchemy import Engine, text

from reports.filters import Filters

ACTIVE = {"pagat": 3, "tretre": 3, "cavendish": 3, "quartiglio": 4, "quintiglio": 5}
"""Who plays a deal at each profile's table (RULES §4): a dealer seated beyond these sits the deal out."""
LADDER = ("chiamo", "mediatore", "solo", "solissimo")
"""Contracts from the lowest bid up (RULES §2, §4)."""
RAISES = (None, "dividete", "scegliete")
"""A solissimo as bid, then raised."""
ELO_K, ELO_START, ELO_SCALE = 24, 1500.0, 400.0
"""The rating of declarers against defenders (the docstring of reports/elo.py)."""

DEALS = """
    SELECT d.id AS deal_id, d.evening_id AS evening, d.number, r.id AS revision_id,
           r.dealer_id, r.declarer_id, r.contract, r.aggravation, r.called, r.holder_id, r.holder,
           r.declarer_thirds, r.declarer_won, r.sweep
    FROM deal AS d JOIN deal_revision AS r ON r.deal_id = d.id
    WHERE r.superseded_at IS NULL AND d.voided_at IS NULL
"""


@dataclass(frozen=True)
class Standing:
    """The deals that stand, as the filters select them, and their payouts, both in playing order."""

    deals: pd.DataFrame
    """One row per deal, by (evening, number): names for the players, the evening's profile, stake and currency,
    the table's size and the dealer's seat position, `won` true only when the declarer won."""
    payouts: pd.DataFrame
    """One row per seated player of those deals, by (evening, number, position), with its deal's columns."""
    names: list[str]
    """Every player of the ledger, in the order of their keys (name without case and accents)."""
    player: str | None
    """The player the filters name, as stored."""


def read_standing(engine: Engine, filters: Filters) -> Standing:
    """The deals that stand and their payouts, read with `pd.read_sql` and chosen in pandas."""
    with engine.connect() as connection:
        deals = pd.read_sql(text(DEALS), connection)
        payouts = pd.read_sql(text("SELECT revision_id, player_id, position, role, points FROM payout"), connection)
        evenings = pd.read_sql(
            text(
                "SELECT id AS evening, profile, options, stake_cents, currency, started_at FROM evening "
                "WHERE voided_at IS NULL"
            ),
            connection,
        )
        seats = pd.read_sql(text("SELECT evening_id AS evening, player_id, position FROM seat"), connection)
        people = pd.read_sql(text("SELECT id, name, key FROM player"), connection)
    name_of = dict(zip(people["id"], people["name"], strict=True))
    evenings["day"] = [
        moment.to_pydatetime().astimezone().date() for moment in pd.to_datetime(evenings["started_at"], utc=True)
    ]
    evenings["game_to"] = [
        (json.loads(o) if isinstance(o, str) else o or {}).get("game_to") for o in evenings.pop("options")
    ]
    deals = deals.merge(evenings, on="evening")
    deals["table_size"] = deals["evening"].map(seats.groupby("evening").size())
    position_of = {(e, p): at for e, p, at in zip(seats["evening"], seats["player_id"], seats["position"], strict=True)}
    deals["dealer_position"] = [position_of[e, p] for e, p in zip(deals["evening"], deals["dealer_id"], strict=True)]
    deals["declarer"] = deals["declarer_id"].map(name_of)
    deals["won"] = [_true(won) for won in deals["declarer_won"]]
    deals["holder_name"] = [
        name_of[int(seated)] if pd.notna(seated) else place if pd.notna(place) else None
        for seated, place in zip(deals["holder_id"], deals["holder"], strict=True)
    ]

    player = None
    keep = pd.Series(True, index=deals.index)
    if filters.evening is not None:
        keep &= deals["evening"] == filters.evening
    if filters.profile is not None:
        keep &= deals["profile"] == filters.profile
    if filters.since is not None:
        keep &= deals["day"] >= filters.since
    if filters.until is not None:
        keep &= deals["day"] <= filters.until
    if filters.player is not None:
        found = people[people["name"].str.casefold() == filters.player.casefold()]
        player = str(found["name"].iloc[0])
        seated_revisions = payouts.loc[payouts["player_id"] == found["id"].iloc[0], "revision_id"]
        keep &= deals["revision_id"].isin(seated_revisions)
    deals = deals[keep].sort_values(["evening", "number"]).reset_index(drop=True)

    payouts = payouts.merge(deals, on="revision_id")
    payouts["player"] = payouts["player_id"].map(name_of)
    payouts = payouts.sort_values(["evening", "number", "position"]).reset_index(drop=True)
    names = people.sort_values("key")["name"].tolist()
    return Standing(deals, payouts, names, player)


def _true(value: object) -> bool:
    """A stored boolean (SQLite: 0/1, PostgreSQL: bool; None when there is no declarer) as true or false."""
    return value is not None and not pd.isna(value) and bool(value)


def summary(s: Standing) -> pd.DataFrame:
    deals = len(s.deals)
    passed = int(s.deals["declarer"].isna().sum())
    return pd.DataFrame(
        [
            {
                "evenings": s.deals["evening"].nunique(),
                "players": s.payouts["player"].nunique(),
                "deals": deals,
                "played": deals - passed,
                "passed": passed,
                "passed_rate": passed / deals if deals else np.nan,
            }
        ]
    )


def longest_run(hits: pd.Series) -> int:
    """The most consecutive true values."""
    return max((len(list(run)) for hit, run in groupby(hits) if hit), default=0)


PLAYER_COLUMNS = [
    "player",
    "evenings",
    "deals",
    "declarer",
    "opponent",
    "partner",
    "avg_declarer_thirds",
    "points",
    "points_per_deal",
    "points_per_deal_declarer",
    "points_per_deal_opponent",
    "cappotto_for",
    "cappotto_against",
    "stramazzo_for",
    "stramazzo_against",
    "biggest_win",
    "biggest_loss",
    "winning_streak",
    "losing_streak",
]


def players(s: Standing) -> pd.DataFrame:
    rows = []
    for name, mine in s.payouts.groupby("player"):
        points, role, sweep = mine["points"], mine["role"], mine["sweep"]
        declared = s.deals[(s.deals["declarer"] == name) & s.deals["declarer_thirds"].notna()]
        rows.append(
            {
                "player": name,
                "evenings": mine["evening"].nunique(),
                "deals": len(mine),
                "declarer": (role == "declarer").sum(),
                "opponent": (role == "opponent").sum(),
                "partner": (role == "partner").sum(),
                "avg_declarer_thirds": declared["declarer_thirds"].mean(),
                "points": points.sum(),
                "points_per_deal": points.mean(),
                "points_per_deal_declarer": points[role == "declarer"].mean(),
                "points_per_deal_opponent": points[role == "opponent"].mean(),
                "cappotto_for": ((sweep == "cappotto") & (points > 0)).sum(),
                "cappotto_against": ((sweep == "cappotto") & (points < 0)).sum(),
                "stramazzo_for": ((sweep == "stramazzo") & (points > 0)).sum(),
                "stramazzo_against": ((sweep == "stramazzo") & (points < 0)).sum(),
                "biggest_win": max(points.max(), 0),
                "biggest_loss": min(points.min(), 0),
                "winning_streak": longest_run(points > 0),
                "losing_streak": longest_run(points < 0),
            }
        )
    rows.sort(key=lambda row: s.names.index(row["player"]))
    return pd.DataFrame(rows, columns=PLAYER_COLUMNS)


def money(s: Standing) -> pd.DataFrame:
    rows = []
    for (name, currency), held in s.payouts.groupby(["player", "currency"]):
        cents = held["points"] * held["stake_cents"]
        rows.append(
            {
                "player": name,
                "currency": currency,
                "deals": len(held),
                "money_cents": cents.sum(),
                "per_deal_cents": cents.mean(),
                "per_deal_declarer_cents": cents[held["role"] == "declarer"].mean(),
                "per_deal_opponent_cents": cents[held["role"] == "opponent"].mean(),
            }
        )
    rows.sort(key=lambda row: (s.names.index(row["player"]), row["currency"]))
    columns = ["player", "currency", "deals", "money_cents", "per_deal_cents"]
    return pd.DataFrame(rows, columns=[*columns, "per_deal_declarer_cents", "per_deal_opponent_cents"])


def bids(s: Standing) -> pd.DataFrame:
    bid = s.deals[s.deals["declarer"].notna() & s.deals["contract"].notna()]
    rows = []
    for (name, contract), these in bid.groupby(["declarer", "contract"]):
        won = int(these["won"].sum())
        rows.append(
            {"player": name, "contract": contract, "bids": len(these), "won": won, "success_rate": won / len(these)}
        )
    rows.sort(key=lambda row: (s.names.index(row["player"]), row["contract"]))
    return pd.DataFrame(rows, columns=["player", "contract", "bids", "won", "success_rate"])


def contracts(s: Standing) -> pd.DataFrame:
    played = s.deals[s.deals["declarer"].notna()]
    declarers = s.payouts[s.payouts["role"] == "declarer"].set_index("deal_id")["points"]
    rows = []
    for (contract, aggravation), these in played.groupby(["contract", "aggravation"], dropna=False):
        contract, aggravation = (None if pd.isna(word) else word for word in (contract, aggravation))
        won = int(these["won"].sum())
        rows.append(
            {
                "contract": contract,
                "aggravation": aggravation,
                "deals": len(these),
                "share": len(these) / len(played),
                "won": won,
                "success_rate": won / len(these),
                "avg_declarer_points": declarers.reindex(these["deal_id"]).dropna().mean(),
            }
        )
    rows.sort(
        key=lambda row: (
            LADDER.index(row["contract"]) if row["contract"] in LADDER else len(LADDER),
            RAISES.index(row["aggravation"]) if row["aggravation"] in RAISES else 0,
            (row["contract"] is None, row["contract"] or ""),
            row["aggravation"] or "",
        )
    )
    columns = ["contract", "aggravation", "deals", "share", "won", "success_rate", "avg_declarer_points"]
    return pd.DataFrame(rows, columns=columns)


def called(s: Standing) -> pd.DataFrame:
    """Cards by calls (most first, then by card); a column per holder by name (`unknown` when not recorded)."""
    calls = s.deals[s.deals["called"].notna()]
    if calls.empty:
        return pd.DataFrame(columns=["card", "calls"])
    holder = calls["holder_name"].fillna("unknown")
    table = pd.crosstab(calls["called"].to_numpy(), holder.to_numpy())
    table.insert(0, "calls", table.sum(axis=1))
    table = table.sort_values("calls", ascending=False, kind="stable")
    table.columns.name = None
    return table.rename_axis("card").reset_index()


def seats(s: Standing) -> pd.DataFrame:
    """Per table size and seat counted from the dealer (1 speaks first), leaving out a dealer who sits out."""
    p = s.payouts
    seat = (p["position"] - p["dealer_position"] - 1) % p["table_size"] + 1
    sits_out = (p["table_size"] > p["profile"].map(ACTIVE)) & (p["player_id"] == p["dealer_id"])
    declarer = p["role"] == "declarer"
    rows = pd.DataFrame(
        {"table_size": p["table_size"], "seat": seat, "declarer": declarer, "won": declarer & p["won"]}
    )[~sits_out]
    rows["declarer"] = rows["declarer"].astype(int)
    rows["won"] = rows["won"].astype(int)
    table = rows.groupby(["table_size", "seat"]).agg(
        deals=("declarer", "size"), declarer=("declarer", "sum"), won=("won", "sum")
    )
    table["bid_rate"] = table["declarer"] / table["deals"]
    table["success_rate"] = table["won"] / table["declarer"].where(table["declarer"] > 0)
    table = table.reset_index()
    return table[["table_size", "seat", "deals", "declarer", "bid_rate", "won", "success_rate"]]


def pairings(s: Standing) -> pd.DataFrame:
    """Each two defenders of one deal, the one whose key comes first as `player_a`."""
    order = {name: i for i, name in enumerate(s.names)}
    defenders = s.payouts.loc[s.payouts["role"] == "opponent", ["deal_id", "player", "points", "won"]]
    pairs = defenders.merge(defenders, on="deal_id", suffixes=("_a", "_b"))
    pairs = pairs[pairs["player_a"].map(order) < pairs["player_b"].map(order)]
    rows = []
    for (a, b), these in pairs.groupby(["player_a", "player_b"]):
        won = int(these["won_a"].sum())
        rows.append(
            {
                "player_a": a,
                "player_b": b,
                "deals": len(these),
                "points_a": these["points_a"].sum(),
                "points_b": these["points_b"].sum(),
                "declarer_won": won,
                "declarer_success_rate": won / len(these),
            }
        )
    rows.sort(key=lambda row: (order[row["player_a"]], order[row["player_b"]]))
    columns = ["player_a", "player_b", "deals", "points_a", "points_b", "declarer_won", "declarer_success_rate"]
    return pd.DataFrame(rows, columns=columns)


def ratings(s: Standing) -> pd.DataFrame:
    """Each played deal with defenders, in playing order, is a game of the declarer against their mean defence."""
    rating = dict.fromkeys(s.names, ELO_START)
    defence = dict.fromkeys(s.names, ELO_START)
    games, won, defended = dict.fromkeys(s.names, 0), dict.fromkeys(s.names, 0), dict.fromkeys(s.names, 0)
    expected = dict.fromkeys(s.names, 0.0)
    defenders = s.payouts[s.payouts["role"] == "opponent"]
    teams = {deal: list(team["player"]) for deal, team in defenders.groupby("deal_id")}
    for deal in s.deals[s.deals["declarer"].notna()].itertuples():
        team = teams.get(deal.deal_id)
        if not team:
            continue
        e = 1.0 / (1.0 + 10.0 ** ((sum(defence[d] for d in team) / len(team) - rating[deal.declarer]) / ELO_SCALE))
        change = ELO_K * (deal.won - e)
        rating[deal.declarer] += change
        games[deal.declarer] += 1
        won[deal.declarer] += int(deal.won)
        expected[deal.declarer] += e
        for d in team:
            defence[d] -= change / len(team)
            defended[d] += 1
    shown = [name for name in s.names if games[name] or defended[name]]
    rows = [
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
    columns = ["player", "rating", "declarer_deals", "won", "expected_won", "defence_rating", "defended_deals"]
    return pd.DataFrame(rows, columns=columns)


def games(s: Standing) -> pd.DataFrame:
    """Per player: the finished games to N points they sat in, and those they won. A game adds up the deals of an
    evening from its first (or the one after the last game ended) until a player's total reaches N; the most points
    win it, a tie going to that deal's declarer when among the leaders, else to all of them."""
    played: dict[str, list[int]] = {}
    chosen = s.payouts[s.payouts["game_to"].notna()]
    for _evening, rows in chosen.groupby("evening", sort=True):
        goal = int(rows["game_to"].iloc[0])
        totals: dict[str, int] = {}
        for _number, deal in rows.groupby("number", sort=True):
            for player, points in zip(deal["player"], deal["points"], strict=True):
                totals[player] = totals.get(player, 0) + int(points)
            if max(totals.values()) >= goal:
                best = max(totals.values())
                leaders = [p for p, t in totals.items() if t == best]
                declarer = deal["declarer"].iloc[0]
                winners = [declarer] if declarer in leaders else leaders
                for player in totals:
                    counts = played.setdefault(player, [0, 0])
                    counts[0] += 1
                    counts[1] += player in winners
                totals = {}
    shown = sorted(played, key=str.casefold)
    return pd.DataFrame(
        {
            "player": pd.Series(shown, dtype=str),
            "games": pd.Series([played[p][0] for p in shown], dtype="int64"),
            "games_won": pd.Series([played[p][1] for p in shown], dtype="int64"),
        }
    )


SECTIONS = {
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


def statistics(engine: Engine, filters: Filters) -> dict[str, pd.DataFrame]:
    """Every section; with a player filter, the sections about players keep the rows about that player."""
    standing = read_standing(engine, filters)
    tables = {name: section(standing) for name, section in SECTIONS.items()}
    if standing.player is not None:
        for name in ("players", "money", "bids", "ratings", "games"):
            tables[name] = tables[name][tables[name]["player"] == standing.player].reset_index(drop=True)
        pairs = tables["pairings"]
        about = (pairs["player_a"] == standing.player) | (pairs["player_b"] == standing.player)
        tables["pairings"] = pairs[about].reset_index(drop=True)
    return tables
