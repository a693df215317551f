"""Starting grades assigned by the grading team (G6), in the back office: a FIDE rating's
conversion (G29, G30) shown before it is saved, and the save. The latest assignments as
listed are ``lookups.assignments``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecfgrading.engine import Rate
from ecfgrading.registry.models import StartingGradeAssignment
from ecfgrading.services.grading.assignments import (
    FIDE_RATINGS,
    AssignmentError,
    assign_starting_grade,
    check_assignment,
    fide_formula,
)


@dataclass(frozen=True)
class Proposed:
    """An assignment as it will be saved: the grade a FIDE rating converts to (G30)."""

    code: str
    name: str
    rate: Rate
    valid_from: str
    grade: float
    fide: int | None
    reason: str

    @property
    def words(self) -> str:
        start = f"a starting {self.rate} grade of {self.grade:.1f}"
        if self.fide is None:
            return f"{self.name} ({self.code}) is given {start} from list {self.valid_from} (G6)."
        return (
            f"{self.name} ({self.code}) is given {start} from list {self.valid_from}: "
            f"FIDE {self.fide} converted by G29, {fide_formula(self.fide)} (G30)."
        )


def propose(
    code: str,
    rate: Rate,
    *,
    valid_from: str,
    grade: float | None = None,
    fide: int | None = None,
    reason: str = "",
) -> Proposed:
    """What ``assign`` would save, by the checks the save makes, without saving it."""
    checked = check_assignment(code, valid_from=valid_from, grade=grade, fide=fide, reason=reason)
    player = checked.player
    return Proposed(player.ref, player.name, rate, valid_from, checked.grade, fide, checked.reason)


def assign(proposed: Proposed, *, user: Any) -> StartingGradeAssignment:
    """Save it through the assignments service (which checks and audits it)."""
    if proposed.fide is not None:
        return assign_starting_grade(
            proposed.code,
            proposed.rate,
            valid_from=proposed.valid_from,
            fide=proposed.fide,
            reason=proposed.reason,
            user=user,
        )
    return assign_starting_grade(
        proposed.code,
        proposed.rate,
        valid_from=proposed.valid_from,
        grade=proposed.grade,
        reason=proposed.reason,
        user=user,
    )


__all__ = [
    "FIDE_RATINGS",
    "AssignmentError",
    "Proposed",
    "assign",
    "fide_formula",
]
