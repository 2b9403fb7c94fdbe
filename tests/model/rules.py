"""The scoring rules of RULES.md §1-§8: a profile and its options, the facts of a deal, which fact is still needed,
the sweep that counts and every seat's game points.

Seats are numbers, in turn order (the next seat is the right-hand neighbour). The worked examples of RULES §5, with
Anna, Bruno and Carla in seats 0, 1 and 2 (and Dario in seat 3):

>>> pagat = Rules.of("pagat")
>>> payouts(pagat, 3, 2, Facts(declarer=1, contract="solo", thirds=22))  # 1.
(-2, 4, -2)
>>> payouts(pagat, 3, 1, Facts(declarer=2, contract="chiamo", called="3D", holder=0, thirds=17, last_trick="opponents"))
(1, 1, -2)
>>> payouts(pagat, 3, 2, Facts(declarer=0, contract="solissimo", aggravation="dividete", thirds=24))  # 3.
(16, -8, -8)
>>> payouts(pagat, 3, 2, Facts(declarer=0, contract="solissimo", aggravation="scegliete", thirds=35, tricks=12))
(64, -32, -32)
>>> payouts(pagat, 3, 2, Facts(declarer=1, contract="solo", thirds=33))  # 5.
(-6, 12, -6)
>>> payouts(pagat, 3, 2, Facts(declarer=1, contract="chiamo", thirds=4, last_trick="declarer"))  # 6.
(3, -6, 3)
>>> payouts(pagat, 3, 2, Facts(declarer=1, contract="chiamo", thirds=4, last_trick="opponents"))  # 7.
(1, -2, 1)
>>> payouts(pagat, 3, 2, Facts())  # 8.
(0, 0, 0)
>>> payouts(Rules.of("cavendish"), 3, 2, Facts(declarer=0, contract="chiamo", thirds=22))  # 9.
(18, -9, -9)
>>> payouts(pagat, 4, 3, Facts(declarer=0, contract="solo", thirds=20))  # 10.
(4, -2, -2, 0)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import product

DEAL_THIRDS = 35
"""Every card point of a deal, the last trick's bonus included, in thirds (§1)."""
WINS_AT = 18
LAST_TRICK = 3
STRAMAZZO_BELOW = 3
"""A losing side whose counted points are fewer thirds than this suffers a stramazzo (§3)."""
MONTE_HOLDS = frozenset(3 * aces + figures for aces in range(5) for figures in range(5 - aces))
"""What the monte's four cards can hold: aces are 3 thirds, figures 1, the rest 0 (§1); 11 is not among them."""
CAVENDISH_SWEEP = 70
AGGRAVATION = {"dividete": 2, "scegliete": 4}
THREES = ("3D", "3C", "3S", "3B", "3")
"""The calls of a three (`3` alone: the suit was not said)."""

_SWEEPS: dict[str, object] = {
    "sweeps": False,
    "cappotto_multiplier": 2,
    "stramazzo_multiplier": 3,
    "sweeps_on_loss": True,
    "stramazzo_counts": "monte",
}
_EVERY: dict[str, object] = {"declarer_always_leads": False, "pot_carryover": False, "game_to": None}
DEFAULTS: dict[str, dict[str, object]] = {
    "pagat": {**_SWEEPS, "sweeps": True, **_EVERY, "dealer_shares": False, "call_own_card": True},
    "cavendish": {**_EVERY, "call_own_card": True},
    "tretre": {
        **_SWEEPS,
        **_EVERY,
        "declarer_always_leads": True,
        "pot_carryover": True,
        "contract_multipliers": False,
        "call_own_card": False,
    },
    "quartiglio": {
        **_SWEEPS,
        **_EVERY,
        "contract_multipliers": False,
        "monte": True,
        "mediatore_outbids_chiamo": False,
        "call_own_card": False,
    },
    "quintiglio": {
        **_SWEEPS,
        **_EVERY,
        "contract_multipliers": False,
        "mediatore": False,
        "mediatore_outbids_chiamo": False,
        "call_own_card": False,
    },
}
"""Each profile's options and their defaults, the table of §6."""
SEATED = {"pagat": (3, 4), "cavendish": (3, 4), "tretre": (3, 4), "quartiglio": (4,), "quintiglio": (5,)}
HOLDING = {"pagat": 3, "cavendish": 3, "tretre": 3, "quartiglio": 4, "quintiglio": 5}
"""How many hold cards; a fourth at a three-player game deals and sits the deal out (§2)."""


class Refused(Exception):
    """The model refuses a write: the ledger must refuse it too, and write nothing."""


