"""`Ledger` held to the reference model of tests/model/: random sequences of every write, across several evenings,
on a real SQLite file, and after every step the standings, money, the pot, the games, each deal, the settlements,
the payments and the tab compared with the model's. Where one refuses what the other does, the test fails; a
refusal must write nothing. At the end of each sequence every read runs on the ledger it made and none may fail.

The size: `CALABRESELLA_MODEL_EXAMPLES` sequences of up to `CALABRESELLA_MODEL_STEPS` steps; the charts are drawn
at the end of `CALABRESELLA_MODEL_CHARTS` per cent of the sequences (they take seconds), every other read at the end
of each one. With `CALABRESELLA_MODEL_RANDOM=1` the sequences are drawn anew at each run.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import count
from pathlib import Path
from typing import Any, TypeVar

import pytest
from cli_support import calabresella
from conftest import copy_ledger
from hypothesis import HealthCheck, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)
from model.book import Book
from model.evenings import BID, Evening
from model.rules import DEFAULTS, MONTE_HOLDS, SEATED, THREES, Facts, Refused, Rules, holding_cards, missing

from ledger import Ledger
from ledger.errors import LedgerError
from ledger.rules.build import DealInput
from ledger.values import EveningInfo, Terms

T = TypeVar("T")
EXAMPLES = int(os.environ.get("CALABRESELLA_MODEL_EXAMPLES", "12"))
STEPS = int(os.environ.get("CALABRESELLA_MODEL_STEPS", "40"))
CHARTS = int(os.environ.get("CALABRESELLA_MODEL_CHARTS", "4"))
RANDOM = bool(os.environ.get("CALABRESELLA_MODEL_RANDOM"))
"""Sequences drawn anew at each run, not the same ones every time."""
MODEL = Path(__file__).parent / "model"
POOL = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Niccolò")
NEW_NAMES = ("Zoë", "Gianni", "Ottavia", "Piero", "niccolo", "anna")
"""Names a player is renamed to: the last two are another player's name, but for case and accents."""
MOST_EVENINGS = 6
STAKES = ("0", "0.10", "0.25", "1", "2,50")
REASONS = ("recount", "wrong declarer", "misdeal")
CARDS = ("AC", "RS", "2B", "FD", "7C")
"""Cards other than a three that a chiamo may call where any card may be."""
CHART_KINDS = ("running", "money", "contracts", "thirds", "pairings")
POINTS = ("thirds", "tricks", "last_trick", "monte_thirds")
AMENDED = {"recount": POINTS, "bid": BID, "played": BID + POINTS}
"""What each kind of amendment changes."""


def test_the_model_imports_nothing_of_the_ledger() -> None:
    imported = set()
    for path in MODEL.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported.add((node.module or "").split(".")[0])
    assert imported <= {"__future__", "collections", "dataclasses", "decimal", "itertools", "unicodedata", "model"}


def test_the_ledger_matches_its_model(sqlite_template: Path, tmp_path: Path) -> None:
    class Machine(LedgerMachine):
        def __init__(self) -> None:
            super().__init__(sqlite_template, tmp_path)

    run_state_machine_as_test(
        Machine,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            derandomize=not RANDOM,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )


def italian(thirds: int) -> str:
    """Thirds as whole points and thirds: `7+1/3`, `2/3`, `7`."""
    whole, rest = divmod(thirds, 3)
    return f"{whole}+{rest}/3" if whole and rest else f"{rest}/3" if rest else str(whole)


@st.composite
def options_for(draw: st.DrawFn, profile: str, seated: int) -> dict[str, object]:
    """Some of the profile's options, each set to a value it may take."""
    chosen: dict[str, object] = {}
    for name, default in DEFAULTS[profile].items():
        if not draw(st.booleans()):
            continue
        if name in ("cappotto_multiplier", "stramazzo_multiplier"):
            chosen[name] = draw(st.integers(1, 5))
        elif name == "stramazzo_counts":
            chosen[name] = draw(st.sampled_from(("monte", "tricks", "all")))
        elif name == "game_to":
            chosen[name] = draw(st.none() | st.integers(3, 25))
        elif isinstance(default, bool):
            chosen[name] = draw(st.booleans())
    if chosen.get("dealer_shares") and seated == 3:
        del chosen["dealer_shares"]
    if chosen.get("mediatore_outbids_chiamo") and profile == "quintiglio":
        chosen["mediatore"] = True
    return chosen


