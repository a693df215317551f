"""Grading runs: compute a draft version, publish it, and assign starting grades (G6).
How a stored grade was made is read by ``lookups.explain``.

Public surface:
- ``compute_version(list_id, rate, version, actor=)`` -> GradingRun (a draft)
- ``publish_version(list_id, rate, version, actor=)`` -> the published ListVersion
- ``assign_starting_grade(code, rate, valid_from=, grade= | fide=)``
"""

from ecfgrading.services.grading.assignments import assign_starting_grade
from ecfgrading.services.grading.compute import GradingRun, compute_version, publish_version

__all__ = ["GradingRun", "assign_starting_grade", "compute_version", "publish_version"]
