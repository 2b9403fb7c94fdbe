"""One deal in words, the same in the terminal, on the web and in the report, drawn from its facts in the
language in use when it is shown: nothing the ledger says about a deal is stored as a sentence."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.frozen import plain
from ledger.i18n import _, ngettext
from ledger.rules.cards import DEAL_THIRDS
from ledger.rules.contracts import Aggravation, Contract
from ledger.rules.facts import DECLARER, MONTE
from ledger.rules.profiles import Partnership, Profile, Tariff
from ledger.rules.scoring import POT, DealResult, amount_factors, difference
from ledger.rules.sweeps import Sweep
from ledger.values import DealView

if TYPE_CHECKING:
    from ledger.values import ChangeView

POT_CAUSE = "pot"
"""A revision the ledger wrote because a correction to an earlier deal changed its pot of passed deals."""
UNDO = "undo"
"""A deal the ledger voided because the scorekeeper took it back (undo)."""


def _word(value: object) -> str | None:
    """An enum's value or a stored word, alike."""
    return None if value is None else str(getattr(value, "value", value))


def headline(deal: DealView | DealResult, profile: Profile) -> str:
    """`Bruno solo: 22 thirds (7+1/3), won, stramazzo`, or `All passed.`, for a stored or a scored deal.

    >>> from ledger.rules.profiles import make_profile
    >>> from ledger.values import DealView
    >>> from datetime import datetime
    >>> deal = DealView(1, 1, "Carla", "Bruno", None, "solo", None, None, None, (), 33, None, None, 0, True,
    ...                 "stramazzo", 3, 6, make_profile("pagat"), {}, {}, datetime(2026, 11, 21))
    >>> headline(deal, make_profile("pagat"))
    'Bruno solo: 33 thirds (11), won, stramazzo'
    """
    if deal.passed:
        return _("All passed.")
    assert deal.contract is not None and deal.declarer_thirds is not None
    aggravation = _word(deal.aggravation)
    contract = profile.word(Contract(_word(deal.contract))) + (f" {aggravation}" if aggravation else "")
    said = f"{deal.declarer} {contract}"
    if len(profile.bids) == 1:  # the one bid of the game: `Anna plays`
        said = _("{declarer} plays").format(declarer=deal.declarer)
    thirds = deal.declarer_thirds
    points = (
        _("{thirds} of 35").format(thirds=thirds)
        if profile.american
        else ngettext("{thirds} third ({points})", "{thirds} thirds ({points})", thirds).format(
            thirds=thirds, points=profile.format_points(thirds)
        )
    )
    sweep = f", {_word(deal.sweep)}" if deal.sweep else ""
    outcome = _("won") if deal.declarer_won else _("lost")
    return f"{said}: {points}, {outcome}{sweep}"


def brief(deal: DealView) -> str:
    """`Bruno solo 7+1/3 stramazzo` for a row of a table, the points as the evening's scale writes them (so that
    typed back they mean the same), or `all passed`."""
    if deal.passed:
        return _("all passed")
    contract = " ".join(part for part in (deal.contract, deal.aggravation) if part)
    thirds = deal.declarer_thirds
    points = None if thirds is None else deal.profile.format_points(thirds)
    return " ".join(part for part in (deal.declarer, contract, points, deal.sweep) if part)


def called_card(deal: DealView) -> str:
    """`3D@Anna`, `3D@monte`, `3D@declarer` (`3D@chiamante` in Italian), `3D` (holder not known), `@Anna` (card not
    known), or nothing."""
    if deal.called is None and deal.holder is None:
        return ""
    holder = _("declarer") if deal.holder == DECLARER else deal.holder
    return (deal.called or "") + (f"@{holder}" if holder else "")


def outcome(deal: DealView) -> str:
    """`won` or `lost` for the declarer side; nothing for a passed deal."""
    if deal.declarer_won is None:
        return ""
    return _("won") if deal.declarer_won else _("lost")


def sits_out(deal: DealView) -> bool:
    """The dealer held no cards and took no part in the payments."""
    return deal.roles.get(deal.dealer) == "out"


