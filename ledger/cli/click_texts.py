"""Click's own texts, in the language in use: the usage line, the help option, the headings of help, the errors of
a command line that does not parse.

Typer reads the command line and draws help with its own copy of Click (`typer._click`; Click itself in older
Typers). That copy and Typer word things in English in two ways, and each is routed through the ledger's catalog:

- texts marked with the stdlib's gettext (`from gettext import gettext as _`, `ngettext`): `install` rebinds those
  two names, in every module of Typer and of its Click that has them, to the ledger's functions;
- texts written as plain English (f-strings, pydantic's words for a value of the wrong type): the usage line and
  the help option are put in the language in use when help is drawn, and an error's line is `reworded` from the
  English of `ERRORS` it matches.

The lists below name every such text the ledger translates, so that the catalog holds them.
"""

from __future__ import annotations

import gettext
import inspect
import re
import string
import sys
from collections.abc import Callable
from typing import Any

from typer.core import TyperCommand, TyperGroup

from ledger.i18n import N_, _, ngettext

MARKED = (N_("No such command {name!r}."), N_("Missing command."))
"""Typer's texts marked with gettext that reach this command line; `install` has them translated where Typer
words them."""

USAGE = N_("Usage: ")
HELP_OPTION = N_("Show this message and exit.")
METAVARS = (N_("[OPTIONS]"), N_("COMMAND [ARGS]..."))
"""The usage line's placeholders, translated with the command's own help texts (`ledger.cli.app.translate_help`)."""
COMPLETION = (
    N_("Install completion for the specified shell."),
    N_("Show completion for the specified shell, to copy it or customize the installation."),
)
"""The help of the completion options where the shell is not recognised (where it is, the help speaks of the
current shell, and the catalog has it from the command tree)."""

ERRORS = (
    N_("{message} (Possible options: {options})"),
    N_("{message}. Did you mean {suggestions}?"),
    N_("Invalid value for {hint} (env var: {variable}): {message}"),
    N_("Invalid value for {hint}: {message}"),
    N_("Value error, {message}"),
    N_("Missing option {hint}."),
    N_("Missing argument {hint}."),
    N_("No such option: {name}"),
    N_("Option {name} requires an argument."),
    N_("Option {name} does not take a value."),
    N_("Got unexpected extra argument(s) ({arguments})"),
    N_("{label} {path} is a directory."),
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be greater than or equal to {number}"),
    N_("{value} is not one of {choices}."),
)
"""Error texts as Typer, its Click and pydantic write them in plain English, each tried in turn: those that wrap
another first. A field stands for the text there as it is; a `{message}` is itself reworded."""


def install() -> None:
    """Route Click's texts through the ledger's catalog; run once, when the command line is loaded.

    Typer and its Click look `_` and `ngettext` up in their own modules each time they word something, so
    rebinding those names there is enough for every text they mark; the usage line and the help option are
    plain English in Typer's own copy of Click, and are put into the language in use when help is drawn.
    """
    click = TyperCommand.__mro__[1].__module__  # `typer._click.core` for Typer's own copy, else `click.core`
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] in ("typer", click.partition(".")[0]):
            names = vars(module)
            if names.get("_") is gettext.gettext:
                names["_"] = _
            if names.get("ngettext") is gettext.ngettext:
                names["ngettext"] = ngettext
    TyperCommand.format_help = _in_language(TyperCommand.format_help)  # type: ignore[method-assign]
    TyperGroup.format_help = _in_language(TyperGroup.format_help)  # type: ignore[method-assign]
    formatter = sys.modules[click].HelpFormatter
    formatter.write_usage = _usage_in_language(formatter.write_usage)


def _set_help_renderer() -> None:
    """Set Typer's help renderer for the ledger: the headings it draws around help in the language in use, the
    paragraphs of help `_reflowed`. Run only when help is drawn, so that a command that shows none never loads it."""
    from typer import rich_utils

    rich_utils._fix_linebreaks = _reflowed  # type: ignore[assignment]
    rich_utils._make_command_help = _command_line
    rich_utils.ARGUMENTS_PANEL_TITLE = _("Arguments")
    rich_utils.OPTIONS_PANEL_TITLE = _("Options")
    rich_utils.COMMANDS_PANEL_TITLE = _("Commands")
    rich_utils.DEFAULT_STRING = _("[default: {}]")
    rich_utils.ENVVAR_STRING = _("[env var: {}]")
    rich_utils.REQUIRED_LONG_STRING = _("[required]")


def _reflowed(paragraphs: list[str], _markup_mode: object) -> str:
    """A command's help after its first line, and its epilog: each paragraph of prose one line, which the terminal
    wraps at its own width; a paragraph of indented lines (examples, the syntax of a deal) or of lines each in bold
    first (the options of the profiles) keeps its lines."""
    return "\n\n".join(p if _listed(p) else p.replace("\n", " ") for p in paragraphs)


def _command_line(*, help_text: str, markup_mode: Any) -> Any:
    """A command's description in its group's list of commands: the first paragraph of its help as one line, which
    the list wraps at word boundaries (Typer keeps the line breaks of the source, so a long first paragraph broke
    mid-sentence)."""
    from typer import rich_utils

    first = inspect.cleandoc(help_text).split("\n\n")[0]
    return rich_utils._make_rich_text(
        text=" ".join(first.split()), style=rich_utils.STYLE_OPTION_HELP, markup_mode=markup_mode
    )


def _listed(paragraph: str) -> bool:
    """Whether a paragraph of help is a list, one item a line."""
    lines = paragraph.splitlines()
    return any(line.startswith(" ") for line in lines) or any(line.startswith("[b]") for line in lines[1:])


def _in_language(format_help: Callable[..., Any]) -> Callable[..., Any]:
    """`format_help` that first puts the headings and the help option into the language in use."""

    def formatted(self: Any, ctx: Any, formatter: Any) -> Any:
        _set_help_renderer()
        option = self.get_help_option(ctx)
        if option is not None:
            option.help = _(HELP_OPTION)
        return format_help(self, ctx, formatter)

    return formatted


def _usage_in_language(write_usage: Callable[..., None]) -> Callable[..., None]:
    """`HelpFormatter.write_usage` whose line begins with `Usage:` in the language in use."""

    def written(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, _(USAGE) if prefix is None else prefix)

    return written


def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each of `ERRORS` as a pattern matching its English, with the text."""
    return tuple(
        (
            re.compile(
                "".join(
                    re.escape(words) + (f"(?P<{field}>.+?)" if field else "")
                    for words, field, *_spec in string.Formatter().parse(text)
                ),
                re.DOTALL,
            ),
            text,
        )
        for text in ERRORS
    )


def reworded(message: str) -> str:
    """An error's line as Typer wrote it, in the language in use: the first of `ERRORS` that it is, written again
    with what it names; a line none of them is stays as it is.

    >>> from ledger.i18n import speaking
    >>> with speaking("it"):
    ...     reworded("No such option: --pas (Possible options: --passed, --points)")
    "L'opzione --pas non esiste (forse una di queste: --passed, --points)"
    """
    for pattern, text in _patterns():
        if found := pattern.fullmatch(message):
            fields = {
                name: reworded(value) if name == "message" else value for name, value in found.groupdict().items()
            }
            return _(text).format(**fields)
    return message
