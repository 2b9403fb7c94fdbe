"""`calabresella play`: the interactive mode at the table, one short line per deal (see ledger.rules.quick).

The process opens the ledger and imports everything once, then writes each deal in one transaction;
questions for missing facts are asked outside any transaction. On a terminal it reads with prompt_toolkit
(line editing, history, completion); from a pipe it reads plain lines with the same behaviour, questions
included.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Group, RenderableType
from rich.text import Text

from ledger.cli import collector_paused
from ledger.cli.app import as_typed
from ledger.cli.deals_table import deals_table
from ledger.cli.options import EveningOption
from ledger.cli.play_commands import (
    SHORT_HELP,
    TOPICS,
    Said,
    command_in,
    commands,
    topic,
    topics,
    word_for,
)
from ledger.cli.play_input import (
    Cancelled,
    LineReader,
    Reader,
    TerminalReader,
    answered,
    history_file,
    print_error,
    yes_or_no,
)
from ledger.cli.play_setup import start_evening
from ledger.cli.render import (
    console,
    deal_table,
    deal_title,
    game_ended,
    print_closed,
    print_count,
    print_games,
    print_money,
    print_settlement,
    rescored_line,
    totals_line,
)
from ledger.cli.session import open_ledger
from ledger.errors import FactError, LedgerError, NoOpenEvening, UndoRefused, fact_word
from ledger.fmt import format_cents
from ledger.i18n import N_, _
from ledger.rules.answers import holders, tricks_in_deal
from ledger.rules.build import DealInput
from ledger.rules.facts import DECLARER, MONTE, DealFacts
from ledger.rules.numbers import read_number, shortened
from ledger.rules.profiles import Profile
from ledger.rules.quick import KEYS, contract_words, examples, key_of, parse_answer, parse_quick_line
from ledger.summary import after_undo, described, explanation, headline, why_voided

if TYPE_CHECKING:
    from ledger.service import Ledger
    from ledger.values import Recorded

ALL_TRICKS = ("all", "tutte")
"""The answers to the number of tricks that say the declarer side took every one, in English and in Italian."""
REASON = re.compile(r"\b(?:reason|motivo)=")
"""The key of a correction's reason, in English or Italian."""
AGGRAVATIONS = ("dividete", "scegliete")
_CLOSED = N_("evening {number} is closed; to change it: calabresella evening reopen {number}")
"""What `play -e N` says of a closed evening, as the rules engine says it of a change to one."""


class EveningClosed(Exception):
    """The evening was closed at the table: play ends."""


class WrongAnswer(Exception):
    """An answer that is a deal or a command of its own: the deal asked about is left, and the line read again, so
    that a question never takes the lines after it."""


