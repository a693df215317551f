"""The chase list: events whose results are overdue (grading help: checking, item a),
each with its officer and its last chase, and the chase itself: an e-mail to the
officer, kept as a ``ChaseRecord``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.db.models import Count, Max

from ecfgrading.lookups.reports import OverdueEvent, events_overdue
from ecfgrading.registry.models import AuditLog, ChaseRecord, Event
from ecfgrading.services.errors import Conflict, NotFound
from ecfgrading.services.mail import queue_mail

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


def chase(event_id: int, *, today: date, user: Any) -> ChaseRecord:
    """Queue a reminder to the event's officer (kind "chase") and record the chase."""
    overdue = {e.code: e for e in events_overdue(today).events}
    event = Event.objects.select_related("grading_officer").filter(id=event_id).first()
    if event is None:
        raise NotFound(f"expected an event on the chase list, got event {event_id}")
    late = overdue.get(event.code)
    if late is None:
        raise Conflict(f"{event.code} is not overdue on {today:%-d %B %Y}: nothing to chase")
    address = _address(event)
    if not address:
        raise Conflict(f"{event.code}'s officer has no e-mail address: chase him another way")
    with transaction.atomic():
        message = queue_mail("chase", address, *_reminder(late))
        record = ChaseRecord.objects.create(event=event, chased_by=user, message=message)
        AuditLog.record("chase", event, user=user, code=event.code, to=address)
    return record


def _reminder(late: OverdueEvent) -> tuple[str, str]:
    subject = f"Results overdue: {late.code} {late.name}"
    text = (
        f"Dear {late.officer or 'grading officer'},\n\n"
        f"The results of {late.code} {late.name}, which ended on {late.end_date:%-d %B %Y}, "
        f"were due by {late.deadline:%-d %B %Y} and have not reached the grading team "
        f"({late.days_overdue} days overdue).\n\n"
        "Please send the results file through the back office (Send a results file), or "
        "tell us if the event was not played or is not to be graded.\n\n"
        "The grading team\n"
    )
    return subject, text


def _address(event: Event) -> str:
    officer = event.grading_officer
    return officer.email if officer is not None and officer.email else ""


def _row(event: Event, late: OverdueEvent) -> ChaseRow:
    return ChaseRow(
        event.id,
        late,
        bool(_address(event)),
        event.chases_made,  # type: ignore[attr-defined]  # annotated above
        event.last_chase,  # type: ignore[attr-defined]
    )
