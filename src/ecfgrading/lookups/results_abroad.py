"""Results of events played abroad, reported by direct members (issue 11, item 4), as
the member sees them on his page and the grading team lists them: oldest pending first,
with each decision and its note.

Building, checking, submitting and deciding them is ``services.abroad``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ecfgrading.errors import NotFound
from ecfgrading.registry.models import DirectMember, ForeignResult


@dataclass(frozen=True)
class AbroadRow:
    id: int
    member: str  # 'Surname, Forenames (number)'
    player_code: str
    event_name: str
    country: str
    start: dt.date
    end: dt.date
    status: str
    status_words: str
    submitted_at: dt.datetime
    decided_at: dt.datetime | None
    note: str
    submission_id: int | None


def abroad_row(result: ForeignResult) -> AbroadRow:
    """One result from abroad as a list shows it (its member read with it)."""
    member = result.member
    return AbroadRow(
        id=result.pk,
        member=f"{member.player.name} ({member.number})",
        player_code=member.player.ref,
        event_name=result.event_name,
        country=result.country,
        start=result.start_date,
        end=result.end_date,
        status=result.status,
        status_words=result.get_status_display(),
        submitted_at=result.submitted_at,
        decided_at=result.decided_at,
        note=result.decision_note,
        submission_id=result.submission_id,
    )


def members_results(member: DirectMember) -> list[AbroadRow]:
    """A member's own results from abroad, latest first."""
    rows = ForeignResult.objects.filter(member=member).select_related("member__player")
    return [abroad_row(r) for r in rows]


def results_for_team(*, status: str = "pending") -> list[AbroadRow]:
    """Results from abroad in one status (pending first of all), oldest first."""
    rows = (
        ForeignResult.objects.filter(status=status)
        .select_related("member__player")
        .order_by("submitted_at", "id")
    )
    return [abroad_row(r) for r in rows]


def result_abroad(result_id: int) -> ForeignResult:
    """The result from abroad numbered ``result_id``, with its member; NotFound else."""
    result = ForeignResult.objects.select_related("member__player").filter(pk=result_id).first()
    if result is None:
        raise NotFound(f"expected results from abroad on record, got number {result_id}")
    return result