def explanation(deal: DealView | DealResult, *, sitting_out: bool = True) -> str:
    """The line a player checks the payouts by: `solo 2 x stramazzo 3 = 6 from each opponent`, with the partner,
    the called three in the monte or the declarer's own hand, and the dealer sitting out (unless `sitting_out` is
    false, for a table whose dealer column says it).

    >>> from ledger.rules.build import judge
    >>> from ledger.rules.build import DealInput
    >>> from ledger.rules.profiles import make_profile
    >>> _facts, result = judge(DealInput(declarer="Bruno", contract="solo", thirds=33), make_profile("pagat"),
    ...                        ("Anna", "Bruno", "Carla"), "Carla")
    >>> explanation(result)
    'solo 2 x stramazzo 3 = 6 from each opponent'
    """
    profile = deal.profile
    if deal.passed:
        rides = _("; the stake rides on the next played deal") if profile.pot_carryover else ""
        return _("all passed: no payment") + rides
    each = _("{formula} from each opponent") if deal.declarer_won else _("{formula} to each opponent")
    notes = [each.format(formula=_formula(deal)), *_notes(deal)]
    out = deal.sitting_out if isinstance(deal, DealResult) else _sitting_out(deal)
    if out and sitting_out:
        notes.append(sitting_out_note(out, shares=profile.dealer_shares))
    return "; ".join(notes)


def _formula(deal: DealView | DealResult) -> str:
    """How the amount per opponent is reached, factor by factor."""
    assert deal.contract is not None and deal.declarer_thirds is not None
    sweep = Sweep(_word(deal.sweep)) if deal.sweep else None
    if deal.profile.tariff is Tariff.DIFFERENCE:
        thirds, other = deal.declarer_thirds, DEAL_THIRDS - deal.declarer_thirds
        if sweep is Sweep.CAPPOTTO:
            side = _("all tricks") if thirds else _("no tricks")
            formula = f"{side}: cappotto {difference(thirds, sweep)}"
        else:
            formula = f"{thirds} - {other} = {thirds - other}: {abs(thirds - other)}"
        if deal.passed_before:
            formula += f" x {_pot(deal.passed_before)} {deal.passed_before + 1} = {deal.amount}"
        return formula
    aggravation = Aggravation(_word(deal.aggravation)) if deal.aggravation else None
    factors = amount_factors(deal.profile, Contract(_word(deal.contract)), aggravation, sweep, deal.passed_before)
    words = (_pot(deal.passed_before) if label == POT else label for label, _value in factors)
    return " x ".join(f"{word} {value}" for word, (_label, value) in zip(words, factors, strict=True)) + (
        f" = {deal.amount}"
    )


def _pot(passed: int) -> str:
    return ngettext("pot ({passed} passed)", "pot ({passed} passed)", passed).format(passed=passed)


def _notes(deal: DealView | DealResult) -> list[str]:
    """Who played beside the declarer, or why nobody did."""
    if deal.partner:
        return [
            _("{partner} held the called three and partners {declarer}").format(
                partner=deal.partner, declarer=deal.declarer
            )
        ]
    chiamo = _word(deal.contract) == Contract.CHIAMO.value
    if not chiamo or deal.profile.partnership is Partnership.NONE:
        return []
    if deal.holder == MONTE:
        return [_("the called three was in the monte: the declarer plays alone")]
    if deal.holder == DECLARER:
        return [_("the declarer held the called three: plays alone")]
    return []


def _sitting_out(deal: DealView) -> str | None:
    """The dealer, when the dealer held no cards in this deal."""
    return deal.dealer if deal.profile.sits_out(len(deal.payouts)) else None


def sitting_out_note(dealer: str, *, shares: bool) -> str:
    """What the dealer who holds no cards does: `Dario deals and sits out`, or pays and receives (dealer_shares)."""
    if shares:
        return _("{dealer} deals and pays and receives as an opponent").format(dealer=dealer)
    return _("{dealer} deals and sits out").format(dealer=dealer)


def why(deal: DealView) -> str | None:
    """Why this revision was written: what a person typed, or the ledger's own cause in words."""
    if deal.cause == POT_CAUSE:
        return _("pot of passed deals changed by deal {number}").format(number=deal.cause_deal)
    if deal.cause == UNDO:
        return _("undo: back as before the amendment")
    return deal.reason


def evening_voided(number: int, reason: str | None) -> str:
    """`Evening 2 voided (the demo): it counts nowhere.`: said when an evening is voided, and over what it shows (the
    standings, the deals, the evening page, the report), the reason as typed."""
    return _("Evening {number} voided ({reason}): it counts nowhere.").format(number=number, reason=reason)