@dataclass
class Play:
    """An open evening at the table: the ledger, the readers, and what this session last saw."""

    ledger: Ledger
    lines: Reader
    answers: Reader
    number: int
    players: tuple[str, ...]
    profile: Profile
    seen: int
    dealer: str
    shown: dict[int, int] = field(default_factory=dict)
    """Each deal's revision as this session last showed it: an amendment is drawn from it."""

    @cached_property
    def contract_words(self) -> list[str]:
        """The profile's contracts, low to high, then the aggravations it has."""
        return contract_words(self.profile)

    @cached_property
    def every_trick(self) -> int:
        """How many tricks a deal has at this table: what `all` (`tutte`) answers to the tricks taken."""
        return tricks_in_deal(self.players, self.profile)

    @cached_property
    def words(self) -> list[str]:
        """What the main prompt completes: names, words, keys and commands."""
        keys = [f"{key}=" for key in KEYS.prefixed]
        return [
            *self.players,
            *self.contract_words,
            "pass",
            "monte",
            "declarer",
            "decl",
            "opp",
            *keys,
            "t=",
            "reason=",
            *commands(),
        ]

    def run(self) -> None:
        """Read and act on lines until quit or the end of input."""
        self.status()
        while True:
            try:
                line = self.lines.read("> ", words=self.words).strip()
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            if not line:
                continue
            command = command_in(line, self.players)
            if command is not None and command.command == "quit":
                break
            try:
                with collector_paused():
                    if command is not None:
                        _RUN[command.command](self, command)
                    else:
                        self.deal(line)
            except Cancelled:
                console.print(_("Deal left: nothing recorded."))
            except WrongAnswer:
                console.print(_("Deal left: nothing recorded; the line is read again as a deal or a command."))
            except EveningClosed:
                return
            except LedgerError as error:
                print_error(_worded(error))
        console.print(
            _(
                "Evening {number} stays open. To close it and settle up: calabresella evening close {number}; "
                "to go on with it: calabresella play -e {number}"
            ).format(number=self.number),
            markup=False,
        )

    def status(self) -> None:
        """Who deals next and who speaks first."""
        console.print(self.turn())

    def turn(self) -> Text:
        """`Next deal: Anna deals, Bruno speaks first.`"""
        facts = DealFacts(players=self.players, dealer=self.dealer)
        out = facts.sitting_out(self.profile)
        deals = (_("{dealer} deals and sits out") if out else _("{dealer} deals")).format(dealer=self.dealer)
        return Text(
            _("Next deal: {deals}, {speaker} speaks first.").format(deals=deals, speaker=facts.active(self.profile)[0])
        )

    def deal(self, line: str) -> None:
        """Record a deal typed in the quick syntax, asking for what it lacks."""
        quick = parse_quick_line(line, self.players, self.profile)
        record = self.ledger.record
        done = self.write(quick.deal, lambda typed: record(typed, evening=self.number, dealer=quick.dealer), new=True)
        print_count(quick.deal.count)
        self.show(done, _("recorded"))

    def write(self, typed: DealInput, action: Callable[[DealInput], Recorded], new: bool = False) -> Recorded:
        """Run the action (one transaction); a missing fact is asked for, outside it, and the action retried.

        `new`: the action records a new deal, which needs a declarer or a pass before anything else.
        """
        from ledger.errors import MissingFact

        asked: dict[str, tuple[str, DealInput]] = {}
        while True:
            if new and not typed.declares:
                typed = self.complete(typed, "declarer", asked)
                continue
            try:
                done = action(typed)
            except MissingFact as missing:
                typed = self.complete(typed, missing.fact, asked)
                continue
            except FactError as error:
                if error.fact not in asked:
                    raise
                answer, before = asked[error.fact]
                self.wrong(error, answer)
                typed = self.complete(before, error.fact, asked)
                continue
            self.seen, self.dealer = done.evening_revision, done.next_dealer
            return done

    def complete(self, typed: DealInput, fact: str, asked: dict[str, tuple[str, DealInput]]) -> DealInput:
        """Ask for one missing fact until the answer reads (each answer kept in `asked`, with the deal before it, so
        that one the rules refuse is asked again); Ctrl-C, the end of input or `cancel` leaves the deal."""
        question, words = self.question(fact)
        while True:
            answer = self.ask(question, words)
            every = fact == "tricks" and answer.strip().casefold() in ALL_TRICKS
            try:
                given = parse_answer(fact, str(self.every_trick) if every else answer, self.players, self.profile)
            except LedgerError as error:
                self.wrong(error, answer)
                continue
            asked[fact] = answer, typed
            return DealInput.from_dict({**typed.to_dict(), **given.to_dict()})

    def wrong(self, error: LedgerError, answer: str) -> None:
        """An answer that does not do: the question is asked again; but a deal or a command of its own leaves the
        deal asked about, and is read again as typed."""
        if command_in(answer, self.players) is not None or _is_a_deal(answer, self.players, self.profile):
            self.lines.unread(answer)
            raise WrongAnswer
        print_error(_worded(error, answer))

    def question(self, fact: str) -> tuple[str, list[str]]:
        """The question for a fact (the declarer, or one MissingFact names) and its completions; none has a default,
        so that Enter never decides the score."""
        if fact == "declarer":
            return _("Who won the auction? (a name, or pass) "), [*self.players, "pass"]
        if fact == "contract":
            words = self.contract_words
            extra = " [dividete|scegliete]" if "scegliete" in words else ""
            contracts = ", ".join(w for w in words if w not in AGGRAVATIONS) + extra
            return _("Which contract? ({contracts}) ").format(contracts=contracts), words
        if fact == "thirds":
            scale = _("0 to 35") if self.profile.american else _("e.g. 7, 7+1/3, 22t in thirds, or a count 2a10f+u")
            return _("The declarer side's points? ({scale}) ").format(scale=scale), []
        if fact == "tricks":
            return _("How many tricks did the declarer side take? (0 to {every}, or all) ").format(
                every=self.every_trick
            ), []
        if fact == "last_trick":
            sides = [_("decl"), _("opp")]
            return _("Who took the last trick? ({decl} or {opp}) ").format(decl=sides[0], opp=sides[1]), sides
        if fact == "monte_thirds":
            scale = _("0 to 12") if self.profile.american else _("e.g. 1+1/3, 4t in thirds, or a count 1a1f")
            return _("How many points were in the monte? ({scale}) ").format(scale=scale), []
        declarer = _("declarer")
        choices = holders(self.players, self.profile)
        monte, own = MONTE in choices, DECLARER in choices  # own: a card of the declarer's hand
        if monte and own:
            asked = _("Who held the called card? (a name, monte, or {declarer}) ").format(declarer=declarer)
        elif monte:
            asked = _("Who held the called card? (a name, or monte) ")
        elif own:
            asked = _("Who held the called card? (a name, or {declarer}) ").format(declarer=declarer)
        else:
            asked = _("Who held the called card? (a name) ")
        return asked, [declarer if choice == DECLARER else choice for choice in choices]

    def ask(self, question: str, words: Sequence[str] = ()) -> str:
        """One answer, without a default; Ctrl-C, the end of input or `cancel` leaves what is being asked for."""
        return answered(self.answers, question, "", words)

    def show(self, done: Recorded, verb: str) -> None:
        """The deal's headline, payouts with running totals in one table, the explanation; then who deals next."""
        deal = done.deal
        self.shown[deal.number] = deal.revision
        title = deal_title(deal, verb)
        if done.result is None:
            said = (
                _("{title}. Totals: {totals_line}")
                if deal.void_cause
                else _("{title} ({void_reason}). Totals: {totals_line}")
            )
            text = said.format(title=title, void_reason=why_voided(deal), totals_line=totals_line(done.totals))
            shown: list[RenderableType] = [Text(text, style="bold")]
        else:
            shown = [
                Text(f"{title} · {headline(done.result, self.profile)}", style="bold"),
                deal_table(done.result, deal.dealer, done.totals),
                Text(explanation(deal)),
            ]
        if done.rescored:
            shown.append(Text(rescored_line(done)))
        if self.profile.game_to:
            ended = game_ended(self.ledger.standings(self.number), deal.number)
            shown += [Text(ended, style="bold")] if ended else []
        console.print(Group(*shown, self.turn()))

    def amend(self, said: Said) -> None:
        """`amend N FACTS [reason=WHY]`: a new revision of deal N with the facts given changed."""
        number, rest = _number(said, _("{command} 3 20 reason=recount"))
        fragment, *given = REASON.split(rest, maxsplit=1)
        why = given[0] if given else ""
        quick = parse_quick_line(fragment, self.players, self.profile)
        if not quick.deal.to_dict() and quick.dealer is None:
            raise LedgerError(
                _("{command} {number}: give the facts to change, e.g. {command} {number} 20 reason=recount").format(
                    command=said.word, number=number
                )
            )
        reason = why.strip() or self.reason(_("Why? (kept with the correction) "))
        amend = self.ledger.amend
        seen = self.shown.get(number)
        done = self.write(
            quick.deal,
            lambda typed: amend(
                number, typed, reason=reason, evening=self.number, dealer=quick.dealer, seen_revision=seen
            ),
        )
        self.show(done, _("amended"))

    def void(self, said: Said) -> None:
        """`void N WHY`: deal N stays in the log but no longer counts."""
        number, why = _number(said, _("{command} 5 misdeal"))
        reason = REASON.sub("", why, count=1).strip() or self.reason(_("Why? (kept in the ledger) "))
        self.show(
            self.write(DealInput(), lambda _: self.ledger.void(number, reason=reason, evening=self.number)), _("voided")
        )

    def reason(self, question: str) -> str:
        """Ask why, until something is said."""
        while not (answer := self.ask(question)):
            print_error(_("a correction needs a reason"))
        return answer

    def undo(self, said: Said) -> None:
        """Take back the evening's last change, whatever it was, unless the evening changed since this session last
        saw it."""
        _no_arguments(said)
        try:
            done = self.ledger.undo(evening=self.number, seen_revision=self.seen)
        except UndoRefused as refused:
            raise LedgerError(
                _("{refused}; type deals to see them, then void N WHY for the one you mean").format(refused=refused)
            ) from None
        self.seen = done.evening_revision
        deal = done.recorded.deal if done.recorded else None
        console.print(_("Taken back: {change}").format(change=described(done.taken_back, deal)), markup=False)
        if done.recorded is not None:
            self.dealer = done.recorded.next_dealer
            self.show(done.recorded, after_undo(done.taken_back.kind))

    def deals(self, said: Said) -> None:
        """The evening's deals, voided ones marked void."""
        _no_arguments(said)
        evening, views = self.ledger.deals(self.number)
        self.seen = evening.revision
        self.shown.update((view.number, view.revision) for view in views)
        if views:
            deals_table(self.players, views)
        else:
            console.print(_("No deals yet."))

    def standings(self, said: Said) -> None:
        """Game points and money per player, best first."""
        _no_arguments(said)
        result = self.ledger.standings(self.number)
        self.seen = result.revision
        print_money(_("Evening {number}").format(number=self.number), result.points, result.cents, result.currency)
        if result.game_to:
            print_games(result)

    def settle(self, said: Said) -> None:
        """Money per player and the fewest payments that settle the evening, as `calabresella settle` shows them."""
        _no_arguments(said)
        print_settlement(self.ledger.settle(evening=self.number))

    def close(self, said: Said) -> None:
        """`close`: after a yes, the evening closes (its deals can no longer change), its settlement is shown, and
        play ends."""
        _no_arguments(said)
        question = _("Close evening {number}? Its deals can no longer change. ({yes}/{no}) ").format(
            number=self.number, yes=_("yes"), no=_("no")
        )
        try:
            closing = yes_or_no(lambda: answered(self.answers, question, _("no")))
        except Cancelled:
            closing = False
        if not closing:
            console.print(_("Evening {number} stays open.").format(number=self.number))
            return
        print_closed(self.ledger.close_evening(self.number))
        raise EveningClosed

    def help(self, said: Said) -> None:
        """A short list of what can be typed, in the language in use, or `help WORD`: the quick syntax, or one
        command."""
        if not said.rest:
            solo, chiamo = examples(self.players, self.profile)
            shown = _(SHORT_HELP).format(solo=solo, chiamo=chiamo, commands=", ".join(commands()))
            console.print(shown, markup=False, highlight=False)
            return
        asked = topic(said.rest)
        if asked is None:
            raise LedgerError(
                _("{command} {rest!r}: ask about one of {topics}, e.g. {command} {syntax}").format(
                    command=said.word, rest=shortened(said.rest), topics=", ".join(topics()), syntax=word_for("syntax")
                )
            )
        console.print(_(TOPICS[asked]), markup=False, highlight=False)


