"""Chasing an officer is previewed, then sent once (issue 24, case 14: a double click on
the Chase button sent two reminders).

The Chase link opens a confirm page showing the reminder and its address; its button
posts the page's one-time key, and the same key sends once however often it is posted,
one after the other or at the same moment (PostgreSQL, threads with connections of their
own)."""

from __future__ import annotations

import datetime as dt
import re
import threading
from typing import Any

import pytest
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from ecfgrading.registry.models import AuditLog, ChaseRecord, Event, OutboxMessage
from ecfgrading.services.team import chasing
from tests.backoffice.conftest import signed_in


def late_event(officer: Any) -> Event:
    today = timezone.localdate()
    return Event.objects.create(
        code="LATE1",
        name="Late Congress",
        rate="standard",
        start_date=today - dt.timedelta(days=40),
        end_date=today - dt.timedelta(days=39),
        results_deadline=today - dt.timedelta(days=11),
        grading_officer=officer,
    )


def url(event: Event) -> str:
    return reverse("backoffice:team_chase_event", kwargs={"event_id": event.id})


def key_on(page: str) -> str:
    found = re.search(r'name="key" value="([^"]+)"', page)
    assert found is not None, page
    return found[1]


@pytest.mark.django_db
def test_the_chase_button_shows_who_gets_what_and_sends_nothing(team: Any, officer: Any) -> None:
    """Issue 24, case 14: the confirm step. On the code before, the chase list's button
    posted at once and the page did not exist (405)."""
    event = late_event(officer)
    client = signed_in(team)
    listed = client.get(reverse("backoffice:team_chase")).content.decode()
    assert f'href="{url(event)}"' in listed

    page = client.get(url(event))

    shown = page.content.decode()
    assert page.status_code == 200
    assert "A reminder is e-mailed to olga@club.example" in shown
    assert "Results overdue: LATE1 Late Congress" in shown
    assert "(11 days overdue)" in shown
    assert not OutboxMessage.objects.exists() and not ChaseRecord.objects.exists()


@pytest.mark.django_db
def test_a_confirm_page_posted_twice_sends_one_reminder(team: Any, officer: Any) -> None:
    """Issue 24, case 14: a double click. On the code before, two posts queued two mails."""
    event = late_event(officer)
    client = signed_in(team)
    key = key_on(client.get(url(event)).content.decode())

    first = client.post(url(event), {"key": key}, follow=True)
    second = client.post(url(event), {"key": key}, follow=True)

    assert "Chased LATE1: a reminder is queued for olga@club.example." in first.content.decode()
    assert "LATE1 was already chased from that page: sent once." in second.content.decode()
    assert OutboxMessage.objects.filter(kind="chase").count() == 1
    assert ChaseRecord.objects.count() == 1
    assert AuditLog.objects.filter(action="chase").count() == 1


@pytest.mark.django_db
def test_two_confirm_pages_are_two_chases(team: Any, officer: Any) -> None:
    """A second chase made on purpose (a week later, say) is a new page and a new key."""
    event = late_event(officer)
    client = signed_in(team)
    for _ in range(2):
        client.post(url(event), {"key": key_on(client.get(url(event)).content.decode())})

    assert ChaseRecord.objects.count() == 2
    assert "chased 2 times before" in client.get(url(event)).content.decode()


@pytest.mark.django_db
def test_a_chase_posted_without_the_confirm_pages_key_sends_nothing(
    team: Any, officer: Any
) -> None:
    """Issue 24, case 14: only the confirm page's button chases; a bare post says why."""
    event = late_event(officer)

    response = signed_in(team).post(url(event), {"key": ""}, follow=True)

    shown = response.content.decode()
    assert "Not chased: expected the one-time key of a chase&#x27;s confirm page" in shown
    assert not OutboxMessage.objects.exists() and not ChaseRecord.objects.exists()


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_one_key_posted_at_the_same_moment_sends_once(team: Any, officer: Any) -> None:
    """Issue 24, case 14: the double click's two requests arrive together."""
    event = late_event(officer)
    key = chasing.new_key()
    start = threading.Barrier(4)
    results: list[Any] = []

    def click() -> None:
        try:
            start.wait()
            today = timezone.localdate()
            results.append(chasing.chase(event.id, today=today, user=team, key=key))
        except Exception as error:  # shown by the assertion
            results.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=click) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert all(isinstance(r, chasing.Chased) for r in results), results
    assert sorted(r.repeated for r in results) == [False, True, True, True]
    assert OutboxMessage.objects.filter(kind="chase").count() == 1
    assert ChaseRecord.objects.count() == 1
