"""Starting grades assigned by the grading team (G6), e.g. converted from FIDE (G30)."""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction

from ecfgrading.engine import ListId, Rate, fide_to_ecf
from ecfgrading.registry.models import AuditLog, Player, StartingGradeAssignment
from ecfgrading.registry.numbering import player_on_record
from ecfgrading.services.errors import ServiceError, user_input

MAX_GRADE = 400  # ECF 400 is FIDE 3850: above anything real
# A FIDE rating to convert (G29): FIDE's rating floor has never been below 1000, and no
# one has been rated 3000. Checked before converting, so the message is about the rating.
FIDE_RATINGS = range(1000, 3001)


class AssignmentError(ServiceError):
    """An assignment that cannot be made: unknown player, no grade, bad list."""


def assign_starting_grade(
    code: str,
    rate: Rate,
    *,
    valid_from: str,
    grade: float | None = None,
    fide: int | None = None,
    reason: str = "",
    user: Any = None,
    actor: str = "",
) -> StartingGradeAssignment:
    """Give a player a starting grade from list ``valid_from`` on (G6); FIDE via G29/G30."""
    if (grade is None) == (fide is None):
        raise AssignmentError("expected either a grade or a FIDE rating, not both or neither")
    with user_input(AssignmentError):
        ListId.parse(valid_from)
    player = _player(code)
    if fide is not None:
        grade, reason = from_fide(fide), reason or f"FIDE {fide}"  # G30
    assert grade is not None
    if not math.isfinite(grade) or not 0 <= grade <= MAX_GRADE:
        raise AssignmentError(f"expected a grade from 0 to {MAX_GRADE}, got {grade:g}")
    with transaction.atomic():
        assignment = StartingGradeAssignment.objects.create(
            player=player,
            rate=rate.value,
            grade=grade,
            reason=reason or "assigned by the grading team",
            valid_from=valid_from,
            created_by=user,
        )
        AuditLog.record("assign starting grade", assignment, user=user, actor=actor, grade=grade)
    return assignment


def from_fide(rating: int) -> float:
    """A FIDE rating as an ECF grade (G29, G30); the back office shows it before saving."""
    if rating not in FIDE_RATINGS:
        first, last = FIDE_RATINGS[0], FIDE_RATINGS[-1]
        raise AssignmentError(f"expected a FIDE rating from {first} to {last}, got {rating}")
    return fide_to_ecf(rating)


def _player(code: str) -> Player:
    return player_on_record(code, AssignmentError)
