"""An export's revisions re-scored by the rules, each checked against the payouts the export gives.

A revision's facts are what a table wrote and a ledger stored, maybe before the rules counted a played deal's cards
one by one (`ledger.rules.heaps`): every fact is checked but that count, and facts it would refuse are scored as the
rules scored them then (`decide_sweep`), so an older export imports with the payouts it holds.

The rules look at the seats only in turn order, so a result is kept by the seats' places, counted from the deal's
dealer in turn order (the dealer 0, the next seat 1, ...), for the game it was scored at (profile, options, seats).
A revision whose facts put the same places in the same parts (declarer, holder of the called card, the auction's
speakers) at a table of the same game is the same deal to the rules, at any players: it takes that result, put back
at its own table's players, and its own payouts are checked against it all the same. The rules look at a called
card's rank, never at its suit: deals that call cards of one rank, said with a suit or not, are the same deal to them,
and each revision keeps the card it called. Results are kept for `KNOWN_RESULTS` different deals at most, so an
import's memory stays bounded.
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Mapping
from typing import Any, NamedTuple

from sqlalchemy import Table

from ledger.errors import FactError, LedgerError
from ledger.i18n import _
from ledger.rules.build import DealInput, build_facts
from ledger.rules.cards import parse_called, rank_of
from ledger.rules.facts import DECLARER, MONTE, DealFacts, facts_from_dict
from ledger.rules.scoring import score
from ledger.store.deals import payout_values, revision_values
from ledger.store.evenings import Seating
from ledger.store.models import DealRevision

KNOWN_RESULTS = 20_000
"""The most results an import keeps for reuse."""
REVISIONS: Table = DealRevision.__table__  # type: ignore[attr-defined]
PLAYER_COLUMNS = tuple(
    column.name for column in REVISIONS.columns if any(key.column.table.name == "player" for key in column.foreign_keys)
)
"""A revision's columns that hold a player's id (`calls` holds some too, one for each call of the auction)."""


class Placed(NamedTuple):
    """A result by the seats' places: each place's points and role, the places in the order the rules gave the
    payouts, and the revision's stored columns (`Rescorer.columns`) with places where players' ids go."""

    points: tuple[int, ...]
    roles: tuple[str, ...]
    order: tuple[int, ...]
    values: tuple[Any, ...]


class Scored(NamedTuple):
    """A revision re-scored at its table: its stored columns' values (`Rescorer.columns`), and its payouts (rows of
    `PAYOUT_COLUMNS` after the revision's)."""

    values: tuple[Any, ...]
    payouts: list[tuple[int, int, str, int]]


PAYOUT_COLUMNS = ("revision_id", "player_id", "position", "role", "points")
"""The columns of a payout's row: its revision's, then a `Scored` payout's."""


