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
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Protocol

import typer
from rich.console import Group, RenderableType
from rich.text import Text

from ledger.cli import collector_paused
from ledger.cli.options import EveningOption, split_players
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
from ledger.cli.render import (
    console,
    deal_table,
    deal_title,
    deals_table,
    game_ended,
    print_count,
    print_games,
    print_money,
    print_settlement,
    rescored_line,
    totals_line,
)
from ledger.cli.session import open_ledger
from ledger.errors import FactError, LedgerError, UndoRefused, fact_word
from ledger.fmt import format_cents
from ledger.i18n import _
from ledger.rules.build import DealInput
from ledger.rules.count import parse_count
from ledger.rules.facts import DealFacts
from ledger.rules.numbers import LARGEST, read_number, shortened
from ledger.rules.profiles import Profile
from ledger.rules.quick import KEYS, examples, key_of, parse_answer, parse_quick_line
from ledger.summary import headline

if TYPE_CHECKING:
    from ledger.service import Ledger
    from ledger.values import EveningInfo, Recorded

REASON = re.compile(r"\b(?:reason|motivo)=")
"""The key of a correction's reason, in English or Italian."""
AGGRAVATIONS = ("dividete", "scegliete")
_WORD = re.compile(r"^[^\s@=,:]*")


class Cancelled(Exception):
    """Ctrl-C or the end of input at a question: the deal is dropped and nothing is written."""


class Reader(Protocol):
    """Where lines come from: a terminal with line editing, or plain lines."""

    def read(self, message: str, default: str = "", words: Sequence[str] = ()) -> str:
        """One line; EOFError at the end of input (Ctrl-D), KeyboardInterrupt on Ctrl-C."""
        ...


class LineReader:
    """Plain lines from a pipe or file: each prompt is printed, each answer is the next line (echoed)."""

    def read(self, message: str, default: str = "", words: Sequence[str] = ()) -> str:
        """The next line of stdin, or the default when it is empty."""
        sys.stdout.write(f"{message}[{default}] " if default else message)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        if not sys.stdin.isatty():
            sys.stdout.write(line if line.endswith("\n") else line + "\n")
        return line.strip() or default


