"""The CLI contract: exit 0 / 1 (domain error, clear message, no traceback) / 2 (usage)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import openpyxl
import pytest
from click.testing import CliRunner
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from ecfgrading.cli import main
from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import AuditLog, Event, Game, PendingIdentification, Player
from ecfgrading.registry.numbering import resolve_code
from ecfgrading.services.accounts import create_user
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
    """Run the command; a user's mistake ends in a clean exit, never an exception."""
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
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
    publish = ("publish", "--list", "2013-07", "--rate", "standard", "--version", "initial")
    assert invoke(*publish, "--allow-unanchored")[0] == 0  # a first list: nobody anchored
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
    code, output = invoke("grade", "--list", "2011-01", "--rate", "standard")
    assert (code, "July only before 2012-01" in output) == (1, True)  # G31
    code, output = invoke("publish", "--list", "2013-07", "--rate", "standard", "--version", "x")
    assert code == 1
    assert "expected a version of the standard list 2013-07" in output


def test_help_needs_no_django() -> None:
    """The error contract is caught at the top without importing Django: --help stays fast."""
    script = "import sys, ecfgrading.cli; print(sorted(m for m in sys.modules if 'django' in m))"
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "[]"


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


# -- a graded season, built by hand ---------------------------------------------------------
# The 2013-01 list gives four players their previous grades (G4, G33: the standard list
# six months before 2013-07). In the 2013-07 period
# Bloggs (150) beats Smith (100) thirty times and Weak (10) beats Zero (6) thirty times;
# two newcomers who only meet each other draw once. By G12 (the 40-point rule):
#   Bloggs: Smith counts as 150 - 40 = 110, a win is 160 -> grade 160 (30 games, all in
#           the half-year H0 of January to June 2013: X, G36; the same for the others)
#   Smith:  Bloggs counts as 100 + 40 = 140, a loss is 90 -> grade 90
#   Weak:   Zero counts as 6 (within 40), a win is 56 -> grade 56
#   Zero:   Weak counts as 10, a loss is -40 -> published as 0 (G21)
#   Doe and Roe: a closed pool (G11), unanchored, one game each: not published (G23)

LIST_2012 = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
    '261619B,"Bloggs, Joe",M,,A,150,148,30,,,,,Walsall,,,,,,,ENG\n'
    '155624B,"Smith, Jane",F,,A,100,104,30,,,,,Anytown,,,,,,,ENG\n'
    '102807J,"Weak, Will",M,,A,10,12,30,,,,,Anytown,,,,,,,ENG\n'
    '233310H,"Zero, Zak",M,,A,6,8,30,,,,,Anytown,,,,,,,ENG\n'
)
SEASON_PLAYERS = [
    "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall",
    "#PIN=2#BCF CODE=155624B#NAME=Smith, Jane#CLUB NAME=Anytown",
    "#PIN=3#BCF CODE=102807J#NAME=Weak, Will#CLUB NAME=Anytown",
    "#PIN=4#BCF CODE=233310H#NAME=Zero, Zak#CLUB NAME=Anytown",
    "#PIN=5#NAME=Doe, Jane#CLUB NAME=Faraway",
    "#PIN=6#NAME=Roe, Rita#CLUB NAME=Faraway",
]
SEASON_GAMES = [
    *(f"#PIN1=1#SCORE=10#PIN2=2#ROUND={r}#GAME DATE=11/05/2013" for r in range(1, 31)),
    *(f"#PIN1=4#SCORE=01#PIN2=3#ROUND={r}#GAME DATE=12/05/2013" for r in range(1, 31)),
    "#PIN1=5#SCORE=55#PIN2=6#ROUND=1#GAME DATE=12/05/2013",
]


def graded_season(tmp_path: Path) -> None:
    """The season above imported, graded and published through the CLI."""
    start = tmp_path / "grades201207.csv"
    start.write_text(LIST_2012)
    results = tmp_path / "congress.txt"
    results.write_bytes(results_file(SEASON_PLAYERS, SEASON_GAMES))
    for args in (
        ("lists", "import", str(start), "--list", "2013-01", "--rate", "standard"),
        ("results", "import", str(results)),
        ("grade", "--list", "2013-07", "--rate", "standard"),
        ("publish", "--list", "2013-07", "--rate", "standard", "--version", "initial"),
    ):
        code, output = invoke(*args)
        assert code == 0, output


