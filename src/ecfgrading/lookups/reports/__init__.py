"""Reports for the grading team's checks before and after a list is published.

The grading help's "Checking of Grading Data": overdue results are chased (a), events
received are listed (c), large jumps are investigated (d) and the list's integrity is
checked statistically (e). Each report is a frozen value with ``to_text`` and a
JSON-ready ``as_dict``; every query is a bulk one, never one per player.
"""

from ecfgrading.lookups.reports.attention import (
    AttentionPlayer,
    AttentionReport,
    unanchored_and_zero,
)
from ecfgrading.lookups.reports.common import VersionError
from ecfgrading.lookups.reports.events import (
    OverdueEvent,
    OverdueReport,
    ReceivedEvent,
    ReceivedReport,
    events_overdue,
    events_received,
)
from ecfgrading.lookups.reports.grade_stats import (
    AgreementBand,
    AgreementParams,
    Distribution,
    HistogramBand,
    expected_score,
)
from ecfgrading.lookups.reports.integrity import IntegrityReport, integrity
from ecfgrading.lookups.reports.jumps import GAMES_LIMIT, Jump, JumpGame, JumpsReport, large_jumps

__all__ = [
    "GAMES_LIMIT",
    "AgreementBand",
    "AgreementParams",
    "AttentionPlayer",
    "AttentionReport",
    "Distribution",
    "HistogramBand",
    "IntegrityReport",
    "Jump",
    "JumpGame",
    "JumpsReport",
    "OverdueEvent",
    "OverdueReport",
    "ReceivedEvent",
    "ReceivedReport",
    "VersionError",
    "events_overdue",
    "events_received",
    "expected_score",
    "integrity",
    "large_jumps",
    "unanchored_and_zero",
]
