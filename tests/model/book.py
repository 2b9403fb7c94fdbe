"""The whole ledger: players and their renames, evenings and the pot that waits between them (RULES §8),
idempotency keys, payments, each evening's settlement and the tab (README).

The pot between evenings, as §8 has it: a pot still waiting when an evening closes stays on the table (the same
players at the same game) and the table's very next evening takes it when it starts, whatever options that evening
changes, `pot_carryover` included (an evening of the table started before the pot was left waiting is its next one
all the same, and does not take it). A voided evening counts nowhere: the pot it took waits again for the next
evening, and its own pot rides on nothing. Voiding or reopening an evening whose pot a later evening took is
refused, as is taking back the void of an evening whose pot went to another evening meanwhile (it would count
twice).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from model.evenings import Dealt, Evening, given
from model.rules import SEATED, Facts, Refused, Rules

MOST_MONEY = 100000
"""The most money a stake or a payment may be."""


def name_key(name: str) -> str:
    """Names are one when they differ only in case or accents (DESIGN, Conventions)."""
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def cents(amount: str) -> int:
    """An amount such as `0.10` or `2,50`, in cents: 0 to MOST_MONEY with at most two decimals."""
    try:
        value = Decimal(amount.strip().replace(",", "."))
    except InvalidOperation:
        raise Refused(f"money {amount!r}") from None
    if not value.is_finite() or not 0 <= value <= MOST_MONEY or value != value.quantize(Decimal("0.01")):
        raise Refused(f"money {amount!r}")
    return int(value * 100)


@dataclass
class Payment:
    """Money handed from one player to another (ids), in cents of a currency; a voided one no longer counts."""

    number: int
    payer: int
    payee: int
    cents: int
    currency: str
    key: str | None
    voided: bool = False


class Book:
    """Every player, evening and payment; each write is refused whole (raising `Refused`, changing nothing) or
    done whole."""

    def __init__(self) -> None:
        self.players: dict[int, str] = {}
        self.evenings: list[Evening] = []
        self.keys: dict[str, tuple[int, int]] = {}
        self.payments: list[Payment] = []

    # Players

    def find(self, name: str) -> int | None:
        """The player of that name, case and accents aside."""
        return next((pid for pid, known in self.players.items() if name_key(known) == name_key(name)), None)

    def names(self, evening: Evening) -> list[str]:
        """The evening's players as they are called now."""
        return [self.players[pid] for pid in evening.players]

    def rename(self, old: str, new: str) -> None:
        """Every past deal follows the player; a name another player has is refused."""
        pid = self.find(old)
        cleaned = " ".join(new.split())
        if pid is None or not cleaned or self.find(cleaned) not in (None, pid):
            raise Refused(f"rename {old!r} to {new!r}")
        self.players[pid] = cleaned

    # Evenings

    def evening(self, number: int) -> Evening:
        if not 1 <= number <= len(self.evenings):
            raise Refused(f"no evening {number}")
        return self.evenings[number - 1]

    def start(
        self,
        names: Sequence[str],
        profile: str,
        options: Mapping[str, object],
        stake: str,
        currency: str,
        dealer: str | None = None,
    ) -> Evening:
        """Seat the players in turn order (new names become players) and take the pot waiting for their table."""
        rules = Rules.of(profile, options)
        keys = [name_key(name) for name in names]
        if len(names) not in SEATED[profile] or len(set(keys)) < len(keys) or not all(keys):
            raise Refused(f"{len(names)} players for {profile}, or a name twice")
        if rules.options.get("dealer_shares") is True and len(names) == rules.holding:
            raise Refused("dealer_shares with nobody sitting out")
        if rules.options.get("mediatore_outbids_chiamo") is True and rules.options.get("mediatore") is False:
            raise Refused("mediatore_outbids_chiamo without mediatore")
        if len(currency) != 3 or not currency.isalpha():
            raise Refused(f"currency {currency!r}")
        stake_cents = cents(stake)
        if dealer is not None and name_key(dealer) not in keys:
            raise Refused(f"dealer {dealer!r} is not seated")
        ids = []
        for name in names:
            pid = self.find(name)
            if pid is None:
                pid = len(self.players) + 1
                self.players[pid] = " ".join(name.split())
            ids.append(pid)
        first = keys.index(name_key(dealer)) if dealer is not None else len(names) - 1
        evening = Evening(len(self.evenings) + 1, ids, rules, stake_cents, currency.upper(), first)
        source = self.waiting_for(evening)
        if source is not None:
            evening.pot_in, evening.pot_from = source.pot_out, source.number
        self.evenings.append(evening)
        return evening

    def same_table(self, one: Evening, other: Evening) -> bool:
        """The same players (in any order) at the same game."""
        return one.rules.profile == other.rules.profile and set(one.players) == set(other.players)

    def taker(self, evening: Evening, besides: Evening | None = None) -> Evening | None:
        """The evening that counts (not voided) and took this one's pot, if any."""
        return next(
            (e for e in self.evenings if e.pot_from == evening.number and not e.voided and e is not besides), None
        )

    def waiting_for(self, evening: Evening) -> Evening | None:
        """The evening whose pot waits for this one: the table's latest evening that counts, when it is closed and
        left a pot that no evening that counts took."""
        latest = next((e for e in reversed(self.evenings) if self.same_table(e, evening) and not e.voided), None)
        if latest is None or not latest.closed or latest.pot_out == 0 or self.taker(latest) is not None:
            return None
        return latest

    def check_untaken(self, evening: Evening) -> None:
        """Refuse to reopen or void an evening whose pot a later evening took and counts."""
        taker = self.taker(evening)
        if taker is not None:
            raise Refused(f"evening {taker.number} took the pot of evening {evening.number}")

    def check_liftable(self, evening: Evening) -> None:
        """Refuse to count a voided evening again when the pot it took no longer waits for it: its evening is
        reopened, voided or its pot changed, or another evening took that pot since."""
        if evening.pot_from is None:
            return
        source = self.evening(evening.pot_from)
        if not source.closed or source.voided or source.pot_out != evening.pot_in or self.taker(source, evening):
            raise Refused(f"the pot of evening {source.number} no longer waits for evening {evening.number}")

    def record(
        self, number: int, facts: Facts, dealer: int | None = None, key: str | None = None
    ) -> tuple[Dealt, bool]:
        """A new deal, or with a key seen before the deal it stored as it stands now, nothing written (True), when
        the facts are the ones it was first recorded with; a key of another evening's deal, or of other facts, is
        refused."""
        evening = self.evening(number)
        evening.check_open()
        if key is not None and key in self.keys:
            held, deal_number = self.keys[key]
            deal = self.evening(held).deal(deal_number)
            if held != number or deal.first != facts or dealer not in (None, deal.dealer):
                raise Refused(f"key {key!r} holds another deal")
            return deal, True
        deal = evening.record(facts, dealer)
        if key is not None:
            self.keys[key] = (number, deal.number)
        return deal, False

    def close(self, number: int, drop_pot: bool = False) -> None:
        self.evening(number).close(drop_pot)

    def reopen(self, number: int, reason: str | None) -> None:
        evening = self.evening(number)
        self.check_untaken(evening)
        evening.reopen(reason)

    def void_evening(self, number: int, reason: str | None) -> None:
        evening = self.evening(number)
        given(reason)
        self.check_untaken(evening)
        evening.void_whole(reason)

    def undo(self, number: int, seen: int | None = None) -> str:
        """Take back the evening's last change; the kind taken back. With `seen`, the evening's revision when the
        scorekeeper looked: refused when the evening changed since."""
        evening = self.evening(number)
        if seen is not None and seen != evening.revision:
            raise Refused(f"evening {number} changed since revision {seen}")
        change = evening.last_change()
        if change.kind == "close":
            self.check_untaken(evening)
        if change.kind == "void_evening":
            self.check_liftable(evening)
        return evening.undo().kind

    # Money

    def settlement(self, number: int) -> tuple[dict[str, int], dict[str, int]]:
        """An evening that counts: game points and money (cents) per player."""
        evening = self.evening(number)
        if evening.voided:
            raise Refused(f"evening {number} is voided")
        points = dict(zip(self.names(evening), evening.totals(), strict=True))
        return points, {name: value * evening.stake for name, value in points.items()}

    def pay(self, payer: str, payee: str, amount: str, currency: str, key: str | None = None) -> tuple[Payment, bool]:
        """Money handed over, or with a key seen before the payment it stored (True), when it is the same one."""
        giver, taker, paid = self.find(payer), self.find(payee), cents(amount)
        if giver is None or taker is None or giver == taker or paid < 1:
            raise Refused(f"{payer} pays {payee} {amount}")
        payment = Payment(len(self.payments) + 1, giver, taker, paid, currency, key)
        same = [p for p in self.payments if key is not None and p.key == key]
        if same:
            held = same[0]
            if (held.payer, held.payee, held.cents, held.currency) != (giver, taker, paid, currency):
                raise Refused(f"key {key!r} holds another payment")
            return held, True
        self.payments.append(payment)
        return payment, False

    def void_payment(self, number: int, reason: str | None) -> None:
        given(reason)
        if not 1 <= number <= len(self.payments) or self.payments[number - 1].voided:
            raise Refused(f"payment {number}")
        self.payments[number - 1].voided = True

    def tab(self) -> dict[str, dict[str, int]]:
        """What is still owed per currency: the money of every evening that counts, less the payments that stand
        (a payer owes less, a payee is owed less); players square with nobody are left out."""
        owed: dict[str, dict[int, int]] = {}
        for evening in self.evenings:
            if not evening.voided:
                for pid, points in zip(evening.players, evening.totals(), strict=True):
                    balances = owed.setdefault(evening.currency, {})
                    balances[pid] = balances.get(pid, 0) + points * evening.stake
        for payment in self.payments:
            if not payment.voided:
                balances = owed.setdefault(payment.currency, {})
                balances[payment.payer] = balances.get(payment.payer, 0) + payment.cents
                balances[payment.payee] = balances.get(payment.payee, 0) - payment.cents
        shown = {
            currency: {self.players[pid]: value for pid, value in balances.items() if value}
            for currency, balances in owed.items()
        }
        return {currency: balances for currency, balances in shown.items() if balances}