@dataclass(frozen=True)
class Rules:
    """A profile with every option of its own resolved (§4, §6)."""

    profile: str
    options: Mapping[str, object]

    @classmethod
    def of(cls, profile: str, given: Mapping[str, object] | None = None) -> Rules:
        """The profile with the options given over its defaults; an option it does not have is refused (§6)."""
        unknown = set(given or {}) - set(DEFAULTS[profile])
        if unknown:
            raise Refused(f"{profile} has no option {sorted(unknown)}")
        return cls(profile, {**DEFAULTS[profile], **(given or {})})

    @property
    def holding(self) -> int:
        return HOLDING[self.profile]

    @property
    def has_monte(self) -> bool:
        """Four undealt cards, except in quintiglio and in quartiglio with monte=off."""
        return self.profile != "quintiglio" and self.options.get("monte", True) is True

    @property
    def tricks(self) -> int:
        """Every trick of a deal: 12 at three, 9 (with monte) or 10 at four, 8 at five."""
        return (40 - (4 if self.has_monte else 0)) // self.holding

    @property
    def contracts(self) -> tuple[str, ...]:
        """The contracts of the game, low to high (§4)."""
        if self.profile == "cavendish":
            return ("chiamo",)
        if self.profile == "quartiglio":
            return ("chiamo", "mediatore", "solo") + (("solissimo",) if self.has_monte else ())
        if self.profile == "quintiglio":
            return ("chiamo",) + (("mediatore",) if self.options["mediatore"] else ()) + ("solo",)
        return ("chiamo", "solo", "solissimo")

    def word(self, contract: str) -> str:
        """How the contract is bid: cavendish's one bid is `play` (§4)."""
        return "play" if self.profile == "cavendish" and contract == "chiamo" else contract

    @property
    def partnership(self) -> bool:
        """In quartiglio and quintiglio the holder of the three a chiamo calls plays beside the declarer (§4)."""
        return self.profile in ("quartiglio", "quintiglio")

    @property
    def threes_only(self) -> bool:
        """Only a three may be called (quartiglio, quintiglio)."""
        return self.partnership

    def number(self, option: str) -> int:
        """A numeric option's value."""
        value = self.options[option]
        assert isinstance(value, int)
        return value

    def value(self, contract: str) -> int:
        """The base amount per opponent: pagat's ladder (§4); elsewhere 1, or solo 2 and solissimo 4 with
        contract_multipliers (§8)."""
        ladder = self.profile == "pagat" or self.options.get("contract_multipliers") is True
        return {"solo": 2, "solissimo": 4}.get(contract, 1) if ladder else 1


@dataclass(frozen=True)
class Facts:
    """What happened at the table in one deal; no declarer: everyone passed. `declarer` and a seat `holder` are seat
    numbers (`holder` may also be `monte` or `declarer`); `thirds`, `tricks` and `last_trick` (`declarer` or
    `opponents`) are the declarer side's; `auction`, when the deal was told by its calls, the calls in speaking
    order."""

    declarer: int | None = None
    contract: str | None = None
    aggravation: str | None = None
    called: str | None = None
    holder: int | str | None = None
    thirds: int | None = None
    tricks: int | None = None
    last_trick: str | None = None
    monte_thirds: int | None = None
    auction: tuple[str, ...] | None = None


def holding_cards(rules: Rules, seated: int, dealer: int) -> list[int]:
    """Who holds cards, in speaking order from the seat after the dealer (§2)."""
    order = [(dealer + 1 + step) % seated for step in range(seated)]
    return [seat for seat in order if not (seated > rules.holding and seat == dealer)]


def sweep(rules: Rules, thirds: int, tricks: int | None, last_trick: str | None, monte_thirds: int) -> str | None:
    """The sweep the facts make, read by the table's `stramazzo_counts` (§3, §8): all the losing side's thirds
    less, when it took the last trick, the bonus (and with `tricks` the monte) hold fewer than 3."""
    lost = min(thirds, DEAL_THIRDS - thirds)
    if lost == 0:
        losers_tricks = tricks if thirds == 0 else rules.tricks - (tricks or 0)
        return "cappotto" if losers_tricks == 0 else "stramazzo"
    reading = rules.options.get("stramazzo_counts", "monte")
    if reading == "all":
        return None
    losers_took_last = last_trick == ("opponents" if thirds >= WINS_AT else "declarer")
    counted = lost - (LAST_TRICK + (monte_thirds if reading == "tricks" else 0) if losers_took_last else 0)
    return "stramazzo" if counted < STRAMAZZO_BELOW else None


def counted_sweep(rules: Rules, facts: Facts, tricks: int | None, last_trick: str | None, monte: int) -> str | None:
    """The sweep that multiplies the payout: cavendish knows only all tricks or none (§4); elsewhere sweeps=on, and
    a declarer who lost suffers one only with sweeps_on_loss (§3)."""
    assert facts.thirds is not None
    found = sweep(rules, facts.thirds, tricks, last_trick, monte)
    if rules.profile == "cavendish":
        return found if found == "cappotto" else None
    if not rules.options["sweeps"] or (facts.thirds < WINS_AT and not rules.options["sweeps_on_loss"]):
        return None
    return found


