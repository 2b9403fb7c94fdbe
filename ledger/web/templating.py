"""Jinja2 templates: autoescaped, every string marked with `_` (identity until translations are added)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.templating import Jinja2Templates

from ledger.clock import as_local
from ledger.fmt import format_cents

TEMPLATES = Path(__file__).parent / "templates"


def _(text: str) -> str:
    """Page text written in Python (identity until gettext translations are installed here and in `make_templates`)."""
    return text


def N_(text: str) -> str:
    """Mark a page word kept in Python for translation; the template translates it where it is shown."""
    return text


def signed(value: int) -> str:
    """`+4`, `-2`, `0`."""
    return f"{value:+d}" if value else "0"


def money(cents: int, currency: str) -> str:
    """`-0.40 EUR`, with a sign for gains too."""
    text = format_cents(cents, currency)
    return f"+{text}" if cents > 0 else text


def local_time(moment: datetime | None) -> str:
    """A stored UTC time in local time, `2026-11-21 21:05`."""
    return as_local(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


def make_templates() -> Jinja2Templates:
    """The page templates, with the i18n extension (null translations) and the number filters."""
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                      extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True)
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    env.filters.update(signed=signed, money=money, local_time=local_time, format_cents=format_cents)
    return Jinja2Templates(env=env)
