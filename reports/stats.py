"""Statistics over the deals that stand: players, money, bids, contracts, called cards, seats, pairings, ratings.

Every section is a function of the frames returning one DataFrame with plain columns, ready for a table,
JSON or CSV. Rates are fractions (0..1); points are game points; money is in cents of the evening's currency.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from ledger.rules.contracts import Aggravation, Contract
from ledger.rules.profiles import make_profile
from reports import elo
from reports.frames import Frames

Section = Callable[[Frames], pd.DataFrame]
CONTRACT_ORDER = {c.value: i for i, c in enumerate(Contract)}
AGGRAVATION_ORDER = {a.value: i for i, a in enumerate(Aggravation)}


def _count(mask: pd.Series, by: pd.Series) -> pd.Series:
    return mask.groupby(by, observed=True).sum()


def _mean(values: pd.Series, mask: pd.Series, by: pd.Series) -> pd.Series:
    return values[mask].groupby(by[mask], observed=True).mean()


def _rate(part: pd.Series, whole: pd.Series) -> pd.Series:
    return (part / whole.where(whole > 0)).astype("float64")


def _longest_run(payouts: pd.DataFrame, hit: pd.Series) -> pd.Series:
    """Per player, the most consecutive deals (in playing order) for which `hit` holds."""
    ordered = pd.DataFrame({"player": payouts["player"], "hit": hit.to_numpy()}).sort_values("player", kind="stable")
    codes, hits = ordered["player"].cat.codes.to_numpy(), ordered["hit"].to_numpy(dtype=bool)
    starts = np.r_[True, (codes[1:] != codes[:-1]) | (hits[1:] != hits[:-1])]
    runs = pd.DataFrame({"player": ordered["player"].to_numpy()[hits], "run": np.cumsum(starts)[hits]})
    longest = runs.groupby(["player", "run"], observed=True).size().groupby(level="player", observed=True).max()
    return longest.reindex(payouts["player"].cat.categories, fill_value=0)


def summary(frames: Frames) -> pd.DataFrame:
    """Evenings, players, deals, and how many were passed."""
    deals = frames.deals
    passed = int(deals["declarer"].isna().sum())
    return pd.DataFrame([{
        "evenings": deals["evening"].nunique(), "players": frames.payouts["player"].nunique(),
        "deals": len(deals), "played": len(deals) - passed, "passed": passed,
        "passed_rate": passed / len(deals) if len(deals) else np.nan,
    }])


def players(frames: Frames) -> pd.DataFrame:
    """Per player: how often seated and declaring, points per deal by role, sweeps, extremes and streaks."""
    p = frames.payouts
    by, points, role, sweep = p["player"], p["points"], p["role"], frames.of_deal("sweep")
    declarer, opponent, everything = role == "declarer", role == "opponent", pd.Series(True, index=p.index)
    table = pd.DataFrame({
        "evenings": p.groupby("player", observed=True)["evening"].nunique(),
        "deals": _count(everything, by),
        "declarer": _count(declarer, by),
        "opponent": _count(opponent, by),
        "partner": _count(role == "partner", by),
        "avg_declarer_thirds": frames.deals.groupby("declarer", observed=True)["declarer_thirds"].mean().astype(float),
        "points": points.groupby(by, observed=True).sum(),
        "points_per_deal": _mean(points, everything, by),
        "points_per_deal_declarer": _mean(points, declarer, by),
        "points_per_deal_opponent": _mean(points, opponent, by),
        **{f"{kind}_{side}": _count((sweep == kind) & (points * sign > 0), by)
           for kind in ("cappotto", "stramazzo") for side, sign in (("for", 1), ("against", -1))},
        "biggest_win": points.groupby(by, observed=True).max().clip(lower=0),
        "biggest_loss": points.groupby(by, observed=True).min().clip(upper=0),
        "winning_streak": _longest_run(p, points > 0),
        "losing_streak": _longest_run(p, points < 0),
    })
    table = table[table["deals"] > 0].rename_axis("player").reset_index()
    table["player"] = table["player"].astype(str)
    return table


def money(frames: Frames) -> pd.DataFrame:
    """Per player and currency: money won or lost in cents, in total and per deal by role."""
    p = frames.payouts.assign(currency=frames.of_deal("currency"))
    rows = []
    for (player, currency), group in p.groupby(["player", "currency"], observed=True):
        cents, role = group["money_cents"], group["role"]
        rows.append({
            "player": str(player), "currency": str(currency), "deals": len(group), "money_cents": int(cents.sum()),
            "per_deal_cents": cents.mean(), "per_deal_declarer_cents": cents[role == "declarer"].mean(),
            "per_deal_opponent_cents": cents[role == "opponent"].mean(),
        })
    return pd.DataFrame(rows, columns=["player", "currency", "deals", "money_cents", "per_deal_cents",
                                       "per_deal_declarer_cents", "per_deal_opponent_cents"])


def bids(frames: Frames) -> pd.DataFrame:
    """Per player and contract: how often bid and won."""
    played = frames.deals[frames.deals["declarer"].notna()]
    grouped = played.groupby(["declarer", "contract"], observed=True)["declarer_won"]
    table = pd.DataFrame({"bids": grouped.size(), "won": grouped.sum().astype("int64")})
    table["success_rate"] = _rate(table["won"], table["bids"])
    return _plain(table.rename_axis(["player", "contract"]).reset_index())


def contracts(frames: Frames) -> pd.DataFrame:
    """Per contract and aggravation: frequency, success rate, average game points to the declarer."""
    deals = frames.deals
    p = frames.payouts
    declarer_points = p.loc[p["role"] == "declarer"].set_index("deal_id")["points"]
    played = deals[deals["declarer"].notna()].assign(declarer_points=declarer_points)
    grouped = played.groupby(["contract", "aggravation"], observed=True, dropna=False)
    table = pd.DataFrame({
        "deals": grouped.size(), "won": grouped["declarer_won"].sum().astype("int64"),
        "avg_declarer_points": grouped["declarer_points"].mean(),
    })
    table.insert(1, "share", table["deals"] / max(len(played), 1))
    table.insert(3, "success_rate", _rate(table["won"], table["deals"]))
    table = _plain(table.reset_index())
    ladder = table["contract"].map(CONTRACT_ORDER).fillna(len(CONTRACT_ORDER))
    raised = table["aggravation"].map(AGGRAVATION_ORDER).fillna(-1)
    order = np.lexsort((raised.to_numpy(), ladder.to_numpy()))
    return table.iloc[order].reset_index(drop=True)


def called(frames: Frames) -> pd.DataFrame:
    """Per called card: how often called, and who held it (a player, the monte or the declarer)."""
    calls = frames.deals[frames.deals["called"].notna()]
    if calls.empty:
        return pd.DataFrame(columns=["card", "calls"])
    holders = calls["holder"].cat.add_categories(["unknown"]).fillna("unknown")
    table = pd.crosstab(calls["called"].astype(str), holders.astype(str))
    table.insert(0, "calls", table.sum(axis=1))
    table = table.sort_values("calls", ascending=False, kind="stable")
    table.columns.name = None
    return table.rename_axis("card").reset_index()


def _sitting_out(frames: Frames) -> pd.Series:
    """Per payout row: the dealer of a three-player game with four seated, who holds no cards (passed deals too)."""
    active = {name: make_profile(name).active_players for name in frames.deals["profile"].cat.categories}
    four_seated = frames.deals["seats"] > frames.deals["profile"].map(active).astype(int)
    p = frames.payouts
    return p["deal_id"].map(four_seated).astype(bool) & (p["seat"] == 4)


def seats(frames: Frames) -> pd.DataFrame:
    """Bidding and success by seat relative to the dealer (1 speaks first; the dealer's seat is last).

    A dealer who sits the deal out (four seated at a three-player game) holds no seat in the auction.
    """
    p = frames.payouts[~_sitting_out(frames)]
    declarer = p["role"] == "declarer"
    won = declarer & frames.of_deal("declarer_won").loc[p.index].fillna(False).astype(bool)
    keys = [frames.of_deal("seats").loc[p.index].rename("table_size"), p["seat"]]
    table = pd.DataFrame({
        "deals": p.groupby(keys).size(), "declarer": declarer.groupby(keys).sum(), "won": won.groupby(keys).sum(),
    })
    table.insert(2, "bid_rate", _rate(table["declarer"], table["deals"]))
    table["success_rate"] = _rate(table["won"], table["declarer"])
    return table.reset_index()


def pairings(frames: Frames) -> pd.DataFrame:
    """Each pair of players defending together: deals, game points each, the declarer's success against them."""
    p = frames.payouts
    defenders = p.loc[p["role"] == "opponent", ["deal_id", "player", "points"]]
    pairs = defenders.merge(defenders, on="deal_id", suffixes=("_a", "_b"))
    pairs = pairs[pairs["player_a"].cat.codes < pairs["player_b"].cat.codes]
    pairs = pairs.assign(declarer_won=pairs["deal_id"].map(frames.deals["declarer_won"]).astype(bool))
    grouped = pairs.groupby(["player_a", "player_b"], observed=True)
    table = pd.DataFrame({
        "deals": grouped.size(), "points_a": grouped["points_a"].sum(), "points_b": grouped["points_b"].sum(),
        "declarer_won": grouped["declarer_won"].sum(),
    })
    table["declarer_success_rate"] = _rate(table["declarer_won"], table["deals"])
    return _plain(table.reset_index())


def ratings(frames: Frames) -> pd.DataFrame:
    """Elo rating of each player as declarer, and as defender (see reports.elo); best declarer first."""
    deals, p = frames.deals, frames.payouts
    played = deals[deals["declarer"].notna()]
    defenders = p.loc[p["role"] == "opponent", ["deal_id", "player"]]
    order = pd.Series(np.arange(len(played)), index=played.index)
    defenders = defenders.assign(order=defenders["deal_id"].map(order)).sort_values("order", kind="stable")
    starts = np.searchsorted(defenders["order"].to_numpy(), np.arange(len(played) + 1))
    defended = starts[1:] > starts[:-1]  # a declarer with nobody to play against is no game
    names = deals["declarer"].cat.categories
    r = elo.rate_codes(len(names), played["declarer"].cat.codes.to_numpy(dtype=np.int64)[defended],
                       played["declarer_won"].to_numpy(dtype=bool, na_value=False)[defended],
                       defenders["player"].cat.codes.to_numpy(dtype=np.int64),
                       np.r_[0, starts[1:][defended]])
    table = pd.DataFrame({
        "player": names, "rating": r.rating, "declarer_deals": r.games, "won": r.won, "expected_won": r.expected,
        "defence_rating": r.defence, "defended_deals": r.defended,
    })
    table = table[(table["declarer_deals"] > 0) | (table["defended_deals"] > 0)]
    return table.sort_values(["rating", "player"], ascending=[False, True], ignore_index=True)


def _plain(table: pd.DataFrame) -> pd.DataFrame:
    """Categorical labels as plain strings, so output never lists categories that have no rows."""
    for column in table.columns:
        if isinstance(table[column].dtype, pd.CategoricalDtype):
            table[column] = table[column].astype(object).where(table[column].notna(), None)
    return table


SECTIONS: dict[str, tuple[str, Section]] = {
    "summary": ("Summary", summary),
    "players": ("Players", players),
    "money": ("Money", money),
    "bids": ("Bids by contract", bids),
    "contracts": ("Contracts and aggravations", contracts),
    "called": ("Called cards and who held them", called),
    "seats": ("Seats relative to the dealer", seats),
    "pairings": ("Pairs defending together", pairings),
    "ratings": ("Declarer rating (Elo)", ratings),
}


def _about(name: str, table: pd.DataFrame, player: str) -> pd.DataFrame:
    """The rows of a per-player section that are about `player`."""
    if name == "pairings":
        return table[(table["player_a"] == player) | (table["player_b"] == player)].reset_index(drop=True)
    if "player" in table.columns:
        return table[table["player"] == player].reset_index(drop=True)
    return table


def statistics(frames: Frames, on_section: Callable[[str], None] | None = None) -> dict[str, pd.DataFrame]:
    """Every section, in order; with a player filter, the per-player sections keep only that player's rows.

    `on_section(title)` is called before each section (for a progress bar).
    """
    tables = {}
    for name, (title, section) in SECTIONS.items():
        if on_section:
            on_section(title)
        table = section(frames)
        tables[name] = _about(name, table, frames.filters.player) if frames.filters.player else table
    return tables
