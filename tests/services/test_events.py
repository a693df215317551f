"""Registered events: expected, received, chased."""

from __future__ import annotations

from datetime import date

import pytest

from ecfgrading.engine import Rate
from ecfgrading.lookups.reports import events_overdue
from ecfgrading.registry.models import Event
from ecfgrading.services.events import EventError, register_event
from ecfgrading.services.results.ingest import import_results
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

PLAYERS = [
    "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall",
    "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown",
]
GAMES = ["#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013"]


def register(code: str, deadline: date) -> Event:
    return register_event(
        code,
        name=f"Event {code}",
        kind="junior",
        rate=Rate.STANDARD,
        start=date(2013, 5, 11),
        end=date(2013, 5, 12),
        deadline=deadline,
    )


def test_a_registered_event_is_chased_until_its_results_arrive() -> None:
    register("XX12345", deadline=date(2013, 6, 12))
    register("YY1", deadline=date(2013, 6, 12))
    overdue = events_overdue(date(2013, 6, 14))
    assert [(e.code, e.days_overdue) for e in overdue.events] == [("XX12345", 2), ("YY1", 2)]
    import_results(results_file(PLAYERS, GAMES), filename="x.txt")
    assert [e.code for e in events_overdue(date(2013, 6, 14)).events] == ["YY1"]
    received = Event.objects.get(code="XX12345")
    assert (received.kind, received.status) == ("junior", "received")  # the kind is kept


def test_registration_refuses_a_taken_code_and_bad_dates() -> None:
    register("XX12345", deadline=date(2013, 6, 12))
    with pytest.raises(EventError, match="is on record"):
        register("XX12345", deadline=date(2013, 6, 12))
    with pytest.raises(EventError, match="results deadline on or after 2013-05-12"):
        register("ZZ1", deadline=date(2013, 5, 1))