def test_grade_under_another_rule_set_makes_a_what_if_draft_publish_refuses(
    tmp_path: Path,
) -> None:
    graded_season(tmp_path)
    code, output = invoke(
        "grade", "--list", "2013-07", "--rate", "standard", "--rule-set", "ecf-2015"
    )
    assert code == 0, output
    assert "version august (draft" in output and "rule set ecf-2015" in output
    # G37: no X in ecf-2015: Bloggs's 30 games of the half-year make an A grade.
    assert "categories: A 4, none 2" in output
    code, output = invoke(
        "publish", "--list", "2013-07", "--rate", "standard", "--version", "august"
    )
    assert code == 1
    assert "computed under ecf-2015, but list 2013-07 is graded under ecf-2012 (G31)" in output
    code, output = invoke("grade", "--list", "2013-07", "--rate", "standard", "--rule-set", "x")
    assert (code, "unknown rule set 'x' (known: ecf-2009, ecf-2012, ecf-2015)" in output) == (
        1,
        True,
    )


def test_regrade_reports_each_list_of_the_span_and_what_differs(tmp_path: Path) -> None:
    graded_season(tmp_path)
    code, output = invoke("regrade", "--from", "2013-01", "--to", "2013-07")
    assert code == 0, output
    lines = output.splitlines()
    assert lines[0] == (
        "standard 2013-01 (ecf-2012): loaded from a file, its games not on record, skipped"
    )
    assert lines[1] == "rapid 2013-01 (ecf-2012): not published, skipped"
    assert lines[2].startswith(
        "standard 2013-07 (ecf-2012): draft august against standard 2013-07 initial: "
        "0 of 4 grades differ (0 changed, 0 new, 0 dropped);"
    )
    assert lines[-1] == "1 lists recomputed, 3 skipped; 0 differ from their published versions"
    code, output = invoke("regrade", "--from", "2014-01", "--to", "2014-07")
    assert (code, "expected published lists between 2014-01 and 2014-07" in output) == (1, True)


def season_report(tmp_path: Path, name: str, *options: str) -> str:
    graded_season(tmp_path)
    code, output = invoke("report", name, "--list", "2013-07", "--rate", "standard", *options)
    assert code == 0, output
    return output


def test_report_jumps_lists_the_players_who_moved_by_the_threshold(tmp_path: Path) -> None:
    output = season_report(tmp_path, "jumps", "--threshold", "10", "--json")
    jumps = [(j["code"], j["old_grade"], j["new_grade"]) for j in json.loads(output)["jumps"]]
    # Largest move first; Zero moved 6, under the threshold.
    assert jumps[0] == ("102807J", 10, 56)
    assert sorted(jumps[1:]) == [("155624B", 100, 90), ("261619B", 150, 160)]


def test_report_jumps_shows_each_jump_in_text(tmp_path: Path) -> None:
    output = season_report(tmp_path, "jumps", "--threshold", "40")
    assert "threshold 40: 1 players" in output
    assert "+46   10 ->  56  Weak, Will 102807J  category X, 30 games (30 counted)" in output


def test_report_integrity_compares_the_list_with_the_previous_one(tmp_path: Path) -> None:
    output = season_report(tmp_path, "integrity")
    # Grades 160, 90, 56, 0 against 150, 100, 10, 6: means 306/4 and 266/4, medians
    # (56+90)/2 and (10+100)/2, mean change (10 - 10 + 46 - 6)/4.
    assert "this list: 4 published, mean 76.5, median 73.0" in output
    assert "previous: 4 published, mean 66.5, median 55.0" in output
    assert "in both: 4, mean change 10.00" in output
    assert "categories: X 4, A 0, B 0, C 0, D 0, E 0, uncategorised 0, unpublished 2" in output
    # The 60 games of published players, all won by the player 70 and 56 points stronger:
    # G12 expects 0.5 + 40/100 of him (the cap), he scored 1.
    assert "results against grades: 60 games" in output
    assert re.search(r"50\+ +60 +0\.900 +1\.000 +0\.100", output), output


def test_report_attention_names_the_unanchored_pool_and_the_zero(tmp_path: Path) -> None:
    output = season_report(tmp_path, "attention")
    unanchored = output.split("unanchored (G11): 2")[1].split("published at 0 (G21): 1")[0]
    assert ["Doe, Jane" in unanchored, "Roe, Rita" in unanchored] == [True, True]
    assert "start 0.0 (estimated)" in unanchored  # G11: a closed pool's mean is 0
    assert "233310H Zero, Zak: grade 0X, 30 games (30 counted), start 6.0 (previous)" in output


