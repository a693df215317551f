"""Text <-> domain values: the ECF results file and the grading-list CSV.

Pure: no Django, no database; readers take text handles (or bytes) and collect every
problem with its line number instead of raising.
"""

from ecfgrading.formats.gradelist import (
    GradeList,
    GradeListRow,
    RateGrade,
    parse_grade_list,
    read_grade_list,
    read_grade_list_bytes,
    write_grade_list,
)
from ecfgrading.formats.problems import PROBLEM_CODES, Problem, ProblemKind, Problems
from ecfgrading.formats.results import (
    Colour,
    EventDetails,
    GameResult,
    PartKind,
    PlayerEntry,
    ResultsFile,
    ResultsPart,
    WhiteOn,
    code_of_another_player,
    parse_results,
    read_results,
    read_results_bytes,
    stale_submission_index,
    write_results,
)

__all__ = [
    "PROBLEM_CODES",
    "Colour",
    "EventDetails",
    "GameResult",
    "GradeList",
    "GradeListRow",
    "PartKind",
    "PlayerEntry",
    "Problem",
    "ProblemKind",
    "Problems",
    "RateGrade",
    "ResultsFile",
    "ResultsPart",
    "WhiteOn",
    "code_of_another_player",
    "parse_grade_list",
    "parse_results",
    "read_grade_list",
    "read_grade_list_bytes",
    "read_results",
    "read_results_bytes",
    "stale_submission_index",
    "write_grade_list",
    "write_results",
]
