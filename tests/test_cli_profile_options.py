"""`calabresella evening start --help` ends with every profile option, its values, its default in every profile
that has it and its meaning, in English and in Italian (RULES §6); README.md and README.it.md list them too."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from cli_support import calabresella

from ledger.rules.options import MOST_GAME_POINTS, MOST_MULTIPLIER, OPTIONS, Kind, show
from ledger.rules.profiles import DEFAULTS

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_WORD = {"en": "Default ", "it": "Predefinito "}


def values(option: str) -> str:
    """The values an option takes, as the help writes them."""
    kind = OPTIONS[option].kind
    return {
        Kind.SWITCH: "on|off",
        Kind.NUMBER: f"1..{MOST_MULTIPLIER}",
        Kind.CHOICE: "|".join(OPTIONS[option].choices),
        Kind.LIMIT: f"none|1..{MOST_GAME_POINTS}",
    }[kind]


def defaults(option: str) -> dict[str, str]:
    """Each profile that has the option, and its default as typed."""
    return {name: show(options[option]) for name, options in DEFAULTS.items() if option in options}


def check_defaults(option: str, told: str) -> None:
    """Every default is told; where profiles differ, the ones off the most common default are named."""
    given = defaults(option)
    assert all(re.search(rf"\b{re.escape(value)}\b", told) for value in given.values()), (option, told)
    usual = Counter(given.values()).most_common(1)[0][0]
    assert all(name in told for name, value in given.items() if value != usual), (option, told)


@pytest.mark.parametrize("language", ["en", "it"])
def test_evening_start_help_lists_every_option_with_its_values_and_defaults(language: str) -> None:
    done = calabresella("--lang", language, "evening", "start", "--help", env={"COLUMNS": "500", "CALABRESELLA_DB": ""})
    assert done.returncode == 0, done.stderr
    lines = {line.strip().split("=", 1)[0]: line.strip() for line in done.stdout.splitlines() if "=" in line}
    for option in OPTIONS:
        line = lines[option]
        assert line.startswith(f"{option}={values(option)}: "), line
        meaning, _, told = line.partition(DEFAULT_WORD[language])
        assert told and len(meaning) > len(option) + len(values(option)) + 10, line
        check_defaults(option, told)
    assert ("Cavendish has only" if language == "en" else "Cavendish ha solo") in done.stdout


@pytest.mark.parametrize(("readme", "default"), [("README.md", "default"), ("README.it.md", "predefinito")])
def test_the_readmes_list_every_option_with_its_profiles_and_defaults(readme: str, default: str) -> None:
    text = (ROOT / readme).read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("| option") or line.startswith("| opzione"))
    assert default in header
    rows = {
        cells[1].strip("` "): cells[2:]
        for line in text.splitlines()
        if line.startswith("| `") and (cells := [cell.strip() for cell in line.split("|")])[1].strip("`") in OPTIONS
    }
    assert list(rows) == list(OPTIONS)
    for option, (profiles, told, meaning, *_) in rows.items():
        assert all(name in profiles or profiles.startswith(("every", "tutte")) for name in defaults(option)), option
        check_defaults(option, told)
        assert meaning, option
