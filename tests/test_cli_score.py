"""`calabresella score`: the worked examples, help texts and error handling."""

from __future__ import annotations

import json

import pytest
from cli_support import calabresella
from rules_cases import EXAMPLE_IDS, EXAMPLES, Example
from typer.testing import CliRunner

from ledger.cli.main import app

runner = CliRunner()
ABC = "Anna,Bruno,Carla"


def check_example_json(example: Example, data: dict[str, object]) -> None:
    assert data["profile"] == example.profile
    assert data["players"] == list(example.players)
    assert data["dealer"] == example.dealer
    assert data["payouts"] == example.payouts
    assert data["declarer_won"] is example.declarer_won
    assert data["sweep"] == example.sweep
    assert data["multiplier"] == example.multiplier
    assert data["amount"] == example.amount
    assert data["passed"] is (example.declarer_won is None)
    assert sum(data["payouts"].values()) == 0  # type: ignore[union-attr]


@pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_IDS)
def test_worked_example_with_cli_runner(example: Example) -> None:
    result = runner.invoke(app, example.cli_args())
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    check_example_json(example, json.loads(result.stdout))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--thirds", "36"], "Error: --thirds 36: a deal has only 35 thirds"),
        (
            ["-P", "scopa", "-t", "20"],
            "Error: profile 'scopa': allowed are pagat, cavendish, tretre, quartiglio, quintiglio",
        ),
    ],
    ids=["thirds-36", "unknown-profile"],
)
def test_errors_as_a_command(args: list[str], message: str) -> None:
    run = calabresella("score", "--players", ABC, "-d", "Anna", "-c", "solo", *args, env={"COLUMNS": "200"})
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.splitlines() == [message]
    assert "Traceback" not in run.stderr


