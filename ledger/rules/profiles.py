"""Rule profiles a table chooses per evening, and their options (RULES §4 and §6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ledger.errors import LedgerError
from ledger.frozen import FrozenDict, freeze
from ledger.i18n import _
from ledger.rules.cards import DECK, MONTE_CARDS, Rank
from ledger.rules.contracts import Contract
from ledger.rules.points import format_points, parse_points
from ledger.rules.seats import check_seats

OptionValue = bool | int

_SWEEP_OPTIONS: dict[str, OptionValue] = {
    "sweeps": False,
    "cappotto_multiplier": 2,
    "stramazzo_multiplier": 3,
    "sweeps_on_loss": True,
}

DEFAULTS: dict[str, dict[str, OptionValue]] = {
    "pagat": {**_SWEEP_OPTIONS, "sweeps": True, "dealer_shares": False, "declarer_always_leads": False},
    "cavendish": {"declarer_always_leads": False},
    "tretre": {**_SWEEP_OPTIONS, "declarer_always_leads": False, "contract_multipliers": False, "pot_carryover": True},
    "quartiglio": {**_SWEEP_OPTIONS, "declarer_always_leads": False, "monte": True, "mediatore_outbids_chiamo": True},
    "quintiglio": {**_SWEEP_OPTIONS, "declarer_always_leads": False, "mediatore": False},
}

PROFILE_ALIASES = {
    "italian": "pagat",
    "calabresella": "pagat",
    "american": "cavendish",
    "calabrasella": "cavendish",
    "partita-lunga": "tretre",
    "partita_lunga": "tretre",
    "mediatore": "quartiglio",
    "quadrigliati": "quartiglio",
    "bellora": "quintiglio",
}

TRUE_WORDS = {"on", "true", "yes", "y", "1", "si", "sì"}
FALSE_WORDS = {"off", "false", "no", "n", "0"}


class Scale(Enum):
    """How card points are written: Italian whole points and thirds, or American 0..35."""

    ITALIAN = "italian"
    AMERICAN = "american"


class Partnership(Enum):
    """Who plays beside the declarer in chiamo: nobody, or the holder of the called three (openly or secretly)."""

    NONE = "none"
    CALLED = "called"
    SECRET = "secret"


class Tariff(Enum):
    """How the amount per opponent is reached."""

    LADDER = "ladder"
    """The contract's value (dividete x2, scegliete x4), times the sweep."""
    FLAT = "flat"
    """The same for every contract (dividete x2, scegliete x4), times the sweep and the pot."""
    DIFFERENCE = "difference"
    """The difference of the two sides' points; all tricks or none: 70."""


CONTRACT_VALUE = {Contract.CHIAMO: 1, Contract.MEDIATORE: 1, Contract.SOLO: 2, Contract.SOLISSIMO: 4}


