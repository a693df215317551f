"""Grading runs: compute a draft version, publish it, explain a stored grade, and assign
starting grades (G6).

Public surface:

- ``compute_version(list_id, rate, version, actor=)`` -> GradingRun (a draft)
- ``publish_version(list_id, rate, version, actor=)`` -> the published ListVersion
- ``breakdowns(code, list_id)`` / ``explain_entry(entry)``: how a stored grade was made
- ``assign_starting_grade(code, rate, valid_from=, grade= | fide=)``
"""

from ecfgrading.lookups.explain import breakdowns, explain_entry
from ecfgrading.services.grading.assignments import assign_starting_grade
from ecfgrading.services.grading.compute import GradingRun, compute_version, publish_version

__all__ = [
    "GradingRun",
    "assign_starting_grade",
    "breakdowns",
    "compute_version",
    "explain_entry",
    "publish_version",
]
