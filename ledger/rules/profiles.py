"""Rule profiles a table chooses per evening, and their options (RULES §4 and §6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ledger.errors import LedgerError
from ledger.rules.cards import DECK
from ledger.rules.contracts import Contract

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
    "tretre": {**_SWEEP_OPTIONS, "declarer_always_leads": False, "contract_multipliers": False,
               "pot_carryover": True},
    "quartiglio": {**_SWEEP_OPTIONS, "declarer_always_leads": False, "monte": True,
                   "mediatore_outbids_chiamo": True},
    "quintiglio": {**_SWEEP_OPTIONS, "declarer_always_leads": False, "mediatore": False},
}

PROFILE_ALIASES = {
    "italian": "pagat", "calabresella": "pagat",
    "american": "cavendish", "calabrasella": "cavendish",
    "partita-lunga": "tretre", "partita_lunga": "tretre",
    "mediatore": "quartiglio", "quadrigliati": "quartiglio",
    "bellora": "quintiglio",
}

TRUE_WORDS = {"on", "true", "yes", "y", "1", "si", "sì"}
FALSE_WORDS = {"off", "false", "no", "n", "0"}


@dataclass(frozen=True)
class Profile:
    """A profile with every option resolved; immutable, stored with each deal."""

    name: str
    options: Mapping[str, OptionValue] = field(default_factory=dict)

    def __getitem__(self, option: str) -> OptionValue:
        return self.options[option]

    @property
    def three_player_game(self) -> bool:
        """Calabresella proper: three play, a fourth seated player deals and sits out."""
        return self.name in ("pagat", "cavendish", "tretre")

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """How many players may be seated."""
        return {"quartiglio": (4,), "quintiglio": (5,)}.get(self.name, (3, 4))

    @property
    def has_monte(self) -> bool:
        """Whether four cards lie undealt."""
        return self.name != "quintiglio" and bool(self.options.get("monte", True))

    def tricks_per_deal(self, active_players: int) -> int:
        """12 at three, 9 (with monte) or 10 at four, 8 at five."""
        return (40 - (4 if self.has_monte else 0)) // active_players

    def fewest_tricks_with_all_points(self, active_players: int) -> int:
        """A side with all 35 thirds took at least this many tricks: the 24 counting cards, less the 4 a monte
        may hold, fill a trick of one card per player."""
        counting = sum(1 for card in DECK if card.thirds) - (4 if self.has_monte else 0)
        return -(-counting // active_players)

    @property
    def ladder(self) -> tuple[frozenset[Contract], ...]:
        """The bid levels, low to high; contracts on one level do not outbid each other."""
        c = Contract
        if self.name == "cavendish":
            return (frozenset({c.CHIAMO}),)
        if self.name == "quartiglio":
            if self.options["mediatore_outbids_chiamo"]:
                levels = [frozenset({c.CHIAMO}), frozenset({c.MEDIATORE})]
            else:
                levels = [frozenset({c.CHIAMO, c.MEDIATORE})]
            return (*levels, frozenset({c.SOLO}), *([frozenset({c.SOLISSIMO})] if self.has_monte else []))
        if self.name == "quintiglio":
            middle = [frozenset({c.MEDIATORE})] if self.options["mediatore"] else []
            return (frozenset({c.CHIAMO}), *middle, frozenset({c.SOLO}))
        return (frozenset({c.CHIAMO}), frozenset({c.SOLO}), frozenset({c.SOLISSIMO}))

    @property
    def contracts(self) -> frozenset[Contract]:
        """Every contract this profile knows."""
        return frozenset().union(*self.ladder)

    def level(self, contract: Contract) -> int:
        """The height of a contract on the ladder."""
        return next(i for i, level in enumerate(self.ladder) if contract in level)

    @property
    def sweeps(self) -> bool:
        """Whether cappotto and stramazzo count (Cavendish has its own 12-trick rule)."""
        return bool(self.options.get("sweeps", False))

    def describe(self) -> str:
        """`pagat (sweeps=on, ...)` for tables and notes."""
        shown = ", ".join(f"{k}={_show(v)}" for k, v in self.options.items())
        return f"{self.name} ({shown})" if shown else self.name


def _show(value: OptionValue) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def profile_name(text: str) -> str:
    """The canonical profile name for a name or alias."""
    key = text.strip().lower()
    key = PROFILE_ALIASES.get(key, key)
    if key not in DEFAULTS:
        raise LedgerError(f"profile {text!r}: allowed are {', '.join(DEFAULTS)}")
    return key


def parse_option(text: str) -> tuple[str, str]:
    """Split `key=value` (hyphens in the key are accepted for underscores)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise LedgerError(f"option {text!r}: write key=value, e.g. sweeps=off or stramazzo_multiplier=4")
    return key.strip().lower().replace("-", "_"), value.strip()


def _option_value(option: str, raw: OptionValue | str, default: OptionValue) -> OptionValue:
    if isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
        word = str(raw).strip().lower()
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        raise LedgerError(f"option {option}={raw}: {option} is on or off")
    try:
        number = int(raw)
    except (TypeError, ValueError):
        number = 0
    if isinstance(raw, bool) or number < 1 or number > 100:
        raise LedgerError(f"option {option}={raw}: {option} is a whole number from 1 to 100")
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
            allowed = ", ".join(defaults) or "none"
            raise LedgerError(f"option {option!r} does not exist in profile {canonical}: its options are {allowed}")
        resolved[key] = _option_value(key, raw, defaults[key])
    return Profile(canonical, resolved)
