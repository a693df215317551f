"""Starting grades assigned by the grading team (G6), the latest first, as its page lists
them. Assigning one is ``services.grading.assignments``, through
``services.team.assignments``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ecfgrading.registry.models import StartingGradeAssignment

SHOWN = 100  # the latest ones; older assignments are in the audit log


@dataclass(frozen=True)
class AssignmentRow:
    code: str
    name: str
    rate: str
    grade: float
    reason: str
    valid_from: str
    by: str
    at: datetime


def latest(limit: int = SHOWN) -> list[AssignmentRow]:
    rows = StartingGradeAssignment.objects.select_related("player", "created_by").order_by(
        "-created_at", "-id"
    )[:limit]
    return [
        AssignmentRow(
            a.player.ref,
            a.player.name,
            a.rate,
            a.grade,
            a.reason,
            a.valid_from,
            a.created_by.get_username() if a.created_by else "",
            a.created_at,
        )
        for a in rows
    ]
