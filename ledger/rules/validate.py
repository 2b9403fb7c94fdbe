"""Check a deal's facts against each other and against the profile before scoring."""

from __future__ import annotations

from ledger.errors import FactError, LedgerError, MissingFact, fact_word
from ledger.i18n import _
from ledger.rules.auction import check_auction
from ledger.rules.cards import rank_of
from ledger.rules.contracts import Contract
from ledger.rules.facts import DECLARER, MONTE, DealFacts
from ledger.rules.points import check_thirds
from ledger.rules.profiles import Partnership, Profile
from ledger.rules.sweeps import check_sweep_facts

MOST_PASSED = 1000
"""Passed deals in a row (a pot multiplies the next deal by one more than this): the most accepted."""


def validate(facts: DealFacts, profile: Profile, *, count_cards: bool = True) -> None:
    """Raise a LedgerError naming the first fact that is impossible or missing; not `count_cards`, a played deal's
    facts are not counted card by card (a deal a ledger stored before they were, read back)."""
    profile.check_players(facts.players)
    if facts.dealer not in facts.players:
        raise FactError(
            "dealer", facts.dealer, _("not seated; the players are {players}").format(players=", ".join(facts.players))
        )
    if not 0 <= facts.passed_before <= MOST_PASSED:
        raise FactError(
            "passed_before",
            facts.passed_before,
            _("the count of passed deals in a row is 0 to {most}").format(most=MOST_PASSED),
        )
    active = facts.active(profile)
    if facts.auction:
        outcome = check_auction(facts.auction, active, profile)
        if outcome != ((facts.declarer, facts.contract) if not facts.passed else None):
            said = f"{outcome[0]} {outcome[1].value}" if outcome else _("all passed")
            raise LedgerError(
                _("auction says {said}, which contradicts the declarer and contract given").format(said=said)
            )
    if facts.passed:
        _check_passed(facts)
        return
    if facts.declarer not in active:
        out = facts.sitting_out(profile)
        why = _("{dealer} deals and sits out").format(dealer=out) if facts.declarer == out else _("not seated")
        raise LedgerError(
            _("declarer {declarer!r}: {why}; the declarer is one of {active}").format(
                declarer=facts.declarer, why=why, active=", ".join(active)
            )
        )
    _check_contract(facts, profile)
    _check_call(facts, profile, active)
    if facts.thirds is None:
        raise MissingFact("thirds", _("how many thirds did the declarer side take?"))
    check_thirds(facts.thirds)
    all_tricks = profile.tricks_per_deal(len(active))
    check_sweep_facts(
        facts.thirds,
        facts.tricks,
        facts.last_trick,
        facts.monte_thirds,
        all_tricks,
        profile.monte_cards,
        count_cards=count_cards,
    )


def _check_passed(facts: DealFacts) -> None:
    given = [
        fact_word(name)
        for name, value in (
            ("contract", facts.contract),
            ("aggravation", facts.aggravation),
            ("called", facts.called),
            ("holder", facts.holder),
            ("thirds", facts.thirds),
            ("tricks", facts.tricks),
            ("last_trick", facts.last_trick),
            ("monte_thirds", facts.monte_thirds),
        )
        if value is not None
    ]
    if given:
        raise LedgerError(_("a passed deal has no declarer, so no {given}").format(given=", ".join(given)))


def _check_contract(facts: DealFacts, profile: Profile) -> None:
    if facts.contract is None:
        raise MissingFact("contract", _("which contract?"))
    if facts.contract not in profile.contracts:
        allowed = ", ".join(profile.word(c) for c in profile.bids)
        if facts.contract is Contract.SOLISSIMO and not profile.has_monte:
            why = _("with monte=off there is none") if "monte" in profile.options else _("this game has none")
            raise LedgerError(
                _(
                    "contract solissimo: {name} has {allowed}; a solissimo is played on the monte "
                    "left untouched, and {why}"
                ).format(name=profile.name, allowed=allowed, why=why)
            )
        raise LedgerError(
            _("contract {contract}: {name} has {allowed}").format(
                contract=facts.contract.value, name=profile.name, allowed=allowed
            )
        )
    if facts.aggravation is not None and facts.contract is not Contract.SOLISSIMO:
        raise LedgerError(
            _("{aggravation} on {contract}: dividete and scegliete exist only on a solissimo").format(
                aggravation=facts.aggravation.value, contract=facts.contract.value
            )
        )


def _check_call(facts: DealFacts, profile: Profile, active: tuple[str, ...]) -> None:
    if facts.contract not in profile.calls_card:
        if facts.called is not None or facts.holder is not None:
            raise LedgerError(
                _("{contract}: a card is called only in chiamo (and mediatore)").format(
                    contract=facts.contract.value if facts.contract else None
                )
            )
        return
    ranks = profile.callable_ranks
    if ranks is not None and facts.called is not None and rank_of(facts.called) not in ranks:
        raise LedgerError(
            _("called card {called}: in {name} only a three may be called").format(
                called=facts.called, name=profile.name
            )
        )
    if facts.holder is None:
        if profile.partnership is not Partnership.NONE and facts.contract is Contract.CHIAMO:
            choices: tuple[str, ...] = (MONTE,) if profile.has_monte else ()
            choices += (DECLARER,) if profile.call_own_card else ()
            raise MissingFact("holder", _("who held the called three?"), choices)
        return
    if facts.holder == DECLARER and not profile.call_own_card:
        raise FactError(
            "holder",
            DECLARER,
            _("the declarer may not call a card of their own hand at this table (call_own_card=off)"),
        )
    if facts.holder == MONTE and not profile.has_monte:
        raise FactError("holder", MONTE, _("{name} is played here without a monte").format(name=profile.name))
    if facts.holder not in (MONTE, DECLARER) and facts.holder not in active:
        seated = {"holder": facts.holder, "active": ", ".join(active)}
        if not profile.has_monte:
            raise LedgerError(
                _("holder {holder!r}: the called card was held by one of {active}, or the declarer").format(**seated)
            )
        raise LedgerError(
            _("holder {holder!r}: the called card was held by one of {active}, the monte, or the declarer").format(
                **seated
            )
        )
    if facts.holder == facts.declarer:
        raise LedgerError(
            _("holder {holder}: write 'declarer' when the declarer held the called card").format(holder=facts.holder)
        )