@st.composite
def bids(draw: st.DrawFn, rules: Rules, seated: int, dealer: int) -> Facts:
    """A bid the rules take: the declarer, the contract and for a chiamo (or mediatore) the card and its holder;
    told as the declarer and contract or, now and then, as the auction."""
    holding = holding_cards(rules, seated, dealer)
    declarer = draw(st.sampled_from(holding))
    contract = draw(st.sampled_from(rules.contracts))
    aggravation = draw(st.none() | st.sampled_from(("dividete", "scegliete"))) if contract == "solissimo" else None
    called: str | None = None
    holder: int | str | None = None
    if contract in ("chiamo", "mediatore"):
        called = draw(st.none() | st.sampled_from(THREES if rules.threes_only else THREES + CARDS))
        holders: list[int | str] = [seat for seat in holding if seat != declarer]
        holders += ["monte"] if rules.has_monte else []
        holders += ["declarer"] if rules.options["call_own_card"] else []
        needed = rules.partnership and contract == "chiamo"
        holder = draw(st.sampled_from(holders) if needed else st.none() | st.sampled_from(holders))
    auction = None
    if draw(st.integers(0, 4)) == 0:
        auction = tuple(rules.word(contract) if seat == declarer else "pass" for seat in holding)
    return Facts(declarer, contract, aggravation, called, holder, auction=auction)


@st.composite
def table_facts(draw: st.DrawFn, rules: Rules, thirds: int) -> dict[str, Any]:
    """What else the table saw with the declarer side's thirds: the tricks (where they say anything), who took the
    last trick, the monte's thirds; a count of tricks only where the thirds leave it without doubt possible."""
    last = (
        "opponents" if thirds < 3 else "declarer" if thirds > 32 else draw(st.sampled_from(("declarer", "opponents")))
    )
    tricks = None
    if thirds in (0, 35):
        short = draw(st.sampled_from((0, 1, 2)))
        tricks = short if thirds == 0 else rules.tricks - short
    taking = thirds if last == "declarer" else 35 - thirds
    montes = sorted(m for m in MONTE_HOLDS if m <= taking - 3)
    monte = draw(st.sampled_from(montes)) if rules.has_monte else None
    return {"tricks": tricks, "last_trick": last, "monte_thirds": monte}


def points_of(rules: Rules, facts: Facts, seen: dict[str, Any], held: Facts, extra: bool) -> dict[str, Any]:
    """The points facts to give with `facts`' thirds: the ones the rules need, those `held` (the facts an amendment
    replaces) has, and with `extra` the last trick."""
    given: dict[str, Any] = {"thirds": facts.thirds}
    for name in ("tricks", "last_trick", "monte_thirds"):
        if getattr(held, name) is not None or (extra and name == "last_trick"):
            given[name] = seen[name]
    while (need := missing(rules, replace(facts, **given))) is not None:
        given[need] = seen[need]
    return given


@st.composite
def played(draw: st.DrawFn, rules: Rules, seated: int, dealer: int, held: Facts | None = None) -> Facts:
    """A played deal the rules can score, with only the facts they need (and now and then the last trick); in place
    of `held`, the trick facts it holds given anew."""
    held = held or Facts()
    bid = draw(bids(rules, seated, dealer))
    edges = (0, 1, 2, 3, 4, 5, 17, 18, 30, 31, 32, 33, 34, 35)
    thirds = draw(st.sampled_from((0, 35)) if held.tricks is not None else st.integers(0, 35) | st.sampled_from(edges))
    seen = draw(table_facts(rules, thirds))
    return replace(bid, **points_of(rules, replace(bid, thirds=thirds), seen, held, draw(st.booleans())))


@st.composite
def passed(draw: st.DrawFn, rules: Rules, seated: int, dealer: int) -> Facts:
    """Everyone passed: said so, or as the auction."""
    if draw(st.booleans()):
        return Facts()
    return Facts(auction=tuple("pass" for _ in holding_cards(rules, seated, dealer)))


