"""The chase list: events whose results are overdue (grading help: checking, item a),
each with its officer and the chases made so far, and the chases on record. Chasing an
officer is ``services.team.chasing``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, Max

from ecfgrading.lookups.reports import OverdueEvent, events_overdue
from ecfgrading.registry.models import ChaseRecord, Event

RECORDS_SHOWN = 50


@dataclass(frozen=True)
class ChaseRow:
    """An overdue event as the chase list shows it."""

    id: int
    overdue: OverdueEvent
    address: bool  # whether the officer has an e-mail address to chase
    chases: int
    last_chase: datetime | None


@dataclass(frozen=True)
class ChaseLine:
    """One chase on record."""

    event: str
    event_name: str
    at: datetime
    by: str
    to: str
    mail_status: str


def chase_list(today: date) -> list[ChaseRow]:
    """Overdue events, oldest deadline first, with the chases made so far."""
    overdue = events_overdue(today).events
    found = (
        Event.objects.filter(code__in=[e.code for e in overdue])
        .select_related("grading_officer")
        .annotate(chases_made=Count("chases"), last_chase=Max("chases__chased_at"))
    )
    events = {e.code: e for e in found}
    return [_row(events[e.code], e) for e in overdue]


def chases(limit: int = RECORDS_SHOWN) -> list[ChaseLine]:
    rows = ChaseRecord.objects.select_related("event", "chased_by", "message")[:limit]
    return [
        ChaseLine(
            r.event.code,
            r.event.name,
            r.chased_at,
            r.chased_by.get_username() if r.chased_by else "",
            r.message.to if r.message else "",
            r.message.get_status_display() if r.message else "not mailed",
        )
        for r in rows
    ]


def officer_address(event: Event) -> str:
    """The e-mail address of the event's officer, "" when there is none to chase."""
    officer = event.grading_officer
    return officer.email if officer is not None and officer.email else ""


def _row(event: Event, late: OverdueEvent) -> ChaseRow:
    return ChaseRow(
        event.id,
        late,
        bool(officer_address(event)),
        event.chases_made,  # type: ignore[attr-defined]  # annotated above
        event.last_chase,  # type: ignore[attr-defined]
    )
