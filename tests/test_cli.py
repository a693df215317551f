"""The CLI contract: exit 0 / 1 (domain error, clear message, no traceback) / 2 (usage)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ecfgrading.cli import main
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = [
    "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall",
    "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown",
]
GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013",
]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_a_bad_file_is_checked_with_every_problem_and_exit_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(results_file(PLAYERS, ["#PIN1=1#SCORE=1-0#PIN2=2", "#PIN1=1#SCORE=10#PIN2=9"]))
    code, output = invoke("results", "check", str(bad))
    assert code == 1
    # Header lines 1-14, players 15-16, the part 17, results 18 and 19.
    assert "expected SCORE 10, 01, 55, 1d, d1 or dd, got '1-0' (line 18)" in output
    assert "expected PIN2 a PIN of the player list, got '9' (line 19)" in output
    assert "1 of 1 files have errors" in output


def test_import_grade_publish_explain_and_export(tmp_path: Path) -> None:
    good = tmp_path / "open.txt"
    good.write_bytes(results_file(PLAYERS, GAMES))
    code, output = invoke("results", "import", str(good))
    assert (code, "accepted" in output) == (0, True)
    code, output = invoke("grade", "--list", "2013-07", "--rate", "standard")
    assert code == 0
    assert "version initial" in output
    assert (
        invoke("publish", "--list", "2013-07", "--rate", "standard", "--version", "initial")[0] == 0
    )
    code, output = invoke("player", "261619B")
    assert code == 0
    assert "Bloggs, Joe 261619B  standard list 2013-07" in output
    out = tmp_path / "list.json"
    code, _ = invoke("lists", "export", "--list", "2013-07", "--format", "json", "--out", str(out))
    assert code == 0
    assert json.loads(out.read_text()) == []  # two games: nobody has a category yet


def test_domain_errors_exit_1_with_a_message(tmp_path: Path) -> None:
    code, output = invoke("player", "261619A")
    assert code == 1
    assert "wrong check letter in '261619A': expected 'B', got 'A'" in output
    code, output = invoke("grade", "--list", "2013-01", "--rate", "standard")
    assert (code, "July only" in output) == (1, True)
    code, output = invoke("publish", "--list", "2013-07", "--rate", "standard", "--version", "x")
    assert code == 1
    assert "expected a version of the standard list 2013-07" in output


def test_usage_errors_exit_2() -> None:
    assert invoke("grade", "--list", "2013-07")[0] == 2
    assert invoke("results", "import", "/no/such/file.txt")[0] == 2
    assert invoke("no-such-command")[0] == 2


def test_reports_print_text_and_json(tmp_path: Path) -> None:
    good = tmp_path / "open.txt"
    good.write_bytes(results_file(PLAYERS, GAMES))
    invoke("results", "import", str(good))
    invoke("grade", "--list", "2013-07", "--rate", "standard")
    code, output = invoke("report", "attention", "--list", "2013-07", "--rate", "standard")
    assert code == 0
    assert "unanchored (G11): 2" in output  # two new players who only met each other
    code, output = invoke("report", "received", "--season", "2013", "--json")
    assert code == 0
    assert [event["code"] for event in json.loads(output)["events"]] == ["XX12345"]
    code, output = invoke("report", "jumps", "--list", "2099-07", "--rate", "standard")
    assert code == 1


def test_a_grade_from_a_loaded_list_says_its_games_are_not_on_record(tmp_path: Path) -> None:
    csv = tmp_path / "list.csv"
    csv.write_text(
        "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
        "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
        '261619B,"Bloggs, Joe",M,,A,150,148,30,,,,,Walsall,,,,,,,ENG\n'
    )
    assert invoke("lists", "import", str(csv), "--list", "2009-07", "--rate", "standard")[0] == 0
    code, output = invoke("player", "261619B")
    assert code == 0
    assert "Grade 150, category A, games 30, as published in a list loaded from a file" in output
    code, output = invoke(
        "assign", "261619B", "--rate", "standard", "--from", "2010-07", "--grade", "nan"
    )
    assert (code, "expected a grade from 0 to 400, got nan" in output) == (1, True)