class Rescorer:
    """Re-scores the revisions of an import's evenings (export `version`), keeping results for reuse."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.known: dict[tuple[Any, ...], dict[bytes, Placed]] = {}
        """The results kept, by game, then by what tells the deal apart (`_key`)."""
        self.count = 0
        self.columns: tuple[str, ...] = ()
        """The revision's columns a result gives (`revision_values`, without the evening's profile and options)."""
        self.players: list[int] = []
        """Where among them a player's id goes."""
        self.calls = 0
        """Where among them the auction goes."""
        self.called = 0
        """Where among them the called card goes."""
        self.cards: dict[str, tuple[str, str] | None] = {}
        """Called cards as exported (`_read_card`)."""

    def evening(self, table: Seating, item: dict[str, Any]) -> list[list[Scored]]:
        """Every revision of every deal of the export's evening `item`, at the ledger's `table`; an error when the
        rules give other payouts than the export."""
        exported = tuple(item["players"])
        size = len(exported)
        seated = dict(zip(exported, table.players, strict=True))
        seat = {name: position for position, name in enumerate(exported)}
        ids = [table.ids[name] for name in table.players]
        game: tuple[Any, ...] = (table.evening.profile, json.dumps(table.evening.options, sort_keys=True), size)
        if self.version == 1:  # what was typed names the players, and may name them by the start of their names
            game += (exported, table.players)
        places = [{name: (at - dealer) % size for at, name in enumerate(exported)} for dealer in range(size)]
        around = [_around(dealer, exported, table.players, ids) for dealer in range(size)]
        known = self.known.setdefault(game, {})
        scored = []
        for deal in item["deals"]:
            revisions = []
            for rev in deal["revisions"]:
                dealer = seat.get(rev["dealer"])
                key = None if dealer is None else self._key(rev, places[dealer])
                placed = known.get(key) if key is not None else None
                if placed is None:
                    facts = revision_facts(table, rev, self.version, seated)
                    dealer = table.players.index(facts.dealer)
                    placed = self._placed(table, facts, dealer)
                    if key is not None:
                        known = self._keep(game, known, key, placed)
                assert dealer is not None
                _check(item, deal, rev, placed, around[dealer], seated)
                revisions.append(self._at_table(placed, around[dealer], ids, dealer, self._card(rev, placed)))
            scored.append(revisions)
        return scored

    def _placed(self, table: Seating, facts: DealFacts, dealer: int) -> Placed:
        """The facts scored at the table (`dealer` the dealer's seat), by the seats' places."""
        result = score(facts, table.profile, count_cards=False)
        size = len(table.players)
        place = {name: (at - dealer) % size for at, name in enumerate(table.players)}
        of_id = {table.ids[name]: at for name, at in place.items()}
        values = revision_values(table, facts, result)
        del values["profile"], values["options"]
        self._columns(tuple(values))
        for column in PLAYER_COLUMNS:
            if values[column] is not None:
                values[column] = of_id[values[column]]
        if values["calls"]:
            values["calls"] = [[of_id[player], call] for player, call in values["calls"]]
        points, roles = [0] * size, [""] * size
        for row in payout_values(table, result):
            points[place[table.players[row["position"]]]] = row["points"]
            roles[place[table.players[row["position"]]]] = row["role"]
        return Placed(
            tuple(points), tuple(roles), tuple(place[name] for name in result.payouts), tuple(values.values())
        )

    def _columns(self, columns: tuple[str, ...]) -> None:
        """The columns a result gives, and where among them the players' ids go; the same for every result."""
        if not self.columns:
            self.columns = columns
            self.players = [at for at, column in enumerate(columns) if column in PLAYER_COLUMNS]
            self.calls = columns.index("calls")
            self.called = columns.index("called")
        assert columns == self.columns, (columns, self.columns)

    def _at_table(self, placed: Placed, around: Around, ids: list[int], dealer: int, card: str | None) -> Scored:
        """A result put back at a table (`ids`: the players' ids by seat; `dealer` the dealer's seat), with the card
        its revision called as stored."""
        at = around.ids
        values = list(placed.values)
        values[self.called] = card
        for column in self.players:
            if values[column] is not None:
                values[column] = at[values[column]]
        calls = values[self.calls]
        if calls:
            values[self.calls] = [[at[place], call] for place, call in calls]
        size = len(ids)
        payouts = []
        for position, player in enumerate(ids):
            place = (position - dealer) % size
            payouts.append((player, position, placed.roles[place], placed.points[place]))
        return Scored(tuple(values), payouts)

    def _keep(
        self, game: tuple[Any, ...], known: dict[bytes, Placed], key: bytes, placed: Placed
    ) -> dict[bytes, Placed]:
        """Keep a result of the `game` (whose results are `known`), all others let go first when `KNOWN_RESULTS` are
        kept; the game's results now."""
        if self.count >= KNOWN_RESULTS:
            self.known.clear()
            self.count = 0
            known = self.known.setdefault(game, {})
        known[key] = placed
        self.count += 1
        return known

    def _key(self, rev: dict[str, Any], places: dict[str, int]) -> bytes | None:
        """What tells the revision's deal apart from every other at a table of its game: its facts with the seats
        they name as places, as bytes that tell every JSON value apart (`marshal`'s version 2, which writes each
        value whole); None for facts naming a seat that is not one, which are scored (and refused) on their own.
        Version 1 gives what was typed, kept with its dealer."""
        if self.version == 1:
            return marshal.dumps((rev["dealer"], rev.get("typed")), 2)
        facts = rev.get("facts")
        if not isinstance(facts, dict):
            return None
        shown = dict(facts)
        called = shown.get("called")
        if called:
            card = self._read_card(called)
            if card is None:
                return None
            shown["called"] = card[0]
        for part in ("declarer", "holder"):
            name = shown.get(part)
            if name not in (None, MONTE, DECLARER):
                place = places.get(name) if isinstance(name, str) else None
                if place is None:
                    return None
                shown[part] = place
        auction = shown.get("auction")
        if auction:
            try:
                shown["auction"] = [[places[seat], call] for seat, call in auction]
            except (KeyError, TypeError, ValueError):
                return None
        return marshal.dumps(shown, 2)

    def _card(self, rev: dict[str, Any], placed: Placed) -> str | None:
        """The card the revision called, as stored (version 1: as the result's, told apart by the typed text)."""
        if self.version == 1:
            return placed.values[self.called]
        called = rev["facts"].get("called")
        card = self._read_card(called) if called else None
        return None if card is None else card[1]

    def _read_card(self, called: object) -> tuple[str, str] | None:
        """A called card as exported: its rank and the card as stored; None for one the rules refuse (scored, and
        so refused, on its own). At most `KNOWN_RESULTS` are kept."""
        if not isinstance(called, str):
            return None
        if called not in self.cards:
            if len(self.cards) >= KNOWN_RESULTS:
                self.cards.clear()
            try:
                card = parse_called(called)
            except FactError:
                self.cards[called] = None
            else:
                self.cards[called] = (str(rank_of(card)), str(card))
        return self.cards[called]


