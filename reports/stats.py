"""Statistics over the deals that stand: players, money, bids, contracts, called cards, seats, pairings, ratings.

Every section is a function of the frames returning one DataFrame with plain columns, ready for a table,
JSON or CSV. Rates are fractions (0..1); points are game points; money is in cents of the evening's currency.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pandas as pd

from ledger.i18n import N_, _
from ledger.reports import elo
from ledger.reports.frames import Frames
from ledger.rules.contracts import Aggravation, Contract
from ledger.rules.facts import DECLARER, MONTE
from ledger.rules.games import games as play_games
from ledger.rules.profiles import make_profile
from ledger.values import Statistics, StatTable

Section = Callable[[Frames], pd.DataFrame]
UNKNOWN_HOLDER = "unknown"
"""The called table's column for the calls whose holder was not recorded."""
CONTRACT_ORDER = {c.value: i for i, c in enumerate(Contract)}
AGGRAVATION_ORDER = {a.value: i for i, a in enumerate(Aggravation)}


def _rate(part: pd.Series, whole: pd.Series) -> pd.Series:
    """part / whole, NaN where whole is 0."""
    return part / whole.where(whole > 0)


def _names(values: pd.Series | pd.Index) -> pd.Series:
    """Names (or words) as plain text, None for none."""
    return pd.Series(values, dtype=object).reset_index(drop=True).where(lambda v: v.notna(), None)


def summary(frames: Frames) -> pd.DataFrame:
    """Evenings, players, deals, and how many were passed."""
    deals = len(frames.deals)
    passed = int(frames.deals["declarer"].isna().sum())
    return pd.DataFrame(
        [
            {
                "evenings": frames.deals["evening"].nunique(),
                "players": frames.payouts["player"].nunique(),
                "deals": deals,
                "played": deals - passed,
                "passed": passed,
                "passed_rate": passed / deals if deals else np.nan,
            }
        ]
    )


def _longest_runs(rows: dict[str, np.ndarray], hits: np.ndarray) -> pd.Series:
    """Per player, the most consecutive of the player's rows (`rows`: positions in playing order) for which `hits`
    holds."""
    longest = {}
    for player, positions in rows.items():
        misses = np.flatnonzero(~hits[positions])  # a run of hits lies between two misses
        longest[player] = int(np.diff(misses, prepend=-1, append=len(positions)).max()) - 1
    return pd.Series(longest, dtype=np.int64)


def _plain(table: pd.DataFrame, *names: str) -> pd.DataFrame:
    """The table with its index as columns, names (categories) as plain text and counts as 64-bit integers."""
    table = table.reset_index()
    for name in names:
        table[name] = _names(table[name])
    return table.astype({c: np.int64 for c in table.columns if table[c].dtype.kind in "iub"})


def players(frames: Frames) -> pd.DataFrame:
    """Per player: how often seated and declaring, points per deal by role, sweeps, extremes and streaks."""
    p, deals = frames.payouts, frames.deals
    points, role = p["points"], p["role"]
    sweep = frames.per_payout(deals["sweep"])
    rows = pd.DataFrame(
        {
            "player": p["player"],
            "evening": p["evening"],
            "points": points,
            **{name: role == name for name in ("declarer", "opponent", "partner")},
            "declarer_points": points.where(role == "declarer"),
            "opponent_points": points.where(role == "opponent"),
            **{
                f"{kind}_{side}": (sweep == kind) & (points * sign > 0)
                for kind in ("cappotto", "stramazzo")
                for side, sign in (("for", 1), ("against", -1))
            },
        }
    )
    table = rows.groupby("player", observed=True).agg(
        evenings=("evening", "nunique"),
        deals=("points", "size"),
        declarer=("declarer", "sum"),
        opponent=("opponent", "sum"),
        partner=("partner", "sum"),
        points=("points", "sum"),
        points_per_deal=("points", "mean"),
        points_per_deal_declarer=("declarer_points", "mean"),
        points_per_deal_opponent=("opponent_points", "mean"),
        **{name: (name, "sum") for name in rows.columns if name.endswith(("_for", "_against"))},
        biggest_win=("points", "max"),
        biggest_loss=("points", "min"),
    )
    thirds = deals[deals["declarer_thirds"].notna()]
    declared = thirds["declarer_thirds"].astype(float).groupby(thirds["declarer"], observed=True).mean()
    table.insert(5, "avg_declarer_thirds", declared.reindex(table.index))
    table["biggest_win"] = table["biggest_win"].clip(lower=0)
    table["biggest_loss"] = table["biggest_loss"].clip(upper=0)
    seated = p.groupby("player", observed=True).indices
    table["winning_streak"] = _longest_runs(seated, (points > 0).to_numpy()).reindex(table.index)
    table["losing_streak"] = _longest_runs(seated, (points < 0).to_numpy()).reindex(table.index)
    return _plain(table, "player")


