"""The rules an evening is played by, in players' words: the game's name and what its options change.

Every front end shows an evening's rules with `describe_rules` (the terminal, the report, the web pages), in the
language in use; the profile's name and `key=value` options stay what a person types and what JSON holds.
"""

from __future__ import annotations

from ledger.i18n import N_, _
from ledger.rules.options import StramazzoCounts
from ledger.rules.profiles import Profile

GAMES = {
    "pagat": N_("Calabresella (pagat.com rules)"),
    "cavendish": N_("American Calabrasella (Cavendish)"),
    "tretre": N_("Terziglio, long game"),
    "quartiglio": N_("Quartiglio, four players"),
    "quintiglio": N_("Quintiglio, five players"),
}
"""Each profile's name as players call the game."""

STRAMAZZO_COUNTS = {
    StramazzoCounts.TRICKS: N_("stramazzo on the tricks alone"),
    StramazzoCounts.ALL: N_("stramazzo only when the losers take no point"),
}
"""The readings of a stramazzo other than the usual one (RULES §8), in words."""


def game_name(profile: Profile) -> str:
    """The game as players call it: `Calabresella (pagat.com rules)`, in Italian `Terziglio (regole di pagat.com)`.

    >>> from ledger.rules.profiles import make_profile
    >>> game_name(make_profile("tretre"))
    'Terziglio, long game'
    """
    return _(GAMES[profile.name]) if profile.name in GAMES else profile.name


def _sweeps(profile: Profile) -> list[str]:
    if "sweeps" not in profile.options:
        return []
    if not profile.sweeps:
        return [_("no cappotto or stramazzo")]
    words = [
        _("cappotto x{cappotto}, stramazzo x{stramazzo}").format(
            cappotto=profile.cappotto_multiplier, stramazzo=profile.stramazzo_multiplier
        )
    ]
    if not profile.sweeps_on_loss:
        words.append(_("sweeps count only when the declarer wins"))
    if profile.stramazzo_counts in STRAMAZZO_COUNTS:
        words.append(_(STRAMAZZO_COUNTS[profile.stramazzo_counts]))
    return words


def _table(profile: Profile, seated: int | None) -> list[str]:
    """What the monte, the mediatore and a dealer sitting out do at this table."""
    words = []
    if "monte" in profile.options:
        words.append(_("with a monte") if profile.has_monte else _("no monte, 10 cards each"))
    if profile.options.get("mediatore"):
        words.append(_("with the mediatore"))
    if profile.options.get("mediatore_outbids_chiamo"):
        words.append(_("mediatore outbids chiamo"))
    if profile.dealer_shares:
        words.append(_("the dealer sits out and pays like an opponent"))
    elif seated is not None and profile.sits_out(seated):
        words.append(_("the dealer sits out"))
    return words


def describe_rules(profile: Profile, seated: int | None = None) -> str:
    """The game's name and, after a colon, what its options change in words, for `seated` players when given.

    Sweeps are always said (tables differ most there); other options only when they change the plain game.

    >>> from ledger.rules.profiles import make_profile
    >>> describe_rules(make_profile("pagat"), 4)
    'Calabresella (pagat.com rules): cappotto x2, stramazzo x3, the dealer sits out'
    >>> describe_rules(make_profile("tretre", ["game_to=21"]))
    'Terziglio, long game: no cappotto or stramazzo, the declarer always leads, pot of passed deals, games to 21'
    >>> describe_rules(make_profile("cavendish"))
    'American Calabrasella (Cavendish)'
    """
    words = [*_sweeps(profile), *_table(profile, seated)]
    if profile.options.get("contract_multipliers"):
        words.append(_("solo x2, solissimo x4"))
    if profile.declarer_always_leads:
        words.append(_("the declarer always leads"))
    if profile.pot_carryover:
        words.append(_("pot of passed deals"))
    if profile.game_to is not None:
        words.append(_("games to {points}").format(points=profile.game_to))
    name = game_name(profile)
    return _("{game}: {rules}").format(game=name, rules=", ".join(words)) if words else name
