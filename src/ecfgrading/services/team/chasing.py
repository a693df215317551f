"""Chasing an overdue event (grading help: checking, item a): an e-mail to its officer,
kept as a ``ChaseRecord``. The chase list is ``lookups.chases``.

A chase is previewed first (``preview``: who gets what) and sent with the one-time key
of that preview (``new_key``): the same key sends once, however often it is posted (a
double click sent two reminders; issue 24, case 14)."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction

from ecfgrading.lookups.chases import officer_address
from ecfgrading.lookups.reports import OverdueEvent, events_overdue
from ecfgrading.registry.models import AuditLog, ChaseRecord, Event
from ecfgrading.services.errors import Conflict, NotFound, ServiceError
from ecfgrading.services.mail import queue_mail

_KEY = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


@dataclass(frozen=True)
class ChasePreview:
    """The reminder a chase would queue, and to whom."""

    event: Event
    to: str
    subject: str
    text: str
    chases: int  # chases of the event already on record


@dataclass(frozen=True)
class Chased:
    """A chase on record; ``repeated`` when its key had already sent it (nothing new)."""

    record: ChaseRecord
    repeated: bool


def new_key() -> str:
    """A one-time key for one preview's Chase button."""
    return secrets.token_urlsafe(24)


def preview(event_id: int, *, today: date) -> ChasePreview:
    """What chasing the event would send; NotFound or Conflict as ``chase`` would."""
    event, late, address = _chaseable(event_id, today)
    subject, text = _reminder(late)
    return ChasePreview(event, address, subject, text, event.chases.count())


def chase(event_id: int, *, today: date, user: Any, key: str) -> Chased:
    """Queue a reminder to the event's officer (kind "chase") and record the chase, once
    per ``key``: posted again with it, the chase already made is returned."""
    if not _KEY.match(key or ""):
        shown = f"{key[:20]!r}" if key else "none"
        raise ServiceError(
            f"expected the one-time key of a chase's confirm page, got {shown}: open the "
            "event's Chase page and confirm there"
        )
    with transaction.atomic():
        # One chase at a time per event: a second post with the key waits, then finds it.
        Event.objects.select_for_update().filter(id=event_id).first()
        done = ChaseRecord.objects.filter(event_id=event_id, message__key=_mail_key(key))
        if (record := done.select_related("event", "message").first()) is not None:
            return Chased(record, repeated=True)
        event, late, address = _chaseable(event_id, today)
        message = queue_mail("chase", address, *_reminder(late), key=_mail_key(key))
        record = ChaseRecord.objects.create(event=event, chased_by=user, message=message)
        AuditLog.record("chase", event, user=user, code=event.code, to=address)
    return Chased(record, repeated=False)


def _mail_key(key: str) -> str:
    return f"chase:{key}"


def _chaseable(event_id: int, today: date) -> tuple[Event, OverdueEvent, str]:
    """The event, its lateness and its officer's address; refused unless it can be chased."""
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
    return event, late, address


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