def money(frames: Frames) -> pd.DataFrame:
    """Per player and currency: money won or lost in cents, in total and per deal by role."""
    p = frames.payouts
    cents, role = p["money_cents"], p["role"]
    rows = pd.DataFrame(
        {
            "player": p["player"],
            "currency": frames.per_payout(frames.deals["currency"]),
            "cents": cents,
            "declarer_cents": cents.where(role == "declarer"),
            "opponent_cents": cents.where(role == "opponent"),
        }
    )
    table = rows.groupby(["player", "currency"], observed=True).agg(
        deals=("cents", "size"),
        money_cents=("cents", "sum"),
        per_deal_cents=("cents", "mean"),
        per_deal_declarer_cents=("declarer_cents", "mean"),
        per_deal_opponent_cents=("opponent_cents", "mean"),
    )
    return _plain(table, "player", "currency")


def bids(frames: Frames) -> pd.DataFrame:
    """Per player and contract: how often bid and won."""
    d = frames.deals[frames.deals["declarer"].notna() & frames.deals["contract"].notna()]
    per = d["declarer_won"].fillna(False).groupby([d["declarer"], d["contract"]], observed=True)
    table = pd.DataFrame({"bids": per.size(), "won": per.sum()})
    table["success_rate"] = _rate(table["won"], table["bids"])
    return _plain(table.rename_axis(["player", "contract"]), "player", "contract")


def contracts(frames: Frames) -> pd.DataFrame:
    """Per contract and aggravation: frequency, success rate, average game points to the declarer."""
    played = frames.deals[frames.deals["declarer"].notna()]
    p = frames.payouts
    declarer_points = p.loc[p["role"] == "declarer"].set_index("deal_id")["points"]
    keys = [played["contract"].astype(object), played["aggravation"].astype(object)]
    per = played["declarer_won"].fillna(False).groupby(keys, dropna=False)
    pointed = declarer_points.reindex(played.index)
    table = pd.DataFrame(
        {
            "deals": per.size(),
            "won": per.sum(),
            "avg_declarer_points": pointed.groupby(keys, dropna=False).mean(),
        }
    )
    table.insert(1, "share", table["deals"] / max(len(played), 1))
    table.insert(3, "success_rate", _rate(table["won"], table["deals"]))
    table = _plain(table.rename_axis(["contract", "aggravation"]), "contract", "aggravation")

    def place(row: tuple[str | None, str | None]) -> tuple[int, int, tuple[bool, str], str]:
        contract, aggravation = row
        ladder = CONTRACT_ORDER.get(contract, len(CONTRACT_ORDER)) if contract is not None else len(CONTRACT_ORDER)
        raised = AGGRAVATION_ORDER.get(aggravation, -1) if aggravation is not None else -1
        return ladder, raised, (contract is None, contract or ""), aggravation or ""

    rows = list(zip(table["contract"], table["aggravation"], strict=True))
    return table.iloc[sorted(range(len(rows)), key=lambda i: place(rows[i]))].reset_index(drop=True)


def called(frames: Frames) -> pd.DataFrame:
    """Per called card: how often called, and who held it (a player, the monte or the declarer)."""
    calls = frames.deals[frames.deals["called"].notna()]
    if calls.empty:
        return pd.DataFrame(columns=["card", "calls"])
    holder = calls["holder"].astype(object).fillna(UNKNOWN_HOLDER)
    table = pd.crosstab(calls["called"].astype(object).to_numpy(), holder.to_numpy())
    table.insert(0, "calls", table.sum(axis=1))
    table = table.sort_values("calls", ascending=False, kind="stable")
    table.columns.name = None
    return table.rename_axis("card").reset_index()


