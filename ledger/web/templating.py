"""Jinja2 templates: autoescaped, every string marked with `_` and shown in the request's language."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.templating import Jinja2Templates

from ledger.club.ranking import event_places
from ledger.fmt import format_cents, format_time
from ledger.i18n import LANGUAGES, N_, _, language, ngettext
from ledger.summary import evening_voided, explanation, why, why_voided
from ledger.web.live import KEEP_ALIVE_SECONDS, undo_label

TEMPLATES = Path(__file__).parent / "templates"
EXTENSIONS = ("jinja2.ext.i18n",)
WHITESPACE: dict[str, Any] = {"trim_blocks": True, "lstrip_blocks": True}
"""How the templates are read, here and by the catalog's extractor."""
ROLES = {
    "declarer": N_("declarer"),
    "partner": N_("partner"),
    "opponent": N_("opponent"),
    "out": N_("sits out"),
    "passed": N_("passed"),
}
"""A seat's role in a deal, as the ledger stores it, and as the page says it."""


def signed(value: int) -> str:
    """`+4`, `-2`, `0`."""
    return f"{value:+d}" if value else "0"


def money(cents: int, currency: str) -> str:
    """`-0.40 EUR`, `+7,50 €`: with a sign for gains too."""
    return format_cents(cents, currency, signed=cents > 0)


def role(stored: str) -> str:
    """`opponent` -> `avversario` in Italian; a role the page does not know is shown as stored."""
    return _(ROLES[stored]) if stored in ROLES else stored


@cache
def make_templates() -> Jinja2Templates:
    """The page templates, with gettext in the language in use and the number, money and time filters: one set for
    the program, so that each template is compiled once however many apps it serves (the tests make hundreds)."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True),
        extensions=list(EXTENSIONS),
        **WHITESPACE,
    )
    env.install_gettext_callables(gettext=_, ngettext=ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        language=language,
        languages=LANGUAGES,
        keep_alive_seconds=KEEP_ALIVE_SECONDS,
        evening_voided=evening_voided,
        explanation=explanation,
        why=why,
        why_voided=why_voided,
    )
    env.filters.update(
        signed=signed,
        money=money,
        local_time=format_time,
        format_cents=format_cents,
        role=role,
        places=event_places,
        undo_label=undo_label,
    )
    return Jinja2Templates(env=env)
