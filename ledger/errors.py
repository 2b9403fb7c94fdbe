"""Errors a user can cause."""


class LedgerError(Exception):
    """A user-caused error whose message names the value and what is allowed."""


class UndoRefused(LedgerError):
    """Undo was refused: the evening changed since the scorekeeper last saw it."""
