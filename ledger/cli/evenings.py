"""`calabresella evening start|list|show|close`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.app import JsonFlag, new_app, print_json
from ledger.cli.options import EveningOption, OptionsOption, ProfileOption, seated_players
from ledger.cli.render import console, local_time, print_closed
from ledger.cli.session import open_ledger
from ledger.errors import LedgerError, NoOpenEvening
from ledger.fmt import format_cents
from ledger.i18n import _, ngettext
from ledger.summary import evening_voided
from ledger.values import MOST_AT_ONCE, PAGE, EveningPage, Terms

if TYPE_CHECKING:
    from ledger.values import EveningInfo, Standing

evening_app = new_app("evening", "Start, list, show and close evenings.")


PROFILE_OPTIONS = """[b]Options of the profiles[/b], as [b]-o key=value[/b] (an option a profile lacks is an error):

[b]sweeps[/b]=on|off: cappotto and stramazzo count. Default on in pagat, off in tretre, quartiglio, quintiglio.
[b]cappotto_multiplier[/b]=1..100: a cappotto (one side takes every trick) multiplies by it. Default 2.
[b]stramazzo_multiplier[/b]=1..100: a stramazzo multiplies by it. Default 3.
[b]sweeps_on_loss[/b]=on|off: a declarer who suffers a sweep pays multiplied too. Default on.
[b]dealer_shares[/b]=on|off: pagat with four seated: the dealer who sits out pays and receives like an opponent. \
Default off.
[b]declarer_always_leads[/b]=on|off: the declarer leads to the first trick in every contract (recorded only). \
Default on in tretre, off elsewhere.
[b]contract_multipliers[/b]=on|off: tretre, quartiglio, quintiglio: solo x2 and solissimo x4, before dividete and \
scegliete. Default off.
[b]pot_carryover[/b]=on|off: a passed deal's stake rides on the next played deal. Default on in tretre, off elsewhere.
[b]stramazzo_counts[/b]=monte|tricks|all: what of the losing side decides a stramazzo: its tricks and the monte if \
it took the last trick; its tricks only (the monte's points are then asked for); or every point, the last trick \
included. Default monte.
[b]game_to[/b]=none|1..1000: a game ends when a player reaches this many game points. Default none.
[b]monte[/b]=on|off: quartiglio: 9 cards each and a monte, or 10 and no monte (then no solissimo). Default on.
[b]mediatore_outbids_chiamo[/b]=on|off: quartiglio, and quintiglio with mediatore: mediatore outbids chiamo; off, \
they are one level and neither outbids the other. Default off.
[b]mediatore[/b]=on|off: quintiglio: the mediatore bid exists. Default off.
[b]call_own_card[/b]=on|off: the declarer may call a card of their own hand (and then plays alone); off, such a call \
is refused, as the Italian site says. Default on in pagat and cavendish, off in tretre, quartiglio and quintiglio; \
evenings started before keep the value they were started with.

Cavendish has only declarer_always_leads, pot_carryover, game_to and call_own_card."""
"""Every option, its default per profile and its meaning, as `evening start --help` ends (RULES §6)."""


@evening_app.command("start", epilog=PROFILE_OPTIONS)
def start(
    ctx: typer.Context,
    players: Annotated[
        str,
        typer.Option(
            "--players", help="Seats in turn order (deal and play go to the right), e.g. [b]Anna,Bruno,Carla[/b]."
        ),
    ],
    dealer: Annotated[str | None, typer.Option("--dealer", help="Who deals first (default: the last listed).")] = None,
    profile: ProfileOption = "pagat",
    option: OptionsOption = None,
    stake: Annotated[str, typer.Option("--stake", help="Money per game point, e.g. [b]0.10[/b].")] = "0",
    currency: Annotated[str, typer.Option("--currency", help="Three-letter code, e.g. [b]EUR[/b].")] = "EUR",
    place: Annotated[str | None, typer.Option("--place", help="Where you play.")] = None,
    note: Annotated[str | None, typer.Option("--note", help="Anything worth remembering.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Start an evening: seats in turn order, the profile and its options, the stake.

    [b]Examples[/b]

    calabresella evening start --players Anna,Bruno,Carla --stake 0.10

    calabresella evening start --players Anna,Bruno,Carla,Dario -P pagat -o dealer_shares=on --dealer Dario

    calabresella evening start --players A,B,C,D,E -P quintiglio -o mediatore=on --currency CHF
    """
    with open_ledger(ctx) as ledger:
        started = ledger.start_evening(
            seated_players(players),
            Terms(profile=profile, options=option or [], stake=stake, currency=currency, place=place),
            dealer=dealer,
            note=note,
        )
    if as_json:
        print_json(started)
        return
    console.print(
        _("Evening {number} started: {players}; {rules}.").format(
            number=started.number, players=", ".join(started.players), rules=started.rules
        )
    )
    if started.pot_in:
        console.print(pot_taken(started.pot_in, started.pot_from))
    console.print(_("{next_dealer} deals first.").format(next_dealer=started.next_dealer))


def pot_taken(passed: int, evening: int | None) -> str:
    """`The pot of 2 passed deals left waiting by evening 3 rides on the first played deal.`"""
    return ngettext(
        "The pot of {count} passed deal left waiting by evening {evening} rides on the first played deal.",
        "The pot of {count} passed deals left waiting by evening {evening} rides on the first played deal.",
        passed,
    ).format(count=passed, evening=evening)


@evening_app.command("list")
def list_(
    ctx: typer.Context,
    limit: Annotated[
        int, typer.Option("--limit", min=1, max=MOST_AT_ONCE, help="How many evenings, newest first.")
    ] = PAGE,
    before: Annotated[
        int | None, typer.Option("--before", min=1, help="Only the evenings numbered below this one (the older ones).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """List evenings, newest first, a page at a time. Example: [b]calabresella evening list[/b], then
    [b]calabresella evening list --before 120[/b] for the older ones"""
    from rich.table import Table

    try:
        with open_ledger(ctx, create=False) as ledger:
            page = ledger.evening_page(before=before, limit=limit)
    except NoOpenEvening:
        page = EveningPage(())  # no ledger there yet: no evenings, and none is made
    if as_json:
        print_json(page)
        return
    table = Table(_("evening"), _("started"), _("players"), _("rules"), _("state"), _("place"), show_edge=False)
    for e in page.evenings:
        table.add_row(
            str(e.number),
            local_time(e.started_at),
            ", ".join(e.players),
            e.rules,
            _state(e),
            e.place or "",
        )
    if not page.evenings and before is None:
        console.print(_("No evenings yet: start one with: calabresella evening start --players Anna,Bruno,Carla"))
        return
    if not page.evenings:
        console.print(_("No evenings before evening {number}.").format(number=before))
        return
    console.print(table)
    if page.next is not None:
        more = f"calabresella evening list --before {page.next}" + ("" if limit == PAGE else f" --limit {limit}")
        console.print(_("Older evenings: {command}").format(command=more))


def _state(e: Standing) -> str:
    """`open`, `closed`, or `void: why`."""
    if e.voided_at is not None:
        return _("void: {reason}").format(reason=e.void_reason)
    return _("closed") if e.closed else _("open")


EveningNamed = Annotated[
    int | None,
    typer.Argument(help="The evening's number (or -e N; default: the most recent open evening).", min=1),
]


def _named(number: int | None, evening: int | None) -> int | None:
    """The evening named by its number, as `evening void N` takes it, or by `-e N`; both must name the same."""
    if number is not None and evening is not None and number != evening:
        raise LedgerError(
            _("evening {number} and -e {evening}: name one evening").format(number=number, evening=evening)
        )
    return number if number is not None else evening


@evening_app.command("show")
def show(
    ctx: typer.Context,
    number: EveningNamed = None,
    evening: EveningOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Show an evening's seats, profile, stake and totals. Example: [b]calabresella evening show 2[/b]"""
    with open_ledger(ctx, create=False) as ledger:
        e = ledger.evening(_named(number, evening))
    if as_json:
        print_json(e)
        return
    state = (
        _("void: {reason}").format(reason=e.void_reason)
        if e.voided_at
        else _("closed {time}").format(time=local_time(e.closed_at))
        if e.closed_at
        else _("open, {dealer} deals next").format(dealer=e.next_dealer)
    )
    console.print(
        _("[bold]Evening {number}[/bold]: {players}; {state}").format(
            number=e.number, players=", ".join(e.players), state=state
        )
    )
    console.print(
        _("{rules}; stake {amount} per game point").format(
            rules=e.rules, amount=format_cents(e.stake_cents, e.currency)
        )
    )
    for label, value in ((_("place"), e.place), (_("note"), e.note)):
        if value:
            console.print(f"{label}: {value}", markup=False)
    console.print(_("totals: {totals}").format(totals=", ".join(f"{p} {v:+d}" for p, v in e.points.items())))


EveningNumber = Annotated[int, typer.Argument(help="The evening's number.", min=1)]
EveningReason = Annotated[str | None, typer.Option("--reason", "-r", help="Why: kept with the evening.")]


def _print_changed(changed: EveningInfo, as_json: bool, said: str) -> None:
    """An evening voided or reopened: as JSON, or the sentence that says so (the reason as typed, brackets too)."""
    if as_json:
        print_json(changed)
    else:
        console.print(said, markup=False)


@evening_app.command("void")
def void(ctx: typer.Context, number: EveningNumber, reason: EveningReason = None, as_json: JsonFlag = False) -> None:
    """Void a whole evening recorded by mistake: it stays in the log, closed, and counts nowhere (settlements, the tab,
    statistics, charts).

    [b]Example[/b]: calabresella evening void 3 --reason "the demo, not a real evening"
    """
    with open_ledger(ctx, create=False) as ledger:
        voided = ledger.void_evening(number, reason=reason)
    _print_changed(voided, as_json, evening_voided(voided.number, reason))


@evening_app.command("close")
def close(
    ctx: typer.Context,
    number: EveningNamed = None,
    evening: EveningOption = None,
    drop_pot: Annotated[
        bool,
        typer.Option(
            "--drop-pot",
            help="With a pot of passed deals still waiting: drop it, instead of carrying it to the same table's next "
            "evening (the same players at the same game, whatever options it changes).",
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Close an evening and print its settlement. Example: [b]calabresella evening close[/b] (the open one), or
    [b]calabresella evening close 3[/b]"""
    with open_ledger(ctx) as ledger:
        closed = ledger.close_evening(_named(number, evening), drop_pot=drop_pot)
    if as_json:
        print_json(closed)
        return
    print_closed(closed)


@evening_app.command("reopen")
def reopen(ctx: typer.Context, number: EveningNumber, reason: EveningReason = None, as_json: JsonFlag = False) -> None:
    """Open a closed evening again, to record a deal left out or correct one; the close it undoes stays in the log.

    [b]Example[/b]: calabresella evening reopen 3 --reason "a deal was left out"
    """
    with open_ledger(ctx, create=False) as ledger:
        reopened = ledger.reopen_evening(number, reason=reason)
    said = _("Evening {number} is open again ({reason}): it takes deals and corrections until it is closed.")
    _print_changed(reopened, as_json, said.format(number=reopened.number, reason=reason))
