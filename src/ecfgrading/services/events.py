"""Registering events before their results arrive, so that late results can be chased."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import IntegrityError, transaction

from ecfgrading.engine.types import Rate
from ecfgrading.registry.models import AuditLog, Event
from ecfgrading.services.audit import EVENT_FIELDS, snapshot
from ecfgrading.services.errors import ErrorKind, ServiceError


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
    if kind not in Event.Kind.values:
        raise EventError(f"expected a kind of {', '.join(Event.Kind.values)}, got {kind!r}")
    if end < start:
        raise EventError(f"expected the last day on or after {start}, got {end}")
    if deadline is not None and deadline < end:
        raise EventError(f"expected a results deadline on or after {end}, got {deadline}")
    try:
        with transaction.atomic():
            event = Event.objects.create(
                code=code.strip().upper(),
                name=name,
                kind=kind,
                rate=rate.value,
                start_date=start,
                end_date=end,
                results_deadline=deadline,
                officer_name=officer,
            )
            AuditLog.record(
                "register event",
                event,
                user=user,
                actor=actor or "registration",
                event=event.code,
                after=snapshot(event, EVENT_FIELDS),
            )
    except IntegrityError:
        raise EventError(
            f"expected a new event code, got {code!r}: it is on record", kind=ErrorKind.CONFLICT
        ) from None
    return event
