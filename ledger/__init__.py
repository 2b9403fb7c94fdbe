"""Calabresella ledger: scorekeeping for Calabresella, Quartiglio and Quintiglio."""

__version__ = "0.1.0"