class TerminalReader:
    """prompt_toolkit: line editing, history (in memory or in a file), Tab completion of names and words."""

    def __init__(self, history: Path | None = None) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory

        self.session: PromptSession[str] = PromptSession(
            history=FileHistory(str(history)) if history else InMemoryHistory(),
            complete_while_typing=False,
            reserve_space_for_menu=0,
        )

    def read(self, message: str, default: str = "", words: Sequence[str] = ()) -> str:
        """A line edited at the terminal, or the default (shown in brackets) when it is left empty."""
        from prompt_toolkit.completion import WordCompleter

        completer = WordCompleter(list(words), ignore_case=True, pattern=_WORD)
        line = self.session.prompt(f"{message}[{default}] " if default else message, completer=completer)
        return line.strip() or default


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

    @cached_property
    def contract_words(self) -> list[str]:
        """The profile's contracts, low to high (cavendish's one bid is `play`), then the aggravations it has."""
        words = [self.profile.word(c) for c in self.profile.bids]
        return words + (list(AGGRAVATIONS) if self.profile.aggravations else [])

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
                console.print(_("Cancelled: nothing written."))
            except LedgerError as error:
                _error(_worded(error))
        console.print(_("Evening {number} stays open.").format(number=self.number))

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

        while True:
            if new and not (typed.declarer or typed.passed or typed.auction):
                typed = self.complete(typed, "declarer")
                continue
            try:
                done = action(typed)
            except MissingFact as missing:
                typed = self.complete(typed, missing.fact)
                continue
            self.seen, self.dealer = done.evening_revision, done.next_dealer
            return done

    def complete(self, typed: DealInput, fact: str) -> DealInput:
        """Ask for one missing fact until the answer reads; Ctrl-C or the end of input cancels."""
        question, default, words = self.question(fact, typed)
        while True:
            answer = self.ask(question, default, words)
            try:
                given = parse_answer(fact, answer, self.players, self.profile)
            except LedgerError as error:
                _error(_worded(error))
                continue
            return DealInput.from_dict({**typed.to_dict(), **given.to_dict()})

    def question(self, fact: str, typed: DealInput) -> tuple[str, str, list[str]]:
        """The question for a fact (the declarer, or one MissingFact names), its default and its completions."""
        if fact == "declarer":
            return _("Who declared? (a name, or pass) "), "", [*self.players, "pass"]
        if fact == "contract":
            words = self.contract_words
            extra = " [dividete|scegliete]" if "scegliete" in words else ""
            contracts = ", ".join(w for w in words if w not in AGGRAVATIONS) + extra
            return _("Which contract? ({contracts}) ").format(contracts=contracts), "", words
        if fact == "thirds":
            scale = _("0 to 35") if self.profile.american else _("e.g. 7, 7+1/3, 22t in thirds, or a count 2a10f+u")
            return _("The declarer side's points? ({scale}) ").format(scale=scale), "", []
        if fact == "tricks":
            every = self.profile.tricks_per_deal(min(self.profile.active_players, len(self.players)))
            known = typed.thirds
            if known is None and typed.points is not None:
                known = self.profile.parse_points(typed.points)
            if known is None and typed.count is not None:
                known = parse_count(typed.count).thirds
            default = {35: str(every), 0: "0"}.get(known if known is not None else -1, "")
            return _("How many tricks did the declarer side take? (0 to {every}) ").format(every=every), default, []
        if fact == "last_trick":
            return _("Who took the last trick? (decl or opp) "), "", ["decl", "opp"]
        if fact == "monte_thirds":
            scale = _("0 to 12") if self.profile.american else _("e.g. 1+1/3, 4t in thirds, or a count 1a1f")
            return _("How many points were in the monte? ({scale}) ").format(scale=scale), "", []
        if not self.profile.has_monte:
            return (_("Who held the called card? (a name, or declarer) "), "", [*self.players, "declarer"])
        return (_("Who held the called card? (a name, monte, or declarer) "), "", [*self.players, "monte", "declarer"])

    def ask(self, question: str, default: str = "", words: Sequence[str] = ()) -> str:
        """One answer; Ctrl-C or the end of input cancels what is being asked for."""
        try:
            return self.answers.read(question, default, words)
        except (KeyboardInterrupt, EOFError):
            raise Cancelled from None

    def show(self, done: Recorded, verb: str) -> None:
        """The deal's headline, payouts with running totals in one table, the explanation; then who deals next."""
        deal = done.deal
        title = deal_title(deal, verb)
        if done.result is None:
            said = (
                _("{title}. Totals: {totals_line}")
                if deal.void_cause
                else _("{title} ({void_reason}). Totals: {totals_line}")
            )
            text = said.format(title=title, void_reason=deal.why_voided, totals_line=totals_line(done.totals))
            shown: list[RenderableType] = [Text(text, style="bold")]
        else:
            shown = [
                Text(f"{title} · {headline(done.result, self.profile)}", style="bold"),
                deal_table(done.result, deal.dealer, done.totals),
                Text(deal.explanation),
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
        reason = why.strip() or self.reason()
        amend = self.ledger.amend
        done = self.write(
            quick.deal, lambda typed: amend(number, typed, reason=reason, evening=self.number, dealer=quick.dealer)
        )
        self.show(done, _("amended"))

    def void(self, said: Said) -> None:
        """`void N WHY`: deal N stays in the log but no longer counts."""
        number, why = _number(said, _("{command} 5 misdeal"))
        reason = REASON.sub("", why, count=1).strip() or self.reason()
        self.show(
            self.write(DealInput(), lambda _: self.ledger.void(number, reason=reason, evening=self.number)), _("voided")
        )

    def reason(self) -> str:
        """Ask why, until something is said."""
        while not (answer := self.ask(_("Why? (kept with the correction) "))):
            _error(_("a correction needs a reason"))
        return answer

    def undo(self, said: Said) -> None:
        """Take back the last change (a deal, or an amendment), unless the evening changed since this session last
        saw it."""
        _no_arguments(said)
        undo = self.ledger.undo
        try:
            done = self.write(DealInput(), lambda _typed: undo(evening=self.number, seen_revision=self.seen))
        except UndoRefused as refused:
            raise LedgerError(
                _("{refused}: type deals to see them, then void N WHY for the one you mean").format(refused=refused)
            ) from None
        self.show(done, _("undone") if done.result is None else _("back as before its amendment"))

    def deals(self, said: Said) -> None:
        """The evening's deals, voided ones struck through."""
        _no_arguments(said)
        evening, views = self.ledger.deals(self.number)
        self.seen = evening.revision
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
    "help": Play.help,
}
"""What each command (but quit) does."""


