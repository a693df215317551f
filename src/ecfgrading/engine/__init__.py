"""The pure grading engine: the rules of grading-rules.md, no Django, no I/O.

Imports only the standard library, numpy and scipy.
"""

from ecfgrading.engine.codes import GradingCode, InvalidCode, check_letter, is_valid_code, next_code
from ecfgrading.engine.compute import compute_list
from ecfgrading.engine.conversions import (
    ecf_to_fide,
    ecf_to_national_elo,
    fide_to_ecf,
    national_elo_to_ecf,
)
from ecfgrading.engine.explain import Explanation, explain, format_explanation
from ecfgrading.engine.inputs import (
    GameTable,
    History,
    ListInputs,
    PlayerTable,
    StoredGames,
    StoredTotals,
)
from ecfgrading.engine.outcome import Entry, ListOutcome
from ecfgrading.engine.periods import ListId, Period
from ecfgrading.engine.rateplay import Session, TimeControl, rate_of_play
from ecfgrading.engine.rules import ECF_2009, RuleSet
from ecfgrading.engine.types import Category, Flag, NotGraded, Rate, ResultCode, StartSource

__all__ = [
    "ECF_2009",
    "Category",
    "Entry",
    "Explanation",
    "Flag",
    "GameTable",
    "GradingCode",
    "History",
    "InvalidCode",
    "ListId",
    "ListInputs",
    "ListOutcome",
    "NotGraded",
    "Period",
    "PlayerTable",
    "Rate",
    "ResultCode",
    "RuleSet",
    "Session",
    "StartSource",
    "StoredGames",
    "StoredTotals",
    "TimeControl",
    "check_letter",
    "compute_list",
    "ecf_to_fide",
    "ecf_to_national_elo",
    "explain",
    "fide_to_ecf",
    "format_explanation",
    "is_valid_code",
    "national_elo_to_ecf",
    "next_code",
    "rate_of_play",
]