def test_report_received_lists_the_seasons_event_with_its_graded_games(tmp_path: Path) -> None:
    graded_season(tmp_path)
    code, output = invoke("report", "received", "--season", "2013")
    assert code == 0
    assert "season 2012-07-01..2013-06-30: 1" in output  # the 2013-07 lists' period (G32)
    assert (
        "XX12345 Anytown Congress (Congress, standard), 2013-05-11..2013-05-12: "
        "61 games graded, submission 1"
    ) in output
    code, output = invoke("report", "received", "--season", "2012")
    assert (code, output.splitlines()[0].endswith(": 0")) == (0, True)


def test_lists_export_writes_the_published_list_as_csv(tmp_path: Path) -> None:
    graded_season(tmp_path)
    out = tmp_path / "grades201307.csv"
    code, _ = invoke("lists", "export", "--list", "2013-07", "--format", "csv", "--out", str(out))
    assert code == 0
    rows = {row["Ref"]: row for row in csv.DictReader(io.StringIO(out.read_text()))}
    assert sorted(rows) == ["102807J", "155624B", "233310H", "261619B"]  # Doe, Roe: no category
    bloggs = rows["261619B"]
    assert [bloggs[k] for k in ("Name", "Cat", "Grade", "Grade1", "Games", "ClubNam1")] == [
        "Bloggs, Joe",
        "X",
        "160",
        "150",
        "30",
        "Walsall",
    ]
    assert [rows[ref]["Grade"] for ref in ("155624B", "102807J", "233310H")] == ["90", "56", "0"]


def test_lists_export_writes_the_published_list_as_xlsx(tmp_path: Path) -> None:
    graded_season(tmp_path)
    out = tmp_path / "grades201307.xlsx"
    code, _ = invoke("lists", "export", "--list", "2013-07", "--format", "xlsx", "--out", str(out))
    assert code == 0
    sheet = openpyxl.load_workbook(out, read_only=True)["2013-07"]
    header, *rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert header[:20] == LIST_2012.splitlines()[0].split(",")
    assert header[20:] == ["GamesLatest", "RGamesLatest"]  # then the latest games (G24)
    # A read-only sheet's row ends at its last filled cell (a blank RGamesLatest is none).
    padded = [[*row, *[None] * (len(header) - len(row))] for row in rows]
    by_ref = {row[0]: dict(zip(header, row, strict=True)) for row in padded}
    assert sorted(by_ref) == ["102807J", "155624B", "233310H", "261619B"]
    smith = by_ref["155624B"]
    assert [smith[k] for k in ("Name", "Sex", "Cat", "Grade", "Grade1", "Games")] == [
        "Smith, Jane",
        "F",
        "X",
        90,  # numbers as numbers
        100,
        30,
    ]
    assert (by_ref["261619B"]["Grade"], by_ref["233310H"]["Grade"]) == (160, 0)


# -- the identification queue, merges and events --------------------------------------------

NAMESAKES_2012 = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
    '261619B,"Bloggs, Joe",M,,A,150,148,30,,,,,Walsall,,,,,,,ENG\n'
    '233310H,"Smith, John",M,,A,120,118,30,,,,,Anytown,,,,,,,ENG\n'
    '102807J,"Smith, John",M,,A,100,104,30,,,,,Otherton,,,,,,,ENG\n'
)

SMITH_OF_NEWTOWN = "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown"  # no code, a club neither is in
SMITHS = (102807, 233310, 300001, 300002)  # four records of one name, merged in pairs


def load_list(tmp_path: Path, text: str, list_id: str = "2013-01") -> None:
    start = tmp_path / "start.csv"
    start.write_text(text)
    code, output = invoke("lists", "import", str(start), "--list", list_id, "--rate", "standard")
    assert code == 0, output


def test_identify_lists_a_doubtful_player_with_his_candidates(tmp_path: Path) -> None:
    load_list(tmp_path, NAMESAKES_2012)
    results = tmp_path / "open.txt"
    results.write_bytes(results_file([PLAYERS[0], SMITH_OF_NEWTOWN], GAMES))
    assert invoke("results", "import", str(results))[0] == 0
    case = PendingIdentification.objects.get()

    code, output = invoke("identify", "list")
    assert code == 0
    lines = output.splitlines()
    assert lines[0] == f"case {case.id}: Smith, John (PIN 2, Newtown) in {results}, 2 games waiting"
    candidates = sorted(line.split("  score")[0].strip() for line in lines[1:3])
    assert candidates == ["102807J Smith, John", "233310H Smith, John"]
    assert lines[3] == "1 open cases"


