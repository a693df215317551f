"""A grading officer's events as the back office shows them: his events with their
status and deadline, the events a FIDE report may be sent for, and the accepted
results file of one, byte for byte.

An officer sees only the events he registered or was assigned
(``Event.grading_officer``); the grading team sees every event. Another officer's event
is "not found", so that guessed ids tell nothing. Registering an event and sending a
file are ``services.officers``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Q

from ecfgrading.errors import NotFound
from ecfgrading.lookups.roles import Role, has_role
from ecfgrading.registry.models import Event, Submission


@dataclass(frozen=True)
class OfficerEvent:
    """One line of an officer's dashboard."""

    id: int
    code: str
    name: str
    kind: str
    rate: str
    start: dt.date
    end: dt.date
    deadline: dt.date | None
    status: str
    overdue: bool
    accepted_submission: int | None


@dataclass(frozen=True)
class ResultsDownload:
    filename: str
    data: bytes


def events_of(user: Any) -> Q:
    """The events a user may see: all for the grading team, his own for an officer."""
    if has_role(user, Role.TEAM):
        return Q()
    if has_role(user, Role.OFFICER):
        return Q(grading_officer=user)
    return Q(pk__in=[])


def officer_events(user: Any, *, today: dt.date) -> list[OfficerEvent]:
    """The user's events, latest first, with status, deadline and the accepted file."""
    rows = (
        Event.objects.filter(events_of(user))
        .annotate(accepted=Max("submissions__id", filter=Q(submissions__status="accepted")))
        .order_by("-end_date", "code")
    )
    return [
        OfficerEvent(
            id=e.id,
            code=e.code,
            name=e.name,
            kind=e.get_kind_display(),
            rate=e.rate,
            start=e.start_date,
            end=e.end_date,
            deadline=e.results_deadline,
            status=e.get_status_display(),
            overdue=(
                e.status == Event.Status.REGISTERED
                and e.results_deadline is not None
                and e.results_deadline < today
            ),
            accepted_submission=e.accepted,
        )
        for e in rows
    ]


def upload_events(user: Any, *, limit: int = 300) -> list[tuple[str, str]]:
    """(code, "code name") of the events a TRF may be sent for: the officer's own, or
    for the grading team the latest ``limit``; latest first."""
    rows = Event.objects.filter(events_of(user)).order_by("-end_date", "code")[:limit]
    return [(e.code, f"{e.code} {e.name}") for e in rows]


def accepted_file(user: Any, event_id: int) -> ResultsDownload:
    """The accepted results file of one of the user's events, byte for byte."""
    event = Event.objects.filter(events_of(user), pk=event_id).first()
    if event is None:
        raise NotFound(f"expected one of your events, got event {event_id}")
    submission = (
        Submission.objects.filter(event=event, status=Submission.Status.ACCEPTED)
        .order_by("-id")
        .first()
    )
    if submission is None:
        raise NotFound(f"expected accepted results for {event.code}, got none yet")
    return ResultsDownload(f"{event.code}.txt", bytes(submission.raw))
