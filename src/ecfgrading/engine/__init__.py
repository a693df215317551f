"""The pure grading engine: the rules of grading-rules.md, no Django, no I/O.

Imports only the standard library, numpy and scipy.

Names are loaded when first used (PEP 562), so that importing one small module such
as ``engine.types`` (the registry's choices do) does not load NumPy and SciPy: the CLI
starts in a fraction of the time. The function ``explain`` is not among them: a name
equal to a submodule's would be replaced by the submodule once that is imported; import
it from ``ecfgrading.engine.explain``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ecfgrading.engine.codes import (
        GradingCode,
        InvalidCode,
        check_letter,
        is_valid_code,
        next_code,
    )
    from ecfgrading.engine.compute import compute_list
    from ecfgrading.engine.conversions import (
        ecf_to_fide,
        ecf_to_national_elo,
        fide_to_ecf,
        national_elo_to_ecf,
    )
    from ecfgrading.engine.eras import rules_for
    from ecfgrading.engine.explain import Explanation, format_explanation
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
    from ecfgrading.engine.rules import ECF_2009, ECF_2012, ECF_2015, RuleSet
    from ecfgrading.engine.types import Category, Flag, NotGraded, Rate, ResultCode, StartSource

# name -> the module of this package that defines it
_HOME = {
    "Category": "types",
    "ECF_2009": "rules",
    "ECF_2012": "rules",
    "ECF_2015": "rules",
    "Entry": "outcome",
    "Explanation": "explain",
    "Flag": "types",
    "GameTable": "inputs",
    "GradingCode": "codes",
    "History": "inputs",
    "InvalidCode": "codes",
    "ListId": "periods",
    "ListInputs": "inputs",
    "ListOutcome": "outcome",
    "NotGraded": "types",
    "Period": "periods",
    "PlayerTable": "inputs",
    "Rate": "types",
    "ResultCode": "types",
    "RuleSet": "rules",
    "Session": "rateplay",
    "StartSource": "types",
    "StoredGames": "inputs",
    "StoredTotals": "inputs",
    "TimeControl": "rateplay",
    "check_letter": "codes",
    "compute_list": "compute",
    "ecf_to_fide": "conversions",
    "ecf_to_national_elo": "conversions",
    "fide_to_ecf": "conversions",
    "format_explanation": "explain",
    "is_valid_code": "codes",
    "national_elo_to_ecf": "conversions",
    "next_code": "codes",
    "rate_of_play": "rateplay",
    "rules_for": "eras",
}

__all__ = [
    "ECF_2009",
    "ECF_2012",
    "ECF_2015",
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
    "fide_to_ecf",
    "format_explanation",
    "is_valid_code",
    "national_elo_to_ecf",
    "next_code",
    "rate_of_play",
    "rules_for",
]


def __getattr__(name: str) -> object:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # once loaded, an ordinary attribute
    return value