class Around(NamedTuple):
    """A table's seats by place, for one dealer: the players' ids, the ledger's names and the export's names."""

    ids: list[int]
    names: list[str]
    exported: list[str]


def _around(dealer: int, exported: tuple[str, ...], players: tuple[str, ...], ids: list[int]) -> Around:
    """The seats by place when seat `dealer` deals."""
    order = [(dealer + place) % len(ids) for place in range(len(ids))]
    return Around([ids[at] for at in order], [players[at] for at in order], [exported[at] for at in order])


def _check(
    item: dict[str, Any],
    deal: dict[str, Any],
    rev: dict[str, Any],
    placed: Placed,
    around: Around,
    seated: dict[str, str],
) -> None:
    """An error when the revision's payouts as exported are not the rules' (`seated`: the ledger's name of each of
    the export's players)."""
    exported: Mapping[str, int] = rev["payouts"]
    if exported == {around.exported[place]: placed.points[place] for place in placed.order}:
        return
    scored = {around.names[place]: placed.points[place] for place in placed.order}
    if scored != {seated[name]: points for name, points in exported.items()}:
        raise LedgerError(
            _(
                "evening {evening} deal {deal} revision {revision}: the export says {exported} "
                "but the rules give {scored}"
            ).format(
                evening=item["number"],
                deal=deal["number"],
                revision=rev["revision"],
                exported=exported,
                scored=scored,
            )
        )


def revision_facts(table: Seating, rev: dict[str, Any], version: int, seated: dict[str, str]) -> DealFacts:
    """A revision of the export as facts at the ledger's seats: version 1 stores the typed text, later ones facts."""
    dealer = seated[rev["dealer"]]
    if version == 1:
        return build_facts(DealInput.from_dict(rev["typed"]), table.profile, table.players, dealer, count_cards=False)
    data = dict(rev["facts"])
    for field in ("declarer", "holder"):
        if data.get(field) not in (None, MONTE, DECLARER):
            data[field] = seated[data[field]]
    data["auction"] = [[seated[seat], call] for seat, call in data.get("auction") or ()]
    return facts_from_dict(data, table.players, dealer)
