"""Starting grades assigned by the grading team (G6), e.g. converted from FIDE (G30)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from ecfgrading.engine import ECF_2009, ListId, Rate, fide_to_ecf
from ecfgrading.formats.values import MAX_GRADE
from ecfgrading.registry.models import AuditLog, Player, StartingGradeAssignment
from ecfgrading.registry.numbering import player_on_record
from ecfgrading.services.errors import ServiceError, user_input

# A FIDE rating to convert (G29): FIDE's rating floor has never been below 1000, and no
# one has been rated 3000. Checked before converting, so the message is about the rating.
FIDE_RATINGS = range(1000, 3001)
# G29/G30: the rule set whose conversion a FIDE rating is assigned by, as lists are computed.
RULES = ECF_2009


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
    checked = check_assignment(code, valid_from=valid_from, grade=grade, fide=fide, reason=reason)
    with transaction.atomic():
        assignment = StartingGradeAssignment.objects.create(
            player=checked.player,
            rate=rate.value,
            grade=checked.grade,
            reason=checked.reason or "assigned by the grading team",
            valid_from=valid_from,
            created_by=user,
        )
        AuditLog.record(
            "assign starting grade", assignment, user=user, actor=actor, grade=checked.grade
        )
    return assignment


@dataclass(frozen=True)
class Checked:
    """An assignment that passed the checks: the player, and the grade a FIDE rating
    converts to (G30) with the reason that says so."""

    player: Player
    grade: float
    reason: str


def check_assignment(
    code: str,
    *,
    valid_from: str,
    grade: float | None = None,
    fide: int | None = None,
    reason: str = "",
) -> Checked:
    """Every check of an assignment (G6; G29/G30 for a FIDE rating), made alike by the
    back office's preview, the save and the CLI; AssignmentError says what was expected."""
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
    return Checked(player, grade, reason)


def from_fide(rating: int) -> float:
    """A FIDE rating as an ECF grade (G29, G30); the back office shows it before saving."""
    if rating not in FIDE_RATINGS:
        first, last = FIDE_RATINGS[0], FIDE_RATINGS[-1]
        raise AssignmentError(f"expected a FIDE rating from {first} to {last}, got {rating}")
    return fide_to_ecf(rating, RULES)


def fide_formula(rating: int | str = "FIDE") -> str:
    """G29's conversion in the rule set's numbers, as the team reads it: (FIDE - 650) / 8."""
    return f"({rating} - {RULES.fide_offset:g}) / {RULES.elo_factor:g}"


def _player(code: str) -> Player:
    return player_on_record(code, AssignmentError)
