"""Chasing an overdue event (grading help: checking, item a): an e-mail to its officer,
kept as a ``ChaseRecord``. The chase list is ``lookups.chases``."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction

from ecfgrading.lookups.chases import officer_address
from ecfgrading.lookups.reports import OverdueEvent, events_overdue
from ecfgrading.registry.models import AuditLog, ChaseRecord, Event
from ecfgrading.services.errors import Conflict, NotFound
from ecfgrading.services.mail import queue_mail


def chase(event_id: int, *, today: date, user: Any) -> ChaseRecord:
    """Queue a reminder to the event's officer (kind "chase") and record the chase."""
    overdue = {e.code: e for e in events_overdue(today).events}
    event = Event.objects.select_related("grading_officer").filter(id=event_id).first()
    if event is None:
        raise NotFound(f"expected an event on the chase list, got event {event_id}")
    late = overdue.get(event.code)
    if late is None:
        raise Conflict(f"{event.code} is not overdue on {today:%-d %B %Y}: nothing to chase")
    address = officer_address(event)
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
