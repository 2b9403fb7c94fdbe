"""Statistics of the example evening `examples/three_friends.json`, checked against its deals counted by hand.

The evening has 30 deals: deal 24 is voided (it never counts), deal 16 was amended (only its second revision
counts), deals 3, 4 and 13 were passed by everyone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from conftest import EXAMPLES

from ledger.reports import stats
from ledger.reports.frames import load_frames
from ledger.store.engine import open_ledger, transaction
from ledger.store.replay import import_data


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, pd.DataFrame]]:
    engine = open_ledger(str(tmp_path_factory.mktemp("examples") / "three.sqlite3"))
    with transaction(engine) as session:
        import_data(session, json.loads(Path(EXAMPLES / "three_friends.json").read_text(encoding="utf-8")))
    yield stats.statistics(load_frames(engine))
    engine.dispose()


def row(table: pd.DataFrame, **where: object) -> pd.Series:
    mask = pd.Series(True, index=table.index)
    for column, value in where.items():
        mask &= table[column] == value
    assert mask.sum() == 1, where
    return table[mask].iloc[0]


def test_summary_counts_what_stands(tables: dict[str, pd.DataFrame]) -> None:
    summary = tables["summary"].iloc[0]
    assert (summary["deals"], summary["played"], summary["passed"]) == (29, 26, 3)


@pytest.mark.parametrize(
    ("player", "declarer", "points", "cappotto_for", "cents"),
    [
        ("Anna", 9, 10, 0, 100),  # declared deals 5 6 9 12 15 18 21 27 30 (24 voided)
        ("Bruno", 9, -80, 0, -800),  # 1 2 7 10 16 19 22 25 28
        ("Carla", 8, 70, 1, 700),  # 8 11 14 17 20 23 26 29; 14 is her solissimo scegliete cappotto
    ],
)
def test_players(
    tables: dict[str, pd.DataFrame], player: str, declarer: int, points: int, cappotto_for: int, cents: int
) -> None:
    line = row(tables["players"], player=player)
    assert (line["declarer"], line["opponent"], line["points"]) == (declarer, 26 - declarer, points)
    assert line["cappotto_for"] == cappotto_for
    assert row(tables["money"], player=player)["money_cents"] == cents


@pytest.mark.parametrize(
    ("contract", "aggravation", "deals", "won"),
    [
        ("chiamo", None, 12, 9),  # lost: 9 (4 thirds), 11 (17), 25 (17)
        ("solo", None, 9, 5),  # lost: 5 (15), 16 (13 after the amendment), 20 (16), 28 (2)
        ("solissimo", None, 2, 2),
        ("solissimo", "dividete", 2, 1),
        ("solissimo", "scegliete", 1, 1),
    ],
)
def test_contracts(
    tables: dict[str, pd.DataFrame], contract: str, aggravation: str | None, deals: int, won: int
) -> None:
    table = tables["contracts"]
    mask = (table["contract"] == contract) & (
        table["aggravation"].isna() if aggravation is None else table["aggravation"] == aggravation
    )
    line = table[mask].iloc[0]
    assert (line["deals"], line["won"]) == (deals, won)


def test_called_cards_and_their_holders(tables: dict[str, pd.DataFrame]) -> None:
    three_of_denari = row(tables["called"], card="3D")  # deals 2 (the declarer's own), 15 (Bruno), 25 (Anna)
    assert (
        three_of_denari["calls"],
        three_of_denari["Anna"],
        three_of_denari["Bruno"],
        three_of_denari["declarer"],
    ) == (3, 1, 1, 1)
