"""Every word drawn in the reader's language: evenings of every profile recorded in English are read in Italian, in
every command's output, every page, the report and a chart's text, and no English word of a list the test keeps shows
through; evenings recorded in Italian are read in English without an Italian word. Player names, the game's own words
(chiamo, solo, solissimo, dividete, scegliete, cappotto, stramazzo, monte, mediatore) and the profiles' names are the
same in both languages."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache

import pytest
from test_web_support import scorekeeper
from typer.testing import CliRunner

from ledger import Ledger
from ledger.cli.main import ALIASES, app
from ledger.i18n import speaking, use_language
from ledger.values import Terms

ENGLISH = (
    "from each",
    "to each",
    "opponent",
    "opponents",
    "all passed",
    "first dealer",
    "won",
    "lost",
    "thirds",
    "third",
    "usage",
    "show this message",
    "summary",
    "players",
    "declarer",
    "deal",
    "deals",
    "dealer",
    "standings",
    "evening",
    "game points",
    "explanation",
    "recorded",
    "voided",
    "amended",
    "undone",
    "passed",
    "holder",
    "called card",
    "settlement",
    "pays",
    "owes",
    "going on",
    "sits out",
    "partners",
    "stake",
    "money",
    "tricks",
    "last trick",
    "revision",
    "reason",
    "next",
    "closed",
    "open",
    "points",
    "rules",
    "speaks first",
    "nobody",
    "total",
    "totals",
    "chart",
    "charts",
    "report",
    "rating",
    "seat",
    "seats",
    "contracts",
    "bids",
    "called",
    "error",
)
"""Words of the English interface that an Italian reader must never meet."""
ITALIAN = (
    "smazzata",
    "smazzate",
    "chiamante",
    "avversario",
    "avversari",
    "serata",
    "terzi",
    "punti",
    "vinta",
    "persa",
    "mazziere",
    "classifica",
    "conti",
    "paga",
    "spiegazione",
    "annullata",
    "corretta",
    "ritirata",
    "passato",
    "hanno passato",
    "posta",
    "prese",
    "ultima presa",
    "giocatori",
    "regole",
    "partita",
    "carta chiamata",
    "da ciascun",
    "socio",
    "piatto",
    "motivo",
    "totali",
    "grafici",
    "resoconto",
    "errore",
)
"""Words of the Italian interface that an English reader must never meet."""
PROFILES = (
    ("pagat", ("Anna", "Bruno", "Carla"), ()),
    ("pagat", ("Anna", "Bruno", "Carla", "Dario"), ()),
    ("tretre", ("Anna", "Bruno", "Carla"), ("game_to=3",)),
    ("cavendish", ("Anna", "Bruno", "Carla"), ()),
    ("quartiglio", ("Anna", "Bruno", "Carla", "Dario"), ()),
    ("quintiglio", ("Anna", "Bruno", "Carla", "Dario", "Elena"), ("mediatore=on",)),
)
LINES = {
    "pagat": ("bruno solo 22t", "pass", "carla chiamo 3D@anna 17t last=opp", "anna solissimo dividete 24t"),
    "tretre": ("bruno chiamo 20t", "pass", "carla solo 10t", "anna chiamo 25t"),
    "cavendish": ("bruno play 22t", "pass", "carla play 12t"),
    "quartiglio": ("anna chiamo 3D@bruno 20t", "carla mediatore 3S@dario 10t", "pass", "dario solo 22t"),
    "quintiglio": ("anna chiamo 3D@bruno 20t", "carla solo 10t", "bruno mediatore 3C@elena 22t"),
}


def record_every_profile(db: str, language: str) -> None:
    """An evening of each profile, recorded in `language`, with a correction, a void, an undo and a payment."""
    with speaking(language), Ledger(db) as ledger:
        for profile, players, options in PROFILES:
            number = ledger.start_evening(players, Terms(profile=profile, options=options, stake="0.10")).number
            for line in LINES[profile]:
                ledger.record(line, evening=number)
            ledger.amend(1, "19t", reason="recount", evening=number)
            ledger.void(2, reason="misdeal", evening=number)
            ledger.record(LINES[profile][0], evening=number)
            ledger.undo(evening=number)
        ledger.close_evening(1)
        ledger.paid("Bruno", "Anna", "0.20", evening=1)


def commands(evenings: int) -> Iterator[tuple[str, ...]]:
    """Every command that prints what the ledger holds, for every evening."""
    yield from (("evening", "list"), ("players", "list"), ("tab",), ("paid", "--list"), ("stats",))
    for number in range(1, evenings + 1):
        e = str(number)
        yield from (
            ("evening", "show", "-e", e),
            ("deals", "-e", e),
            ("deal", "show", "1", "-e", e),
            ("deal", "show", "2", "-e", e),
            ("standings", "-e", e),
            ("settle", "-e", e),
        )


def writes() -> Iterator[tuple[str, ...]]:
    """A deal recorded into every open evening (all but the first), with the table of what each seat won or lost,
    and taken back."""
    for number, (profile, _players, _options) in enumerate(PROFILES[1:], start=2):
        yield ("record", LINES[profile][0], "-e", str(number))
        yield ("undo", "-e", str(number))


def help_screens() -> Iterator[tuple[str, ...]]:
    """The help of the root and of every command."""
    yield ("--help",)
    for command in (
        ("record",),
        ("deals",),
        ("deal", "show"),
        ("amend",),
        ("void",),
        ("undo",),
        ("standings",),
        ("settle",),
        ("paid",),
        ("tab",),
        ("evening", "start"),
        ("evening", "close"),
        ("evening", "list"),
        ("stats",),
        ("chart",),
        ("report",),
        ("play",),
        ("serve",),
        ("score",),
        ("export",),
        ("import",),
        ("demo",),
    ):
        yield (*command, "--help")


TYPED = (
    "running",
    "money",
    "contracts",
    "thirds",
    "pairings",
    "tricks",
    "deals",
    "standings",
    "settle",
    "help",
    *ALIASES,
)
"""Words typed as they are in either language, which help screens name: chart kinds, the values of
`stramazzo_counts`, `play`'s English commands (accepted in Italian too) and the Italian words of the commands
(accepted in English too)."""


def without_commands(text: str) -> str:
    """A text without the commands it suggests (`calabresella undo --revision 3`), which are typed as they are."""
    return re.sub(r"calabresella[^\n│]*", " ", text)


def prose(help_text: str) -> str:
    """A help screen without what is typed as it is in any language: options (`--evening`), commands (the first
    word of a row of the commands' panel, and examples `calabresella ...`), file names and the values an option
    takes."""
    text = re.sub(r"[\w-]+\.(png|svg|html)\b", " ", without_commands(help_text))  # file names
    text = re.sub(r"^(\s*│\s*)[\w-]+", r"\1", text, flags=re.M)
    text = re.sub(r"(?<![\w-])--?[\w-]+(=\S*)?", " ", text)
    return re.sub(r"\[[^\]]*\]", " ", text)


@cache
def _any_of(words: tuple[str, ...]) -> re.Pattern[str]:
    """One search for the words of a list, as whole words, whatever their case: at each place a word starts, the
    longest of the list that is whole there."""
    longest_first = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
    return re.compile(rf"(?<![\w])(?=({longest_first})(?![\w]))", re.IGNORECASE)


def words_in(text: str, words: tuple[str, ...]) -> list[str]:
    """The words of the list the text holds, as whole words, whatever their case."""
    found = {word.lower() for word in _any_of(words).findall(text)}
    return [word for word in words if word in found]


def pages(db: str, language: str, evenings: int) -> Iterator[tuple[str, str]]:
    """Every page a phone can open, in `language`, as (path, text)."""
    with scorekeeper(db) as phone:
        phone.cookies.set("lang", language)
        paths = ["/", "/evenings", "/evenings/new"]
        for number in range(1, evenings + 1):
            base = f"/evenings/{number}"
            paths += [base, f"{base}/deals", f"{base}/deals/1", f"{base}/deals/2", f"{base}/settle", f"{base}/charts"]
        for path in paths:
            page = phone.get(path, follow_redirects=True)
            assert page.status_code == 200, (path, page.text[:300])
            yield path, visible(page.text)


def visible(html: str) -> str:
    """A page's text as a reader sees it: no tags, no attribute values but titles and labels, no scripts."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    shown = re.findall(r'(?:title|aria-label|placeholder|alt)="([^"]*)"', html)
    return " ".join([re.sub(r"<[^>]+>", " ", html), *shown])