def seats(frames: Frames) -> pd.DataFrame:
    """Bidding and success by seat relative to the dealer (1 speaks first; the dealer's seat is last).

    A dealer who sits the deal out (four seated at a three-player game) holds no seat in the auction.
    """
    p, deals = frames.payouts, frames.deals
    active = {name: make_profile(name).active_players for name in deals["profile"].cat.categories}
    table_size = frames.per_payout(deals["seats"]).to_numpy()
    playing = frames.per_payout(deals["profile"].map(active).astype(np.int64)).to_numpy()
    sits_out = (table_size > playing) & (p["seat"].to_numpy() == table_size)
    declarer = (p["role"] == "declarer").to_numpy()
    won = declarer & frames.per_payout(deals["declarer_won"].fillna(False)).to_numpy(dtype=bool)
    rows = pd.DataFrame({"table_size": table_size, "seat": p["seat"].to_numpy(), "declarer": declarer, "won": won})
    per = rows[~sits_out].groupby(["table_size", "seat"])
    table = pd.DataFrame({"deals": per.size(), "declarer": per["declarer"].sum(), "won": per["won"].sum()})
    table.insert(2, "bid_rate", _rate(table["declarer"], table["deals"]))
    table["success_rate"] = _rate(table["won"], table["declarer"])
    return _plain(table)


def pairings(frames: Frames) -> pd.DataFrame:
    """Each pair of players defending together: deals, game points each, the declarer's success against them."""
    p = frames.payouts
    defenders = p.loc[p["role"] == "opponent", ["deal_id", "player", "points"]]
    defenders = defenders.assign(code=defenders["player"].cat.codes)
    pairs = defenders.merge(defenders, on="deal_id", suffixes=("_a", "_b"))
    pairs = pairs[pairs["code_a"] < pairs["code_b"]]
    won = frames.deals["declarer_won"].fillna(False).reindex(pairs["deal_id"]).to_numpy(dtype=bool)
    per = pairs.assign(won=won).groupby(["player_a", "player_b"], observed=True)
    table = pd.DataFrame(
        {
            "deals": per.size(),
            "points_a": per["points_a"].sum(),
            "points_b": per["points_b"].sum(),
            "declarer_won": per["won"].sum(),
        }
    )
    table["declarer_success_rate"] = _rate(table["declarer_won"], table["deals"])
    return _plain(table, "player_a", "player_b")


def ratings(frames: Frames) -> pd.DataFrame:
    """Elo rating of each player as declarer, and as defender (see reports.elo); best declarer first."""
    p, deals = frames.payouts, frames.deals
    played = deals.index[deals["declarer"].notna()]
    defenders = p[(p["role"] == "opponent") & p["deal_id"].isin(played)]
    team = defenders.groupby("deal_id", sort=False).size()  # a declarer with nobody to play against is no game
    games = deals.loc[team.index]
    names = frames.players
    r = elo.rate_codes(
        len(names),
        games["declarer"].cat.codes.to_numpy(dtype=np.int64),
        games["declarer_won"].fillna(False).to_numpy(dtype=bool),
        defenders["player"].cat.codes.to_numpy(dtype=np.int64),
        np.r_[0, np.cumsum(team.to_numpy())],
    )
    table = pd.DataFrame(
        {
            "player": list(names),
            "rating": r.rating,
            "declarer_deals": r.games,
            "won": r.won,
            "expected_won": r.expected,
            "defence_rating": r.defence,
            "defended_deals": r.defended,
        }
    )
    table = table[(table["declarer_deals"] > 0) | (table["defended_deals"] > 0)]
    return table.sort_values(["rating", "player"], ascending=[False, True], ignore_index=True)


def games(frames: Frames) -> pd.DataFrame:
    """Per player, over the evenings played as games to N points: the games finished that they sat in, and how many
    they won (a shared game counts for each of its winners); the games still going on are left out."""
    game_to = frames.evenings["game_to"].dropna()
    deals = frames.deals[frames.deals["evening"].isin(game_to.index)]
    p = frames.payouts[frames.payouts["evening"].isin(game_to.index)]
    seated: dict[int, dict[str, int]] = {}
    for deal, player, points in zip(p["deal_id"], p["player"], p["points"], strict=True):
        seated.setdefault(deal, {})[player] = int(points)
    played: dict[str, list[int]] = {}
    for evening, these in deals.groupby("evening"):
        finished, _current = play_games(
            (
                (int(number), seated.get(deal, {}), None if pd.isna(declarer) else declarer)
                for deal, number, declarer in zip(these.index, these["number"], these["declarer"], strict=True)
            ),
            int(game_to[evening]),
        )
        for game in finished:
            for player in game.totals:
                counts = played.setdefault(player, [0, 0])
                counts[0] += 1
                counts[1] += player in game.winners
    rows = sorted(played.items(), key=lambda item: item[0].casefold())
    return pd.DataFrame(
        {
            "player": pd.Series([player for player, _ in rows], dtype=str),
            "games": np.array([counts[0] for _, counts in rows], dtype=np.int64),
            "games_won": np.array([counts[1] for _, counts in rows], dtype=np.int64),
        }
    )


