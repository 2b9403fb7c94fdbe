"""Read an export: its version, then its evenings, payments, seasons and events one at a time, each with the line it
stands on.

Version 3 is JSON Lines, read a line at a time. Versions 1 and 2 are one JSON document, read whole. A file's
version is known from its first line: the header alone (version 3), the whole document on one line, or the
start of a document spread over several lines.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO, NamedTuple

import orjson

from ledger.errors import LedgerError
from ledger.i18n import N_, _
from ledger.store.export import EVENING, FORMAT, KINDS, PAYMENT, VERSION

READS = (1, 2, VERSION)
DOCUMENT_KEYS = {"evenings": EVENING, "payments": PAYMENT}
"""The lists of a version 1 or 2 document, and what each of their items is."""
MAX_DEPTH = 12
"""No export nests deeper (evening, deals, revisions, facts, auction, call); the reader refuses far deeper."""


class Entry(NamedTuple):
    """An evening, a payment, a season or an event of an export (its `kind`: the key of its line), and the line it
    stands on (None within a document)."""

    kind: str
    item: Any
    line: int | None


def located(error: LedgerError, line: int | None) -> LedgerError:
    """The error with the line it concerns in front, when the line is known."""
    return error if line is None else LedgerError(_("line {line}: {error}").format(line=line, error=error))


def in_file(error: LedgerError, source: str | None) -> LedgerError:
    """The error with the file it concerns in front, when there is one."""
    return error if source is None else LedgerError(_("{source}: {error}").format(source=source, error=error))


def read_export(stream: BinaryIO, source: str | None = None) -> tuple[int, Iterator[Entry]]:
    """The export's version, then its entries: streamed line by line for version 3, read whole for 1 and 2.

    Every error names the line it concerns, and the file as `source` when given."""
    try:
        version, entries = _read(stream)
    except LedgerError as error:
        raise in_file(error, source) from None
    return version, _named(entries, source)


def _read(stream: BinaryIO) -> tuple[int, Iterator[Entry]]:
    """`read_export` without the file's name."""
    first = stream.readline()
    try:
        value = _decoded(first.rstrip(b"\r\n"), 1)
    except LedgerError:
        stream.seek(0)  # the start of a document spread over several lines
        return read_document(_decoded(stream.read(), None))
    if check_header(value) == VERSION:
        _header_alone(value)
        return VERSION, _lines(stream, 2)
    rest = stream.read()
    if rest.strip():
        _decoded(first + rest, None)  # a document on its first line with more after it: the error says where
    return read_document(value)


def _named(entries: Iterator[Entry], source: str | None) -> Iterator[Entry]:
    """The entries, an error met while reading them named with the file."""
    try:
        yield from entries
    except LedgerError as error:
        raise in_file(error, source) from None


def read_document(data: Any) -> tuple[int, Iterator[Entry]]:
    """The same as `read_export` for an export in memory: a version 1 or 2 document, or the lines of a version 3
    export as values (the header first)."""
    if isinstance(data, list) and data and isinstance(data[0], dict) and "format" in data[0]:
        header = data[0]
        if check_header(header) == VERSION:
            _header_alone(header)
            return VERSION, _entries(enumerate(data[1:], 2))
    version = check_header(data)
    if version == VERSION:
        _header_alone(data)
    for key in DOCUMENT_KEYS:
        if not isinstance(data.get(key) or [], list):
            raise LedgerError(_('not a valid export: "{key}" is not a list').format(key=key))
    return version, (Entry(kind, item, None) for key, kind in DOCUMENT_KEYS.items() for item in data.get(key) or ())


def check_header(header: Any) -> int:
    """The export's version, or an error when it is not an export this ledger reads."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LedgerError(_('not a {format} export (no "format": "{format}" in its header)').format(format=FORMAT))
    version = header.get("version")
    if version not in READS or isinstance(version, bool):
        raise LedgerError(
            _("export version {version}: this ledger reads versions {versions}").format(
                version=version, versions=", ".join(map(str, READS))
            )
        )
    return int(version)


def _header_alone(header: dict[str, Any]) -> None:
    """Refuse a version 3 header that holds evenings or payments: they stand on lines of their own."""
    if any(key in header for key in DOCUMENT_KEYS):
        raise LedgerError(
            _(
                "export version {version} is JSON Lines: the header alone on the first line, then one line per "
                "evening and per payment"
            ).format(version=VERSION)
        )


def _lines(stream: BinaryIO, start: int) -> Iterator[Entry]:
    """The entries of the lines that follow the header, one line read at a time; blank lines are passed over."""
    return _entries(
        (number, _decoded(line.rstrip(b"\r\n"), number)) for number, line in enumerate(stream, start) if line.strip()
    )


def _entries(values: Iterable[tuple[int, Any]]) -> Iterator[Entry]:
    """An entry for each evening, payment, season and event among the numbered lines' values; other keys are left
    aside."""
    for number, value in values:
        if not isinstance(value, dict):
            raise located(LedgerError(_("not a valid export: a line that is not a JSON object")), number)
        for kind in KINDS:
            if kind in value:
                yield Entry(kind, value[kind], number)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)
JSON_PROBLEMS = (
    N_("Expecting value"),
    N_("Extra data"),
    N_("Unterminated string starting"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ',' delimiter"),
    N_("Expecting ':' delimiter"),
    N_("Invalid control character"),
)
"""The JSON reader's commonest complaints, as it says them in English, and so in words of the language in use."""


def _decoded(raw: bytes, line: int | None) -> Any:
    """The JSON value of line `line`, or of a whole document (None); a one-line error naming the line.

    Read by orjson, several times quicker (it reads a whole number beyond 64 bits as a float, which every field
    asking for a whole number refuses); what it refuses is read again by the standard reader, which says what is
    wrong and where in the words above, or reads what orjson alone refuses (a text holding half a surrogate pair)."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    try:
        return _DECODER.decode(raw.decode("utf-8"))
    except json.JSONDecodeError as error:
        where = error.lineno if line is None else line + error.lineno - 1
        problem = error.msg.removesuffix(" at")
        said = _("{problem} at column {column}").format(
            problem=_(problem) if problem in JSON_PROBLEMS else problem, column=error.colno
        )
        raise located(_not_json(said), where) from None
    except RecursionError:
        raise located(
            LedgerError(_("not a valid export: nested deeper than {depth} levels").format(depth=MAX_DEPTH)), line
        ) from None
    except ValueError as error:  # a number too long for Python, NaN, or bytes that are not UTF-8
        raise located(_not_json(str(error)), line) from None


def _not_json(reason: str) -> LedgerError:
    return LedgerError(_("not JSON ({reason})").format(reason=reason))
