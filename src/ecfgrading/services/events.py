"""Registering events before their results arrive, so that late results can be chased;
and the grading team's corrections of an event (issue 24, case 5): edit, withdraw,
reassign to another grading officer, each audited with the fields before and after.

An event that holds accepted games keeps its rate (its games were graded at it) and
cannot be withdrawn: its games would be left graded under an event that is not. Correct
them first (a later submission, or the team's corrections of games)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db import IntegrityError, transaction

from ecfgrading.engine.types import Rate
from ecfgrading.formats.event_codes import ABROAD_PREFIX, event_code_problem, is_abroad_code
from ecfgrading.lookups.roles import Role, has_role
from ecfgrading.registry.bulk import IN_CHUNK
from ecfgrading.registry.models import AuditLog, Event, Game, Submission
from ecfgrading.services.audit import EVENT_FIELDS, record_change, snapshot
from ecfgrading.services.errors import Conflict, ErrorKind, NotFound, ServiceError

# What the team may correct of an event, as the audit entry shows it before and after.
EDITED_FIELDS = ("name", "rate", "start_date", "end_date", "results_deadline", "officer_name")


class EventError(ServiceError):
    """An event that cannot be registered: a code taken, dates out of order."""


def register_event(
    code: str,
    *,
    name: str,
    kind: str,
    rate: Rate,
    start: date,
    end: date,
    deadline: date | None = None,
    officer: str = "",
    user: Any = None,
    actor: str = "",
) -> Event:
    """An event registered with the federation (FAQ: events register by paying a fee).

    Its results file later fills in the time control and moves it to 'received'.
    """
    event = Event(
        code=code,
        name=name,
        kind=kind,
        rate=rate.value,
        start_date=start,
        end_date=end,
        results_deadline=deadline,
        officer_name=officer,
    )
    (registered,) = register_events([event], user=user, actor=actor)
    return registered


def register_events(events: Iterable[Event], *, user: Any = None, actor: str = "") -> list[Event]:
    """Events registered in bulk (unsaved rows, as ``register_event`` makes one; the
    demo's organisers register thousands), each checked and audited as that registers
    one, in one transaction: all are registered, or none."""
    made = list(events)
    for event in made:
        _check_code(event.code)
        event.code = event.code.strip().upper()
        if event.kind not in Event.Kind.values:
            kinds = ", ".join(Event.Kind.values)
            raise EventError(f"expected a kind of {kinds}, got {event.kind!r}")
        _check_dates(event.start_date, event.end_date, event.results_deadline)
    try:
        with transaction.atomic():
            _new_codes(made)
            Event.objects.bulk_create(made, batch_size=2000)
            AuditLog.objects.bulk_create(
                (
                    AuditLog(
                        action="register event",
                        user=user,
                        actor=actor or "registration",
                        object_type=event._meta.label_lower,
                        object_id=str(event.pk),
                        details={"event": event.code, "after": snapshot(event, EVENT_FIELDS)},
                    )
                    for event in made
                ),
                batch_size=2000,
            )
    except IntegrityError:  # registered meanwhile by someone else
        codes = ", ".join(repr(event.code) for event in made[:3])
        raise EventError(
            f"expected new event codes, got {codes}: one is on record", kind=ErrorKind.CONFLICT
        ) from None
    return made


def _new_codes(events: list[Event]) -> None:
    """Every code new: on record by no event, given once."""
    codes = [event.code for event in events]
    seen: set[str] = set()
    for code in codes:
        if code in seen:
            raise EventError(f"expected each event code once, got {code!r} twice")
        seen.add(code)
    for start in range(0, len(codes), IN_CHUNK):
        taken = Event.objects.filter(code__in=codes[start : start + IN_CHUNK])
        if code := taken.values_list("code", flat=True).first():
            raise EventError(
                f"expected a new event code, got {code!r}: it is on record",
                kind=ErrorKind.CONFLICT,
            )


def _check_code(code: str) -> None:
    """The federation's pattern (formats.event_codes), and not a code of events abroad."""
    if problem := event_code_problem(code):
        raise EventError(problem)
    if is_abroad_code(code):
        raise EventError(
            f"expected a code not beginning {ABROAD_PREFIX} and digits (kept for direct"
            f" members' events abroad), got {code.strip()!r}"
        )


def _check_dates(start: date, end: date, deadline: date | None) -> None:
    if end < start:
        raise EventError(f"expected the last day on or after {start}, got {end}")
    if deadline is not None and deadline < end:
        raise EventError(f"expected a results deadline on or after {end}, got {deadline}")


# --- the grading team's corrections -----------------------------------------------------


def event_on_record(event_id: int) -> Event:
    """The event numbered ``event_id``, locked for a correction; NotFound else."""
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise NotFound(f"expected an event on record, got number {event_id}")
    return event


def accepted_games(event: Event) -> int:
    """Games of the event's accepted submission(s): those a list may grade."""
    accepted = Submission.Status.ACCEPTED
    return Game.objects.filter(event=event, submission__status=accepted).count()


def _not_withdrawn(event: Event) -> None:
    if event.status == Event.Status.WITHDRAWN:
        raise Conflict(f"expected an event not withdrawn, got {event.code}, withdrawn")


def edit_event(
    event_id: int,
    *,
    name: str,
    rate: Rate,
    start: date,
    end: date,
    deadline: date | None,
    officer_name: str,
    user: Any,
) -> Event:
    """Correct an event's name, rate, dates, deadline and officer's name, audited."""
    with transaction.atomic():
        event = event_on_record(event_id)
        _not_withdrawn(event)
        if not name.strip():
            raise EventError("expected the event's name, got nothing")
        _check_dates(start, end, deadline)
        if rate.value != event.rate and (games := accepted_games(event)):
            raise Conflict(
                f"expected an event without accepted games to change its rate, got {games}"
                f" accepted games at {event.rate} in {event.code}: correct its results first"
            )
        before = snapshot(event, EDITED_FIELDS)
        event.name, event.rate, event.officer_name = name.strip(), rate.value, officer_name.strip()
        event.start_date, event.end_date, event.results_deadline = start, end, deadline
        event.save()
        after = snapshot(event, EDITED_FIELDS)
        record_change("edit event", event, before=before, after=after, user=user, event=event.code)
    return event


def withdraw_event(event_id: int, *, reason: str, user: Any) -> Event:
    """Withdraw an event that holds no accepted games, with the reason, audited: it is
    no longer chased nor offered to its officer; its files stay on record."""
    if not reason.strip():
        raise EventError("expected a reason for withdrawing the event, got nothing")
    with transaction.atomic():
        event = event_on_record(event_id)
        _not_withdrawn(event)
        if games := accepted_games(event):
            raise Conflict(
                f"expected an event without accepted games, got {games} in {event.code}:"
                " its games would stay graded; correct its results first"
            )
        before = snapshot(event, ("status", "withdrawn_reason"))
        event.status, event.withdrawn_reason = Event.Status.WITHDRAWN, reason.strip()
        event.save(update_fields=["status", "withdrawn_reason", "updated_at"])
        after = snapshot(event, ("status", "withdrawn_reason"))
        record_change(
            "withdraw event", event, before=before, after=after, user=user, event=event.code
        )
    return event


def reassign_event(event_id: int, *, officer: Any, user: Any) -> Event:
    """Give the event to another grading officer (or to none), audited by username."""
    if officer is not None and not has_role(officer, Role.OFFICER):
        raise EventError(f"expected a grading officer, got {officer.get_username()!r}")
    with transaction.atomic():
        event = event_on_record(event_id)
        _not_withdrawn(event)
        before = {"grading_officer": _username(event.grading_officer)}
        event.grading_officer = officer
        event.save(update_fields=["grading_officer", "updated_at"])
        after = {"grading_officer": _username(officer)}
        record_change(
            "reassign event", event, before=before, after=after, user=user, event=event.code
        )
    return event


def _username(user: Any) -> str:
    return user.get_username() if user is not None else ""
