"""Keep the translation catalogs in step with the code (Babel): `python -m tools.catalog update|compile`.

The template holds every string marked in the code (`_`, `ngettext`, `N_` in ledger/ and reports/), every
`_()` of the web pages' Jinja2 templates, and every help text of the command tree (docstrings, `help=`, help
panels), which are translated when the command line is read. `update` merges the template into each
language's .po (keeping translations and the glossary at its top); `compile` writes the .mo shipped in the
package beside it (tests/test_i18n.py fails when the two are out of step).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from ledger.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE
from ledger.web.templating import EXTENSIONS, TEMPLATES, WHITESPACE

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("ledger", "reports")
KEYWORDS = {"_": None, "ngettext": (1, 2), "N_": None}
HELP_ATTRIBUTES = ("help", "short_help", "epilog", "rich_help_panel")
METHODS = [("**.py", "python"), ("**.html", "jinja2.ext:babel_extract")]
JINJA_OPTIONS = {
    "extensions": ",".join(EXTENSIONS),
    "newstyle_gettext": "true",
    **{name: str(value).lower() for name, value in WHITESPACE.items()},
}
"""The templates read as the pages read them (`ledger.web.templating.make_templates`)."""


def help_texts(command: Any, path: str = "calabresella") -> Iterator[tuple[str, str]]:
    """Every help text of a built command tree, with where it is."""
    for item in (command, *command.params):
        for attribute in HELP_ATTRIBUTES:
            text = getattr(item, attribute, None)
            if isinstance(text, str) and text:
                yield text, f"{path} {getattr(item, 'name', '') if item is not command else ''}".strip()
    if hasattr(command, "list_commands"):  # a group; the root loads its subcommands only when asked for them
        import click

        ctx = click.Context(command, info_name=path)
        for name in command.list_commands(ctx):
            yield from help_texts(command.get_command(ctx, name), f"{path} {name}")


def template() -> Catalog:
    """The catalog of every string the ledger shows, untranslated."""
    import typer.main

    from ledger.cli.main import app

    catalog = Catalog(project="calabresella-ledger", domain=DOMAIN, charset="utf-8")
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / source,
            method_map=METHODS,
            options_map={"**.html": JINJA_OPTIONS},
            keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",),
        ):
            catalog.add(message, locations=[(f"{source}/{filename}", lineno)], auto_comments=comments, context=context)
    for text, where in help_texts(typer.main.get_command(app)):
        catalog.add(text, locations=[(where, 0)])
    return catalog


def template_strings() -> set[str]:
    """Every string marked with `_` in the web pages' templates."""
    return {
        message
        for *_where, message, _comments, _context in extract_from_dir(
            TEMPLATES, method_map=METHODS[1:], options_map={"**.html": JINJA_OPTIONS}, keywords=KEYWORDS
        )
    }


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as handle:
        return read_po(handle, locale=language, domain=DOMAIN)


def compiled(catalog: Catalog) -> bytes:
    """The .mo bytes of a catalog (fuzzy entries left out)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def _header_comment(path: Path) -> str:
    """The comments above the .po's header, verbatim (Babel strips the glossary's indentation when it reads them)."""
    text = path.read_text(encoding="utf-8")
    return text[: text.index('msgid ""')].rstrip("\n")


def update() -> None:
    """Merge the template into each language's .po; new strings come in untranslated, dropped ones go."""
    fresh = template()
    for language in LANGUAGES:
        if language == SOURCE_LANGUAGE:
            continue
        path = po_path(language)
        if path.exists():
            catalog = read(language)
            catalog.header_comment = _header_comment(path)
            catalog.update(fresh, no_fuzzy_matching=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, domain=DOMAIN, project="calabresella-ledger", charset="utf-8")
            catalog.update(fresh, no_fuzzy_matching=True)
        catalog.fuzzy = False
        with path.open("wb") as handle:
            write_po(handle, catalog, width=120, omit_header=False, ignore_obsolete=True, include_previous=False)


def compile_all() -> None:
    """Write each language's .mo beside its .po."""
    for language in LANGUAGES:
        if language != SOURCE_LANGUAGE:
            po_path(language).with_suffix(".mo").write_bytes(compiled(read(language)))


def main(argv: list[str]) -> int:
    commands = {"update": update, "compile": compile_all}
    if len(argv) != 1 or argv[0] not in commands:
        print("usage: python -m tools.catalog update|compile", file=sys.stderr)
        return 2
    commands[argv[0]]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