def _worded(error: LedgerError) -> str:
    """An error as `play` says it: a fact named by the key a line gives it with (`tricks=13`, `prese=13`)."""
    if isinstance(error, FactError):
        return error.worded(lambda fact: f"{key}=" if (key := key_of(fact)) else fact_word(fact) + " ")
    return str(error)


def _error(message: str) -> None:
    typer.echo(_("Error: {message}").format(message=message), err=True)


def _number(said: Said, example: str) -> tuple[int, str]:
    """The deal's number a command begins with, and what follows it; `example` shows the command (`{command} ...`)."""
    first, _sep, after = said.rest.partition(" ")
    number = read_number(first)
    if not number:
        raise LedgerError(
            _("{command} {first!r}: give the deal's number first (1 to {largest}), e.g. {example}").format(
                command=said.word,
                first=shortened(first),
                largest=LARGEST,
                example=example.format(command=said.word),
            )
        )
    return number, after.strip()


def _no_arguments(said: Said) -> None:
    if said.rest:
        raise LedgerError(
            _("{command} {rest!r}: {command} takes nothing after it").format(command=said.word, rest=said.rest)
        )


def _history_file(ledger: Ledger) -> Path:
    """Next to a SQLite ledger, else in the user data directory."""
    if ledger.file:
        return Path(f"{ledger.file}.history")
    from platformdirs import user_data_path

    return user_data_path("calabresella", appauthor=False) / "play.history"


def _start(ledger: Ledger, answers: Reader) -> EveningInfo:
    """Ask for players, profile, stake and currency, and start an evening; the last answers are the defaults."""
    console.print(_("No open evening: starting one."))
    given = ["", "pagat", "0", "EUR"]
    questions = [
        _("Players, in turn order (e.g. Anna,Bruno,Carla): "),
        _("Profile (and options, e.g. pagat sweeps=off): "),
        _("Stake per game point: "),
        _("Currency: "),
    ]
    while True:
        try:
            given = [answers.read(q, default) for q, default in zip(questions, given, strict=True)]
        except (KeyboardInterrupt, EOFError):
            console.print(_("No evening started."))
            raise typer.Exit(1) from None
        players, (profile, *options), stake, currency = given[0], (given[1].split() or ["pagat"]), *given[2:]
        try:
            return ledger.start_evening(
                split_players(players), profile=profile, options=options, stake=stake, currency=currency
            )
        except LedgerError as error:
            _error(_worded(error))


def play(
    ctx: typer.Context,
    evening: EveningOption = None,
    history: Annotated[
        bool,
        typer.Option(
            "--history/--no-history", help="Keep typed lines in a history file next to the ledger (on a terminal only)."
        ),
    ] = True,
) -> None:
    """At the table: record a whole evening, one short line per deal.

    Opens the evening given, or the most recent open one; with none open, asks for the players, the
    profile, the stake and the currency, and starts one. Before each deal it shows who deals and who
    speaks first; after it, the payouts, the explanation and the running totals.

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
    dealer=NAME, auction=pass,solo,pass. What the line lacks and the rules need is asked for;
    Ctrl-C at a question cancels the deal, and nothing is written.

    [b]Commands[/b]: undo · amend N FACTS \\[reason=WHY] · void N WHY · deals · standings · settle · help ·
    quit (or Ctrl-D)

    [b]Example[/b]: calabresella play --evening 3
    """
    with open_ledger(ctx) as ledger:
        if ledger.unwritable:
            raise LedgerError(_("nothing can be recorded in this ledger: {why}").format(why=ledger.unwritable))
        terminal = sys.stdin.isatty() and sys.stdout.isatty()
        lines: Reader = TerminalReader(_history_file(ledger) if history else None) if terminal else LineReader()
        answers: Reader = TerminalReader() if terminal else lines
        try:
            table = ledger.evening(evening, open_only=True)
        except LedgerError:
            if evening is not None:
                raise
            table = _start(ledger, answers)
        profile = table.profile
        console.print(
            Text(
                _("Evening {number}: {players} · {label} · stake {amount} per game point").format(
                    number=table.number,
                    players=", ".join(table.players),
                    label=profile.label(),
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
