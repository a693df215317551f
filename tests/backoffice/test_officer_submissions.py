"""An officer's page of the files he has sent (issue 24, case 14: officers could not see
their rejected or earlier submissions): accepted, rejected with the reasons, superseded,
newest first, a page at a time, and never another officer's."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from ecfgrading.registry.models import Event, Submission
from tests.backoffice.conftest import signed_in

pytestmark = pytest.mark.django_db

WRONG_SCORE = "expected SCORE 10, 01, 55, 1d, d1 or dd, got '1-0' (line 14)"


def event(code: str, officer: Any) -> Event:
    return Event.objects.create(
        code=code,
        name=f"{code} Congress",
        rate="standard",
        start_date=dt.date(2013, 5, 1),
        end_date=dt.date(2013, 5, 2),
        grading_officer=officer,
    )


def sent(
    sender: Any, filename: str, status: str, *, minutes: int, index: int | None = 1, **more: Any
) -> Submission:
    """A file sent ``minutes`` after a fixed morning, with its status and report."""
    raw = f"#EVENT CODE={filename}\n".encode()
    return Submission.objects.create(
        sender=sender,
        filename=filename,
        raw=raw,
        sha256=hashlib.sha256(raw).hexdigest(),
        received_at=timezone.make_aware(dt.datetime(2013, 6, 1, 9)) + dt.timedelta(minutes=minutes),
        status=status,
        submission_index=index,
        **more,
    )


def problem(severity: str, message: str) -> dict[str, Any]:
    return {"code": "x", "severity": severity, "line": 14, "message": message}


@pytest.fixture
def files(officer: Any, other_officer: Any) -> dict[str, Submission]:
    spring = event("SPRING1", officer)
    report = {"problems": [problem("error", WRONG_SCORE), problem("warning", "a name spelt")]}
    return {
        "first": sent(officer, "spring-1.txt", "superseded", minutes=1, event=spring),
        "rejected": sent(
            officer, "spring-2.txt", "rejected", minutes=2, event_code="SPRING1", report=report
        ),
        "second": sent(officer, "spring-3.txt", "accepted", minutes=3, index=2, event=spring),
        "oscars": sent(other_officer, "oscars-own.txt", "rejected", minutes=4, report=report),
    }


def test_an_officer_sees_his_files_newest_first_with_the_reasons_of_a_rejection(
    officer: Any, files: dict[str, Submission]
) -> None:
    """Issue 24, case 14. On the code before, the page did not exist (no URL)."""
    page = signed_in(officer).get(reverse("backoffice:submissions"))

    shown = page.content.decode()
    assert page.status_code == 200
    order = [shown.index(name) for name in ("spring-3.txt", "spring-2.txt", "spring-1.txt")]
    assert order == sorted(order), "newest first"
    assert "superseded by a later file for the event" in shown
    assert "rejected: nothing was imported" in shown
    assert "expected SCORE 10, 01, 55, 1d, d1 or dd, got &#x27;1-0&#x27; (line 14)" in shown
    assert "3 files" in shown


def test_an_officer_never_sees_another_officers_files(
    officer: Any, other_officer: Any, files: dict[str, Submission]
) -> None:
    """Issue 24, case 14: each officer's page holds only what he sent."""
    olgas = signed_in(officer).get(reverse("backoffice:submissions")).content.decode()
    oscars = signed_in(other_officer).get(reverse("backoffice:submissions")).content.decode()

    assert "oscars-own.txt" not in olgas
    assert "oscars-own.txt" in oscars
    assert not any(name in oscars for name in ("spring-1.txt", "spring-2.txt", "spring-3.txt"))
    assert "1 file," in oscars


def test_the_files_come_a_page_at_a_time(officer: Any) -> None:
    """Issue 24, case 14: 30 files are 25 on the first page and 5 on the second."""
    for n in range(30):
        sent(officer, f"file-{n:02d}.txt", "accepted", minutes=n, index=n + 1)
    client = signed_in(officer)
    url = reverse("backoffice:submissions")

    first = client.get(url).content.decode()
    second = client.get(url, {"page": "2"}).content.decode()

    assert "file-29.txt" in first and "file-05.txt" in first and "file-04.txt" not in first
    assert "file-04.txt" in second and "file-00.txt" in second and "file-05.txt" not in second
    assert "Page 2 of 2" in second
    assert client.get(url, {"page": "x"}).status_code == 200  # any bad page is the first


def test_the_events_page_links_to_the_files_sent(officer: Any) -> None:
    page = signed_in(officer).get(reverse("backoffice:events")).content.decode()

    assert f'href="{reverse("backoffice:submissions")}"' in page
