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
from ledger.rules.contracts import Aggravation, Contract
from ledger.rules.facts import DECLARER, MONTE
from ledger.rules.games import games as play_games
from ledger.rules.profiles import make_profile
from ledger.values import Statistics, StatTable
from reports import elo
from reports.frames import Columns, Frames

Section = Callable[[Frames], pd.DataFrame]
UNKNOWN_HOLDER = "unknown"
"""The called table's column for the calls whose holder was not recorded."""
CONTRACT_ORDER = {c.value: i for i, c in enumerate(Contract)}
AGGRAVATION_ORDER = {a.value: i for i, a in enumerate(Aggravation)}


def _rate(part: np.ndarray, whole: np.ndarray) -> np.ndarray:
    """part / whole, NaN where whole is 0."""
    whole = np.asarray(whole, dtype=np.float64)
    return np.divide(part, whole, out=np.full(len(whole), np.nan), where=whole > 0)


def _mean(values: np.ndarray, keys: np.ndarray, size: int) -> np.ndarray:
    """Per key, the mean of its values (NaN for a key with none)."""
    return _rate(np.bincount(keys, weights=values, minlength=size), np.bincount(keys, minlength=size))


def _longest_runs(codes: np.ndarray, hits: np.ndarray, size: int) -> np.ndarray:
    """Per player, the most consecutive of the player's rows for which `hits` holds, the rows sorted by player
    (`codes`), each player's in playing order."""
    starts = np.flatnonzero(np.r_[True, (codes[1:] != codes[:-1]) | (hits[1:] != hits[:-1])][: len(codes)])
    lengths = np.diff(np.r_[starts, len(codes)])
    longest = np.zeros(size, dtype=np.int64)
    runs = hits[starts]
    np.maximum.at(longest, codes[starts][runs], lengths[runs])
    return longest


