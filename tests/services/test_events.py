"""Registered events: expected, received, chased."""

from __future__ import annotations

from datetime import date

import pytest

from ecfgrading.engine import Rate
from ecfgrading.lookups.reports import events_overdue
from ecfgrading.registry.models import AuditLog, Event
from ecfgrading.services.events import EventError, register_event, register_events
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


def unsaved(code: str, end: date = date(2013, 5, 12)) -> Event:
    return Event(
        code=code, name=f"Event {code}", kind="league", rate="standard",
        start_date=date(2013, 5, 11), end_date=end, results_deadline=date(2013, 6, 12),
    )  # fmt: skip


def test_events_registered_in_bulk_are_each_audited_as_one_registered_alone() -> None:
    register("XX12345", deadline=date(2013, 6, 12))

    made = register_events([unsaved(" yy1 "), unsaved("ZZ2")], actor="calendar")

    assert [e.code for e in made] == ["YY1", "ZZ2"]
    entries = AuditLog.objects.filter(action="register event").order_by("id")
    assert [(a.actor, a.object_id, a.details["event"]) for a in entries] == [
        ("registration", str(Event.objects.get(code="XX12345").pk), "XX12345"),
        ("calendar", str(made[0].pk), "YY1"),
        ("calendar", str(made[1].pk), "ZZ2"),
    ]
    assert entries[2].details["after"] == {
        "name": "Event ZZ2", "kind": "league", "rate": "standard", "start_date": "2013-05-11",
        "end_date": "2013-05-12", "results_deadline": "2013-06-12", "status": "registered",
    }  # fmt: skip


def test_a_bulk_registration_with_one_bad_event_registers_none() -> None:
    register("XX12345", deadline=date(2013, 6, 12))
    with pytest.raises(EventError, match="'XX12345': it is on record"):
        register_events([unsaved("YY1"), unsaved("XX12345")])
    with pytest.raises(EventError, match="'YY1' twice"):
        register_events([unsaved("YY1"), unsaved("yy1")])
    with pytest.raises(EventError, match="last day on or after 2013-05-11"):
        register_events([unsaved("YY1"), unsaved("ZZ2", end=date(2013, 5, 1))])

    assert list(Event.objects.values_list("code", flat=True)) == ["XX12345"]
