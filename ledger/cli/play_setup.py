"""`play`'s set-up when no evening is open: the players, then the last evening's rules and stake offered in words,
else the profile, then the stake and its currency. Each answer is checked when it is given and asked again until it
does, the answers before it kept; `cancel` or `quit` (or Ctrl-C, or the end of input) leaves with nothing started."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING, TypeVar

import typer

from ledger.cli.options import seated_players
from ledger.cli.play_commands import WORDS
from ledger.cli.play_input import CANCEL, Cancelled, Reader, answered, print_error, yes_or_no
from ledger.cli.render import console
from ledger.errors import FactError, LedgerError
from ledger.fmt import format_cents
from ledger.i18n import _
from ledger.rules.options import show
from ledger.rules.profiles import DEFAULTS, Profile, make_profile
from ledger.values import Terms

if TYPE_CHECKING:
    from ledger.service import Ledger
    from ledger.values import EveningInfo

T = TypeVar("T")
LEAVING = (*CANCEL, *(word for word, command in WORDS.items() if command == "quit"))
"""What, typed at a question of the set-up, leaves it: `cancel` and `quit`, in either language."""
GAMES = tuple(make_profile(name) for name in DEFAULTS)
"""Every profile with its default options, in the order the ledger lists them (pagat first)."""


@dataclass(frozen=True)
class Setup:
    """What starts an evening, as answered: the players in turn order, the profile and its options, the stake."""

    players: tuple[str, ...]
    profile: str
    options: tuple[str, ...]
    currency: str
    stake: str


def start_evening(ledger: Ledger, answers: Reader) -> EveningInfo:
    """Ask what starts an evening and start it, right after the last answer (the stake and its currency), which the
    ledger checks as it starts; what it refuses (the stake, the currency, a player's name) is asked again, the other
    answers kept."""
    console.print(_("No open evening: starting one."))
    last = _last_evening(ledger)
    try:
        setup = _setup(answers, last, None)
        while True:
            try:
                return ledger.start_evening(
                    setup.players,
                    Terms(profile=setup.profile, options=setup.options, stake=setup.stake, currency=setup.currency),
                )
            except LedgerError as refused:
                print_error(str(refused))
                setup = _again(answers, last, setup, refused)
    except Cancelled:
        console.print(_("No evening started."))
        raise typer.Exit(1) from None


def _again(answers: Reader, last: EveningInfo | None, setup: Setup, refused: LedgerError) -> Setup:
    """The set-up with the refused answer asked again: the stake and its currency, else the players (a name) and what
    follows them, each offering what was answered before."""
    if isinstance(refused, FactError) and refused.fact in ("stake", "currency"):
        stake, currency = _stake(answers, f"0 {setup.currency}")
        return replace(setup, stake=stake, currency=currency)
    return _setup(answers, last, setup)


def _setup(answers: Reader, last: EveningInfo | None, before: Setup | None) -> Setup:
    """The players, then the last evening's rules and stake when they seat them and the answer is yes, else the
    profile, then the stake and its currency; `before`, the answers given before, offered again."""
    typed = before.players if before else last.players if last else ()
    players, game = _checked(answers, _("Players, in turn order (e.g. Anna,Bruno,Carla): "), ", ".join(typed), _seating)
    if last is not None and _seats(last.profile, players):
        same = _("Play as evening {number}: {rules}; stake {amount} per game point? ({yes}/{no}) ").format(
            number=last.number,
            rules=last.rules,
            amount=format_cents(last.stake_cents, last.currency),
            yes=_("yes"),
            no=_("no"),
        )
        if yes_or_no(lambda: _answer(answers, same, _("yes"))):
            options = tuple(f"{key}={show(value)}" for key, value in last.profile.options.items())
            stake = str(Decimal(last.stake_cents).scaleb(-2))
            return Setup(players, last.profile.name, options, last.currency, stake)
    rules = " ".join((before.profile, *before.options)) if before else game
    profile, options = _checked(
        answers, _("Profile (and options, e.g. pagat sweeps=off): "), rules, lambda text: _profile(text, players)
    )
    stake, currency = _stake(answers, f"{before.stake} {before.currency}" if before else "0 EUR")
    return Setup(players, profile, options, currency, stake)


def _seating(text: str) -> tuple[tuple[str, ...], str]:
    """The players typed, in turn order, and the first game played by that many (the profile offered); an error for
    a count no game is played by, or a name blank or given twice."""
    players = seated_players(text)
    game = next(game for game in GAMES if len(players) in game.seat_counts)
    game.check_players(players)
    return players, game.name


def _seats(profile: Profile, players: tuple[str, ...]) -> bool:
    """Whether the profile seats these players."""
    try:
        profile.check_players(players)
    except LedgerError:
        return False
    return True


def _profile(text: str, players: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The profile and options typed (`pagat sweeps=off`), refused when they do not exist or do not seat the
    players."""
    name, *options = text.split()
    profile = make_profile(name, options)
    profile.check_players(players)
    return profile.name, tuple(options)


def _stake(answers: Reader, default: str) -> tuple[str, str]:
    """The stake per game point and its currency, in one answer (`0.10`, `0.10 CHF`; EUR when it names none), the
    set-up's last, which the ledger checks as it starts the evening."""
    stake, _space, currency = _answer(
        answers, _("Stake per game point and its currency (e.g. 0.10 EUR): "), default
    ).partition(" ")
    return stake, currency.strip() or "EUR"


def _checked(answers: Reader, question: str, default: str, check: Callable[[str], T]) -> T:
    """An answer that `check` takes, asked again (with the error in one line) until one is."""
    while True:
        answer = _answer(answers, question, default)
        try:
            return check(answer)
        except LedgerError as refused:
            print_error(str(refused))


def _answer(answers: Reader, question: str, default: str) -> str:
    """One answer at the set-up, the default when it is left empty; `cancel` or `quit` leaves."""
    return answered(answers, question, default, leaving=LEAVING) or default


def _last_evening(ledger: Ledger) -> EveningInfo | None:
    """The most recent evening, if there is one."""
    try:
        return ledger.evening(latest=True)
    except LedgerError:
        return None
