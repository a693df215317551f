"""The audit log's before and after (issue 24, case 6): assigning a query stored them as
bare strings, and /backoffice/audit/ answered 500 on every page holding such an entry.
The write now stores fields; the page shows entries already stored as strings."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from ecfgrading.registry.models import AuditLog, Feedback
from tests.backoffice.conftest import signed_in

pytestmark = pytest.mark.django_db

URL = "/backoffice/audit/"


def query() -> Feedback:
    return Feedback.objects.create(ref="FB-AUDIT001", kind="other", message="Why?")


def test_assigning_a_query_stores_who_and_its_status_before_and_after_as_fields(
    team: Any,
) -> None:
    """Issue 24, case 6: fields, not a bare user name."""
    feedback = query()
    client = signed_in(team)

    client.post(reverse("backoffice:team_query_assign", args=[feedback.ref]), {"member": team.id})

    entry = AuditLog.objects.get(action="feedback.assigned")
    assert entry.details["before"] == {"assigned_to": "", "status": "open"}
    assert entry.details["after"] == {"assigned_to": "tess", "status": "in-progress"}
    page = client.get(URL)
    assert page.status_code == 200
    text = page.content.decode()
    assert '<span class="field">assigned_to</span>' in text
    assert "<ins>tess</ins>" in text


def test_the_audit_page_shows_entries_stored_with_bare_values(team: Any) -> None:
    """Issue 24, case 6: such entries exist in real databases; each value is shown as one
    field, and every filter's page still answers."""
    feedback = query()
    for before, after in (("", "tess"), ("tess", "")):
        AuditLog.record(
            "feedback.assigned", feedback, user=team, ref=feedback.ref, before=before, after=after
        )
    client = signed_in(team)

    for filters in ({}, {"person": "tess"}, {"page": "1"}):
        page = client.get(URL, filters)
        assert page.status_code == 200, filters
    text = client.get(URL).content.decode()
    assert '<span class="field">value</span>: <del>(none)</del> → <ins>tess</ins>' in text
    assert '<span class="field">value</span>: <del>tess</del> → <ins>(none)</ins>' in text


def test_a_lone_before_that_is_no_row_is_shown_as_a_detail(team: Any) -> None:
    """Issue 24, case 6: the games mailing records its cut-off date as ``before``, with
    no ``after``: a detail, not a change of a row."""
    AuditLog.record("queue members' games mailing", user=team, list="2016-01", before="2015-12-01")

    page = signed_in(team).get(URL)

    assert page.status_code == 200
    text = page.content.decode()
    assert "<li>before: 2015-12-01</li>" in text
    assert '<span class="field">' not in text