_RUN: dict[str, Callable[[Play, Said], None]] = {
    "undo": Play.undo,
    "amend": Play.amend,
    "void": Play.void,
    "deals": Play.deals,
    "standings": Play.standings,
    "settle": Play.settle,
    "close": Play.close,
    "help": Play.help,
}
"""What each command (but quit) does."""


def _worded(error: LedgerError, typed: str | None = None) -> str:
    """An error as `play` says it: a fact named by the key a line gives it with (`tricks=13`, `prese=13`), and its
    value as typed (`typed`, an answer to a question) or in words of the language in use."""
    if isinstance(error, FactError):
        return as_typed(error, typed).worded(lambda fact: f"{key}=" if (key := key_of(fact)) else fact_word(fact) + " ")
    return str(error)


def _is_a_deal(line: str, players: tuple[str, ...], profile: Profile) -> bool:
    """Whether a line reads as a deal of its own: a declarer's, or a pass."""
    try:
        return parse_quick_line(line, players, profile).deal.declares
    except LedgerError:
        return False


def _number(said: Said, example: str) -> tuple[int, str]:
    """The deal's number a command begins with, and what follows it; `example` shows the command (`{command} ...`)."""
    first, _sep, after = said.rest.partition(" ")
    number = read_number(first)
    if not number:
        raise LedgerError(
            _("{command} {first!r}: give the deal's number first, e.g. {example}").format(
                command=said.word, first=shortened(first), example=example.format(command=said.word)
            )
        )
    return number, after.strip()


