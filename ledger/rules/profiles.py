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
from ledger.rules.options import OPTIONS, OptionValue, StramazzoCounts, show
from ledger.rules.points import format_points, parse_points
from ledger.rules.seats import check_seats


def _defaults(**values: OptionValue) -> dict[str, OptionValue]:
    """A profile's options and their defaults, in the order of OPTIONS (so every profile describes alike)."""
    return {name: values[name] for name in OPTIONS if name in values}


_SWEEPS: dict[str, OptionValue] = {
    "sweeps": False,
    "cappotto_multiplier": 2,
    "stramazzo_multiplier": 3,
    "sweeps_on_loss": True,
    "stramazzo_counts": StramazzoCounts.MONTE.value,
}
_EVERY: dict[str, OptionValue] = {
    "declarer_always_leads": False,
    "pot_carryover": False,
    "game_to": None,
    "call_own_card": True,
}

DEFAULTS: dict[str, dict[str, OptionValue]] = {
    "pagat": _defaults(**_EVERY, **(_SWEEPS | {"sweeps": True}), dealer_shares=False),
    "cavendish": _defaults(**_EVERY),
    "tretre": _defaults(
        **_SWEEPS,
        **(_EVERY | {"declarer_always_leads": True, "pot_carryover": True, "call_own_card": False}),
        contract_multipliers=False,
    ),
    "quartiglio": _defaults(
        **_SWEEPS,
        **(_EVERY | {"call_own_card": False}),
        contract_multipliers=False,
        monte=True,
        mediatore_outbids_chiamo=False,
    ),
    "quintiglio": _defaults(
        **_SWEEPS,
        **(_EVERY | {"call_own_card": False}),
        contract_multipliers=False,
        mediatore=False,
        mediatore_outbids_chiamo=False,
    ),
}
"""Each profile's options and their defaults (RULES §6): `call_own_card` is off in the Italian site's games."""

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
    "terziglio": "pagat",
}


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
    """How the amount per opponent is reached, before the pot of passed deals multiplies it."""

    LADDER = "ladder"
    """The contract's value (dividete x2, scegliete x4), times the sweep."""
    FLAT = "flat"
    """The same for every contract unless contract_multipliers (dividete x2, scegliete x4), times the sweep."""
    DIFFERENCE = "difference"
    """The difference of the two sides' points; all tricks or none: 70."""


class Lead(Enum):
    """Who leads to the first trick when the declarer does not (recorded only)."""

    AFTER_DEALER = "after_dealer"
    """The seat after the dealer."""
    DECLARER_LEFT = "declarer_left"
    """The declarer's left-hand opponent: the seat before the declarer in turn order (Cavendish)."""


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
    stramazzo_counts: StramazzoCounts = StramazzoCounts.MONTE
    dealer_shares: bool = False
    declarer_always_leads: bool = False
    lead: Lead = Lead.AFTER_DEALER
    pot_carryover: bool = False
    game_to: int | None = None
    """A game (partita) ends when a player reaches this many game points; None: the evening is one long game."""
    call_own_card: bool = True
    """Whether the declarer may call a card from their own hand (and then plays alone)."""
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
        return tuple(
            sorted(self.contracts, key=lambda contract: (self.level(contract), list(Contract).index(contract)))
        )

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

    @property
    def calls(self) -> tuple[str, ...]:
        """The contracts a player may bid at this table, low to high, in the table's words."""
        return tuple(self.word(contract) for contract in self.bids)

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
        shown = ", ".join(f"{k}={show(v)}" for k, v in self.options.items())
        return f"{self.name} ({shown})" if shown else self.name

    def label(self) -> str:
        """`pagat`, or `pagat (sweeps=off)` with just the options that differ from the profile's defaults."""
        changed = [f"{k}={show(v)}" for k, v in self.options.items() if DEFAULTS[self.name][k] != v]
        return f"{self.name} ({', '.join(changed)})" if changed else self.name


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


def make_profile(name: str = "pagat", options: Mapping[str, OptionValue] | Iterable[str] = ()) -> Profile:
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
        resolved[key] = OPTIONS[key].read(raw)
    return _GAMES[canonical](canonical, resolved)


