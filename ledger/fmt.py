"""Numbers, money and times as the language in use writes them: the one place that formats them.

English keeps the ledger's plain forms (`-0.10 EUR`, `+1.50`, `1,587.25`, `45%`, `2026-11-21 21:05`); Italian uses
Babel's Italian formats (`-0,10 €`, `+1,50`, `1.587,25`, `45%`, `21/11/2026 21:05`). Times are shown in the local
time zone.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from ledger.clock import as_local
from ledger.i18n import SOURCE_LANGUAGE, language

if TYPE_CHECKING:
    from babel import Locale
    from babel.numbers import NumberPattern

_BABEL_LOCALES = {"it": "it_IT"}
_AMOUNT = "#,##0.00"


def plain_cents(cents: int, currency: str | None = None, *, signed: bool = False) -> str:
    """Integer cents in the language-neutral form of JSON and files: `-0.10 EUR`, `+1.50`, and zero unsigned.

    >>> plain_cents(-10, "EUR"), plain_cents(150, signed=True), plain_cents(0, signed=True)
    ('-0.10 EUR', '+1.50', '0.00')
    """
    whole, part = divmod(abs(cents), 100)
    sign = _sign(cents, signed)
    return f"{sign}{whole}.{part:02d}" + (f" {currency}" if currency else "")


def format_cents(cents: int, currency: str | None = None, *, signed: bool = False) -> str:
    """Integer cents as money for a person to read: two decimals, a minus sign for negatives (and a plus sign
    for positives when `signed`, never for zero), and the currency when given; English is the neutral form.

    >>> from ledger.i18n import use_language
    >>> format_cents(-10, "EUR"), format_cents(150, signed=True), format_cents(0, signed=True)
    ('-0.10 EUR', '+1.50', '0.00')
    >>> use_language("it")
    >>> format_cents(750, "EUR"), format_cents(123450), format_cents(-10, "EUR"), format_cents(150, signed=True)
    ('7,50\\xa0€', '1.234,50', '-0,10\\xa0€', '+1,50')
    >>> use_language("en")
    """
    if language() == SOURCE_LANGUAGE:
        return plain_cents(cents, currency, signed=signed)
    return _sign(cents, signed) + _babel_cents(_BABEL_LOCALES[language()], abs(cents), currency)


@lru_cache(maxsize=4096)
def _babel_cents(locale: str, cents: int, currency: str | None) -> str:
    """Cents, not negative, in Babel's format of `locale`: kept, as a leaderboard writes the same ninety amounts
    again at every deal, and Babel's writing is half of an Italian board's drawing."""
    from babel.numbers import format_currency

    amount = Decimal(cents) / 100
    if currency:
        return format_currency(amount, currency, locale=_parsed_locale(locale))
    return _pattern(_AMOUNT).apply(amount, _parsed_locale(locale))


def _locale() -> Locale:
    """Babel's locale of the language in use (not English), parsed once: a page of an Italian evening writes
    hundreds of numbers, and parsing the locale's name took more than the writing."""
    return _parsed_locale(_BABEL_LOCALES[language()])


@cache
def _parsed_locale(name: str) -> Locale:
    from babel import Locale

    return Locale.parse(name)


@cache
def _pattern(text: str) -> NumberPattern:
    """A number pattern (`#,##0.00`), parsed once."""
    from babel.numbers import parse_pattern

    return parse_pattern(text)


def _sign(cents: int, signed: bool) -> str:
    """`-` for a negative amount; `+` for a positive one when `signed`; nothing for zero, won or lost by no one."""
    return "-" if cents < 0 else "+" if signed and cents > 0 else ""


def format_count(number: int) -> str:
    """A whole number with thousands grouped: `2,910`, in Italian `2.910`.

    >>> format_count(2910)
    '2,910'
    """
    if language() == SOURCE_LANGUAGE:
        return f"{number:,}"
    return _pattern("#,##0").apply(number, _locale())


def format_decimal(number: float, places: int = 2, *, signed: bool = False) -> str:
    """A number with `places` decimals and thousands grouped (and a plus sign for positives when `signed`).

    >>> from ledger.i18n import use_language
    >>> format_decimal(1587.004), format_decimal(1.114, signed=True), format_decimal(-0.5, 1)
    ('1,587.00', '+1.11', '-0.5')
    >>> use_language("it")
    >>> format_decimal(1587.004), format_decimal(1.114, signed=True), format_decimal(-0.5, 1)
    ('1.587,00', '+1,11', '-0,5')
    >>> use_language("en")
    """
    sign = "+" if signed and number > 0 else ""
    if language() == SOURCE_LANGUAGE:
        return sign + f"{number:,.{places}f}"
    return sign + _pattern("#,##0" + ("." + "0" * places if places else "")).apply(number, _locale())


def format_percent(fraction: float) -> str:
    """A fraction (0..1) in whole percent: `45%`, in Italian `45%` too (Babel's Italian percent).

    >>> format_percent(0.4567), format_percent(1.0)
    ('46%', '100%')
    """
    if language() == SOURCE_LANGUAGE:
        return f"{fraction:.0%}"
    from babel.numbers import format_percent as babel_percent

    return babel_percent(fraction, locale=_locale())


def decimal_sign() -> str:
    """The sign between whole and decimal digits: `.`, in Italian `,`."""
    if language() == SOURCE_LANGUAGE:
        return "."
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(_locale())


def format_time(moment: datetime | None) -> str:
    """A stored time (UTC) in the local time zone: `2026-11-21 21:05`, in Italian `21/11/2026 21:05`."""
    if moment is None:
        return ""
    local = as_local(moment)
    if language() == SOURCE_LANGUAGE:
        return local.strftime("%Y-%m-%d %H:%M")
    from babel.dates import format_datetime

    return format_datetime(local, "dd/MM/yyyy HH:mm", locale=_locale())


def format_date(day: date) -> str:
    """A calendar day: `2026-11-21`, in Italian `21/11/2026`."""
    if language() == SOURCE_LANGUAGE:
        return day.isoformat()
    from babel.dates import format_date as babel_date

    return babel_date(day, "dd/MM/yyyy", locale=_locale())