def _no_arguments(said: Said) -> None:
    if said.rest:
        raise LedgerError(
            _("{command} {rest!r}: {command} takes nothing after it").format(command=said.word, rest=said.rest)
        )


def play(
    ctx: typer.Context,
    evening: EveningOption = None,
    history: Annotated[
        bool,
        typer.Option(
            "--history/--no-history",
            help="Keep the lines typed at a terminal, to call back with the arrow keys, in play.history in your "
            "user state folder (~/.local/state/calabresella on Linux).",
        ),
    ] = True,
) -> None:
    """At the table: record a whole evening, one short line per deal.

    Opens the evening given, or the most recent open one; with none open, asks for the players, the
    profile, the stake and its currency, each checked as it is given, and starts one. Before each deal it
    shows who deals and who speaks first; after it, the payouts, the explanation and the running totals.

    [b]A deal on one line[/b], or [b]pass[/b]:
      DECLARER CONTRACT \\[AGGRAVATION] \\[CARD]\\[@HOLDER] POINTS \\[key=value ...]

      bruno solo 22                          22 thirds (7+1/3)
      br so 7+1/3                            the same: prefixes, Italian points
      carla chiamo 3D@anna 17 last=opp       called card @ who held it (a name, monte, declarer)
      anna solissimo scegliete 35 tricks=12  aggravation on a solissimo: dividete, scegliete
      pass                                   everyone passed

    Names and words: any unambiguous prefix (so = solo, soli = solissimo); an ambiguous one is an error.

    Points on the profile's scale: Italian 7, 7+1/3, 5+2/3 (0 to 11+2/3; a whole number from 12 to 35
    can only be thirds), cavendish 0 to 35; 22t or t=22 is always thirds.

    Keys: t=N, points=X, tricks=N, last=decl|opp, holder=NAME|monte|declarer, called=CARD,
    dealer=NAME, auction=pass,solo,pass.

    What the line lacks and the rules need is asked for; a wrong answer is asked again, and cancel (or Ctrl-C)
    at a question leaves the deal, with nothing recorded.

    [b]Commands[/b]: undo · amend N FACTS \\[reason=WHY] · void N WHY · deals · standings · settle · help ·
    close (after a yes: the evening closes and its settlement is shown) · quit (or Ctrl-D; the evening stays open)

    [b]Example[/b]: calabresella play --evening 3
    """
    with open_ledger(ctx, source="play") as ledger:
        if ledger.unwritable:
            raise LedgerError(_("nothing can be recorded in this ledger: {why}").format(why=ledger.unwritable))
        terminal = sys.stdin.isatty() and sys.stdout.isatty()
        lines: Reader = TerminalReader(history_file() if history else None) if terminal else LineReader()
        answers: Reader = TerminalReader() if terminal else lines
        try:
            table = ledger.evening(evening, open_only=True)
        except NoOpenEvening:
            if evening is not None:
                raise LedgerError(_(_CLOSED).format(number=evening)) from None
            table = start_evening(ledger, answers)
        profile = table.profile
        console.print(
            Text(
                _("Evening {number}: {players} · {rules} · stake {amount} per game point").format(
                    number=table.number,
                    players=", ".join(table.players),
                    rules=table.rules,
                    amount=format_cents(table.stake_cents, table.currency),
                ),
                style="bold",
            )
        )
        if table.revision:
            console.print(_("Totals so far: {totals_line}").format(totals_line=totals_line(table.points)))
        console.print(
            _("Type a deal (e.g. {solo}, or pass), or help.").format(solo=examples(table.players, profile)[0])
        )
        Play(ledger, lines, answers, table.number, table.players, profile, table.revision, table.next_dealer).run()