def test_text_output_shows_headline_table_and_explanation() -> None:
    result = runner.invoke(
        app, ["score", "--players", ABC, "-d", "Bruno", "-c", "solo", "-t", "33"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Bruno solo: 33 thirds (11), won, stramazzo" in out
    assert "solo 2 x stramazzo 3 = 6 from each opponent" in out
    lines = {
        line.split()[0]: line
        for line in out.splitlines()
        if line.split() and line.split()[0] in ("Anna", "Bruno", "Carla")
    }
    assert "+12" in lines["Bruno"] and "declarer" in lines["Bruno"]
    assert "-6" in lines["Anna"] and "-6" in lines["Carla"] and "dealer" in lines["Carla"]


def test_text_output_cavendish_and_passed() -> None:
    result = runner.invoke(app, ["score", "--players", ABC, "-P", "american", "-d", "Anna", "-c", "play", "-p", "22"])
    assert result.exit_code == 0 and "Anna plays: 22 of 35, won" in result.stdout
    assert "22 - 13 = 9: 9 from each opponent" in result.stdout
    result = runner.invoke(app, ["score", "--players", ABC, "--passed"])
    assert result.exit_code == 0 and "All passed." in result.stdout


def json_of(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["score", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("args", "payouts", "extra"),
    [
        pytest.param(
            ["--players", ABC, "-d", "bru", "-c", "SOLO", "-t", "22"],
            {"Anna": -2, "Bruno": 4, "Carla": -2},
            {"declarer": "Bruno", "dealer": "Carla"},
            id="prefix-and-case",
        ),
        pytest.param(
            ["--players", " Anna , Bruno , Carla ", "-d", "Anna", "-c", "solo", "-t", "20", "--dealer", "an"],
            {"Anna": 4, "Bruno": -2, "Carla": -2},
            {"dealer": "Anna", "first_lead": "Bruno"},
            id="dealer-by-prefix-and-spaces",
        ),
        pytest.param(
            ["--players", ABC, "-d", "Bruno", "-c", "solo", "-t", "33", "-o", "sweeps=off"],
            {"Anna": -2, "Bruno": 4, "Carla": -2},
            {"sweep": None},
            id="option-sweeps-off",
        ),
        pytest.param(
            ["--players", ABC, "-d", "Bruno", "-c", "solo", "-t", "33", "--option", "stramazzo_multiplier=4"],
            {"Anna": -8, "Bruno": 16, "Carla": -8},
            {"multiplier": 4},
            id="option-stramazzo-4",
        ),
        pytest.param(
            ["--players", ABC, "--auction", "pass,pass,solissimo", "-a", "scegliete", "-t", "35", "--tricks", "12"],
            {"Anna": -32, "Bruno": -32, "Carla": 64},
            {"declarer": "Carla", "contract": "solissimo", "first_lead": "Carla"},
            id="auction-help-example",
        ),
        pytest.param(
            ["--players", ABC, "--auction", "Anna:pass,Bruno:pass,Carla:pass"],
            {"Anna": 0, "Bruno": 0, "Carla": 0},
            {"passed": True},
            id="auction-all-pass",
        ),
        pytest.param(
            ["--players", "Anna,Bruno,Carla,Dario", "-d", "Anna", "-c", "solo", "-t", "20", "-o", "dealer_shares=on"],
            {"Anna": 6, "Bruno": -2, "Carla": -2, "Dario": -2},
            {"sitting_out": "Dario"},
            id="dealer-shares",
        ),
        pytest.param(
            ["--players", ABC, "-P", "tretre", "-d", "Anna", "-c", "chiamo", "-t", "20", "--passed-before", "2"],
            {"Anna": 6, "Bruno": -3, "Carla": -3},
            {"multiplier": 3},
            id="tretre-pot",
        ),
        pytest.param(
            [
                "--players",
                "Anna,Bruno,Carla,Dario",
                "-P",
                "quartiglio",
                "-d",
                "Anna",
                "-c",
                "chiamo",
                "--called",
                "tre di coppe",
                "--holder",
                "Carla",
                "-t",
                "20",
            ],
            {"Anna": 1, "Bruno": -1, "Carla": 1, "Dario": -1},
            {"partner": "Carla"},
            id="quartiglio-chiamo",
        ),
        pytest.param(
            ["--players", "Anna,Bruno,Carla,Dario,Ezio", "-P", "quintiglio", "-d", "Anna", "-c", "solo", "-p", "6"],
            {"Anna": 4, "Bruno": -1, "Carla": -1, "Dario": -1, "Ezio": -1},
            {"sitting_out": None},
            id="quintiglio-solo",
        ),
    ],
)
def test_cli_deals(args: list[str], payouts: dict[str, int], extra: dict[str, object]) -> None:
    data = json_of(*args)
    assert data["payouts"] == payouts
    for key, value in extra.items():
        assert data[key] == value, key


def test_json_reports_every_field_of_rules_section_7() -> None:
    data = json_of("--players", ABC, "-d", "Anna", "-c", "solissimo", "-a", "dividete", "-t", "24")
    for key in (
        "profile",
        "options",
        "players",
        "dealer",
        "passed",
        "declarer",
        "contract",
        "aggravation",
        "declarer_thirds",
        "declarer_won",
        "sweep",
        "multiplier",
        "amount",
        "payouts",
        "sitting_out",
        "explanation",
    ):
        assert key in data, key
    assert data["options"]["sweeps"] is True  # type: ignore[index]
    assert data["explanation"] == "solissimo 4 x dividete 2 = 8 from each opponent"


WIDE = {"COLUMNS": "250", "NO_COLOR": "1"}


@pytest.fixture(scope="module")
def score_help() -> str:
    result = runner.invoke(app, ["score", "--help"], env=WIDE)
    assert result.exit_code == 0
    return result.stdout


def option_line(help_text: str, option: str) -> str:
    """The row of the options panel that describes `option`."""
    rows = [line.strip("│ ").removeprefix("* ").strip() for line in help_text.splitlines() if line.startswith("│")]
    return next(row for row in rows if row.startswith(f"{option} "))


def test_root_help_mentions_score_with_an_example() -> None:
    result = runner.invoke(app, ["--help"], env=WIDE)
    assert result.exit_code == 0
    assert "score" in result.stdout and "--db" in result.stdout
    assert "e.g." not in result.stdout or "calabresella score" in result.stdout
    assert "calabresella score --players Anna,Bruno,Carla" in result.stdout


@pytest.mark.parametrize(
    "option",
    [
        "--players",
        "--dealer",
        "--profile",
        "--option",
        "--json",
        "--declarer",
        "--contract",
        "--aggravation",
        "--called",
        "--holder",
        "--thirds",
        "--points",
        "--tricks",
        "--last-trick",
        "--auction",
        "--passed",
        "--passed-before",
        "--help",
    ],
)
def test_score_help_mentions_every_option(option: str, score_help: str) -> None:
    assert option_line(score_help, option)


@pytest.mark.parametrize(
    ("option", "example"),
    [
        ("--players", "e.g. --players Anna,Bruno,Carla"),
        ("--profile", "e.g. -P tretre"),
        ("--option", "e.g. -o sweeps=off"),
        ("--declarer", "e.g. --declarer Bruno"),
        ("--contract", "e.g. -c solo"),
        ("--aggravation", "e.g. -a dividete"),
        ("--called", "e.g. --called 3D"),
        ("--holder", "e.g. --holder Anna"),
        ("--thirds", "e.g. --thirds 22"),
        ("--tricks", "e.g. --tricks 12"),
        ("--auction", "e.g. --auction"),
        ("--points", "7+1/3"),
        ("--last-trick", "declarer or opponents"),
    ],
)
def test_score_help_gives_examples(option: str, example: str, score_help: str) -> None:
    assert example in option_line(score_help, option)


def test_score_help_shows_whole_command_examples(score_help: str) -> None:
    assert "calabresella score --players Anna,Bruno,Carla -d Bruno -c solo --thirds 22" in score_help
    assert "-P cavendish" in score_help
    assert runner.invoke(app, ["score", "-h"], env=WIDE).stdout == score_help


P4 = "Anna,Bruno,Carla,Dario"
ERRORS = [
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "--thirds", "36"],
        "--thirds 36: a deal has only 35 thirds",
        id="thirds-36",
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "--thirds", "-1"], "cannot be negative", id="thirds-negative"
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "-t", "20", "-p", "7"],
        "thirds and points both say it",
        id="thirds-and-points",
    ),
    pytest.param(["--players", ABC, "-d", "Anna", "-c", "solo", "-p", "12"], "only 11+2/3 points", id="points-12"),
    pytest.param(["--players", ABC, "-d", "Anna", "-c", "solo", "-p", "7+3/3"], "--points '7+3/3'", id="points-7+3/3"),
    pytest.param(["--players", ABC, "-d", "Anna", "-c", "solo", "-p", "abc"], "--points 'abc'", id="points-abc"),
    pytest.param(["--players", ABC, "-d", "Anna", "-c", "solo"], "how many thirds", id="missing-thirds"),
    pytest.param(["--players", ABC, "-d", "Anna", "-t", "20"], "which contract?", id="missing-contract"),
    pytest.param(
        ["--players", ABC, "-c", "solo", "-t", "20"], "who declared, or did everyone pass?", id="missing-declarer"
    ),
    pytest.param(["--players", ABC, "-d", "Anna", "-c", "solo", "-t", "0"], "how many tricks", id="missing-tricks"),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "-t", "4"], "who took the last trick", id="missing-last-trick"
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "-t", "35", "--tricks", "13"], "--tricks 13", id="tricks-13"
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "-t", "20", "--tricks", "12"],
        "all 35 thirds",
        id="12-tricks-d=20",
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "-t", "0", "-l", "declarer"],
        "took the last trick, which alone is 3 thirds",
        id="d=0-last-declarer",
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "-t", "34", "-l", "opp"], "at most 32", id="d=34-last-opponents"
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "-t", "30", "-l", "maybe"],
        "last trick 'maybe'",
        id="bad-last-trick",
    ),
    pytest.param(["--players", "Anna,Bruno", "-d", "Anna", "-c", "solo", "-t", "20"], "2 players", id="2-players"),
    pytest.param(
        ["--players", "Anna,Bruno,anna", "-d", "Bruno", "-c", "solo", "-t", "20"],
        "seated twice",
        id="duplicate-players",
    ),
    pytest.param(
        ["--players", "Anna,,Carla", "-d", "Anna", "-c", "solo", "-t", "20"],
        "--players 'Anna,,Carla'",
        id="blank-player",
    ),
    pytest.param(["--players", " ", "-d", "Anna", "-c", "solo", "-t", "20"], "--players", id="no-players"),
    pytest.param(
        ["--players", ABC, "--dealer", "Zoe", "-d", "Anna", "-c", "solo", "-t", "20"],
        "--dealer 'Zoe': not seated",
        id="dealer-not-seated",
    ),
    pytest.param(
        ["--players", ABC, "-d", "Zoe", "-c", "solo", "-t", "20"],
        "--declarer 'Zoe': not seated",
        id="declarer-not-seated",
    ),
    pytest.param(
        ["--players", P4, "-d", "Dario", "-c", "solo", "-t", "20"], "Dario deals and sits out", id="declarer-sits-out"
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "grande", "-t", "20"], "contract 'grande'", id="unknown-contract"
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "-a", "dividete", "-t", "20"],
        "dividete on solo",
        id="dividete-on-solo",
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "--called", "3D", "-t", "20"],
        "a card is called only in chiamo",
        id="called-on-solo",
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "chiamo", "--called", "ZZ", "-t", "20"], "--called 'ZZ'", id="bad-card"
    ),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "chiamo", "--holder", "Zoe", "-t", "20"],
        "--holder 'Zoe': not seated",
        id="holder-not-seated",
    ),
    pytest.param(
        ["--players", P4, "-P", "quartiglio", "-d", "Anna", "-c", "chiamo", "--called", "3D", "-t", "20"],
        "who held the called three?",
        id="quartiglio-missing-holder",
    ),
    pytest.param(
        [
            "--players",
            P4,
            "-P",
            "quartiglio",
            "-d",
            "Anna",
            "-c",
            "chiamo",
            "--called",
            "AD",
            "--holder",
            "Bruno",
            "-t",
            "20",
        ],
        "only a three may be called",
        id="quartiglio-called-ace",
    ),
    pytest.param(
        [
            "--players",
            "Anna,Bruno,Carla,Dario,Ezio",
            "-P",
            "quintiglio",
            "-d",
            "Anna",
            "-c",
            "chiamo",
            "--called",
            "3D",
            "--holder",
            "monte",
            "-t",
            "20",
        ],
        "without a monte",
        id="quintiglio-holder-monte",
    ),
    pytest.param(
        ["--players", ABC, "--passed", "-t", "20"],
        "a passed deal has no declarer, so no thirds",
        id="passed-with-thirds",
    ),
    pytest.param(
        ["--players", ABC, "--passed", "-d", "Anna"],
        "a passed deal has no declarer or contract",
        id="passed-with-declarer",
    ),
    pytest.param(
        ["--players", ABC, "--auction", "solo,chiamo,pass", "-t", "20"], "does not outbid", id="auction-lower-bid"
    ),
    pytest.param(
        ["--players", ABC, "--auction", "pass,solo", "-t", "20"], "Carla has not spoken", id="auction-missing-speaker"
    ),
    pytest.param(
        ["--players", ABC, "--auction", "solissimo,pass,solo", "-t", "20"],
        "after a solissimo the others may only pass",
        id="auction-bid-after-solissimo",
    ),
    pytest.param(
        ["--players", ABC, "--auction", "pass,solo,pass", "-d", "Anna", "-t", "20"],
        "contradicts",
        id="auction-contradicts-declarer",
    ),
    pytest.param(
        ["--players", P4, "--dealer", "Dario", "--auction", "Dario:pass,pass,pass,pass"],
        "'Dario' does not speak",
        id="auction-dealer-sitting-out",
    ),
    pytest.param(
        ["--players", ABC, "-P", "scopa", "-d", "Anna", "-c", "solo", "-t", "20"],
        "profile 'scopa'",
        id="unknown-profile",
    ),
    pytest.param(
        ["--players", ABC, "-o", "foo=1", "-d", "Anna", "-c", "solo", "-t", "20"],
        "option 'foo' does not exist in profile pagat",
        id="unknown-option",
    ),
    pytest.param(
        ["--players", ABC, "-P", "cavendish", "-o", "sweeps=on", "-d", "Anna", "-c", "play", "-t", "20"],
        "does not exist in profile cavendish",
        id="option-not-of-profile",
    ),
    pytest.param(
        ["--players", ABC, "-o", "sweeps=maybe", "-d", "Anna", "-c", "solo", "-t", "20"],
        "sweeps is on or off",
        id="bad-bool-option",
    ),
    pytest.param(
        ["--players", ABC, "-o", "cappotto_multiplier=0", "-d", "Anna", "-c", "solo", "-t", "20"],
        "from 1 to 100",
        id="bad-int-option",
    ),
    pytest.param(
        ["--players", ABC, "-o", "stramazzo_counts=foo", "-d", "Anna", "-c", "solo", "-t", "20"],
        "option stramazzo_counts=foo: stramazzo_counts is monte, tricks or all",
        id="bad-choice-option",
    ),
    pytest.param(
        ["--players", ABC, "-o", "game_to=many", "-d", "Anna", "-c", "solo", "-t", "20"],
        "option game_to=many: game_to is none or a whole number from 1 to 1000",
        id="bad-game-to",
    ),
    pytest.param(
        [
            "--players",
            ABC,
            "-o",
            "stramazzo_counts=tricks",
            "-d",
            "Anna",
            "-c",
            "solo",
            "-t",
            "20",
            "--monte-thirds",
            "11",
        ],
        "--monte-thirds 11: 4 cards hold 0 to 12 thirds, never 11",
        id="monte-thirds-11",
    ),
    pytest.param(
        ["--players", ABC, "-o", "sweeps", "-d", "Anna", "-c", "solo", "-t", "20"],
        "write key=value",
        id="option-without-value",
    ),
    pytest.param(
        ["--players", ABC, "-P", "cavendish", "-d", "Anna", "-c", "solo", "-t", "20"],
        "contract solo: cavendish has play",
        id="cavendish-solo",
    ),
    pytest.param(
        ["--players", ABC, "-P", "cavendish", "-d", "Anna", "-c", "play", "--called", "3X", "-t", "20"],
        "--called '3X': write rank then suit",
        id="cavendish-called-card-unknown",
    ),
    pytest.param(
        ["--players", ABC, "-P", "cavendish", "-d", "Anna", "-c", "play", "-p", "36"],
        "--points 36: a deal has only 35 thirds",
        id="cavendish-points-36",
    ),
]


