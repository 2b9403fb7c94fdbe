"""Cells of a CSV file that a spreadsheet opens as text, never as a formula."""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A text cell starting like a formula gets a leading `'`, and so does each part of it after a `;`, where a
    spreadsheet that splits on `;` (Italian Excel) would start a cell, also when the part starts with quotes, which
    such a spreadsheet takes off; numbers and everything else stay as they are.

    >>> safe_cell("+cmd|' /C calc'!A0"), safe_cell("Anna"), safe_cell(-2), safe_cell("Anna;+1+1")
    ("'+cmd|' /C calc'!A0", 'Anna', -2, "Anna;'+1+1")
    >>> safe_cell('Anna;"+1+1'), safe_cell('"Anna";"Bruno"')
    ('Anna;\\'"+1+1', '"Anna";"Bruno"')
    """
    if not isinstance(value, str):
        return value
    return ";".join("'" + part if part.lstrip('"').startswith(FORMULA_STARTS) else part for part in value.split(";"))