def completions(rules: Rules, facts: Facts) -> Iterator[tuple[int | None, str | None, int]]:
    """Every (tricks, last trick, monte's thirds) the table could have seen that agrees with the facts given."""
    thirds = facts.thirds
    assert thirds is not None
    every = list(range(rules.tricks + 1)) if thirds in (0, DEAL_THIRDS) else [None]
    lasts = [
        side
        for side, can in (("declarer", thirds >= LAST_TRICK), ("opponents", thirds <= DEAL_THIRDS - LAST_TRICK))
        if can and facts.last_trick in (None, side)
    ]
    for tricks, last in product([facts.tricks] if facts.tricks is not None else every, lasts):
        if tricks is not None and not _tricks_fit(rules, thirds, tricks, last):
            continue
        taking = thirds if last == "declarer" else DEAL_THIRDS - thirds
        montes = [m for m in MONTE_HOLDS if m <= taking - LAST_TRICK and facts.monte_thirds in (None, m)]
        yield from ((tricks, last, monte) for monte in (montes if rules.has_monte else [0]))


def _tricks_fit(rules: Rules, thirds: int, tricks: int, last: str | None) -> bool:
    """No trick holds no thirds and no last trick; all of them hold all 35 thirds and the last one."""
    if tricks == 0:
        return thirds == 0 and last != "declarer"
    if tricks == rules.tricks:
        return thirds == DEAL_THIRDS and last != "opponents"
    return 0 <= tricks <= rules.tricks


def missing(rules: Rules, facts: Facts) -> str | None:
    """The fact the rules still need to score a played deal, asked only where the payout depends on it (§3): the
    holder of a chiamo's three where the holder is a partner, then the tricks, the last trick, the monte's thirds."""
    if rules.partnership and facts.contract == "chiamo" and facts.holder is None:
        return "holder"
    seen = list(completions(rules, facts))
    if len({counted_sweep(rules, facts, *seen_one) for seen_one in seen}) <= 1:
        return None
    for index, name in enumerate(("tricks", "last_trick", "monte_thirds")):
        if getattr(facts, name) is None and len({one[index] for one in seen}) > 1:
            return name
    raise AssertionError(f"undecided, yet every fact is given: {facts}")


def refusal(rules: Rules, seated: int, dealer: int, facts: Facts) -> str | None:
    """Why the facts of a played deal cannot be, or None when the rules can score them (§1-§4, §8)."""
    holding = holding_cards(rules, seated, dealer)
    if facts.declarer not in holding:
        return "the declarer holds no cards"
    if facts.contract not in rules.contracts:
        return f"{rules.profile} has no {facts.contract}"
    if facts.aggravation is not None and facts.contract != "solissimo":
        return "dividete and scegliete exist only on a solissimo"
    if (facts.called is not None or facts.holder is not None) and facts.contract not in ("chiamo", "mediatore"):
        return "a card is called only in a chiamo or a mediatore"
    if rules.threes_only and facts.called is not None and facts.called not in THREES:
        return "only a three may be called"
    if facts.holder == "declarer" and not rules.options["call_own_card"]:
        return "call_own_card=off"
    if facts.holder == "monte" and not rules.has_monte:
        return "no monte"
    if isinstance(facts.holder, int) and (facts.holder not in holding or facts.holder == facts.declarer):
        return "the holder is another player holding cards"
    if facts.thirds is None or not 0 <= facts.thirds <= DEAL_THIRDS:
        return "thirds are 0 to 35"
    if facts.monte_thirds is not None and not rules.has_monte:
        return "no monte"
    if not any(True for _ in completions(rules, facts)):
        return "tricks, last trick and monte contradict the thirds"
    needed = missing(rules, facts)
    return f"{needed} is needed" if needed else None


def payouts(rules: Rules, seated: int, dealer: int, facts: Facts, pot: int = 0) -> tuple[int, ...]:
    """Every seat's game points, summing to zero, with `pot` passed deals riding on the deal (§4, §5, §8)."""
    points = [0] * seated
    if facts.declarer is None:
        return tuple(points)
    assert facts.thirds is not None and facts.contract is not None
    won = facts.thirds >= WINS_AT
    partner = facts.holder if rules.partnership and facts.contract == "chiamo" else None
    partner = partner if isinstance(partner, int) else None
    opponents = [seat for seat in holding_cards(rules, seated, dealer) if seat not in (facts.declarer, partner)]
    if seated > rules.holding and rules.options.get("dealer_shares") is True:
        opponents.append(dealer)
    found = {counted_sweep(rules, facts, *seen) for seen in completions(rules, facts)}
    assert len(found) == 1, f"a fact is missing: {facts}"
    the_sweep = found.pop()
    if rules.profile == "cavendish":
        amount = CAVENDISH_SWEEP if the_sweep == "cappotto" else abs(facts.thirds - (DEAL_THIRDS - facts.thirds))
    else:
        amount = rules.value(facts.contract) * AGGRAVATION.get(facts.aggravation or "", 1)
        amount *= rules.number(f"{the_sweep}_multiplier") if the_sweep else 1
    amount *= 1 + pot
    sign = 1 if won else -1
    for seat in opponents:
        points[seat] = -sign * amount
    if partner is not None:
        points[partner] = sign * amount
    points[facts.declarer] = -sum(points)
    return tuple(points)
