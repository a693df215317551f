"""The ECF results file (results-file.md, section 1): read, check and write.

The pieces live in ``results_*`` modules; this is the public face.
"""

from __future__ import annotations

from ecfgrading.formats.problems import PROBLEM_CODES, Problem, ProblemKind, Problems, Severity
from ecfgrading.formats.results_checks import code_of_another_player, stale_submission_index
from ecfgrading.formats.results_model import (
    Colour,
    EventDetails,
    GameResult,
    PartKind,
    PlayerEntry,
    ResultsFile,
    ResultsPart,
    WhiteOn,
)
from ecfgrading.formats.results_reader import (
    Reading,
    parse_results,
    read_results,
    read_results_bytes,
)
from ecfgrading.formats.results_writer import write_results

__all__ = [
    "PROBLEM_CODES",
    "Colour",
    "EventDetails",
    "GameResult",
    "PartKind",
    "PlayerEntry",
    "Problem",
    "ProblemKind",
    "Problems",
    "Reading",
    "ResultsFile",
    "ResultsPart",
    "Severity",
    "WhiteOn",
    "code_of_another_player",
    "parse_results",
    "read_results",
    "read_results_bytes",
    "stale_submission_index",
    "write_results",
]