@dataclass(frozen=True)
class Profile:
    """A rule profile with every option resolved: everything that makes one game of the family differ.

    `name` and `options` are what an evening stores; every other field is derived from them by
    `make_profile`, and code elsewhere asks these fields, never the name.

    >>> pagat = make_profile("pagat")
    >>> pagat.scale.value, pagat.active_players, pagat.partnership.value, pagat.value(Contract.SOLO)
    ('italian', 3, 'none', 2)
    >>> make_profile("quintiglio").partnership.value, make_profile("quintiglio").seat_counts
    ('secret', (5,))
    """

    name: str
    options: Mapping[str, OptionValue] = FrozenDict()
    scale: Scale = Scale.ITALIAN
    seat_counts: tuple[int, ...] = (3, 4)
    active_players: int = 3
    """Who holds cards; with more seated, the dealer sits the deal out."""
    partnership: Partnership = Partnership.NONE
    callable_ranks: frozenset[Rank] | None = None
    """The ranks a chiamo may name; None: any card."""
    calls_card: frozenset[Contract] = frozenset({Contract.CHIAMO, Contract.MEDIATORE})
    """The contracts in which the declarer names a card."""
    ladder: tuple[frozenset[Contract], ...] = ()
    """The bid levels, low to high; contracts on one level do not outbid each other."""
    tariff: Tariff = Tariff.LADDER
    contract_values: Mapping[Contract, int] = FrozenDict()
    has_monte: bool = True
    sweeps: bool = False
    """Whether cappotto and stramazzo count (the difference payment has its own all-tricks rule)."""
    cappotto_multiplier: int = 2
    stramazzo_multiplier: int = 3
    sweeps_on_loss: bool = True
    dealer_shares: bool = False
    declarer_always_leads: bool = False
    pot_carryover: bool = False
    bid_words: Mapping[Contract, str] = FrozenDict()
    """How a contract is called at this table when it is not its own name (cavendish's one bid: play)."""

    def __post_init__(self) -> None:
        freeze(self, "options", "contract_values", "bid_words")

    def __getitem__(self, option: str) -> OptionValue:
        return self.options[option]

    @property
    def american(self) -> bool:
        """Points are written 0..35 rather than as whole points and thirds."""
        return self.scale is Scale.AMERICAN

    def sits_out(self, seated: int) -> bool:
        """With more players seated than hold cards, the dealer sits the deal out."""
        return seated > self.active_players

    @property
    def monte_cards(self) -> int:
        """The cards left undealt (the monte), which count for the side that takes the last trick."""
        return MONTE_CARDS if self.has_monte else 0

    def tricks_per_deal(self, active_players: int) -> int:
        """12 at three, 9 (with monte) or 10 at four, 8 at five."""
        return (len(DECK) - self.monte_cards) // active_players

    @property
    def contracts(self) -> frozenset[Contract]:
        """Every contract this profile knows."""
        return frozenset().union(*self.ladder)

    @property
    def bids(self) -> tuple[Contract, ...]:
        """The contracts low to high."""
        return tuple(sorted(self.contracts, key=self.level))

    @property
    def aggravations(self) -> bool:
        """Whether a solissimo may be raised to dividete or scegliete."""
        return Contract.SOLISSIMO in self.contracts

    def level(self, contract: Contract) -> int:
        """The height of a contract on the ladder."""
        return next(i for i, level in enumerate(self.ladder) if contract in level)

    def value(self, contract: Contract) -> int:
        """The contract's base amount per opponent."""
        return self.contract_values.get(contract, 1)

    def word(self, contract: Contract) -> str:
        """The word the table uses for a contract (`play` in cavendish)."""
        return self.bid_words.get(contract, contract.value)

    def multiplier(self, sweep: str) -> int:
        """The multiplier of a sweep, by its name (cappotto or stramazzo)."""
        return self.cappotto_multiplier if sweep == "cappotto" else self.stramazzo_multiplier

    def format_points(self, thirds: int) -> str:
        """Thirds on this profile's scale: `7+1/3`, or `22` in American points."""
        return format_points(thirds, self.american)

    def parse_points(self, text: str) -> int:
        """Thirds from points typed on this profile's scale."""
        return parse_points(text, self.american)

    def check_players(self, players: Sequence[str]) -> None:
        """Refuse blank or repeated names, a count of seats the game does not have, and dealer_shares where nobody
        sits out (it would do nothing)."""
        check_seats(players, self.seat_counts, self.name)
        if self.dealer_shares and not self.sits_out(len(players)):
            raise LedgerError(
                _(
                    "dealer_shares=on with {seated} seated: nobody sits out, so it would do nothing; "
                    "it applies with {needed} seated"
                ).format(seated=len(players), needed=self.active_players + 1)
            )

    def describe(self) -> str:
        """`pagat (sweeps=on, ...)` for tables and notes."""
        shown = ", ".join(f"{k}={_show(v)}" for k, v in self.options.items())
        return f"{self.name} ({shown})" if shown else self.name

    def label(self) -> str:
        """`pagat`, or `pagat (sweeps=off)` with just the options that differ from the profile's defaults."""
        changed = [f"{k}={_show(v)}" for k, v in self.options.items() if DEFAULTS[self.name][k] != v]
        return f"{self.name} ({', '.join(changed)})" if changed else self.name


def _show(value: OptionValue) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def profile_name(text: str) -> str:
    """The canonical profile name for a name or alias."""
    key = text.strip().lower()
    key = PROFILE_ALIASES.get(key, key)
    if key not in DEFAULTS:
        raise LedgerError(_("profile {text!r}: allowed are {profiles}").format(text=text, profiles=", ".join(DEFAULTS)))
    return key