def started_with(name: str, stored: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """The options an evening stored when it started, for `make_profile`.

    Evenings store every option of their profile, so one missing was added to the profile since: it keeps the
    rule the evening was started under. Quintiglio's mediatore outbid chiamo before `mediatore_outbids_chiamo`;
    a declarer could call a card of their own hand before `call_own_card`, in every profile. An option stored keeps
    its value when its default changes: quartiglio's and quintiglio's evenings started with `call_own_card` on
    keep it on.

    >>> started_with("quintiglio", {"mediatore": True})["mediatore_outbids_chiamo"]
    True
    >>> started_with("quintiglio", {"mediatore": True, "mediatore_outbids_chiamo": False})["mediatore_outbids_chiamo"]
    False
    >>> started_with("tretre", {})["call_own_card"], make_profile("tretre").call_own_card
    (True, False)
    >>> started_with("quartiglio", {"call_own_card": True})["call_own_card"], make_profile("quartiglio").call_own_card
    (True, False)
    """
    options = {"call_own_card": True, **stored}
    if profile_name(name) == "quintiglio" and "mediatore_outbids_chiamo" not in stored:
        return {**options, "mediatore_outbids_chiamo": stored.get("mediatore", False)}
    return options


def _common(name: str, o: dict[str, OptionValue]) -> dict[str, Any]:
    """The fields every profile reads the same way from its options."""
    return {
        "name": name,
        "options": o,
        "sweeps": bool(o.get("sweeps", False)),
        "cappotto_multiplier": o.get("cappotto_multiplier", 2),
        "stramazzo_multiplier": o.get("stramazzo_multiplier", 3),
        "sweeps_on_loss": bool(o.get("sweeps_on_loss", True)),
        "stramazzo_counts": StramazzoCounts(o.get("stramazzo_counts", StramazzoCounts.MONTE.value)),
        "dealer_shares": bool(o.get("dealer_shares", False)),
        "declarer_always_leads": bool(o["declarer_always_leads"]),
        "pot_carryover": bool(o["pot_carryover"]),
        "game_to": o["game_to"],
        "call_own_card": bool(o["call_own_card"]),
    }


def _values(o: dict[str, OptionValue]) -> Mapping[Contract, int]:
    """Solo x2 and solissimo x4 where the contract_multipliers option says so."""
    return CONTRACT_VALUE if o["contract_multipliers"] else {}


def _low_levels(o: dict[str, OptionValue]) -> list[frozenset[Contract]]:
    """Chiamo and mediatore: one level (neither outbids the other), or mediatore above by option."""
    chiamo, mediatore = frozenset({Contract.CHIAMO}), frozenset({Contract.MEDIATORE})
    return [chiamo, mediatore] if o["mediatore_outbids_chiamo"] else [chiamo | mediatore]


_THREE_LEVELS = (frozenset({Contract.CHIAMO}), frozenset({Contract.SOLO}), frozenset({Contract.SOLISSIMO}))
_THREES = frozenset({Rank.TRE})


def _pagat(name: str, o: dict[str, OptionValue]) -> Profile:
    """Italian Calabresella: chiamo 1, solo 2, solissimo 4; three play, a fourth deals and sits out."""
    return Profile(**_common(name, o), ladder=_THREE_LEVELS, contract_values=CONTRACT_VALUE)


def _cavendish(name: str, o: dict[str, OptionValue]) -> Profile:
    """American Calabrasella: one bid, play, which may call a card; the difference of the two sides' points."""
    return Profile(
        **_common(name, o),
        scale=Scale.AMERICAN,
        ladder=(frozenset({Contract.CHIAMO}),),
        calls_card=frozenset({Contract.CHIAMO}),
        tariff=Tariff.DIFFERENCE,
        lead=Lead.DECLARER_LEFT,
        bid_words={Contract.CHIAMO: "play"},
    )


def _tretre(name: str, o: dict[str, OptionValue]) -> Profile:
    """Terziglio partita lunga: +2/-1/-1 whatever the contract, the pot of passed deals carried over."""
    return Profile(**_common(name, o), ladder=_THREE_LEVELS, tariff=Tariff.FLAT, contract_values=_values(o))


def _quartiglio(name: str, o: dict[str, OptionValue]) -> Profile:
    """Four players: chiamo 2 against 2 with the holder of the called three, mediatore and solo 1 against 3."""
    monte = bool(o["monte"])
    top = [frozenset({Contract.SOLISSIMO})] if monte else []
    return Profile(
        **_common(name, o),
        seat_counts=(4,),
        active_players=4,
        partnership=Partnership.CALLED,
        callable_ranks=_THREES,
        ladder=(*_low_levels(o), frozenset({Contract.SOLO}), *top),
        contract_values=_values(o),
        has_monte=monte,
    )


def _quintiglio(name: str, o: dict[str, OptionValue]) -> Profile:
    """Five players, no monte: chiamo with a secret partner 2 against 3, solo (and mediatore) 1 against 4."""
    if o["mediatore_outbids_chiamo"] and not o["mediatore"]:
        raise LedgerError(
            _(
                "mediatore_outbids_chiamo=on with mediatore=off: there is no mediatore to outbid chiamo; "
                "add mediatore=on"
            )
        )
    low = _low_levels(o) if o["mediatore"] else [frozenset({Contract.CHIAMO})]
    return Profile(
        **_common(name, o),
        seat_counts=(5,),
        active_players=5,
        partnership=Partnership.SECRET,
        callable_ranks=_THREES,
        has_monte=False,
        ladder=(*low, frozenset({Contract.SOLO})),
        contract_values=_values(o),
    )


_GAMES: dict[str, Callable[[str, dict[str, OptionValue]], Profile]] = {
    "pagat": _pagat,
    "cavendish": _cavendish,
    "tretre": _tretre,
    "quartiglio": _quartiglio,
    "quintiglio": _quintiglio,
}