def _extremes(codes: np.ndarray, values: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per player, the largest value and the smallest (0 when none is beyond 0), the rows sorted by player."""
    counts = np.bincount(codes, minlength=size)
    firsts = (np.cumsum(counts) - counts)[counts > 0]
    highest, lowest = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
    if len(firsts):
        highest[counts > 0] = np.maximum(np.maximum.reduceat(values, firsts), 0)
        lowest[counts > 0] = np.minimum(np.minimum.reduceat(values, firsts), 0)
    return highest, lowest


def _names(codes: np.ndarray, words: tuple[str, ...] | list[str]) -> list[str | None]:
    return [words[code] if code >= 0 else None for code in codes.tolist()]


def _alphabetical(words: tuple[str, ...]) -> np.ndarray:
    """Per code, its word's place in alphabetical order (the order pandas gives categories)."""
    rank = np.empty(len(words) + 1, dtype=np.int64)
    rank[np.array(sorted(range(len(words)), key=lambda i: words[i]), dtype=np.int64)] = np.arange(len(words))
    rank[len(words)] = len(words)
    return rank


def summary(frames: Frames) -> pd.DataFrame:
    """Evenings, players, deals, and how many were passed."""
    c = frames.columns
    deals = len(c.deal_id)
    passed = int((c.declarer < 0).sum())
    return pd.DataFrame(
        [
            {
                "evenings": len(np.unique(c.evening)),
                "players": len(np.unique(c.player[c.player >= 0])),
                "deals": deals,
                "played": deals - passed,
                "passed": passed,
                "passed_rate": passed / deals if deals else np.nan,
            }
        ]
    )


PART_ROWS = 1_000_000
"""About how many payouts a section works on at once: its temporaries over the payouts stay this small."""


def _player_parts(player: np.ndarray, size: int, rows: int) -> list[tuple[int, int]]:
    """Runs of player codes `[first, last)` that cover `size` players, each holding about `rows` payouts at most
    (one player at least)."""
    codes, counts = np.unique(player, return_counts=True)  # sorts a copy of the small codes: no wide temporary
    held = np.zeros(size, dtype=np.int64)
    held[codes] = counts
    ends = np.cumsum(held)
    parts, first = [], 0
    while first < size:
        before = int(ends[first - 1]) if first else 0
        last = max(int(np.searchsorted(ends, before + rows, side="right")), first + 1)
        parts.append((first, last))
        first = last
    return parts or [(0, 0)]


def players(frames: Frames, rows: int = PART_ROWS) -> pd.DataFrame:
    """Per player: how often seated and declaring, points per deal by role, sweeps, extremes and streaks.

    The players are taken a few at a time (about `rows` payouts), so their payouts are sorted a part at a time.
    """
    c, size = frames.columns, len(frames.players)
    thirds = c.declarer_thirds >= 0
    declared = c.declarer[thirds].astype(np.int64)
    thirds_mean = _mean(c.declarer_thirds[thirds][declared >= 0], declared[declared >= 0], size)
    parts = [
        _players_part(c, first, last, thirds_mean[first:last]) for first, last in _player_parts(c.player, size, rows)
    ]
    table = pd.DataFrame(
        {
            "player": pd.Series(frames.players, dtype=str),
            **{name: np.concatenate([part[name] for part in parts]) for name in parts[0]},
        }
    )
    return table[table["deals"] > 0].reset_index(drop=True)


def _players_part(c: Columns, first: int, last: int, thirds_mean: np.ndarray) -> dict[str, np.ndarray]:
    """The players section's columns for players `first` to `last - 1`, from their payouts in playing order."""
    size = last - first
    mine = np.flatnonzero((c.player >= first) & (c.player < last))
    by_player = mine[np.argsort(c.player[mine], kind="stable")]  # a radix sort of the small codes, stable
    del mine
    deal = c.deal[by_player]
    by, points, role = c.player[by_player] - first, c.points[by_player], c.role[by_player]
    del by_player
    declarer, opponent = role == c.code("role", "declarer"), role == c.code("role", "opponent")
    sweep = c.sweep[deal]
    evening = c.evening[deal]
    new_evening = np.r_[True, (by[1:] != by[:-1]) | (evening[1:] != evening[:-1])][: len(by)]
    del deal, evening
    highest, lowest = _extremes(by, points, size)
    return {
        "evenings": np.bincount(by[new_evening], minlength=size),
        "deals": np.bincount(by, minlength=size),
        "declarer": np.bincount(by[declarer], minlength=size),
        "opponent": np.bincount(by[opponent], minlength=size),
        "partner": np.bincount(by[role == c.code("role", "partner")], minlength=size),
        "avg_declarer_thirds": thirds_mean,
        "points": np.bincount(by, weights=points, minlength=size).astype(np.int64),
        "points_per_deal": _mean(points, by, size),
        "points_per_deal_declarer": _mean(points[declarer], by[declarer], size),
        "points_per_deal_opponent": _mean(points[opponent], by[opponent], size),
        **{
            f"{kind}_{side}": np.bincount(by[(sweep == c.code("sweep", kind)) & (points * sign > 0)], minlength=size)
            for kind in ("cappotto", "stramazzo")
            for side, sign in (("for", 1), ("against", -1))
        },
        "biggest_win": highest,
        "biggest_loss": lowest,
        "winning_streak": _longest_runs(by, points > 0, size),
        "losing_streak": _longest_runs(by, points < 0, size),
    }


def money(frames: Frames, rows: int = PART_ROWS) -> pd.DataFrame:
    """Per player and currency: money won or lost in cents, in total and per deal by role.

    The payouts are summed a part of about `rows` at a time; the sums are of whole cents in doubles, exact below
    2 ** 53, so the parts add up to the same figures in any order.
    """
    c, size = frames.columns, len(frames.players)
    currencies = c.words["currency"]
    rank = _alphabetical(currencies).astype(np.int32)
    kinds = len(currencies) + 1
    groups = size * kinds
    stake = c.stake_cents.astype(np.float64)
    roles = {"": None, "declarer": c.code("role", "declarer"), "opponent": c.code("role", "opponent")}
    deals = {role: np.zeros(groups, dtype=np.int64) for role in roles}
    cents = {role: np.zeros(groups, dtype=np.float64) for role in roles}
    for start in range(0, len(c.player), rows):
        part = slice(start, start + rows)
        deal = c.deal[part]
        key = c.player[part].astype(np.int32)
        key *= kinds
        key += rank[c.currency[deal]]
        won = stake[deal]
        won *= c.points[part]
        for role, code in roles.items():
            mine = slice(None) if code is None else c.role[part] == code
            deals[role] += np.bincount(key[mine], minlength=groups)
            cents[role] += np.bincount(key[mine], weights=won[mine], minlength=groups)
    seen = np.flatnonzero(deals[""])
    by_rank = sorted(currencies)
    return pd.DataFrame(
        {
            "player": [frames.players[k // kinds] for k in seen.tolist()],
            "currency": [by_rank[k % kinds] for k in seen.tolist()],
            "deals": deals[""][seen],
            "money_cents": cents[""][seen].round().astype(np.int64),
            "per_deal_cents": (cents[""] / np.where(deals[""] > 0, deals[""], 1))[seen],
            "per_deal_declarer_cents": _rate(cents["declarer"], deals["declarer"])[seen],
            "per_deal_opponent_cents": _rate(cents["opponent"], deals["opponent"])[seen],
        }
    )


def bids(frames: Frames) -> pd.DataFrame:
    """Per player and contract: how often bid and won."""
    c = frames.columns
    words = c.words["contract"]
    kinds = len(words) + 1
    rank = _alphabetical(words)
    bid = (c.declarer >= 0) & (c.contract >= 0)
    key = c.declarer[bid].astype(np.int64) * kinds + rank[c.contract[bid]]
    groups = len(frames.players) * kinds
    count = np.bincount(key, minlength=groups)
    won = np.bincount(key[c.declarer_won[bid] == 1], minlength=groups)
    seen = np.flatnonzero(count)
    by_rank = sorted(words)
    return pd.DataFrame(
        {
            "player": pd.Series([frames.players[k // kinds] for k in seen.tolist()], dtype=object),
            "contract": pd.Series([by_rank[k % kinds] for k in seen.tolist()], dtype=object),
            "bids": count[seen],
            "won": won[seen],
            "success_rate": _rate(won[seen], count[seen]),
        }
    )


def contracts(frames: Frames) -> pd.DataFrame:
    """Per contract and aggravation: frequency, success rate, average game points to the declarer."""
    c = frames.columns
    played = c.declarer >= 0
    contract_words, raise_words = c.words["contract"], c.words["aggravation"]
    raises = len(raise_words) + 1
    key = (c.contract.astype(np.int64) + 1) * raises + (c.aggravation.astype(np.int64) + 1)
    groups = (len(contract_words) + 1) * raises
    declarer_rows = c.role == c.code("role", "declarer")
    with_points = np.zeros(len(c.deal_id), dtype=bool)
    with_points[c.deal[declarer_rows]] = True
    declarer_points = np.zeros(len(c.deal_id), dtype=np.int64)
    declarer_points[c.deal[declarer_rows]] = c.points[declarer_rows]
    deals = np.bincount(key[played], minlength=groups)
    won = np.bincount(key[played & (c.declarer_won == 1)], minlength=groups)
    pointed = played & with_points
    average = _mean(declarer_points[pointed], key[pointed], groups)
    seen = np.flatnonzero(deals)
    contract, aggravation = seen // raises - 1, seen % raises - 1
    contract_names, raise_names = _names(contract, contract_words), _names(aggravation, raise_words)
    table = pd.DataFrame(
        {
            "contract": pd.Series(contract_names, dtype=object),
            "aggravation": pd.Series(raise_names, dtype=object),
            "deals": deals[seen],
            "share": deals[seen] / max(int(played.sum()), 1),
            "won": won[seen],
            "success_rate": _rate(won[seen], deals[seen]),
            "avg_declarer_points": average[seen],
        }
    )
    ladder = [
        CONTRACT_ORDER.get(name, len(CONTRACT_ORDER)) if name is not None else len(CONTRACT_ORDER)
        for name in contract_names
    ]
    raised = [AGGRAVATION_ORDER.get(name, -1) if name is not None else -1 for name in raise_names]
    alphabetical = [(name is None, name or "") for name in contract_names]
    order = sorted(range(len(seen)), key=lambda i: (ladder[i], raised[i], alphabetical[i], raise_names[i] or ""))
    return table.iloc[order].reset_index(drop=True)


def called(frames: Frames) -> pd.DataFrame:
    """Per called card: how often called, and who held it (a player, the monte or the declarer)."""
    c = frames.columns
    calls = c.called >= 0
    if not calls.any():
        return pd.DataFrame(columns=["card", "calls"])
    holders = (*frames.players, *c.words["holder"], UNKNOWN_HOLDER)
    seated = c.holder_id[calls].astype(np.int64)
    text = c.holder[calls].astype(np.int64)
    holder = np.where(seated >= 0, seated, np.where(text >= 0, text + len(frames.players), len(holders) - 1))
    cards = c.words["called"]
    key = c.called[calls].astype(np.int64) * len(holders) + holder
    counts = np.bincount(key, minlength=len(cards) * len(holders)).reshape(len(cards), len(holders))
    rows, columns = np.flatnonzero(counts.sum(axis=1)), np.flatnonzero(counts.sum(axis=0))
    table = pd.DataFrame(
        counts[np.ix_(rows, columns)], index=[cards[i] for i in rows], columns=[holders[i] for i in columns]
    )
    table = table.groupby(level=0).sum().T.groupby(level=0).sum().T  # a player named like a place merges with it
    table = table.sort_index().sort_index(axis=1)
    table.insert(0, "calls", table.sum(axis=1))
    table = table.sort_values("calls", ascending=False, kind="stable")
    table.columns.name = None
    return table.rename_axis("card").reset_index()


def seats(frames: Frames, rows: int = PART_ROWS) -> pd.DataFrame:
    """Bidding and success by seat relative to the dealer (1 speaks first; the dealer's seat is last).

    A dealer who sits the deal out (four seated at a three-player game) holds no seat in the auction. The payouts
    are counted a part of about `rows` at a time.
    """
    c = frames.columns
    active = np.array([make_profile(name).active_players for name in c.words["profile"]] or [0], dtype=np.int64)
    four_seated = c.seats > active[c.profile]
    span = int(c.seat.max()) + 1 if len(c.seat) else 1
    groups = (int(c.seats.max()) + 1 if len(c.seats) else 1) * span
    deals, declared, wins = (np.zeros(groups, dtype=np.int64) for _ in range(3))
    for start in range(0, len(c.seat), rows):
        part = slice(start, start + rows)
        deal, seat = c.deal[part], c.seat[part]
        keep = ~(four_seated[deal] & (seat == 4))
        key = c.seats[deal][keep].astype(np.intp)  # the type bincount counts in: no wider copy made there
        key *= span
        key += seat[keep]
        declarer = (c.role[part] == c.code("role", "declarer"))[keep]
        deals += np.bincount(key, minlength=groups)
        declared += np.bincount(key[declarer], minlength=groups)
        wins += np.bincount(key[declarer & (c.declarer_won[deal][keep] == 1)], minlength=groups)
    seen = np.flatnonzero(deals)
    return pd.DataFrame(
        {
            "table_size": seen // span,
            "seat": seen % span,
            "deals": deals[seen],
            "declarer": declared[seen],
            "bid_rate": _rate(declared[seen], deals[seen]),
            "won": wins[seen],
            "success_rate": _rate(wins[seen], declared[seen]),
        }
    )


def _deal_parts(deal: np.ndarray, rows: int) -> list[tuple[int, int]]:
    """Runs of payout rows `[start, end)` of about `rows` each, cut only where a deal ends (`deal` is sorted)."""
    parts, start = [], 0
    while start < len(deal):
        end = int(np.searchsorted(deal, deal[start + rows], side="left")) if start + rows < len(deal) else len(deal)
        end = end if end > start else int(np.searchsorted(deal, deal[start], side="right"))
        parts.append((start, end))
        start = end
    return parts


def pairings(frames: Frames, rows: int = PART_ROWS) -> pd.DataFrame:
    """Each pair of players defending together: deals, game points each, the declarer's success against them.

    The payouts are taken a part of about `rows` at a time, each part whole deals.
    """
    c, size = frames.columns, len(frames.players)
    groups = size * size
    deals = np.zeros(groups, dtype=np.int64)
    sums = [np.zeros(groups, dtype=np.float64) for _ in range(3)]  # whole numbers: exact in doubles
    for start, end in _deal_parts(c.deal, rows):
        opponent = start + np.flatnonzero(c.role[start:end] == c.code("role", "opponent"))
        deal, player, points = c.deal[opponent], c.player[opponent].astype(np.int32), c.points[opponent]
        del opponent
        for offset in range(1, len(deal)):
            same = np.flatnonzero(deal[offset:] == deal[:-offset])
            if not len(same):
                break
            first, second = same, same + offset
            a_first = player[first] < player[second]
            a = np.where(a_first, first, second)
            b = np.where(a_first, second, first)
            distinct = player[first] != player[second]
            a, b = a[distinct], b[distinct]
            key = player[a].astype(np.intp) * size + player[b]
            deals += np.bincount(key, minlength=groups)
            for total, weights in zip(sums, (points[a], points[b], c.declarer_won[deal[a]] == 1), strict=True):
                total += np.bincount(key, weights=weights, minlength=groups)
    seen = np.flatnonzero(deals)
    points_a, points_b, won = (total[seen].round().astype(np.int64) for total in sums)
    return pd.DataFrame(
        {
            "player_a": pd.Series([frames.players[k // size] for k in seen.tolist()], dtype=object),
            "player_b": pd.Series([frames.players[k % size] for k in seen.tolist()], dtype=object),
            "deals": deals[seen],
            "points_a": points_a,
            "points_b": points_b,
            "declarer_won": won,
            "declarer_success_rate": _rate(won, deals[seen]),
        }
    )


def ratings(frames: Frames) -> pd.DataFrame:
    """Elo rating of each player as declarer, and as defender (see reports.elo); best declarer first."""
    c = frames.columns
    played = c.declarer >= 0
    opponent = np.flatnonzero((c.role == c.code("role", "opponent")) & played[c.deal])
    deal_of, defender = c.deal[opponent], c.player[opponent]
    del opponent  # the row numbers of every defender: let go before the games are walked
    starts = np.searchsorted(deal_of, np.arange(len(c.deal_id) + 1, dtype=deal_of.dtype))
    del deal_of
    defended = played & (starts[1:] > starts[:-1])  # a declarer with nobody to play against is no game
    names = frames.players
    r = elo.rate_codes(
        len(names), c.declarer[defended], c.declarer_won[defended] == 1, defender, np.r_[0, starts[1:][defended]]
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
    c, names = frames.columns, frames.players
    game_to = frames.evenings["game_to"].dropna()
    chosen = np.flatnonzero(np.isin(c.evening, game_to.index.to_numpy()))
    played: dict[str, list[int]] = {}
    by_deal: dict[int, dict[str, int]] = {}
    for payout in np.flatnonzero(np.isin(c.deal, chosen)):
        by_deal.setdefault(int(c.deal[payout]), {})[names[c.player[payout]]] = int(c.points[payout])
    for evening, deals in pd.Series(chosen).groupby(c.evening[chosen]):
        finished, _current = play_games(
            (
                (int(c.number[d]), by_deal.get(d, {}), names[c.declarer[d]] if c.declarer[d] >= 0 else None)
                for d in deals
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
    "avg_declarer_points": N_("avg declarer points"),
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
