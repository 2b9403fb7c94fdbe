"""RULES §2 and §4: recorded auctions, the declarer and contract they give, and the auctions refused."""

from __future__ import annotations

import pytest
from rules_cases import ABC, ABCD, ABCDE, play
from said import raises_said, said

from ledger.errors import LedgerError
from ledger.rules.auction import check_auction
from ledger.rules.contracts import Contract
from ledger.rules.profiles import make_profile


def case(
    id_: str,
    auction: str,
    declarer: str | None,
    contract: str | None,
    profile: str = "pagat",
    options: dict[str, str] | None = None,
    players: tuple[str, ...] = ABC,
    dealer: str | None = None,
) -> object:
    return pytest.param(profile, options or {}, players, dealer, auction, declarer, contract, id=id_)


VALID = [
    case("pagat-pass-solo-pass", "pass,solo,pass", "Bruno", "solo"),
    case("pagat-chiamo-pass-pass", "chiamo,pass,pass", "Anna", "chiamo"),
    case("pagat-chiamo-solo-solissimo", "chiamo,solo,solissimo", "Carla", "solissimo"),
    case("pagat-chiamo-pass-solo", "chiamo,pass,solo", "Carla", "solo"),
    case("pagat-pass-pass-solissimo", "pass,pass,solissimo", "Carla", "solissimo"),
    case("pagat-solissimo-ends-the-auction", "solissimo", "Anna", "solissimo"),
    case("pagat-chiamo-solissimo-ends", "chiamo,solissimo", "Bruno", "solissimo"),
    case("pagat-italian-and-english-words", "passo,call,p", "Bruno", "chiamo"),
    case("pagat-named-calls", "Anna:pass,Bruno:solo,Carla:pass", "Bruno", "solo"),
    case("pagat-named-case-accents-prefix", "anna:pass, br:chiamo ,CARLA:pass", "Bruno", "chiamo"),
    case("pagat-dealer-anna-speaks-last", "pass,pass,chiamo", "Anna", "chiamo", dealer="Anna"),
    case("pagat-dealer-bruno-carla-first", "solo,pass,pass", "Carla", "solo", dealer="Bruno"),
    case("pagat-all-pass", "pass,pass,pass", None, None),
    case("pagat-4-seated-dealer-does-not-speak", "pass,solo,pass", "Bruno", "solo", players=ABCD, dealer="Dario"),
    case("pagat-4-seated-dealer-anna", "pass,pass,chiamo", "Dario", "chiamo", players=ABCD, dealer="Anna"),
    case("pagat-4-seated-all-pass", "pass,pass,pass", None, None, players=ABCD, dealer="Dario"),
    case("tretre-pass-chiamo-solo", "pass,chiamo,solo", "Carla", "solo", profile="tretre"),
    case("cavendish-first-play-wins", "pass,play", "Bruno", "chiamo", profile="cavendish"),
    case("cavendish-all-pass", "pass,pass,pass", None, None, profile="cavendish"),
    case("cavendish-others-pass-after-play", "play,pass,pass", "Anna", "chiamo", profile="cavendish"),
    case("cavendish-4-seated", "play", "Anna", "chiamo", profile="cavendish", players=ABCD, dealer="Dario"),
    case(
        "quartiglio-ladder-to-solissimo",
        "chiamo,mediatore,solo,solissimo",
        "Dario",
        "solissimo",
        profile="quartiglio",
        options={"mediatore_outbids_chiamo": "on"},
        players=ABCD,
    ),
    case(
        "quartiglio-mediatore-outbids-chiamo",
        "chiamo,mediatore,pass,pass",
        "Bruno",
        "mediatore",
        profile="quartiglio",
        options={"mediatore_outbids_chiamo": "on"},
        players=ABCD,
    ),
    case(
        "quartiglio-default-same-level-then-solo",
        "mediatore,pass,solo,pass",
        "Carla",
        "solo",
        profile="quartiglio",
        players=ABCD,
    ),
    case(
        "quartiglio-same-level-then-solo",
        "chiamo,pass,solo,pass",
        "Carla",
        "solo",
        profile="quartiglio",
        options={"mediatore_outbids_chiamo": "off"},
        players=ABCD,
    ),
    case(
        "quartiglio-same-level-mediatore-alone",
        "pass,mediatore,pass,pass",
        "Bruno",
        "mediatore",
        profile="quartiglio",
        options={"mediatore_outbids_chiamo": "off"},
        players=ABCD,
    ),
    case(
        "quartiglio-no-monte-solo-tops",
        "chiamo,solo",
        "Bruno",
        "solo",
        profile="quartiglio",
        options={"monte": "off"},
        players=ABCD,
    ),
    case("quartiglio-all-pass", "pass,pass,pass,pass", None, None, profile="quartiglio", players=ABCD),
    case("quintiglio-chiamo", "pass,chiamo,pass,pass,pass", "Bruno", "chiamo", profile="quintiglio", players=ABCDE),
    case("quintiglio-solo-tops", "pass,chiamo,pass,solo", "Dario", "solo", profile="quintiglio", players=ABCDE),
    case(
        "quintiglio-passes-after-solo",
        "pass,chiamo,pass,solo,pass",
        "Dario",
        "solo",
        profile="quintiglio",
        players=ABCDE,
    ),
    case(
        "quartiglio-no-monte-passes-after-solo",
        "chiamo,solo,pass,pass",
        "Bruno",
        "solo",
        profile="quartiglio",
        options={"monte": "off"},
        players=ABCD,
    ),
    case(
        "quintiglio-mediatore-outbids-chiamo-by-option",
        "chiamo,mediatore,pass,pass,pass",
        "Bruno",
        "mediatore",
        profile="quintiglio",
        options={"mediatore": "on", "mediatore_outbids_chiamo": "on"},
        players=ABCDE,
    ),
    case(
        "quintiglio-mediatore-alone",
        "pass,mediatore,pass,pass,pass",
        "Bruno",
        "mediatore",
        profile="quintiglio",
        options={"mediatore": "on"},
        players=ABCDE,
    ),
    case(
        "quintiglio-mediatore-then-solo",
        "mediatore,pass,solo,pass,pass",
        "Carla",
        "solo",
        profile="quintiglio",
        options={"mediatore": "on"},
        players=ABCDE,
    ),
    case("pagat-passes-after-solissimo", "solissimo,pass,pass", "Anna", "solissimo"),
    case("pagat-one-pass-after-solissimo", "pass,solissimo,pass", "Bruno", "solissimo"),
    case(
        "quartiglio-passes-after-solissimo",
        "chiamo,solissimo,pass,pass",
        "Bruno",
        "solissimo",
        profile="quartiglio",
        players=ABCD,
    ),
]


