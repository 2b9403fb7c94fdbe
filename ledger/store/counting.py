"""The deals that count, spelled once: each deal's current revision, the deal not voided, its evening not voided.

Standings, money, the club board, the season and the reports all read from these two selects.
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


def counting_deals(*columns: Any) -> Select[Any]:
    """The given columns of the deals that count, each joined to its current revision and its evening."""
    return (
        sql.select(*columns)
        .select_from(Deal)
        .join(DealRevision, and_(col(DealRevision.deal_id) == Deal.id, CURRENT))
        .join(Evening, and_(col(Evening.id) == Deal.evening_id, col(Evening.voided_at).is_(None)))
        .where(STANDING)
    )


def counting_payouts(*columns: Any) -> Select[Any]:
    """The given columns of the payouts of the deals that count, joined to their revision, deal and evening."""
    return counting_deals(*columns).join(Payout, col(Payout.revision_id) == DealRevision.id)