def test_identify_resolve_gives_the_waiting_games_to_the_chosen_player(tmp_path: Path) -> None:
    load_list(tmp_path, NAMESAKES_2012)
    results = tmp_path / "open.txt"
    results.write_bytes(results_file([PLAYERS[0], SMITH_OF_NEWTOWN], GAMES))
    invoke("results", "import", str(results))
    case = PendingIdentification.objects.get()

    code, output = invoke("identify", "resolve", str(case.id), "--code", "102807J")
    assert (code, output.strip()) == (
        0,
        f"case {case.id}: 102807J Smith, John; its games now count for him",
    )
    assert invoke("identify", "list")[1].strip() == "0 open cases"
    chosen = Player.objects.get(code=102807)
    assert Game.objects.filter(Q(player1=chosen) | Q(player2=chosen)).count() == 2
    # Graded, both games count for him (start 100, Bloggs counted as 140 by G12) and
    # none for his namesake.
    invoke("grade", "--list", "2013-07", "--rate", "standard")
    invoke("publish", "--list", "2013-07", "--rate", "standard", "--version", "initial")
    code, output = invoke("player", "102807J", "--list", "2013-07")
    assert code == 0
    assert "Smith, John 102807J  standard list 2013-07" in output
    assert len([line for line in output.splitlines() if "Bloggs, Joe 261619B" in line]) == 2
    code, output = invoke("player", "233310H", "--list", "2013-07")
    assert (code, "has no grade in list 2013-07" in output) == (1, True)
    code, output = invoke("identify", "resolve", str(case.id), "--new")
    assert (code, f"case {case.id} was already decided (linked)" in output) == (1, True)


def test_merge_makes_the_absorbed_code_resolve_to_the_survivor(tmp_path: Path) -> None:
    load_list(tmp_path, NAMESAKES_2012)
    code, output = invoke("merge", "102807J", "--into", "233310H")
    assert (code, output.strip()) == (
        0,
        "102807J is now part of 233310H Smith, John; grade again to see it",
    )
    survivor = Player.objects.get(code=233310)
    assert resolve_code("102807J") == survivor
    assert AuditLog.objects.filter(action="merge players").count() == 1
    code, output = invoke("player", "102807J")  # the survivor's grade, 120, not 100
    assert code == 0
    assert "Smith, John 233310H  standard list 2013-01" in output
    assert "Grade 120, category A, games 30" in output
    code, output = invoke("merge", "102807J", "--into", "233310H")
    assert (code, "expected two different players, got 233310H twice" in output) == (1, True)


def test_a_merge_from_the_cli_shows_on_the_amendments_page_as_one_from_the_back_office() -> None:
    smiths = [Player.objects.create(code=n, surname="Smith", forenames="John") for n in SMITHS]
    cli_gone, cli_kept, office_gone, office_kept = (p.ref for p in smiths)
    team = create_user("tess", role=Role.TEAM, email="tess@team.example", password="x" * 20)
    office = Client()
    office.force_login(team)

    assert invoke("merge", cli_gone, "--into", cli_kept, "--why", "one person")[0] == 0
    done = office.post(
        reverse("backoffice:team_merge"),
        {"absorbed": office_gone, "into": office_kept, "why": "one person"},
    )

    assert done.status_code == 302
    office_row, cli_row = Client().get("/amendments/", {"format": "json"}).json()["amendments"]
    assert cli_row["what"] == f"Smith, John ({cli_gone}) merged into Smith, John ({cli_kept})"
    as_cli = json.dumps(office_row).replace(office_gone, cli_gone).replace(office_kept, cli_kept)
    assert json.loads(as_cli) == cli_row
    page = Client().get("/amendments/").content.decode()
    assert page.count("merged into Smith, John") == 2


def test_a_merge_without_a_reason_gives_the_usual_one_on_the_amendments_page() -> None:
    gone, kept = (
        Player.objects.create(code=n, surname="Smith", forenames="John") for n in SMITHS[:2]
    )

    assert invoke("merge", gone.ref, "--into", kept.ref)[0] == 0

    (row,) = Client().get("/amendments/", {"format": "json"}).json()["amendments"]
    assert (row["why"], row["player"]["code"]) == ("two records of the same player", kept.ref)


def test_events_register_puts_the_event_on_record_and_on_the_chase_list() -> None:
    code, output = invoke(
        "events", "register", "leag01", "--name", "Anytown League", "--kind", "league",
        "--rate", "standard", "--start", "2012-09-01", "--end", "2013-04-30",
        "--deadline", "2013-05-31", "--officer", "A N Grader",
    )  # fmt: skip
    assert (code, output.strip()) == (0, "registered LEAG01 Anytown League")
    event = Event.objects.get()
    assert (event.code, event.kind, event.rate, event.status) == (
        "LEAG01",
        "league",
        "standard",
        "registered",
    )
    assert (event.start_date, event.end_date, event.results_deadline) == (
        date(2012, 9, 1),
        date(2013, 4, 30),
        date(2013, 5, 31),
    )
    code, output = invoke("report", "overdue", "--today", "2013-07-01")
    assert code == 0
    # 1 July is 31 days after 31 May.
    assert (
        "  31 days  LEAG01 Anytown League (League), ended 2013-04-30, due 2013-05-31; "
        "officer A N Grader"
    ) in output
    code, output = invoke("report", "overdue", "--today", "2013-05-31")
    assert output.splitlines()[0] == "Results overdue on 2013-05-31: 0 events"


# -- the error contract ---------------------------------------------------------------------


def test_a_users_mistake_is_one_clean_error_line_and_exit_1() -> None:
    result = CliRunner().invoke(main, ["identify", "resolve", "999", "--new"])
    assert (result.exit_code, type(result.exception)) == (1, SystemExit)
    assert result.output == "Error: expected the number of an open identification case, got 999\n"


def test_a_taken_event_code_is_refused_with_exit_1() -> None:
    register = ("events", "register", "LEAG01", "--name", "League", "--rate", "standard")
    dates = ("--start", "2012-09-01", "--end", "2013-04-30")
    assert invoke(*register, *dates)[0] == 0
    code, output = invoke(*register, *dates)
    assert (code, output) == (
        1,
        "Error: expected a new event code, got 'LEAG01': it is on record\n",
    )


@pytest.mark.parametrize(
    "command",
    [
        ("grade", "--list", "2010-13", "--rate", "standard"),
        ("publish", "--list", "2010-13", "--rate", "standard", "--version", "initial"),
        ("lists", "export", "--list", "2010-13"),
        ("player", "261619B", "--list", "2010-13"),
        ("report", "jumps", "--list", "2010-13", "--rate", "standard"),
        ("report", "attention", "--list", "2010-13", "--rate", "rapid"),
        ("assign", "261619B", "--rate", "standard", "--from", "2010-13", "--grade", "100"),
    ],
    ids=lambda command: command[0] if command[0] != "report" else "report-" + command[1],
)
def test_a_list_that_cannot_exist_is_a_users_mistake(command: tuple[str, ...]) -> None:
    if command[0] == "assign":
        Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    # The parser's own message, which says what was expected, reaches the user.
    expected = "Error: expected a list such as 2010-07 or 2011-01, got '2010-13'\n"
    assert invoke(*command) == (1, expected)


def test_a_bug_in_a_service_is_not_dressed_up_as_a_users_mistake(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only a ServiceError is a user's mistake; a bare ValueError is a bug and escapes."""

    def broken(season: int) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr("ecfgrading.lookups.reports.events_received", broken)
    result = CliRunner().invoke(main, ["report", "received", "--season", "2013"])
    assert isinstance(result.exception, ValueError)
    assert "Error:" not in result.output


# -- a database that is not there (issue 8, item 8) ------------------------------------------
# Real processes: the settings are read once per process, from the environment.

ECFGRADING = Path(sys.executable).with_name("ecfgrading")


def run_cli(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`ecfgrading` in a home of its own; DATABASE_URL only if given."""
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "ECFGRADING_HOME")}
    environment = {**base, "ECFGRADING_HOME": str(tmp_path / "home"), **env}
    return subprocess.run(
        [str(ECFGRADING), *args], env=environment, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "command",
    [
        ("player", "261619B"),
        ("grade", "--list", "2013-07", "--rate", "standard"),
        ("identify", "list"),
    ],
    ids=lambda command: command[0],
)
def test_a_home_never_initialised_says_run_init_and_leaves_no_database_file(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    ran = run_cli(tmp_path, *command)

    database = tmp_path / "home" / "ecfgrading.sqlite3"
    assert (ran.returncode, ran.stdout, ran.stderr) == (
        1,
        "",
        f"Error: no database here: run `ecfgrading init` (expected the SQLite file {database})\n",
    )
    assert not database.exists()


def test_a_database_file_without_tables_says_run_init(tmp_path: Path) -> None:
    database = tmp_path / "home" / "ecfgrading.sqlite3"
    database.parent.mkdir()
    database.touch()  # what an earlier version left behind

    ran = run_cli(tmp_path, "player", "261619B")

    assert (ran.returncode, ran.stderr) == (
        1,
        f"Error: no database here: run `ecfgrading init` (the SQLite file {database} "
        "holds no tables)\n",
    )


def test_a_database_behind_its_migrations_says_run_init(tmp_path: Path) -> None:
    assert run_cli(tmp_path, "init").returncode == 0
    database = tmp_path / "home" / "ecfgrading.sqlite3"
    with sqlite3.connect(database) as db:  # as if the program were upgraded since
        db.execute("DELETE FROM django_migrations WHERE app = 'registry'")

    ran = run_cli(tmp_path, "player", "261619B")

    assert (ran.returncode, ran.stderr) == (
        1,
        "Error: the database needs migrating: run `ecfgrading init` "
        f"(the SQLite file {database})\n",
    )


URL_FORMS = "postgres://user@host:5432/name or sqlite:////absolute/path/file.sqlite3"


@pytest.mark.parametrize(
    ("url", "shown", "reason"),
    [
        ("nonsense", "nonsense", "its scheme is neither postgres nor sqlite"),
        (
            "postgres://host:notaport/x",
            "postgres://host:notaport/x",
            "it is not a URL (a port is a number up to 65535; %-quote special characters)",
        ),
        ("postgres://me:secret@host:99999/x", "postgres://me:***@host:99999/x", "it is not a URL"),
        ("mysql://host/x", "mysql://host/x", "only PostgreSQL and SQLite are supported"),
        ("postgres://host:5432", "postgres://host:5432", "it names no database"),
    ],
)
def test_a_malformed_database_url_is_a_message_not_a_traceback(
    tmp_path: Path, url: str, shown: str, reason: str
) -> None:
    ran = run_cli(tmp_path, "player", "261619B", DATABASE_URL=url)

    assert ran.returncode == 2  # a setting the environment gets wrong, as any other
    assert ran.stderr.startswith(
        f"Error: expected DATABASE_URL such as {URL_FORMS}, got {shown!r}: {reason}"
    ), ran.stderr
    assert "secret" not in ran.stderr


@pytest.mark.parametrize("command", [("init",), ("demo", "--fresh")], ids=" ".join)
def test_the_commands_that_make_a_database_refuse_a_malformed_url_too(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    ran = run_cli(tmp_path, *command, DATABASE_URL="nonsense")

    assert (ran.returncode, ran.stderr) == (
        2,
        f"Error: expected DATABASE_URL such as {URL_FORMS}, got 'nonsense': "
        "its scheme is neither postgres nor sqlite\n",
    )


def test_a_server_that_does_not_answer_names_database_url_and_what_to_check(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgres://postgres:secret@127.0.0.1:{port}/ecfgrading"

    ran = run_cli(tmp_path, "identify", "list", DATABASE_URL=url)

    assert ran.returncode == 1
    assert ran.stderr.startswith(
        f"Error: cannot connect to the PostgreSQL database 'ecfgrading' on 127.0.0.1:{port}, "
        "which DATABASE_URL names (Connection refused"
    ), ran.stderr
    assert ran.stderr.endswith(
        "check DATABASE_URL, that the server is running there and that the database exists "
        "(`createdb ecfgrading`, then run `ecfgrading init`)\n"
    )
    assert "secret" not in ran.stderr


@pytest.mark.postgresql
def test_a_database_missing_on_a_running_server_says_to_create_it(tmp_path: Path) -> None:
    server = urlsplit(os.environ["DATABASE_URL"])
    url = urlunsplit(server._replace(path="/h7_no_such_database"))

    for command in (("init",), ("player", "261619B")):
        ran = run_cli(tmp_path, *command, DATABASE_URL=url)
        assert ran.returncode == 1
        assert ran.stderr.startswith("Error: cannot connect to the PostgreSQL database ")
        assert 'which DATABASE_URL names (database "h7_no_such_database" does not exist)' in (
            ran.stderr
        )
        assert "(`createdb h7_no_such_database`, then run `ecfgrading init`)" in ran.stderr


def test_lists_export_into_a_missing_folder_is_refused_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "folder" / "list.csv"

    code, output = invoke("lists", "export", "--list", "2013-07", "--out", str(out))

    assert code == 2
    assert output.endswith(
        f"Error: Invalid value for '--out': folder {out.parent} does not exist: create it first\n"
    )
    assert not (tmp_path / "no").exists()
