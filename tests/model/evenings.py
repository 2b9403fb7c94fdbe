"""One evening: its seats in turn order, the dealer's rotation (RULES §2), its deals and their corrections, undo of
the last change (README, Corrections), the pot of passed deals (§8) and games to N (§8).

Nothing is kept that can be worked out: each deal keeps its facts as they stand, and what it pays, the pot riding
on it and the totals are worked out from the facts of the deals that stand whenever they are asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

from model.rules import Facts, Refused, Rules, payouts, refusal

BID = ("declarer", "contract", "aggravation", "called", "holder", "auction")
"""The facts of the bid: a new declarer or a new auction replaces them all."""


@dataclass
class Dealt:
    """A deal as it stands: its number in the evening, its dealer's seat, its facts now and as first recorded."""

    number: int
    dealer: int
    facts: Facts
    first: Facts
    voided: bool = False


@dataclass
class Change:
    """A change undo can take back (`record`, `amend`, `void`, `close`, `reopen`, `void_evening`) and what it
    replaced: an amendment the facts before it, a reopening the pot its close had left waiting, a void of the
    evening whether the evening was open."""

    kind: str
    deal: int | None = None
    before: Facts | None = None
    pot_out: int = 0
    was_open: bool = False
    undone: bool = False


@dataclass(frozen=True)
class Game:
    """A game to N: its first and last deals, each seat's points in it, and who won it (nobody while it goes on)."""

    first: int
    last: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass
class Evening:
    """An evening: its players (ids) in turn order, its rules and stake in cents per game point, where it stands."""

    number: int
    players: list[int]
    rules: Rules
    stake: int
    currency: str
    first_dealer: int
    pot_in: int = 0
    pot_from: int | None = None
    pot_out: int = 0
    closed: bool = False
    voided: bool = False
    revision: int = 0
    deals: list[Dealt] = field(default_factory=list)
    log: list[Change] = field(default_factory=list)

    @property
    def seated(self) -> int:
        return len(self.players)

    def standing(self) -> list[Dealt]:
        """The deals that count, in order."""
        return [deal for deal in self.deals if not deal.voided]

    def next_dealer(self) -> int:
        """The seat after the dealer of the last deal that stands, passed ones included; the first dealer before."""
        standing = self.standing()
        return (standing[-1].dealer + 1) % self.seated if standing else self.first_dealer

    def pots(self) -> tuple[dict[int, int], int]:
        """The passed deals riding on each played deal that stands, and the pot left waiting after the last one
        (§8). The pot taken in from the table's evening before rides on the first played deal whatever this
        evening's options; its own passed deals add to the pot only with pot_carryover."""
        riding: dict[int, int] = {}
        waiting = self.pot_in
        for deal in self.standing():
            if deal.facts.declarer is None:
                waiting += 1 if self.rules.options["pot_carryover"] else 0
            else:
                riding[deal.number], waiting = waiting, 0
        return riding, waiting

    def points(self) -> dict[int, tuple[int, ...]]:
        """Every standing deal's game points per seat, by its number."""
        riding, _ = self.pots()
        return {
            deal.number: payouts(self.rules, self.seated, deal.dealer, deal.facts, riding.get(deal.number, 0))
            for deal in self.standing()
        }

    def totals(self) -> list[int]:
        """Game points per seat over the deals that stand."""
        return [sum(column) for column in zip(*self.points().values(), strict=True)] or [0] * self.seated

    def games(self) -> list[Game]:
        """Games to `game_to` (§8): after the deal in which a player's points in the game reach N, the game ends and
        the most points win it (a tie: the declarer of that deal if among them, else shared); the next starts from
        zero. The last game, still going on, has no winner."""
        target = self.rules.options["game_to"]
        if target is None:
            return []
        assert isinstance(target, int)
        points, games = self.points(), list[Game]()
        first: int | None = None
        totals = [0] * self.seated
        last = 0
        for deal in self.standing():
            if first is None:
                first, totals = deal.number, [0] * self.seated
            totals = [a + b for a, b in zip(totals, points[deal.number], strict=True)]
            last = deal.number
            if max(totals) >= target:
                leaders = tuple(seat for seat, points in enumerate(totals) if points == max(totals))
                declarer = deal.facts.declarer
                games.append(Game(first, last, tuple(totals), (declarer,) if declarer in leaders else leaders))
                first = None
        if first is not None:
            games.append(Game(first, last, tuple(totals), ()))
        return games

    def deal(self, number: int) -> Dealt:
        found = [deal for deal in self.deals if deal.number == number]
        if not found:
            raise Refused(f"evening {self.number} has no deal {number}")
        return found[0]

    def check_open(self) -> None:
        if self.voided or self.closed:
            raise Refused(f"evening {self.number} is closed or voided")

    def check_facts(self, dealer: int, facts: Facts) -> None:
        """Refuse facts the rules cannot score at this deal's seats."""
        if facts.declarer is None:
            if any(getattr(facts, name.name) is not None for name in fields(Facts) if name.name != "auction"):
                raise Refused("a passed deal has no other facts")
            return
        why = refusal(self.rules, self.seated, dealer, facts)
        if why:
            raise Refused(why)

    def changed(self, change: Change | None = None) -> None:
        """Count one more change (an undo too), logging the ones undo can take back."""
        self.revision += 1
        if change:
            self.log.append(change)

    def record(self, facts: Facts, dealer: int | None) -> Dealt:
        """A new deal after the others, dealt by the seat the rotation says unless `dealer` is given."""
        self.check_open()
        dealt_by = self.next_dealer() if dealer is None else dealer
        self.check_facts(dealt_by, facts)
        deal = Dealt(number=len(self.deals) + 1, dealer=dealt_by, facts=facts, first=facts)
        self.deals.append(deal)
        self.changed(Change("record", deal.number))
        return deal

    def amend(self, number: int, changes: dict[str, object], reason: str | None) -> Dealt:
        """A new revision of a deal: the facts given replace the ones stored (a new declarer or auction is a new
        bid, everyone passed drops every fact); refused when it changes nothing."""
        self.check_open()
        deal = self._correctable(number, reason)
        if changes.get("passed"):
            facts = Facts()
        else:
            bid = {name: None for name in BID} if {"declarer", "auction"} & set(changes) else {}
            facts = replace(deal.facts, **{**bid, **changes})  # type: ignore[arg-type]
        if facts == deal.facts:
            raise Refused("these are the facts the deal has already")
        self.check_facts(deal.dealer, facts)
        self.changed(Change("amend", number, before=deal.facts))
        deal.facts = facts
        return deal

    def void(self, number: int, reason: str | None) -> Dealt:
        """The deal stays in the log but no longer counts."""
        self.check_open()
        deal = self._correctable(number, reason)
        deal.voided = True
        self.changed(Change("void", number))
        return deal

    def _correctable(self, number: int, reason: str | None) -> Dealt:
        deal = self.deal(number)
        given(reason)
        if deal.voided:
            raise Refused(f"deal {number} is voided")
        return deal

    def close(self, drop_pot: bool) -> None:
        """No deal can change; the pot still waiting goes on to the table's next evening unless dropped (§8)."""
        self.check_open()
        self.closed, self.pot_out = True, 0 if drop_pot else self.pots()[1]
        self.changed(Change("close"))

    def reopen(self, reason: str | None) -> None:
        """Open a closed evening again (the Book refuses it when a later evening took its pot)."""
        if self.voided or not self.closed:
            raise Refused(f"evening {self.number} is open, or voided")
        given(reason)
        self.changed(Change("reopen", pot_out=self.pot_out))
        self.closed, self.pot_out = False, 0

    def void_whole(self, reason: str | None) -> None:
        """The evening stays in the log, closed, and counts nowhere."""
        if self.voided:
            raise Refused(f"evening {self.number} is voided already")
        given(reason)
        self.changed(Change("void_evening", was_open=not self.closed))
        self.voided = self.closed = True

    def last_change(self) -> Change:
        """The change undo takes back now: the newest not taken back already."""
        left = [change for change in self.log if not change.undone]
        if not left:
            raise Refused(f"evening {self.number} has no change to take back")
        return left[-1]

    def undo(self) -> Change:
        """Take back the last change, whatever it was; the undo counts as a change of its own."""
        change = self.last_change()
        if change.kind in ("record", "amend", "void"):
            self.check_open()
            assert change.deal is not None
            deal = self.deal(change.deal)
            if change.kind == "amend":
                assert change.before is not None
                deal.facts = change.before
            else:
                deal.voided = change.kind == "record"
        elif change.kind == "close":
            self.closed, self.pot_out = False, 0
        elif change.kind == "reopen":
            self.closed, self.pot_out = True, change.pot_out
        else:
            self.voided, self.closed = False, not change.was_open
        change.undone = True
        self.changed()
        return change


def given(reason: str | None) -> str:
    """A reason typed, as a correction needs one."""
    if not reason or not reason.strip():
        raise Refused("a reason is needed")
    return reason.strip()
