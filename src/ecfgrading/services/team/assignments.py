"""Starting grades assigned by the grading team (G6), in the back office: a FIDE rating's
conversion (G29, G30) shown before it is saved, and the save. The latest assignments as
listed are ``lookups.assignments``.

An assigned grade is used only failing G4 and G5 (G6): an adult graded in the previous
list of the rate, or in the other rate's, starts from that grade whatever is assigned.
The preview and the save say so (``Proposed.unused``) rather than refuse: the team may
still want it on record (say, before a revision removes that grade; issue 24, case 14).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecfgrading.engine import ListId, Rate
from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.periods import junior_age
from ecfgrading.lookups.versions import published
from ecfgrading.registry.models import ListEntry, Player, StartingGradeAssignment
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
    unused: str = ""  # why G4 or G5 wins over it for that list (G6), if one does

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
    unused = unused_because(player, ListId.parse(valid_from), rate)
    return Proposed(
        player.ref, player.name, rate, valid_from, checked.grade, fide, checked.reason, unused
    )


def unused_because(player: Player, list_id: ListId, rate: Rate) -> str:
    """Why an assigned grade would not be the player's starting grade in the list, in
    words ("" when it would be): an adult with a grade above zero in the previous list of
    the rate (G4) or of the other rate (G5) starts from it; a junior never does (G7)."""
    if junior_age(player.date_of_birth, list_id, rules_for(list_id)) is not None:
        return ""
    sources = (
        ("G4", list_id.previous_same_rate(rate), rate),
        ("G5", list_id.previous_other_rate(rate), rate.other),
    )
    for rule, source, source_rate in sources:
        grade = _grade_in(player, source, source_rate)
        if grade:
            return (
                f"it will not be used: {player.name} is an adult graded {grade} in the "
                f"{source_rate} list {source}, which is his starting grade in {rate} "
                f"{list_id} ({rule}); an assigned grade counts only for a player with no "
                f"such grade (G6)"
            )
    return ""


def _grade_in(player: Player, list_id: ListId, rate: Rate) -> int | None:
    """The player's published grade in the list's current version (None: none)."""
    version = published(list_id, rate)
    if version is None:
        return None
    entry = ListEntry.objects.filter(version=version, player=player, published=True)
    return entry.values_list("grade", flat=True).first()


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