def svg_text(svg: bytes) -> str:
    return " ".join("".join(t.itertext()) for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text"))


@pytest.mark.parametrize(("recorded", "read", "forbidden"), [("en", "it", ENGLISH), ("it", "en", ITALIAN)])
def test_every_word_is_drawn_in_the_readers_language(
    recorded: str, read: str, forbidden: tuple[str, ...], sqlite_url: str
) -> None:
    db = sqlite_url
    record_every_profile(db, recorded)
    evenings = len(PROFILES)
    found: dict[str, list[str]] = {}
    expected = ITALIAN if read == "it" else ENGLISH
    runner = CliRunner()
    for args in [*commands(evenings), *writes(), *help_screens()]:
        result = runner.invoke(app, ["--lang", read, "--db", db, *args], env={"COLUMNS": "200"})
        assert result.exit_code == 0, (args, result.output)
        helped = "--help" in args
        shown = prose(result.stdout) if helped else without_commands(result.stdout)
        assert helped or args[0] in ("players", "tab", "paid") or words_in(shown, expected), (args, shown[:300])
        wrong = [word for word in words_in(shown, forbidden) if not (helped and word in TYPED)]
        if wrong:
            found[" ".join(args)] = wrong
    for path, text in pages(db, read, evenings):
        if words_in(text, forbidden):
            found[path] = words_in(text, forbidden)
        assert words_in(text, expected), f"{path} is not in the reader's language: {text[:300]}"
    use_language(read)
    with Ledger(db) as ledger:
        for number in range(1, evenings + 1):
            # the charts' images load from an address, as on the phone: their words are the charts' own, read below
            report = visible(ledger.report(number, charts="charts/{kind}.svg"))
            assert words_in(report, expected)
            if words_in(report, forbidden):
                found[f"report {number}"] = words_in(report, forbidden)
        for kind in ("running", "money", "contracts", "thirds", "pairings"):
            text = svg_text(ledger.chart(kind, evening=1 if kind == "running" else None, fmt="svg"))
            if words_in(text, forbidden):
                found[f"chart {kind}"] = words_in(text, forbidden)
    assert not found, "\n".join(f"{where}: {words}" for where, words in found.items())
