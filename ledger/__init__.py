"""Calabresella ledger: scorekeeping for Calabresella, Quartiglio and Quintiglio.

`from ledger import Ledger` gives the service every front end uses (see `ledger.service`); it is
imported on first use, so the command line starts without the database layer until it needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ledger.service import Ledger

__version__ = "0.1.0"
__all__ = ["Ledger", "__version__"]


def __getattr__(name: str) -> Any:
    if name == "Ledger":
        from ledger.service import Ledger

        return Ledger
    raise AttributeError(f"module 'ledger' has no attribute {name!r}")
