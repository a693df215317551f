"""Events as the grading team corrects them (issue 24, case 5): found by code or name,
one with what a correction must know (its accepted games, its officer), and the grading
officers it may be given to. The corrections themselves are ``services.events``."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q

from ecfgrading.errors import NotFound
from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import Event, Game, Submission

MAX_FOUND = 50


@dataclass(frozen=True)
class TeamEvent:
    """One event as its correction page shows it."""

    id: int
    code: str
    name: str
    kind: str
    rate: str
    start: dt.date
    end: dt.date
    deadline: dt.date | None
    officer_name: str
    officer: str  # the grading officer's username, '' for none
    officer_id: int | None
    status: str
    status_words: str
    withdrawn_reason: str
    accepted_games: int
    submissions: int

    @property
    def withdrawn(self) -> bool:
        return self.status == Event.Status.WITHDRAWN


def find_events(text: str) -> list[TeamEvent]:
    """Events whose code starts with ``text`` or whose name holds it, latest first."""
    wanted = text.strip()
    if not wanted:
        rows = Event.objects.all()
    else:
        rows = Event.objects.filter(Q(code__istartswith=wanted) | Q(name__icontains=wanted))
    found = rows.select_related("grading_officer").order_by("-end_date", "code")[:MAX_FOUND]
    return _rows(list(found))


def team_event(event_id: int) -> TeamEvent:
    """The event numbered ``event_id``; NotFound else."""
    event = Event.objects.select_related("grading_officer").filter(pk=event_id).first()
    if event is None:
        raise NotFound(f"expected an event on record, got number {event_id}")
    return _rows([event])[0]


def grading_officers() -> list[Any]:
    """Logins in the grading officers' role, by username: those an event may be given to."""
    users = get_user_model().objects.filter(groups__name=Role.OFFICER.value, is_active=True)
    return list(users.order_by("username"))


def _rows(events: list[Event]) -> list[TeamEvent]:
    ids = [e.pk for e in events]
    accepted = Submission.Status.ACCEPTED
    games = dict(
        Game.objects.filter(event_id__in=ids, submission__status=accepted)
        .values_list("event_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    sent = dict(
        Submission.objects.filter(event_id__in=ids)
        .values_list("event_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return [_row(e, games.get(e.pk, 0), sent.get(e.pk, 0)) for e in events]


def _row(event: Event, games: int, submissions: int) -> TeamEvent:
    officer = event.grading_officer
    return TeamEvent(
        id=event.pk,
        code=event.code,
        name=event.name,
        kind=event.get_kind_display(),
        rate=event.rate,
        start=event.start_date,
        end=event.end_date,
        deadline=event.results_deadline,
        officer_name=event.officer_name,
        officer=officer.get_username() if officer is not None else "",
        officer_id=officer.pk if officer is not None else None,
        status=event.status,
        status_words=event.get_status_display(),
        withdrawn_reason=event.withdrawn_reason,
        accepted_games=games,
        submissions=submissions,
    )
