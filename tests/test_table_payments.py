"""Who paid whom at the table, summed by the database (`ledger.store.table_payments`), is the north-west corner rule
deal by deal: in each deal that counts the losers, in seat order, pay the winners, in seat order, each loser paying
the first winner still owed. Checked against that rule worked out here from each deal's payouts, at tables of three,
four and five, on both databases. And a settlement from a day reads the evenings started from that day's local
midnight on, by the day in the query."""

from __future__ import annotations

from collections import defaultdict

from ledger import Ledger
from ledger.settlement import Transfer
from ledger.values import Terms

TABLES = {
    ("Anna", "Bruno", "Carla"): ("pagat", ("bruno solo 22", "carla chiamo 3D@anna 17 last=opp", "pass", "anna solo 8")),
    ("Anna", "Bruno", "Carla", "Dario"): (
        "quartiglio",
        ("anna chiamo 3D@carla 22", "bruno solo 12", "dario chiamo 3C@anna 11", "carla chiamo 3S@monte 25"),
    ),
    ("Anna", "Bruno", "Carla", "Dario", "Elena"): (
        "quintiglio",
        ("anna chiamo 3D@carla 22", "elena chiamo 3C@bruno 12", "dario solo 30", "bruno chiamo 3S@dario 9"),
    ),
}


def by_the_rule(deals: list[dict[str, int]]) -> dict[tuple[str, str], int]:
    """What each player paid each other, summed: each deal's losers in seat order pay its winners in seat order."""
    paid: defaultdict[tuple[str, str], int] = defaultdict(int)
    for deal in deals:
        owed = {name: cents for name, cents in deal.items() if cents > 0}  # in seat order
        for payer, lost in ((name, -cents) for name, cents in deal.items() if cents < 0):
            while lost:
                winner = next(name for name, still in owed.items() if still)
                cents = min(lost, owed[winner])
                paid[payer, winner] += cents
                lost, owed[winner] = lost - cents, owed[winner] - cents
    return paid


def netted(paid: dict[tuple[str, str], int]) -> list[Transfer]:
    net: defaultdict[tuple[str, str], int] = defaultdict(int)
    for (payer, payee), cents in paid.items():
        net[min(payer, payee), max(payer, payee)] += cents if payer < payee else -cents
    flows = [Transfer(a, b, c) if c > 0 else Transfer(b, a, -c) for (a, b), c in net.items() if c]
    return sorted(flows, key=lambda p: (p.payer.casefold(), p.payee.casefold()))


def test_what_each_pair_paid_at_the_table_follows_the_seats(db_url: str) -> None:
    with Ledger(db_url) as ledger:
        every: list[dict[str, int]] = []
        for players, (profile, lines) in TABLES.items():
            number = ledger.start_evening(players, Terms(profile=profile, stake="0.20")).number
            for line in lines * 2:
                ledger.record(line, evening=number)
            ledger.void(3, reason="misdeal", evening=number)
            ledger.amend(1, "20", reason="recount", evening=number)
            _, deals = ledger.deals(number)
            seats = [{name: deal.payouts[name] * 20 for name in players} for deal in deals if not deal.voided]
            every += seats
            assert list(ledger.settle(evening=number, pairs=True).pairs) == netted(by_the_rule(seats)), profile
        for_nothing = ledger.start_evening(("Anna", "Bruno", "Carla"), Terms(stake="0")).number
        ledger.record("bruno solo 22", evening=for_nothing)
        assert ledger.settle(evening=for_nothing, pairs=True).pairs == ()
        (tab,) = ledger.tab(pairs=True)
        assert list(tab.pairs) == netted(by_the_rule(every))
        assert any(
            len([c for c in deal.values() if c < 0]) > 1 < len([c for c in deal.values() if c > 0]) for deal in every
        )


def test_settle_since_a_day_takes_the_evenings_started_from_its_local_midnight_oldest_first(db_url: str) -> None:
    """Read by the day in the query (`Evening.started_at` from the local midnight on), voided evenings left out."""
    import copy
    import json
    from datetime import date, datetime, time, timedelta
    from pathlib import Path

    example = json.loads((Path(__file__).resolve().parent.parent / "examples" / "three_friends.json").read_text())
    midnight = datetime.combine(date(2026, 3, 2), time.min).astimezone()
    evenings = []
    for number, started in enumerate((midnight - timedelta(minutes=1), midnight, midnight + timedelta(days=1)), 1):
        evening = copy.deepcopy(example["evenings"][0])
        evening.update(number=number, started_at=started.isoformat(), revision=evening["changes"][-1]["revision"])
        for deal in evening["deals"]:
            deal["key"] = None
        evenings.append(evening)
    with Ledger(db_url) as ledger:
        ledger.import_data({**example, "evenings": evenings, "payments": []})
        assert list(ledger.settle(since=date(2026, 3, 2)).evenings) == [2, 3]
        ledger.void_evening(3, reason="a test")
        assert list(ledger.settle(since=date(2026, 3, 2)).evenings) == [2]
        assert list(ledger.settle().evenings) == [2]
        assert list(ledger.settle(since=date(2026, 3, 1)).evenings) == [1, 2]
