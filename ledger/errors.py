"""Errors a user can cause."""


class LedgerError(Exception):
    """A user-caused error whose message names the value and what is allowed."""


class UndoRefused(LedgerError):
    """Undo was refused: the evening changed since the scorekeeper last saw it."""


class DatabaseRefused(LedgerError):
    """The database refused to work (read-only, locked, unreachable): nothing was written."""


class DatabaseUnavailable(DatabaseRefused):
    """The database cannot work right now (its disk full, read-only, locked, restarting or out of reach): nothing was
    written, and the same request can succeed once it is back."""
