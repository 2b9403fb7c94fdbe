"""What the report tests share: the frames of a ledger file, read as the reporting commands read them."""

from __future__ import annotations

from ledger.reports.filters import Filters
from ledger.reports.frames import Frames, load_frames
from ledger.store.engine import open_ledger


def frames_of(ledger: str, **filters: object) -> Frames:
    """The frames of the ledger at `ledger` for the given filters."""
    engine = open_ledger(ledger)
    try:
        return load_frames(engine, Filters(**filters))  # type: ignore[arg-type]
    finally:
        engine.dispose()
