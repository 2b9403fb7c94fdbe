"""The root Typer application, its error handling, its language and the options every command shares."""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from ledger.cli import click_texts
from ledger.errors import FactError, LedgerError, MissingFact, NoOpenEvening, fact_word
from ledger.i18n import (
    LANG_VARIABLE,
    N_,
    _,
    choose_language,
    language_in_args,
    speaks,
    spoken_languages,
    use_language,
)

USER_ERROR = 2
NEGATIVE = re.compile(r"-\d[\d.,]*")
"""A negative number, which Click reads as an option."""


class LedgerGroup(TyperGroup):
    """Print a user's error as one line on stderr and exit with code 2, never a traceback."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """Run the command; usage errors too become one `Error:` line instead of a box."""
        given = kwargs.get("args", args[0] if args else None)
        asked = language_in_args(sys.argv[1:] if given is None else list(given))
        use_language(choose_language(asked))
        setting, value = ("--lang", asked) if asked else (LANG_VARIABLE, os.environ.get(LANG_VARIABLE))
        if value and not speaks(value):  # said in the language chosen without it: the locale's, else English
            said = _("{setting} {value!r}: the ledger speaks {languages}")
            message = said.format(setting=setting, value=value, languages=spoken_languages())
            typer.echo(_("Error: {message}").format(message=message), err=True)
            sys.exit(USER_ERROR)
        localize(self)
        run: Any = super().main
        if not standalone_mode:
            return run(*args, standalone_mode=False, **kwargs)
        try:
            code = run(*args, standalone_mode=False, **kwargs)
        except Exception as error:
            sys.exit(_usage_error(error))
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except LedgerError as error:
            typer.echo(_("Error: {message}").format(message=worded(error)), err=True)
            raise typer.Exit(USER_ERROR) from None
        except ModuleNotFoundError as error:
            if error.name != "psycopg":
                raise
            typer.echo(_("Error: {message}").format(message=_(NO_PSYCOPG)), err=True)
            raise typer.Exit(USER_ERROR) from None


FLAGS = {
    "aggravation": "--aggravation",
    "auction": "--auction",
    "called": "--called",
    "contract": "--contract",
    "count": "--count",
    "currency": "--currency",
    "db": "--db",
    "dealer": "--dealer",
    "declarer": "--declarer",
    "evening": "--evening",
    "format": "--format",
    "holder": "--holder",
    "key": "--key",
    "last_trick": "--last-trick",
    "monte_thirds": "--monte-thirds",
    "note": "--note",
    "passed_before": "--passed-before",
    "place": "--place",
    "points": "--points",
    "reason": "--reason",
    "round_to": "--round-to",
    "seen_revision": "--revision",
    "since": "--since",
    "stake": "--stake",
    "thirds": "--thirds",
    "tricks": "--tricks",
}
"""The option of the command line that gives each fact."""
HINTS = {
    "contract": "--contract chiamo|solo|solissimo",
    "declarer": N_("--declarer NAME, --auction CALLS or --passed"),
    "holder": N_("--holder NAME|monte|declarer"),
    "last_trick": N_("--last-trick declarer|opponents"),
    "monte_thirds": "--monte-thirds N",
    "reason": N_("--reason TEXT"),
    "thirds": N_("--thirds N or --points X"),
    "tricks": "--tricks N",
}
"""How to give a fact the rules still need, on the command line."""
START_HINT = N_("start one with: calabresella evening start --players Anna,Bruno,Carla")
NO_PSYCOPG = N_(
    "a PostgreSQL ledger needs psycopg, which is not installed here: install the ledger's postgres extra "
    "(pip install -e '.[postgres]' in its folder), or psycopg itself (pip install 'psycopg[binary]')"
)


def as_typed(error: FactError, typed: str | None = None) -> FactError:
    """The error with the value as the person wrote it: `typed` where a front end knows what was typed for the fact,
    else the value itself, the declarer's own hand in the words of the language in use (`chiamante`)."""
    from ledger.rules.facts import DECLARER

    if typed is not None and isinstance(error.value, str):
        return FactError(error.fact, typed, error.reason)
    if (error.fact, error.value) == ("holder", DECLARER):
        return FactError(error.fact, _("declarer"), error.reason)
    return error


def worded(error: LedgerError) -> str:
    """An error as the command line says it: a fact named by its option, a missing fact with the option that gives
    it, a missing evening with the command that starts one."""
    if isinstance(error, FactError):
        return as_typed(error).worded(lambda fact: (FLAGS.get(fact) or fact_word(fact)) + " ")
    if isinstance(error, MissingFact) and error.fact == "holder":
        choices = (_("NAME"), *(_("declarer") if choice == "declarer" else choice for choice in error.choices))
        return f"{error} (--holder {'|'.join(choices)})"
    if isinstance(error, MissingFact) and error.fact in HINTS:
        hint = _(HINTS[error.fact])
        return f"{error} ({hint})"
    if isinstance(error, NoOpenEvening):
        return _("{error}: {start_hint}").format(error=error, start_hint=_(START_HINT))
    return str(error)