@pytest.mark.parametrize(("profile", "options", "players", "dealer", "auction", "declarer", "contract"), VALID)
def test_valid_auction_gives_declarer_and_contract(
    profile: str,
    options: dict[str, str],
    players: tuple[str, ...],
    dealer: str | None,
    auction: str,
    declarer: str | None,
    contract: str | None,
) -> None:
    extra = (
        {"holder": next(player for player in players if player != declarer)}
        if profile in ("quartiglio", "quintiglio") and contract in ("chiamo", "mediatore")
        else {}
    )
    facts, result = play(
        profile, options, players, dealer, auction=auction, thirds=None if declarer is None else 20, **extra
    )
    assert facts.declarer == declarer
    assert (facts.contract.value if facts.contract else None) == contract
    assert result.passed is (declarer is None)
    if declarer is None:
        assert set(result.payouts.values()) == {0}
    else:
        assert result.payouts[declarer] > 0
    rules = make_profile(profile, options)
    speakers = facts.active(rules)
    assert [seat for seat, _ in facts.auction] == list(speakers[: len(facts.auction)])
    out = facts.sitting_out(rules)
    assert out is None or out not in [seat for seat, _ in facts.auction]


@pytest.mark.parametrize(("profile", "options", "players", "dealer", "auction", "declarer", "contract"), VALID)
def test_auction_agrees_with_the_same_declarer_and_contract(
    profile: str,
    options: dict[str, str],
    players: tuple[str, ...],
    dealer: str | None,
    auction: str,
    declarer: str | None,
    contract: str | None,
) -> None:
    extra = (
        {"holder": next(player for player in players if player != declarer)}
        if profile in ("quartiglio", "quintiglio") and contract in ("chiamo", "mediatore")
        else {}
    )
    if declarer is None:
        facts, _ = play(profile, options, players, dealer, auction=auction, passed=True)
        assert facts.passed
        return
    facts, _ = play(
        profile,
        options,
        players,
        dealer,
        auction=auction,
        declarer=declarer.lower(),
        contract=contract,
        thirds=20,
        **extra,
    )
    assert facts.declarer == declarer


