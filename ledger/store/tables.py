"""Every table of the ledger: importing this module registers them all in `SQLModel.metadata` (the migrations
compare against it). A command loads only the tables it uses."""

import ledger.store.club_models
import ledger.store.identity
import ledger.store.models
import ledger.store.throttle  # noqa: F401