def parse_option(text: str) -> tuple[str, str]:
    """Split `key=value` (hyphens in the key are accepted for underscores)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise LedgerError(
            _("option {text!r}: write key=value, e.g. sweeps=off or stramazzo_multiplier=4").format(text=text)
        )
    return key.strip().lower().replace("-", "_"), value.strip()


def _option_value(option: str, raw: OptionValue | str, default: OptionValue) -> OptionValue:
    if isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
        word = str(raw).strip().lower()
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        raise LedgerError(_("option {option}={raw}: {option} is on or off").format(option=option, raw=raw))
    try:
        number = int(raw)
    except (TypeError, ValueError):
        number = 0
    if isinstance(raw, bool) or number < 1 or number > 100:
        raise LedgerError(
            _("option {option}={raw}: {option} is a whole number from 1 to 100").format(option=option, raw=raw)
        )
    return number


def make_profile(name: str = "pagat", options: Mapping[str, OptionValue | str] | Iterable[str] = ()) -> Profile:
    """Resolve a profile from its name and options (`{'sweeps': 'off'}` or `['sweeps=off']`)."""
    canonical = profile_name(name)
    defaults = DEFAULTS[canonical]
    given = dict(options) if isinstance(options, Mapping) else dict(map(parse_option, options))
    resolved = dict(defaults)
    for option, raw in given.items():
        key = option.strip().lower().replace("-", "_")
        if key not in defaults:
            allowed = ", ".join(defaults) or _("none")
            raise LedgerError(
                _("option {option!r} does not exist in profile {canonical}: its options are {allowed}").format(
                    option=option, canonical=canonical, allowed=allowed
                )
            )
        resolved[key] = _option_value(key, raw, defaults[key])
    return _GAMES[canonical](canonical, resolved)


def _common(name: str, o: dict[str, OptionValue]) -> dict[str, Any]:
    """The fields every profile reads the same way from its options."""
    return {
        "name": name,
        "options": o,
        "sweeps": bool(o.get("sweeps", False)),
        "cappotto_multiplier": int(o.get("cappotto_multiplier", 2)),
        "stramazzo_multiplier": int(o.get("stramazzo_multiplier", 3)),
        "sweeps_on_loss": bool(o.get("sweeps_on_loss", True)),
        "dealer_shares": bool(o.get("dealer_shares", False)),
        "declarer_always_leads": bool(o.get("declarer_always_leads", False)),
    }


_THREE_LEVELS = (frozenset({Contract.CHIAMO}), frozenset({Contract.SOLO}), frozenset({Contract.SOLISSIMO}))
_THREES = frozenset({Rank.TRE})


def _pagat(name: str, o: dict[str, OptionValue]) -> Profile:
    """Italian Calabresella: chiamo 1, solo 2, solissimo 4; three play, a fourth deals and sits out."""
    return Profile(**_common(name, o), ladder=_THREE_LEVELS, contract_values=CONTRACT_VALUE)


def _cavendish(name: str, o: dict[str, OptionValue]) -> Profile:
    """American Calabrasella: one bid, play; the difference of the two sides' points."""
    return Profile(
        **_common(name, o),
        scale=Scale.AMERICAN,
        ladder=(frozenset({Contract.CHIAMO}),),
        calls_card=frozenset(),
        tariff=Tariff.DIFFERENCE,
        bid_words={Contract.CHIAMO: "play"},
    )


def _tretre(name: str, o: dict[str, OptionValue]) -> Profile:
    """Terziglio partita lunga: +2/-1/-1 whatever the contract, the pot of passed deals carried over."""
    values = CONTRACT_VALUE if o["contract_multipliers"] else {}
    return Profile(
        **_common(name, o),
        ladder=_THREE_LEVELS,
        tariff=Tariff.FLAT,
        contract_values=values,
        pot_carryover=bool(o["pot_carryover"]),
    )


def _quartiglio(name: str, o: dict[str, OptionValue]) -> Profile:
    """Four players: chiamo 2 against 2 with the holder of the called three, mediatore and solo 1 against 3."""
    monte = bool(o["monte"])
    chiamo, mediatore = frozenset({Contract.CHIAMO}), frozenset({Contract.MEDIATORE})
    low = [chiamo, mediatore] if o["mediatore_outbids_chiamo"] else [chiamo | mediatore]
    top = [frozenset({Contract.SOLISSIMO})] if monte else []
    return Profile(
        **_common(name, o),
        seat_counts=(4,),
        active_players=4,
        partnership=Partnership.CALLED,
        callable_ranks=_THREES,
        ladder=(*low, frozenset({Contract.SOLO}), *top),
        has_monte=monte,
    )


def _quintiglio(name: str, o: dict[str, OptionValue]) -> Profile:
    """Five players, no monte: chiamo with a secret partner 2 against 3, solo 1 against 4."""
    middle = [frozenset({Contract.MEDIATORE})] if o["mediatore"] else []
    return Profile(
        **_common(name, o),
        seat_counts=(5,),
        active_players=5,
        partnership=Partnership.SECRET,
        callable_ranks=_THREES,
        has_monte=False,
        ladder=(frozenset({Contract.CHIAMO}), *middle, frozenset({Contract.SOLO})),
    )


_GAMES: dict[str, Callable[[str, dict[str, OptionValue]], Profile]] = {
    "pagat": _pagat,
    "cavendish": _cavendish,
    "tretre": _tretre,
    "quartiglio": _quartiglio,
    "quintiglio": _quintiglio,
}