def why_voided(deal: DealView) -> str | None:
    """Why the deal was voided: what a person typed, or the ledger's own cause (undo) in words."""
    if deal.void_cause == UNDO:
        return _("undone")
    return deal.void_reason


def drawn(value: object) -> dict[str, object]:
    """The words JSON carries of a value besides its facts, drawn in the language in use: of a deal, the line its
    payouts are checked by and why it was written or voided (`reason` and `void_reason`: what a person typed, or the
    ledger's own cause in words); of a scored deal, its explanation."""
    if isinstance(value, DealView):
        return {"void_reason": why_voided(value), "reason": why(value), "explanation": explanation(value)}
    if isinstance(value, DealResult):
        return {"explanation": explanation(value)}
    return {}


def as_json(value: object) -> Any:
    """A value as the command line's `--json` prints it and the API answers it: its `to_dict()`, with the words of
    every deal within drawn in the reader's language."""
    return plain(value, drawn)


def note(deal: DealView) -> str:
    """The explanation for a row of deals: voided or amended first; the dealer sitting out left to the dealer column.

    >>> from datetime import datetime
    >>> from ledger.rules.profiles import make_profile
    >>> from ledger.values import DealView
    >>> deal = DealView(2, 2, "Dario", "Anna", None, "solo", None, None, None, (), 20, None, None, 0, True,
    ...                 None, 1, 2, make_profile("pagat"), {"Anna": 4, "Bruno": -2, "Carla": -2, "Dario": 0},
    ...                 {"Dario": "out"}, datetime(2026, 11, 21), reason="recount")
    >>> note(deal)
    'amended (recount): solo 2 = 2 from each opponent'
    """
    if deal.voided:
        return _("VOID: {reason}").format(reason=why_voided(deal))
    shown = explanation(deal, sitting_out=False)
    if deal.amended:
        return _("amended ({reason}): {explanation}").format(reason=why(deal), explanation=shown)
    return shown


def described(change: ChangeView, deal: DealView | None = None) -> str:
    """A change of the evening's log in words: `deal 17 recorded: Anna solo 6+2/3`, `evening closed`; `deal` is the
    deal it touched, as it stands now."""
    number, shown = change.deal, brief(deal) if deal is not None else ""
    reason = f" ({change.reason})" if change.reason else ""
    words = {
        "start": _("evening started"),
        "record": _("deal {number} recorded: {deal}"),
        "amend": _("deal {number} amended{reason}: {deal}"),
        "void": _("deal {number} voided{reason}"),
        "undo": _("change {undoes} taken back"),
        "close": _("evening closed"),
        "reopen": _("evening reopened{reason}"),
        "void_evening": _("evening voided{reason}"),
    }
    return words.get(change.kind, change.kind).format(number=number, deal=shown, reason=reason, undoes=change.undoes)


def undo_names(change: ChangeView, deal: DealView | None = None) -> str:
    """What undo would take back, for its button: `deal 17, Anna solo 6+2/3`, `the void of deal 4`."""
    shown = brief(deal) if deal is not None else ""
    words = {
        "record": _("deal {number}, {deal}"),
        "amend": _("the correction of deal {number}, {deal}"),
        "void": _("the void of deal {number}"),
        "close": _("the close of the evening"),
        "reopen": _("the reopening of the evening"),
        "void_evening": _("the void of the whole evening"),
    }
    return words.get(change.kind, change.kind).format(number=change.deal, deal=shown)


def after_undo(kind: str) -> str:
    """How a deal stands once an undo took back its change of `kind` (`record`, `amend` or `void`)."""
    if kind == "record":
        return _("undone")
    if kind == "amend":
        return _("back as before its amendment")
    return _("counts again")


def source_word(source: str) -> str:
    """Where a change came from, in words."""
    words = {
        "terminal": _("terminal"),
        "play": _("play"),
        "phone": _("phone"),
        "table": _("table's phone"),
        "api": _("API"),
        "import": _("import"),
        "library": _("program"),
        "unknown": _("before the log"),
    }
    return words.get(source, source)


def logged(change: ChangeView, deal: DealView | None = None) -> str:
    """A change as a line of the evening's log: `12. deal 4 voided (misdeal) · phone K7QF` (a scorekeeper's phone
    named by its name in the log), marked when taken back."""
    named = f" {change.session}" if change.source == "phone" and change.session else ""
    line = f"{change.revision}. {described(change, deal)} · {source_word(change.source)}{named}"
    return _("{line} · taken back").format(line=line) if change.undone else line