@pytest.mark.parametrize(("args", "message"), ERRORS)
def test_invalid_input_exits_2_with_one_error_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["score", *args])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert message in lines[0]
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_thirds_36_error_line_is_exact() -> None:
    result = runner.invoke(app, ["score", "--players", ABC, "-d", "Anna", "-c", "solo", "--thirds", "36"])
    assert result.exit_code == 2
    assert result.stderr == "Error: --thirds 36: a deal has only 35 thirds\n"


USAGE_ERRORS = [
    pytest.param(["--players", ABC, "-d", "Anna", "-c", "solo", "--thirds", "abc"], id="thirds-not-a-number"),
    pytest.param(["--players", ABC, "-d", "Anna", "-c", "solo", "-t", "20", "--tricks", "x"], id="tricks-not-a-number"),
    pytest.param(["-d", "Anna", "-c", "solo", "-t", "20"], id="missing-players"),
    pytest.param(
        ["--players", ABC, "-d", "Anna", "-c", "solo", "-t", "20", "--passed-before", "-1"], id="passed-before-negative"
    ),
    pytest.param(["--players", ABC, "--no-such-option"], id="unknown-flag"),
]


@pytest.mark.parametrize("args", USAGE_ERRORS)
def test_usage_errors_found_by_click_exit_2_without_traceback(args: list[str]) -> None:
    result = runner.invoke(app, ["score", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Traceback" not in result.output
    assert "Error" in result.stderr


@pytest.mark.parametrize("args", USAGE_ERRORS)
def test_usage_errors_found_by_click_print_one_error_line(args: list[str]) -> None:
    result = runner.invoke(app, ["score", *args])
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")


@pytest.mark.parametrize(
    ("deal", "dealer_role"),
    [
        (["--passed"], "sits out, dealer"),
        (["-d", "Anna", "-c", "solo", "-t", "20"], "sits out, dealer"),
        (["-d", "Anna", "-c", "solo", "-t", "20", "-o", "dealer_shares=on"], "opponent, dealer"),
    ],
)
def test_the_dealer_who_sits_out_is_shown_so_on_a_pass_too(deal: list[str], dealer_role: str) -> None:
    result = runner.invoke(app, ["score", "--players", "Anna,Bruno,Carla,Dario", *deal], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    dario = next(line for line in result.output.splitlines() if line.startswith("Dario"))
    assert [cell.strip() for cell in dario.split("│")][1] == dealer_role