@st.composite
def refused(draw: st.DrawFn, rules: Rules, seated: int, dealer: int) -> Facts:
    """A played deal made impossible by one fact the rules refuse (the model judges whether it is)."""
    facts = replace(draw(played(rules, seated, dealer)), auction=None)
    holding = holding_cards(rules, seated, dealer)
    wrongs: list[Facts] = [replace(facts, thirds=36), replace(facts, tricks=rules.tricks + 1)]
    wrongs += [replace(facts, contract="mediatore" if "mediatore" not in rules.contracts else "solissimo")]
    wrongs += [replace(facts, aggravation="dividete")] if facts.contract != "solissimo" else []
    wrongs += [replace(facts, declarer=dealer)] if dealer not in holding else []
    wrongs += [replace(facts, last_trick="declarer")] if facts.thirds is not None and facts.thirds < 3 else []
    wrongs += [replace(facts, monte_thirds=11)] if rules.has_monte else [replace(facts, monte_thirds=0)]
    if facts.contract == "chiamo":
        wrongs += [replace(facts, holder="declarer")] if not rules.options["call_own_card"] else []
        wrongs += [replace(facts, called="AC")] if rules.threes_only else []
    for name in ("tricks", "last_trick", "monte_thirds"):
        if getattr(facts, name) is not None and missing(rules, replace(facts, **{name: None})) == name:
            wrongs.append(replace(facts, **{name: None}))
    return draw(st.sampled_from(wrongs))


def typed(rules: Rules, names: list[str], facts: Facts | dict[str, Any], style: int) -> DealInput | str:
    """The facts as the scorekeeper gives them: a `DealInput` (the points as thirds or on the evening's scale), or
    with `style` 0 a line of the quick syntax where one can say them."""
    given = facts if isinstance(facts, dict) else {k: v for k, v in vars(facts).items() if v is not None}
    if given.get("passed") or (not isinstance(facts, dict) and facts.declarer is None and not facts.auction):
        return "pass" if style == 0 else DealInput(passed=True)
    words: dict[str, Any] = {}
    for name, value in given.items():
        if name in ("declarer", "holder") and isinstance(value, int):
            words[name] = names[value]
        elif name == "contract":
            words[name] = rules.word(value)
        elif name == "auction":
            words[name] = ",".join(value)
        else:
            words[name] = value
    if "auction" in words:
        words.pop("declarer", None)
        words.pop("contract", None)
    elif (
        style == 0
        and "declarer" in words
        and "thirds" in words
        and not (words.get("called") == "3" and "holder" not in words)
    ):
        return quick_line(words)
    if style == 1 and 0 <= words.get("thirds", -1) <= 35:
        thirds = words.pop("thirds")
        words["points"] = str(thirds) if rules.profile == "cavendish" else italian(thirds)
    return DealInput(**words)


def quick_line(words: dict[str, Any]) -> str:
    """`DECLARER CONTRACT [AGGRAVATION] [CARD][@HOLDER] POINTS [key=value ...]` (README, `calabresella play`)."""
    parts = [words["declarer"], words["contract"], words.get("aggravation") or ""]
    card = (words.get("called") or "") + (f"@{words['holder']}" if words.get("holder") else "")
    parts += [card, f"{words['thirds']}t"]
    if words.get("tricks") is not None:
        parts.append(f"tricks={words['tricks']}")
    if words.get("last_trick"):
        parts.append("last=" + ("decl" if words["last_trick"] == "declarer" else "opp"))
    if words.get("monte_thirds") is not None:
        parts.append(f"monte={italian(words['monte_thirds'])}")
    return " ".join(part for part in parts if part)


@dataclass(frozen=True)
class Seen:
    """What a comparison saw of the model: each evening's revision and names, the players, the payments."""

    evenings: dict[int, tuple[int, tuple[str, ...]]]
    players: tuple[str, ...]
    payments: tuple[tuple[object, ...], ...]


def code(value: object) -> str:
    """A value as code that makes it, a typed deal with the facts given only."""
    if isinstance(value, DealInput):
        return f"DealInput({', '.join(f'{name}={given!r}' for name, given in value.to_dict().items())})"
    return repr(value)


