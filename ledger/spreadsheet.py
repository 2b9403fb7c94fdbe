"""Cells of a CSV file that a spreadsheet opens as text, never as a formula."""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A text cell starting like a formula gets a leading `'`; numbers and everything else stay as they are.

    >>> safe_cell("+cmd|' /C calc'!A0"), safe_cell("Anna"), safe_cell(-2)
    ("'+cmd|' /C calc'!A0", 'Anna', -2)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
