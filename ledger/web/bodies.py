"""Reading a JSON API request's body: the posted object, and its fields taken out one by one, each of its type."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from ledger.errors import LedgerError
from ledger.i18n import _
from ledger.web.limits import check_fields
from ledger.web.state import access

LINE = '{"line": "bruno solo 22"}'
"""The example body of a deal, in the error messages."""


async def body(request: Request) -> dict[str, Any]:
    """The posted JSON object (after the Bearer token is checked), each of its fields within its limits."""
    await access(request).check_bearer(request)
    try:
        data = await request.json() if await request.body() else {}
    except ValueError:
        raise LedgerError(_("the body is not JSON: send an object, e.g. {example}").format(example=LINE)) from None
    except RecursionError:
        raise LedgerError(
            _("the body is nested too deep: send a flat object, e.g. {example}").format(example=LINE)
        ) from None
    if not isinstance(data, dict):
        raise LedgerError(_("the body must be a JSON object, e.g. {example}").format(example=LINE))
    check_fields(data.items())
    return data


def optional(data: dict[str, Any], name: str, kind: type) -> Any:
    """A field taken out of the body: None when absent, an error when of another type."""
    value = data.pop(name, None)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool)):
        raise LedgerError(
            _("{name} {value}: {name} is a {kind}").format(name=name, value=seen(value), kind=kind.__name__)
        )
    return value


def no_more(data: dict[str, Any]) -> None:
    """An error naming the fields left in the body once every known one was taken out."""
    if data:
        raise LedgerError(_("unknown fields {names}").format(names=", ".join(sorted(data))))


def seen(value: object) -> str:
    """A value sent, as an error names it: a number or text as written, a list or an object by its kind only (one
    nested a thousand deep cannot even be written out)."""
    return repr(value) if isinstance(value, str | int | float | bool) or value is None else type(value).__name__
