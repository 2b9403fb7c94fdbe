"""Errors a user can cause."""


class LedgerError(Exception):
    """A user-caused error whose message names the value and what is allowed."""
