"""The options that describe a deal, shared by `score`, `record` and `amend`."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer

from ledger.cli.app import as_typed
from ledger.errors import FactError
from ledger.i18n import _
from ledger.rules.build import DealInput

FACTS = "Deal facts"

DEAL_OPTIONS: dict[str, Any] = {
    "declarer": Annotated[
        str | None,
        typer.Option(
            "--declarer",
            "-d",
            help="Who plays against the others, e.g. [b]--declarer Bruno[/b].",
            rich_help_panel=FACTS,
        ),
    ],
    "contract": Annotated[
        str | None,
        typer.Option(
            "--contract",
            "-c",
            rich_help_panel=FACTS,
            help="chiamo (call; 'play' in cavendish), mediatore, solo or solissimo, e.g. [b]-c solo[/b].",
        ),
    ],
    "aggravation": Annotated[
        list[str] | None,
        typer.Option(
            "--aggravation",
            "-a",
            rich_help_panel=FACTS,
            help="On a solissimo only: dividete (divide) or scegliete (choose; sceliete too), e.g. [b]-a dividete[/b].",
            show_default=False,
        ),
    ],
    "called": Annotated[
        str | None,
        typer.Option(
            "--called",
            rich_help_panel=FACTS,
            help="The card named in chiamo (and in cavendish's play): rank then suit, e.g. [b]--called 3D[/b] (3 of "
            "denari), KH, 'tre di spade'; the rank alone, e.g. [b]--called 3[/b], when the suit was not said.",
        ),
    ],
    "holder": Annotated[
        str | None,
        typer.Option(
            "--holder",
            rich_help_panel=FACTS,
            help="Who held the called card: a player, [b]monte[/b] or [b]declarer[/b], e.g. [b]--holder Anna[/b].",
        ),
    ],
    "thirds": Annotated[
        int | None,
        typer.Option(
            "--thirds",
            "-t",
            rich_help_panel=FACTS,
            help="The declarer side's card points in thirds, 0 to 35 (18 wins), e.g. [b]--thirds 22[/b].",
        ),
    ],
    "points": Annotated[
        str | None,
        typer.Option(
            "--points",
            "-p",
            rich_help_panel=FACTS,
            help="The same on the profile's scale: [b]7+1/3[/b] Italian (whole points and thirds), [b]22[/b] of 35 "
            "in cavendish.",
        ),
    ],
    "count": Annotated[
        str | None,
        typer.Option(
            "--count",
            rich_help_panel=FACTS,
            help="The same as counted at the table: aces (a), figures (f) and the last trick (u or last) if the "
            "declarer side took it, e.g. [b]--count 2a+10f+last[/b] = 2 x 3 + 10 + 3 = 19 thirds.",
        ),
    ],
    "tricks": Annotated[
        int | None,
        typer.Option(
            "--tricks",
            rich_help_panel=FACTS,
            help="Tricks the declarer side took; asked only when the thirds are 0 or 35, e.g. [b]--tricks 12[/b].",
        ),
    ],
    "last_trick": Annotated[
        str | None,
        typer.Option(
            "--last-trick",
            "-l",
            rich_help_panel=FACTS,
            help="Who took the last trick, [b]declarer[/b] or [b]opponents[/b]; asked only when a sweep depends on it "
            "(3-5 or 30-32 thirds).",
        ),
    ],
    "monte_thirds": Annotated[
        int | None,
        typer.Option(
            "--monte-thirds",
            rich_help_panel=FACTS,
            help="The card points in the monte, in thirds (0 to 12); asked only when stramazzo_counts=tricks and a "
            "stramazzo depends on them, e.g. [b]--monte-thirds 4[/b].",
        ),
    ],
    "auction": Annotated[
        str | None,
        typer.Option(
            "--auction",
            rich_help_panel=FACTS,
            help="The calls in speaking order from the seat after the dealer, each [b]call[/b] or [b]Name:call[/b]; "
            "declarer and contract come from it, e.g. [b]--auction pass,chiamo,solo[/b].",
        ),
    ],
    "passed": Annotated[
        bool,
        typer.Option(
            "--passed",
            rich_help_panel=FACTS,
            help="Everyone passed: no payout, the deal moves on, e.g. [b]--passed[/b].",
        ),
    ],
    "passed_before": Annotated[
        int,
        typer.Option(
            "--passed-before",
            rich_help_panel=FACTS,
            min=0,
            help="Consecutive passed deals just before this one, where their pot carries over (pot_carryover), e.g. "
            "[b]--passed-before 2[/b]. The ledger counts them itself.",
        ),
    ],
}
_DEFAULTS: dict[str, Any] = {"passed": False, "passed_before": 0}


def _one_aggravation(given: list[str] | None) -> str | None:
    """The aggravation given, refused when given more than once (a solissimo is raised once)."""
    if given and len(given) > 1:
        raise FactError("aggravation", " ".join(given), _("a solissimo is raised once: dividete or scegliete"))
    return given[0] if given else None


def with_deal_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command every deal option; it receives them as one `typed: DealInput` argument."""
    own = [p for p in inspect.signature(command, eval_str=True).parameters.values() if p.name != "typed"]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=_DEFAULTS.get(name), annotation=annotation)
        for name, annotation in DEAL_OPTIONS.items()
    ]

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        given = {name: kwargs.pop(name) for name in DEAL_OPTIONS}
        typed = DealInput(**{**given, "aggravation": _one_aggravation(given["aggravation"])})
        try:
            return command(typed=typed, **kwargs)
        except FactError as error:
            if error.fact != "holder" or typed.holder is None:
                raise
            # `--holder Anna`, the declarer: the rules name that hand `declarer`; the error names what was typed
            raise as_typed(error, typed.holder) from None

    params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own] + added
    wrapper.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper
