"""The import report as a dict: what dataclasses.asdict makes of it, made quicker."""

from __future__ import annotations

import json
from dataclasses import asdict, replace

from ecfgrading.formats.problems import Problem
from ecfgrading.lookups.identification import Candidate
from ecfgrading.services.results.import_report import (
    ImportReport,
    NewPlayer,
    RememberedPlayer,
    WaitingPlayer,
)


def a_full_report() -> ImportReport:
    later = Problem.make("bad-club-code", 40, "CLUB CODE", "four characters", "ABCDE")
    earlier = Problem.make("missing-name", 12, "NAME", "a name", "")
    return ImportReport(
        "season.txt",
        event_code="AB12345",
        event_name="Anytown League",
        submission_id=7,
        submission_index=2,
        accepted=True,
        problems=(later, earlier),
        graded={"S": 120, "R": 3},
        not_graded={"default": 2},
        waiting=4,
        linked=30,
        new_players=(NewPlayer(3, "Newman, Ned", "123456A", False),),
        pending=(WaitingPlayer(5, "Doubt, Dan", 4, (Candidate(9, "234567B", "Doubt, D", 70),)),),
        superseded_games=11,
        remembered=(RememberedPlayer(6, "Smyth, J", "345678C", "Smith, John", "01/02/2010"),),
    )


def test_the_dict_is_asdict_with_the_problems_by_line_and_ok() -> None:
    report = a_full_report()
    expected = asdict(replace(report, problems=()))
    expected["problems"] = [asdict(p) for p in (report.problems[1], report.problems[0])]
    expected["ok"] = False  # a set with no name is an error of the file
    assert report.as_dict() == expected
    assert json.dumps(report.as_dict(), default=str) == json.dumps(expected, default=str)


def test_the_dict_shares_nothing_mutable_with_the_report() -> None:
    report = a_full_report()
    made = report.as_dict()
    made["graded"]["S"] = 0
    made["pending"][0]["candidates"][0]["score"] = 0
    assert report.graded["S"] == 120
    assert report.pending[0].candidates[0].score == 70
