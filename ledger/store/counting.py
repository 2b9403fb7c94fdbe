"""The deals that count, spelled once: each deal's current revision, the deal not voided, its evening not voided.

Standings, money, the club board, the season and the reports all read from these selects. Each is the one before it
narrowed: `current_deals` (every deal at its revision in force, voided ones included: an evening's list of deals),
`standing_deals` (the deals not voided: one evening's own figures, shown even when the evening is voided) and
`counting_deals` (their evenings not voided either: figures over several evenings).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sql
from sqlalchemy import Select, and_
from sqlmodel import col

from ledger.store.models import Deal, DealRevision, Evening, Payout

CURRENT = col(DealRevision.superseded_at).is_(None)
"""A deal's revision in force (an amended deal keeps its older revisions, superseded)."""
STANDING = col(Deal.voided_at).is_(None)
"""A deal not voided."""
COUNTED = col(Evening.voided_at).is_(None)
"""An evening not voided."""


def current_deals(*columns: Any) -> Select[Any]:
    """The given columns of every deal, voided ones included, each joined to its current revision."""
    return (
        sql.select(*columns).select_from(Deal).join(DealRevision, and_(col(DealRevision.deal_id) == Deal.id, CURRENT))
    )


def standing_deals(*columns: Any) -> Select[Any]:
    """The given columns of the deals not voided, each joined to its current revision, whatever their evening."""
    return current_deals(*columns).where(STANDING)


def counting_deals(*columns: Any) -> Select[Any]:
    """The given columns of the deals that count, each joined to its current revision and its evening."""
    return standing_deals(*columns).join(Evening, and_(col(Evening.id) == Deal.evening_id, COUNTED))


def with_payouts(deals: Select[Any]) -> Select[Any]:
    """A select of deals (one of the above) joined to the payouts of their current revisions."""
    return deals.join(Payout, col(Payout.revision_id) == DealRevision.id)


def counting_payouts(*columns: Any) -> Select[Any]:
    """The given columns of the payouts of the deals that count, joined to their revision, deal and evening."""
    return with_payouts(counting_deals(*columns))