SECTIONS: dict[str, tuple[str, Section]] = {
    "summary": (N_("Summary"), summary),
    "players": (N_("Players"), players),
    "money": (N_("Money"), money),
    "bids": (N_("Bids by contract"), bids),
    "contracts": (N_("Contracts and aggravations"), contracts),
    "called": (N_("Called cards and who held them"), called),
    "seats": (N_("Seats relative to the dealer"), seats),
    "pairings": (N_("Pairs defending together"), pairings),
    "ratings": (N_("Declarer rating (Elo)"), ratings),
    "games": (N_("Games to N points"), games),
}
"""Each section's name (its key in JSON and CSV), its title and the function that computes it."""

HEADERS = {
    "games": N_("games"),
    "games_won": N_("games won"),
    "evenings": N_("evenings"),
    "players": N_("players"),
    "deals": N_("deals"),
    "played": N_("played"),
    "passed": N_("passed out"),
    "passed_rate": N_("share passed out"),
    "player": N_("player"),
    "declarer": N_("as declarer"),
    "opponent": N_("as opponent"),
    "partner": N_("as partner"),
    "avg_declarer_thirds": N_("avg declarer thirds"),
    "points": N_("game points"),
    "points_per_deal": N_("game points per deal"),
    "points_per_deal_declarer": N_("per deal as declarer"),
    "points_per_deal_opponent": N_("per deal as opponent"),
    "cappotto_for": N_("cappotto for"),
    "cappotto_against": N_("cappotto against"),
    "stramazzo_for": N_("stramazzo for"),
    "stramazzo_against": N_("stramazzo against"),
    "biggest_win": N_("biggest win"),
    "biggest_loss": N_("biggest loss"),
    "winning_streak": N_("winning streak"),
    "losing_streak": N_("losing streak"),
    "currency": N_("currency"),
    "money_cents": N_("money"),
    "per_deal_cents": N_("per deal"),
    "per_deal_declarer_cents": N_("per deal as declarer"),
    "per_deal_opponent_cents": N_("per deal as opponent"),
    "contract": N_("contract"),
    "bids": N_("bids"),
    "won": N_("wins"),
    "success_rate": N_("success rate"),
    "aggravation": N_("aggravation"),
    "share": N_("share"),
    "avg_declarer_points": N_("avg declarer game points"),
    "table_size": N_("table size"),
    "seat": N_("seat"),
    "bid_rate": N_("bid rate"),
    "player_a": N_("player a"),
    "player_b": N_("player b"),
    "points_a": N_("points a"),
    "points_b": N_("points b"),
    "declarer_won": N_("declarer's wins"),
    "declarer_success_rate": N_("declarer's success rate"),
    "rating": N_("rating"),
    "declarer_deals": N_("declarer deals"),
    "expected_won": N_("expected wins"),
    "defence_rating": N_("defence rating"),
    "defended_deals": N_("defended deals"),
}
"""Each column's header as a person reads it; the column's key stays its name in JSON and CSV."""
CALLED_HEADERS = {
    "card": N_("card"),
    "calls": N_("calls"),
    DECLARER: N_("declarer"),
    MONTE: N_("monte"),
    UNKNOWN_HOLDER: N_("not recorded"),
}
"""The called table's headers other than players' names: the card, its calls, and the holders that are no player."""


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
            on_section(_(title))
        table = section(frames)
        tables[name] = _about(name, table, frames.filters.player) if frames.filters.player else table
    return tables


def _header(section: str, column: str) -> str:
    """A column's header in the language in use; in the called table, a player's name stays as it is."""
    words = CALLED_HEADERS if section == "called" else HEADERS
    return _(words[column]) if column in words else column


def as_values(tables: dict[str, pd.DataFrame], scope: str) -> Statistics:
    """The sections as plain values: numbers as Python numbers (at most 6 decimals), missing values as None; titles
    and headers in the language in use."""

    def plain(name: str, table: pd.DataFrame) -> StatTable:
        numeric = frozenset(str(c) for c in table.columns if table[c].dtype.kind in "iuf")
        rows = tuple(json.loads(table.to_json(orient="records", double_precision=6)))
        columns = tuple(str(c) for c in table.columns)
        headers = tuple(_header(name, c) for c in columns)
        return StatTable(name, _(SECTIONS[name][0]), columns, numeric, rows, headers)

    deals = int(tables["summary"]["deals"].iloc[0])
    return Statistics(scope, deals, tuple(plain(name, table) for name, table in tables.items()))