def brief(done: object) -> str:
    """What the ledger did, in a line: the deal recorded, or the value's kind."""
    deal = getattr(done, "deal", None)
    return f"deal {deal.number} revision {deal.revision}, payouts {dict(deal.payouts)}" if deal else type(done).__name__


class LedgerMachine(RuleBasedStateMachine):
    """A real ledger and the model, driven by the same writes."""

    def __init__(self, template: Path, folder: Path) -> None:
        super().__init__()
        self.template, self.folder = template, folder / uuid.uuid4().hex
        self.folder.mkdir()
        self.path = copy_ledger(template, self.folder)
        self.ledger = Ledger(str(self.path))
        self.book = Book()
        self.sent: dict[str, tuple[int, Facts, int | None, int]] = {}
        """Each key recorded with: its evening, its facts, the dealer given (a seat) and how they were typed."""
        self.paid_keys: dict[str, tuple[str, str, str, str]] = {}
        self.keys = count(1)
        self.draw_charts = False
        self.seen: Seen | None = None

    # Helpers

    def both(self, model: Callable[[], T], write: str, *args: Any, **kwargs: Any) -> tuple[T, Any] | None:
        """A write done on the model and on the ledger (`Ledger.<write>(*args, **kwargs)`, noted as a line of code
        for the failing case): both do it, or both refuse it (then None)."""
        shown = [code(arg) for arg in args] + [f"{name}={code(value)}" for name, value in kwargs.items()]
        note(f"ledger.{write}({', '.join(shown)})")
        try:
            expected = model()
        except Refused as why:
            try:
                got = getattr(self.ledger, write)(*args, **kwargs)
            except LedgerError as error:
                assert "\n" not in str(error), f"a refusal of more than one line: {error}"
                return None
            raise AssertionError(f"the model refuses ({why}), the ledger does it: {brief(got)}") from None
        try:
            got = getattr(self.ledger, write)(*args, **kwargs)
        except LedgerError as error:
            raise AssertionError(f"the ledger refuses ({error}), the model does it: {expected}") from None
        return expected, got

    def key(self) -> str:
        """A new idempotency key."""
        return f"key-{next(self.keys)}"

    def open_evenings(self) -> list[Evening]:
        return [e for e in self.book.evenings if not e.closed]

    def evenings_with_deals(self) -> list[Evening]:
        return [e for e in self.book.evenings if e.deals]

    def some_evening(self, data: st.DataObject, among: list[Evening], anyway: list[Evening] | None = None) -> Evening:
        """Mostly one of `among`, now and then one of `anyway` (every evening), whose refusal the model foresees."""
        anyway = anyway or self.book.evenings
        mostly = data.draw(st.integers(0, 9)) > 0
        return self.one_of(data, among if among and mostly else anyway)

    def one_of(self, data: st.DataObject, evenings: list[Evening]) -> Evening:
        """One of the evenings, drawn by its number."""
        return self.book.evening(data.draw(st.sampled_from([e.number for e in evenings]), label="evening"))

    # Evenings

    @initialize(charts=st.integers(0, 99), data=st.data())
    def begin(self, charts: int, data: st.DataObject) -> None:
        """Whether the charts are drawn at the end, and the first evening."""
        self.draw_charts = charts < CHARTS
        self.start_evening(data)

    def start_evening(self, data: st.DataObject) -> None:
        again = data.draw(st.booleans(), label="the same table again")
        if again and self.book.evenings:
            earlier = self.one_of(data, self.book.evenings)
            profile = earlier.rules.profile
            names = data.draw(st.permutations(self.book.names(earlier)))
        else:
            profile = data.draw(st.sampled_from(sorted(DEFAULTS)))
            seated = data.draw(st.sampled_from(SEATED[profile]))
            known = set(self.book.players.values())
            free = [name for name in POOL if self.book.find(name) is None]
            names = data.draw(st.permutations(sorted(known) + free))[:seated]
        options = data.draw(options_for(profile, len(names)))
        stake = data.draw(st.sampled_from(STAKES))
        currency = data.draw(st.sampled_from(("EUR", "EUR", "CHF")))
        dealer = data.draw(st.none() | st.sampled_from(names))
        self.both(
            lambda: self.book.start(names, profile, options, stake, currency, dealer),
            "start_evening",
            names,
            Terms(profile, options, stake, currency),
            dealer=dealer,
        )

    def start_a_wrong_evening(self, data: st.DataObject) -> None:
        profile = data.draw(st.sampled_from(sorted(DEFAULTS)))
        wrong = data.draw(st.sampled_from(("seats", "option", "twice", "stake", "shares")))
        names = list(POOL[: SEATED[profile][0]])
        options: dict[str, object] = {}
        stake = "0.10"
        if wrong == "seats":
            names = list(POOL[: SEATED[profile][-1] + 1])
        elif wrong == "option":
            options = {"sweeps" if profile == "cavendish" else "monte_carlo": True}
        elif wrong == "twice":
            names[-1] = names[0].upper()
        elif wrong == "stake":
            stake = data.draw(st.sampled_from(("abc", "-1", "0.001", "100001")))
        else:
            options = {"dealer_shares": True}
        self.both(
            lambda: self.book.start(names, profile, options, stake, "EUR"),
            "start_evening",
            names,
            Terms(profile, options, stake),
        )

    def close_evening(self, data: st.DataObject) -> None:
        """Close an evening, often after a deal or two that everyone passed (whose pot may wait for the next)."""
        evening = self.some_evening(data, self.open_evenings())
        for _ in range(data.draw(st.integers(0, 2), label="passed at the end") if not evening.closed else 0):
            self.record_facts(
                data, evening, data.draw(passed(evening.rules, evening.seated, evening.next_dealer())), None
            )
        drop_pot = data.draw(st.integers(0, 3), label="drop the pot") == 0
        self.both(
            lambda: self.book.close(evening.number, drop_pot),
            "close_evening",
            evening.number,
            drop_pot=drop_pot,
        )

    def reopen_evening(self, data: st.DataObject) -> None:
        evening = self.some_evening(data, [e for e in self.book.evenings if e.closed])
        reason = data.draw(st.sampled_from(("a deal was left out", " ")))
        self.both(
            lambda: self.book.reopen(evening.number, reason),
            "reopen_evening",
            evening.number,
            reason=reason,
        )

    def void_evening(self, data: st.DataObject) -> None:
        evening = self.one_of(data, self.book.evenings)
        reason = data.draw(st.sampled_from(("the demo", "the demo", "")))
        self.both(
            lambda: self.book.void_evening(evening.number, reason),
            "void_evening",
            evening.number,
            reason=reason,
        )

    # Deals

    def record_facts(self, data: st.DataObject, evening: Evening, facts: Facts, dealer: int | None) -> None:
        """Record the facts, with a key now and then, and keep what was sent with a key for a retry."""
        style = data.draw(st.integers(0, 3))
        key = self.key() if data.draw(st.booleans()) else None
        done = self.send(evening, facts, style, dealer, key, self.book.names(evening))
        if done:
            (deal, _), got = done
            assert (got.deal.number, got.duplicate) == (deal.number, False)
            if key:
                self.sent[key] = (evening.number, facts, dealer, style)

    def send(
        self, evening: Evening, facts: Facts, style: int, dealer: int | None, key: str | None, names: list[str]
    ) -> tuple[tuple[Any, bool], Any] | None:
        """A deal recorded in the model and the ledger, typed with the players' `names`."""
        entry = typed(evening.rules, names, facts, style)
        dealt_by = names[dealer] if dealer is not None else None
        return self.both(
            lambda: self.book.record(evening.number, facts, dealer, key),
            "record",
            entry,
            evening=evening.number,
            dealer=dealt_by,
            key=key,
        )

    def dealing(self, data: st.DataObject, evening: Evening) -> tuple[int | None, int]:
        """Now and then a dealer given, else the rotation's; and who deals."""
        given = data.draw(st.integers(0, evening.seated - 1)) if data.draw(st.integers(0, 5)) == 0 else None
        return given, evening.next_dealer() if given is None else given

    def play(self, data: st.DataObject) -> None:
        """A few deals of one evening: played mostly, passed now and then."""
        evening = self.some_evening(data, self.open_evenings())
        for _ in range(data.draw(st.integers(1, 6), label="deals")):
            dealer, dealt_by = self.dealing(data, evening)
            deal = passed if data.draw(st.integers(0, 3)) == 0 else played
            self.record_facts(data, evening, data.draw(deal(evening.rules, evening.seated, dealt_by)), dealer)

    def record_impossible(self, data: st.DataObject) -> None:
        evening = self.one_of(data, self.open_evenings())
        facts = data.draw(refused(evening.rules, evening.seated, evening.next_dealer()))
        self.record_facts(data, evening, facts, None)

    def retry_key(self, data: st.DataObject) -> None:
        """A deal sent again with its key: the deal stored, nothing written; with other facts, or to another
        evening, refused."""
        key = data.draw(st.sampled_from(sorted(self.sent)))
        number, facts, dealer, style = self.sent[key]
        how = data.draw(st.sampled_from(("same", "same", "other facts", "other evening")))
        first = self.book.evening(number)
        evening = self.one_of(data, self.book.evenings) if how == "other evening" else first
        if how == "other facts":
            facts = data.draw(passed(first.rules, first.seated, first.next_dealer()))
        done = self.send(evening, facts, style, dealer, key, self.book.names(first))
        if done:
            (deal, duplicate), got = done
            assert (got.deal.number, got.duplicate) == (deal.number, duplicate)

    def amend(self, data: st.DataObject) -> None:
        evening = self.some_evening(data, [e for e in self.open_evenings() if e.deals], self.evenings_with_deals())
        deal = evening.deal(data.draw(st.integers(1, len(evening.deals)), label="deal"))
        held, rules, seated = deal.facts, evening.rules, evening.seated
        how = data.draw(st.sampled_from(("recount", "bid", "passed", "played", "same")))
        if held.declarer is None and how != "played":
            how = "passed"
        changes: dict[str, Any] = {"passed": True} if how == "passed" else {"thirds": held.thirds}
        if how in AMENDED:
            new = data.draw(played(rules, seated, deal.dealer, held))
            changes = {k: v for k, v in vars(new).items() if v is not None and k in AMENDED[how]}
        entry = typed(rules, self.book.names(evening), changes, data.draw(st.integers(1, 3)))
        reason = data.draw(st.sampled_from((*REASONS, " ")))
        self.both(
            lambda: evening.amend(deal.number, changes, reason),
            "amend",
            deal.number,
            entry,
            reason=reason,
            evening=evening.number,
        )

    def void(self, data: st.DataObject) -> None:
        evening = self.some_evening(data, [e for e in self.open_evenings() if e.deals], self.evenings_with_deals())
        deal = evening.deal(data.draw(st.integers(1, len(evening.deals)), label="deal"))
        reason = data.draw(st.sampled_from((*REASONS, None)))
        self.both(
            lambda: evening.void(deal.number, reason),
            "void",
            deal.number,
            reason=reason,
            evening=evening.number,
        )

    def undo(self, data: st.DataObject) -> None:
        evening = self.some_evening(data, [e for e in self.book.evenings if any(not c.undone for c in e.log)])
        seen = evening.revision - data.draw(st.sampled_from((0, 0, 0, 1)))
        done = self.both(
            lambda: self.book.undo(evening.number, seen),
            "undo",
            evening=evening.number,
            seen_revision=seen,
        )
        if done:
            kind, got = done
            assert got.taken_back.kind == kind

    # Players and money

    def rename(self, data: st.DataObject) -> None:
        old = data.draw(st.sampled_from(sorted(self.book.players.values())))
        new = data.draw(st.sampled_from(NEW_NAMES + POOL))
        self.both(lambda: self.book.rename(old, new), "rename_player", old, new)

    def pay(self, data: st.DataObject) -> None:
        names = sorted(self.book.players.values())
        payer, payee = data.draw(st.sampled_from(names)), data.draw(st.sampled_from(names))
        amount = data.draw(st.sampled_from(("0.50", "1", "3,20", "12", "0", "1.005")))
        currency = data.draw(st.sampled_from(("EUR", "CHF")))
        key = None
        reused = data.draw(st.booleans(), label="a key used before")
        if reused and self.paid_keys:
            key = data.draw(st.sampled_from(sorted(self.paid_keys)))
            if data.draw(st.booleans()):
                payer, payee, amount, currency = self.paid_keys[key]
        elif data.draw(st.booleans()):
            key = self.key()
        done = self.both(
            lambda: self.book.pay(payer, payee, amount, currency, key),
            "paid",
            payer,
            payee,
            amount,
            currency=currency,
            key=key,
        )
        if done:
            (payment, duplicate), got = done
            assert (got.id, got.duplicate) == (payment.number, duplicate)
            if key:
                self.paid_keys.setdefault(key, (payer, payee, amount, currency))

    def void_payment(self, data: st.DataObject) -> None:
        number = data.draw(st.integers(1, len(self.book.payments) + 1))
        reason = data.draw(st.sampled_from(("entered twice", "twice", "by mistake", "")))
        self.both(
            lambda: self.book.void_payment(number, reason),
            "void_payment",
            number,
            reason=reason,
        )

    # Export and import

    def export_and_import(self, data: st.DataObject) -> None:
        """The export imported into a fresh ledger: the same standings, and exported again the same export; with
        `move`, the sequence goes on in the imported ledger."""
        move = data.draw(st.booleans(), label="go on in the imported ledger")
        note(f"fresh = Ledger(NEW_FILE); fresh.import_data(EXPORT_OF(ledger)){'; ledger = fresh' if move else ''}")
        exported = self.folder / f"{uuid.uuid4().hex}.jsonl"
        exported.write_text(self.ledger.export(), encoding="utf-8")
        path = copy_ledger(self.template, self.folder, f"{uuid.uuid4().hex}.sqlite3")
        fresh = Ledger(str(path))
        try:
            fresh.import_file(exported)
            self.compare(fresh)
            assert fresh.export() == exported.read_text(encoding="utf-8")
        except BaseException:
            fresh.close()
            raise
        if move:
            self.ledger.close()
            self.ledger, self.path = fresh, path
        else:
            fresh.close()

    # The step: one write, drawn by name

    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        """One write among those that can be tried now, the everyday ones more often."""
        deals, open_, sent = bool(self.evenings_with_deals()), bool(self.open_evenings()), bool(self.sent)
        weights = {
            "play": 10 if open_ else 1,
            "amend": 3 * deals,
            "void": deals,
            "undo": 2,
            "record_impossible": open_,
            "retry_key": sent,
            "start_evening": (2 if open_ else 10) * (len(self.book.evenings) < MOST_EVENINGS),
            "close_evening": 2,
            "reopen_evening": any(e.closed for e in self.book.evenings),
            "void_evening": 1,
            "start_a_wrong_evening": 1,
            "pay": 2 * (len(self.book.players) > 1),
            "void_payment": bool(self.book.payments),
            "rename": 1,
            "export_and_import": 1,
        }
        name = data.draw(st.sampled_from([name for name, weight in weights.items() for _ in range(weight)]), label="do")
        getattr(self, name)(data)

    # After every step

    @invariant()
    def agrees(self) -> None:
        self.seen = self.compare(self.ledger, self.seen)

    def compare(self, ledger: Ledger, seen: Seen | None = None) -> Seen:
        """What the ledger says of every evening, as the model has it: in detail (each deal, the standings, the games,
        the settlement) for the evenings that changed since `seen` (all without it); the players, the payments and the
        tab when anything changed. What it saw, to give back next time."""
        book = self.book
        now = Seen(
            {e.number: (e.revision, tuple(book.names(e))) for e in book.evenings},
            tuple(sorted(book.players.values())),
            tuple(
                (p.number, book.players[p.payer], book.players[p.payee], p.cents, p.currency, p.voided)
                for p in book.payments
            ),
        )
        infos = {info.number: info for info in ledger.evenings()}
        assert sorted(infos) == list(now.evenings)
        for evening in book.evenings:
            self.compare_info(evening, infos[evening.number])
            if seen is None or seen.evenings.get(evening.number) != now.evenings[evening.number]:
                self.compare_evening(ledger, evening)
        if now != seen:
            assert tuple(sorted(p.name for p in ledger.players())) == now.players
            assert tuple((p.id, p.payer, p.payee, p.cents, p.currency, p.voided) for p in ledger.payments()) == (
                now.payments
            )
            assert {tab.currency: dict(tab.balances) for tab in ledger.tab() if tab.balances} == book.tab()
        return now

    def compare_info(self, evening: Evening, info: EveningInfo) -> None:
        """The evening as the list of evenings gives it: seats, revision, where it stands, totals, pot, next dealer."""
        names = self.book.names(evening)
        where = f"evening {evening.number}"
        assert info.players == tuple(names), where
        assert (info.revision, info.closed, info.voided) == (evening.revision, evening.closed, evening.voided), where
        assert info.next_dealer == names[evening.next_dealer()], where
        if not evening.voided:
            assert dict(info.points) == dict(zip(names, evening.totals(), strict=True)), where
            pot = (evening.pot_in, evening.pot_from, evening.pot_out)
            assert (info.pot_in, info.pot_from, info.pot_out) == pot, where

    def compare_evening(self, ledger: Ledger, evening: Evening) -> None:
        """The evening's deals, standings, games and settlement."""
        names = self.book.names(evening)
        where = f"evening {evening.number}"
        _, deals = ledger.deals(evening.number)
        assert [(d.number, d.voided, d.dealer) for d in deals] == [
            (d.number, d.voided, names[d.dealer]) for d in evening.deals
        ], where
        if evening.voided:
            return
        totals = dict(zip(names, evening.totals(), strict=True))
        riding, _ = evening.pots()
        points = evening.points()
        for deal in deals:
            if not deal.voided:
                assert dict(deal.payouts) == dict(zip(names, points[deal.number], strict=True)), (
                    f"{where} deal {deal.number}"
                )
                assert deal.passed or deal.passed_before == riding[deal.number], f"{where} deal {deal.number}"
        standings = ledger.standings(evening.number)
        assert dict(standings.points) == totals, where
        assert dict(standings.cents) == {name: value * evening.stake for name, value in totals.items()}, where
        assert standings.game_to == evening.rules.options["game_to"], where
        assert [(g.first, g.last, dict(g.totals), set(g.winners)) for g in standings.games] == [
            (g.first, g.last, dict(zip(names, g.totals, strict=True)), {names[w] for w in g.winners})
            for g in evening.games()
        ], where
        settlement = ledger.settle(evening=evening.number)
        assert (dict(settlement.points), dict(settlement.cents)) == self.book.settlement(evening.number), where
        left = dict(settlement.cents)
        for payment in settlement.payments:
            left[payment.payer] += payment.cents
            left[payment.payee] -= payment.cents
        assert not any(left.values()), where

    # At the end: every read

    def teardown(self) -> None:
        try:
            self.compare(self.ledger)
            if self.book.evenings:
                self.read_everything()
        finally:
            self.ledger.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    def read_everything(self) -> None:
        """Every read on the ledger the sequence made: none may fail. The charts, which take seconds, and each
        evening's report and statistics, in some sequences only."""
        ledger, last = self.ledger, len(self.book.evenings)
        ledger.report(last, charts="/charts/{kind}")
        ledger.export(evening=last)
        ledger.export(evening=last, fmt="csv")
        ledger.export()
        ledger.export(fmt="csv")
        ledger.tab(pairs=True)
        ledger.club.seasons()
        table = self.folder / "stats.csv"
        stats = calabresella("--db", str(self.path), "stats", "--json", "--csv", str(table))
        assert stats.returncode == 0, stats.stderr
        assert json.loads(stats.stdout) and table.read_text(encoding="utf-8")
        if self.draw_charts:
            for number in range(1, last + 1):
                ledger.report(number, charts="/charts/{kind}")
                json.dumps(ledger.stats(evening=number).to_dict())
            for evening in (None, last):
                self.draw_charts_of(evening)
            ledger.report()

    def draw_charts_of(self, evening: int | None) -> None:
        """Every chart of the history (or of one evening): drawn when the ledger says it has something to show,
        else refused in one line."""
        shown = self.ledger.chart_summaries(evening)
        for kind in CHART_KINDS:
            if kind in shown:
                assert self.ledger.chart(kind, evening=evening).startswith(b"\x89PNG")
            else:
                with pytest.raises(LedgerError):
                    self.ledger.chart(kind, evening=evening)
