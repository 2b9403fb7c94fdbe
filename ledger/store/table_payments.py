"""Who paid whom at the table: in each deal that counts, the losers, in seat order, pay the winners, in seat order,
each loser paying the first winner still owed until covered (for a declarer against each opponent, exactly who pays
whom at the table). Summed in the database per currency, payer and payee, so that what is read is one row per pair
of players however long the history.

A deal's losses laid end to end, loser after loser in seat order, cover the same stretch as its wins laid end to end,
winner after winner: what a loser pays a winner is where their two pieces of that stretch overlap.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, and_, bindparam, case, func, select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from ledger.settlement import Transfer
from ledger.store.counting import counting_payouts
from ledger.store.deals import in_batches
from ledger.store.models import Deal, Evening, Payout, Player


def paid_at_table(session: Session, evenings: Sequence[int] | None = None) -> dict[str, list[Transfer]]:
    """What each player paid each other at the table over the deals that count of the evenings (every evening without
    them), summed per currency, payer and payee (nothing where the stake was nothing): one statement (per
    `EVENINGS_AT_ONCE` evenings given)."""
    paid: defaultdict[str, defaultdict[tuple[str, str], int]] = defaultdict(lambda: defaultdict(int))
    batches = [{"evenings": numbers} for numbers in in_batches(evenings)] if evenings is not None else [{}]
    for given in batches:
        for currency, payer, payee, cents in session.execute(_paid_query(evenings is not None), given):
            paid[currency][payer, payee] += int(cents)
    return {
        currency: [Transfer(payer, payee, cents) for (payer, payee), cents in pairs.items() if cents]
        for currency, pairs in paid.items()
    }


def _paid_query(chosen: bool) -> Select[Any]:
    """Per currency, payer and payee, what the payer paid the payee at the table, in cents (of `:evenings`, with
    `chosen`)."""
    wins = col(Payout.points) > 0
    reach = func.sum(func.abs(Payout.points)).over(
        partition_by=(col(Payout.revision_id), wins), order_by=col(Payout.position)
    )
    shares = counting_payouts(
        col(Evening.currency).label("currency"),
        col(Evening.stake_cents).label("stake"),
        col(Payout.revision_id).label("revision"),
        col(Payout.player_id).label("player"),
        col(Payout.points).label("points"),
        reach.label("reach"),
    ).where(col(Payout.points) != 0)
    if chosen:
        shares = shares.where(col(Deal.evening_id).in_(bindparam("evenings", expanding=True)))
    share = shares.cte("share")
    loser, winner = share.alias("loser"), share.alias("winner")
    loser_from, winner_from = loser.c.reach + loser.c.points, winner.c.reach - winner.c.points
    upto = case((loser.c.reach < winner.c.reach, loser.c.reach), else_=winner.c.reach)
    since = case((loser_from > winner_from, loser_from), else_=winner_from)
    payer, payee = aliased(Player), aliased(Player)
    return (
        select(loser.c.currency, col(payer.name), col(payee.name), func.sum((upto - since) * loser.c.stake))
        .select_from(loser)
        .join(
            winner,
            and_(
                winner.c.revision == loser.c.revision,
                loser.c.points < 0,
                winner.c.points > 0,
                loser_from < winner.c.reach,
                winner_from < loser.c.reach,
            ),
        )
        .join(payer, col(payer.id) == loser.c.player)
        .join(payee, col(payee.id) == winner.c.player)
        .group_by(loser.c.currency, col(payer.id), col(payer.name), col(payee.id), col(payee.name))
    )
