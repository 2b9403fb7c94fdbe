"""The live read of an evening (`Ledger.live`) shows the same evening as any other read: who deals next, who speaks
first and the totals, whether the last deal that stands is among the deals it shows or not."""

from __future__ import annotations

import pytest

from ledger.service import Ledger
from ledger.values import Terms

LINES = ("anna solo 22", "bruno chiamo 3D@carla 17", "pass", "carla solissimo dividete 8", "dario solo 7+1/3")


@pytest.mark.parametrize(
    ("recorded", "voided"),
    [
        pytest.param(0, (), id="no deal yet"),
        pytest.param(5, (), id="the last deal stands"),
        pytest.param(3, (), id="the last deal passed"),
        pytest.param(8, (8,), id="the last deal voided"),
        pytest.param(9, (4, 5, 6, 7, 8, 9), id="every deal shown voided"),
        pytest.param(3, (1, 2, 3), id="every deal voided"),
    ],
)
def test_the_live_read_names_the_next_dealer_and_the_totals_as_the_evening_does(
    sqlite_url: str, recorded: int, voided: tuple[int, ...]
) -> None:
    with Ledger(sqlite_url) as ledger:
        ledger.start_evening(("Anna", "Bruno", "Carla", "Dario"), Terms(profile="quartiglio"))
        for n in range(recorded):
            ledger.record(LINES[n % len(LINES)])
        for number in voided:
            ledger.void(number, reason="misdealt")
        live = ledger.live(6)
        shown, deals = live.evening, live.deals
        evening = ledger.evening()
    assert [deal.number for deal in deals] == list(range(max(recorded - 5, 1), recorded + 1))
    assert (shown.next_dealer, shown.first_speaker, shown.points) == (
        evening.next_dealer,
        evening.first_speaker,
        evening.points,
    )
    last_standing = max((n for n in range(1, recorded + 1) if n not in voided), default=0)
    seats = ("Anna", "Bruno", "Carla", "Dario")
    assert shown.next_dealer == seats[(seats.index(evening.first_dealer) + last_standing) % 4]