def bad(
    id_: str,
    auction: str,
    why: str,
    profile: str = "pagat",
    options: dict[str, str] | None = None,
    players: tuple[str, ...] = ABC,
    dealer: str | None = None,
    **typed: object,
) -> object:
    return pytest.param(profile, options or {}, players, dealer, auction, typed, why, id=id_)


INVALID = [
    bad("lower-bid", "solo,chiamo,pass", "Bruno's chiamo does not outbid Anna's solo"),
    bad("equal-bid", "solo,solo,pass", "Bruno's solo does not outbid Anna's solo"),
    bad("equal-chiamo", "chiamo,pass,chiamo", "Carla's chiamo does not outbid Anna's chiamo"),
    bad(
        "bids-after-solissimo",
        "pass,solissimo,solissimo",
        "Carla bids solissimo after Bruno's solissimo; after a solissimo the others may only pass",
    ),
    bad(
        "solo-after-solissimo-and-a-pass",
        "solissimo,pass,solo",
        "Carla bids solo after Anna's solissimo; after a solissimo the others may only pass",
    ),
    bad("too-many-passes-after-solissimo", "solissimo,pass,pass,pass", "4 calls, but only 3 players speak"),
    bad("missing-speaker", "pass,solo", "Carla has not spoken (every player speaks once)"),
    bad("missing-two-speakers", "chiamo", "Bruno has not spoken"),
    bad("too-many-calls", "pass,pass,pass,pass", "4 calls, but only 3 players speak"),
    bad("named-out-of-turn", "Bruno:solo,Anna:pass,Carla:pass", "call 1 (solo) is Anna's, not Bruno's"),
    bad("named-twice", "Anna:pass,Anna:solo,Carla:pass", "call 2 (solo) is Bruno's, not Anna's"),
    bad("named-unknown", "Anna:pass,Zoe:solo,Carla:pass", "'Zoe' does not speak"),
    bad("named-prefix-out-of-turn", "Anna:pass,Carl:solo,Carla:pass", "call 2 (solo) is Bruno's, not Carla's"),
    bad(
        "named-ambiguous-prefix",
        "Ann:pass,pass,pass",
        "'Ann': ambiguous, it could be Anna, Annalisa",
        players=("Anna", "Annalisa", "Bruno"),
    ),
    bad("unknown-call", "pass,bid,pass", "call 'bid': allowed are pass"),
    bad("empty-call", "pass,,solo", "an empty call"),
    bad("empty-named-call", "Anna:,pass,pass", "call '': allowed are pass"),
    bad("mediatore-in-pagat", "pass,mediatore,pass", "pagat bids are pass, chiamo, solo, solissimo"),
    bad("solo-in-cavendish", "pass,solo,pass", "cavendish bids are pass, chiamo", profile="cavendish"),
    bad("cavendish-one-bid-only", "play,play", "Bruno's chiamo does not outbid Anna's chiamo", profile="cavendish"),
    bad(
        "quintiglio-bid-after-solo",
        "pass,solo,solo",
        "Carla's solo does not outbid Bruno's solo",
        profile="quintiglio",
        players=ABCDE,
    ),
    bad(
        "quintiglio-too-many-after-solo",
        "solo,pass,pass,pass,pass,pass",
        "6 calls, but only 5 players speak",
        profile="quintiglio",
        players=ABCDE,
    ),
    bad(
        "dealer-sitting-out-speaks-by-name",
        "Dario:pass,Anna:pass,Bruno:solo,Carla:pass",
        "'Dario' does not speak",
        players=ABCD,
        dealer="Dario",
    ),
    bad(
        "four-calls-with-dealer-sitting-out",
        "pass,pass,solo,pass",
        "4 calls, but only 3 players speak",
        players=ABCD,
        dealer="Dario",
    ),
    bad(
        "quartiglio-same-level-mediatore-over-chiamo",
        "chiamo,mediatore,pass,pass",
        "Bruno's mediatore does not outbid Anna's chiamo",
        profile="quartiglio",
        options={"mediatore_outbids_chiamo": "off"},
        players=ABCD,
    ),
    bad(
        "quartiglio-same-level-chiamo-over-mediatore",
        "mediatore,chiamo,pass,pass",
        "Bruno's chiamo does not outbid Anna's mediatore",
        profile="quartiglio",
        options={"mediatore_outbids_chiamo": "off"},
        players=ABCD,
    ),
    bad(
        "quartiglio-chiamo-over-mediatore",
        "mediatore,chiamo,pass,pass",
        "Bruno's chiamo does not outbid Anna's mediatore",
        profile="quartiglio",
        options={"mediatore_outbids_chiamo": "on"},
        players=ABCD,
    ),
    bad(
        "quartiglio-default-mediatore-does-not-outbid-chiamo",
        "chiamo,mediatore,pass,pass",
        "Bruno's mediatore does not outbid Anna's chiamo",
        profile="quartiglio",
        players=ABCD,
    ),
    bad(
        "quintiglio-default-mediatore-does-not-outbid-chiamo",
        "chiamo,mediatore,pass,pass,pass",
        "Bruno's mediatore does not outbid Anna's chiamo",
        profile="quintiglio",
        options={"mediatore": "on"},
        players=ABCDE,
    ),
    bad(
        "quintiglio-chiamo-does-not-outbid-mediatore",
        "mediatore,chiamo,pass,pass,pass",
        "Bruno's chiamo does not outbid Anna's mediatore",
        profile="quintiglio",
        options={"mediatore": "on"},
        players=ABCDE,
    ),
    bad(
        "quartiglio-no-monte-solissimo",
        "pass,solissimo",
        "quartiglio bids are pass, chiamo, mediatore, solo",
        profile="quartiglio",
        options={"monte": "off"},
        players=ABCD,
    ),
    bad("quartiglio-missing-speaker", "pass,pass,pass", "Dario has not spoken", profile="quartiglio", players=ABCD),
    bad(
        "quintiglio-mediatore-without-option",
        "chiamo,mediatore,pass,pass,pass",
        "quintiglio bids are pass, chiamo, solo",
        profile="quintiglio",
        players=ABCDE,
    ),
    bad(
        "contradicts-declarer",
        "pass,solo,pass",
        "auction says Bruno solo, which contradicts the declarer",
        declarer="Anna",
    ),
    bad("contradicts-contract", "pass,solo,pass", "auction says Bruno solo, which contradicts", contract="chiamo"),
    bad(
        "all-pass-contradicts-declarer",
        "pass,pass,pass",
        "auction says all passed, which contradicts",
        declarer="Anna",
        contract="solo",
    ),
    bad("bid-with-passed", "pass,solo,pass", "a passed deal has no declarer or contract", passed=True),
    bad("all-pass-with-contract", "pass,pass,pass", "a passed deal has no declarer, so no contract", contract="solo"),
]


@pytest.mark.parametrize(("profile", "options", "players", "dealer", "auction", "typed", "why"), INVALID)
def test_invalid_auction_is_rejected(
    profile: str,
    options: dict[str, str],
    players: tuple[str, ...],
    dealer: str | None,
    auction: str,
    typed: dict[str, object],
    why: str,
) -> None:
    typed = {"thirds": 20, **typed} if not typed.get("passed") and "pass,pass,pass" not in auction else typed
    with pytest.raises(LedgerError) as caught:
        play(profile, options, players, dealer, auction=auction, **typed)
    assert why in said(caught.value)


def test_check_auction_direct_each_seat_once_in_turn() -> None:
    pagat = make_profile()
    speakers = ("Bruno", "Carla", "Anna")
    calls = (("Bruno", None), ("Carla", Contract.CHIAMO), ("Anna", Contract.SOLO))
    assert check_auction(calls, speakers, pagat) == ("Anna", Contract.SOLO)
    assert check_auction((("Bruno", None), ("Carla", None), ("Anna", None)), speakers, pagat) is None
    with raises_said("Carla has not spoken"):
        check_auction((("Bruno", None),), speakers, pagat)
    with raises_said("Bruno has not spoken"):
        check_auction((), speakers, pagat)