def _usage_error(error: Exception) -> int:
    """Print a command-line parsing error (Click's, whichever copy Typer uses) as one line; its exit code."""
    kind = type(error).__name__
    if kind == "NoArgsIsHelpError":
        return 0
    if kind == "Abort":
        typer.echo(_("Aborted."), err=True)
        return 1
    message, code = getattr(error, "format_message", None), getattr(error, "exit_code", None)
    if message is None or not isinstance(code, int):
        raise error
    ctx = getattr(error, "ctx", None)
    hint = _(" (see: {command} --help)").format(command=ctx.command_path) if ctx is not None else ""
    typer.echo(
        _("Error: {message}").format(message=_negative(error) or click_texts.reworded(message())) + hint, err=True
    )
    return code


def _negative(error: Exception) -> str | None:
    """What a negative number read as an unknown option (`paid Anna Bruno -1`) means, in one line."""
    option = getattr(error, "option_name", None)
    if type(error).__name__ != "NoSuchOption" or not option or not NEGATIVE.fullmatch(option):
        return None
    return _(
        "a negative number: amounts and counts are never negative here (a payment goes from who paid to who received)"
    )


click_texts.install()  # Click's own texts (usage line, --help, parsing errors) in the language in use, from now on

_HELP_ATTRIBUTES = ("help", "short_help", "epilog", "rich_help_panel", "options_metavar", "subcommand_metavar")


def localize(command: TyperCommand | TyperGroup) -> None:
    """Translate the help texts of a command tree into the language in use.

    Typer builds the tree afresh from the English texts (docstrings, `help=`) for every run, and the language
    is chosen before the command line is parsed, so `--help` is read in the language in use.
    """
    translate_help(command)


def translate_help(command: TyperCommand | TyperGroup) -> None:
    """Translate the help texts of one command (and its subcommands) into the language in use."""
    for item in (command, *command.params):
        for attribute in _HELP_ATTRIBUTES:
            text = getattr(item, attribute, None)
            if isinstance(text, str):
                setattr(item, attribute, _(text))
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            translate_help(sub)  # type: ignore[arg-type]


_value_type = TyperOption.display_type_rich
VALUE_WORDS = {
    "int": N_("number"),
    "float": N_("number"),
    "str": N_("text"),
    "path": N_("file"),
    "datetime": N_("time"),
}
"""How the help names the kinds of value an option or argument takes, in the language in use."""


def _value_word(param: TyperOption | TyperArgument, ctx: Any) -> str | None:
    """What an option or argument takes, in words (`<number>`, `<text>`, choices as they are); none for a flag
    (`--json`, `--help`), which takes no value."""
    if getattr(param, "is_flag", False):
        return None
    shown = _value_type(param, ctx)  # type: ignore[arg-type]
    if shown is None:
        return None
    kind = shown.strip("<>.").removeprefix("list[").removesuffix("]").removesuffix(" range")
    return "<" + _(VALUE_WORDS[kind]) + ">" if kind in VALUE_WORDS else shown


def _range_words(param: TyperOption | TyperArgument) -> str | None:
    """A number's range in words: `1 or more`, `at most 64`, `1 to 64`."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is None and high is None:
        return None
    if high is None:
        return _("{low} or more").format(low=low)
    if low is None:
        return _("at most {high}").format(high=high)
    return _("{low} to {high}").format(low=low, high=high)


for _param in (TyperOption, TyperArgument):
    _param.display_type_rich = _value_word  # type: ignore[method-assign,assignment]
    _param._get_number_range_help_str = _range_words  # type: ignore[method-assign,assignment]

ARGUMENTS = {
    "number": N_("number"),
    "line": N_("line"),
    "payer": N_("payer"),
    "payee": N_("payee"),
    "amount": N_("amount"),
    "kind": N_("kind"),
    "source": N_("source"),
    "target": N_("target"),
    "names": N_("names"),
    "old": N_("old"),
    "new": N_("new"),
    "name": N_("name"),
    "event": N_("event"),
}
"""Each argument's name, in the language in use where usage lines, help and errors show it: `{numero}`, `[riga]`."""


def _argument_name(param: TyperArgument) -> str:
    """An argument's name as shown, in the language in use."""
    name = param.name or ""
    return _(ARGUMENTS[name]) if name in ARGUMENTS else name


TyperArgument.display_name_raw = property(_argument_name)  # type: ignore[assignment,method-assign]


def new_app(name: str, help_text: str, cls: type[LedgerGroup] = LedgerGroup) -> typer.Typer:
    """A (sub)command group with the ledger's error handling; the root one gets Typer's --install-completion and
    --show-completion (for bash, zsh, fish and PowerShell)."""
    return typer.Typer(
        name=name,
        help=help_text,
        cls=cls,
        no_args_is_help=True,
        rich_markup_mode="rich",
        pretty_exceptions_show_locals=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )


JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
"""Help texts here and in every command module are translated by `localize` when the command line is read."""


def print_json(value: object) -> None:
    """One value as a JSON document on stdout, as the API answers it (`ledger.summary.as_json`)."""
    from ledger.summary import as_json

    sys.stdout.write(json.dumps(as_json(value), ensure_ascii=False, indent=2, default=str) + "\n")


def db_url(ctx: typer.Context) -> str | None:
    """The `--db` given to the root command, if any."""
    root = ctx.find_root()
    return (root.obj or {}).get("db")
