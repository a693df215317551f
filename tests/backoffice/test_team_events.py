"""Events corrected by the grading team and event codes validated (issue 24, case 5).

The team edits an event (name, dates, rate, deadline, officer's name), withdraws one with
a reason, or gives it to another grading officer, each audited before and after. An event
holding accepted games keeps its rate and cannot be withdrawn (its games would stay
graded). Codes are letters and digits (formats.event_codes) in the registration form and
the CLI; a bad code already on record keeps working.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from click.testing import CliRunner
from django.urls import reverse

from ecfgrading.cli import main
from ecfgrading.engine import Rate
from ecfgrading.lookups.reports import events_overdue
from ecfgrading.registry.models import AuditLog, Event, Submission
from ecfgrading.services.events import register_event
from ecfgrading.services.results.ingest import import_results
from tests.backoffice.conftest import signed_in
from tests.backoffice.test_officers import good_file, register, upload

pytestmark = pytest.mark.django_db

# formats/event_codes.py's words, written out: what was expected, and the bad characters.
EXPECTED = "an event code is 2 to 20 letters and digits, beginning with a letter, e.g. CG130098"
BAD_CODES = {"A/B": "'A/B' holds '/'", "../X": "'../X' holds '.' '/'", "#X": "'#X' holds '#'"}


def _html(text: str) -> str:
    return text.replace("'", "&#x27;")


def _registered(officer: Any = None, code: str = "OLG1") -> Event:
    event = register_event(
        code,
        name="Anytown Congress",
        kind="congress",
        rate=Rate.STANDARD,
        start=dt.date(2013, 5, 11),
        end=dt.date(2013, 5, 12),
        deadline=dt.date(2013, 6, 9),
    )
    event.grading_officer = officer
    event.save()
    return event


def _edit(**changes: str) -> dict[str, str]:
    data = {
        "name": "Anytown Congress",
        "rate": "standard",
        "start": "2013-05-11",
        "end": "2013-05-12",
        "deadline": "2013-06-09",
        "officer_name": "",
    }
    return data | changes


# --- codes ------------------------------------------------------------------------------


@pytest.mark.parametrize("code", BAD_CODES)
def test_the_registration_form_refuses_a_code_not_of_letters_and_digits(
    officer: Any, code: str
) -> None:
    page = register(signed_in(officer), code=code)

    text = page.content.decode()
    assert _html(f"{BAD_CODES[code]}: {EXPECTED}.") in text
    assert not Event.objects.exists()


@pytest.mark.parametrize("code", BAD_CODES)
def test_the_cli_refuses_a_code_not_of_letters_and_digits(code: str) -> None:
    result = CliRunner().invoke(
        main,
        ["events", "register", code, "--name", "Anytown League", "--rate", "standard",
         "--start", "2012-09-01", "--end", "2013-04-30"],
    )  # fmt: skip

    assert result.exit_code == 1
    assert f"{BAD_CODES[code]}: {EXPECTED}." in result.output
    assert "Traceback" not in result.output
    assert not Event.objects.exists()


def test_a_code_of_the_form_kept_for_events_abroad_is_not_registered(officer: Any) -> None:
    page = register(signed_in(officer), code="XA000123")

    assert page.status_code == 400
    assert "kept for direct members" in page.content.decode()
    assert not Event.objects.exists()


def test_an_event_already_on_record_under_a_bad_code_keeps_its_pages(team: Any) -> None:
    """Codes registered before the check (``A/B``) are not renamed: their pages work."""
    assert import_results(good_file("OLDBAD"), filename="old.txt").accepted
    Event.objects.filter(code="OLDBAD").update(code="A/B")
    Submission.objects.filter(event_code="OLDBAD").update(event_code="A/B")
    event = Event.objects.get(code="A/B")

    season = signed_in(None).get("/events/", {"season": "2012-13"})
    public = signed_in(None).get("/events/A/B/")
    mine = signed_in(team).get(reverse("backoffice:team_event", args=[event.id]))

    assert season.status_code == 200
    assert 'href="/events/A/B/"' in season.content.decode()
    assert public.status_code == 200 and "Anytown Congress" in public.content.decode()
    assert mine.status_code == 200 and "A/B" in mine.content.decode()


# --- edit -------------------------------------------------------------------------------


def test_the_team_edits_an_event_and_the_audit_keeps_before_and_after(team: Any) -> None:
    event = _registered()
    data = _edit(name="Anytown Spring Congress", end="2013-05-13", rate="rapid")

    response = signed_in(team).post(reverse("backoffice:team_event_edit", args=[event.id]), data)

    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.end_date, event.rate) == (
        "Anytown Spring Congress",
        dt.date(2013, 5, 13),
        "rapid",
    )
    entry = AuditLog.objects.get(action="edit event")
    assert entry.user == team
    assert entry.details["before"] == {
        "name": "Anytown Congress",
        "rate": "standard",
        "end_date": "2013-05-12",
    }
    assert entry.details["after"] == {
        "name": "Anytown Spring Congress",
        "rate": "rapid",
        "end_date": "2013-05-13",
    }


def test_an_event_holding_accepted_games_keeps_its_rate_but_its_name_is_corrected(
    team: Any,
) -> None:
    assert import_results(good_file("OLG1"), filename="olg1.txt").accepted
    event = Event.objects.get(code="OLG1")
    client = signed_in(team)
    url = reverse("backoffice:team_event_edit", args=[event.id])

    refused = client.post(url, _edit(rate="rapid"))
    renamed = client.post(url, _edit(name="Anytown Open"))

    assert refused.status_code == 409
    assert "got 2 accepted games at standard in OLG1" in refused.content.decode()
    assert renamed.status_code == 302
    event.refresh_from_db()
    assert (event.rate, event.name) == ("standard", "Anytown Open")


def test_an_edit_with_the_last_day_before_the_first_is_refused_and_nothing_changes(
    team: Any,
) -> None:
    event = _registered()

    response = signed_in(team).post(
        reverse("backoffice:team_event_edit", args=[event.id]), _edit(end="2013-05-01")
    )

    assert response.status_code == 400
    assert "Expected the last day on or after 2013-05-11, got 2013-05-01" in (
        response.content.decode()
    )
    event.refresh_from_db()
    assert event.end_date == dt.date(2013, 5, 12)
    assert not AuditLog.objects.filter(action="edit event").exists()


# --- withdraw ---------------------------------------------------------------------------


def test_an_event_holding_accepted_games_cannot_be_withdrawn(team: Any) -> None:
    assert import_results(good_file("OLG1"), filename="olg1.txt").accepted
    event = Event.objects.get(code="OLG1")

    response = signed_in(team).post(
        reverse("backoffice:team_event_withdraw", args=[event.id]), {"reason": "cancelled"}
    )

    assert response.status_code == 409
    assert "Expected an event without accepted games, got 2 in OLG1" in response.content.decode()
    event.refresh_from_db()
    assert event.status == "received"


def test_a_withdrawal_needs_a_reason(team: Any) -> None:
    event = _registered()

    response = signed_in(team).post(reverse("backoffice:team_event_withdraw", args=[event.id]))

    assert response.status_code == 400
    assert "Expected a reason for withdrawing the event" in response.content.decode()
    event.refresh_from_db()
    assert event.status == "registered"


def test_a_withdrawn_event_is_not_chased_and_its_results_are_refused_at_upload(
    team: Any, officer: Any
) -> None:
    event = _registered(officer)
    assert [e.code for e in events_overdue(dt.date(2013, 7, 1)).events] == ["OLG1"]

    response = signed_in(team).post(
        reverse("backoffice:team_event_withdraw", args=[event.id]),
        {"reason": "Cancelled by the organiser"},
    )

    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.status, event.withdrawn_reason) == ("withdrawn", "Cancelled by the organiser")
    entry = AuditLog.objects.get(action="withdraw event")
    assert entry.details["before"] == {"status": "registered", "withdrawn_reason": ""}
    assert entry.details["after"] == {
        "status": "withdrawn",
        "withdrawn_reason": "Cancelled by the organiser",
    }
    assert not events_overdue(dt.date(2013, 7, 1)).events
    checked = upload(signed_in(officer), good_file("OLG1")).content.decode()
    assert "Expected EVENT CODE an event not withdrawn, got OLG1" in checked
    assert "Cancelled by the organiser" in checked


# --- reassign ---------------------------------------------------------------------------


def test_the_team_gives_an_event_to_another_officer_who_then_has_it(
    team: Any, officer: Any, other_officer: Any
) -> None:
    event = _registered(officer)

    response = signed_in(team).post(
        reverse("backoffice:team_event_reassign", args=[event.id]),
        {"member": str(other_officer.id)},
    )

    assert response.status_code == 302
    event.refresh_from_db()
    assert event.grading_officer == other_officer
    entry = AuditLog.objects.get(action="reassign event")
    assert (entry.details["before"], entry.details["after"]) == (
        {"grading_officer": "olga"},
        {"grading_officer": "oscar"},
    )
    olga = signed_in(officer).get(reverse("backoffice:events")).content.decode()
    oscar = signed_in(other_officer).get(reverse("backoffice:events")).content.decode()
    assert "OLG1" not in olga and "OLG1" in oscar
    checked = upload(signed_in(other_officer), good_file("OLG1")).content.decode()
    assert "one of your events" not in checked


def test_an_event_is_given_only_to_a_grading_officer(team: Any, officer: Any) -> None:
    event = _registered(officer)

    response = signed_in(team).post(
        reverse("backoffice:team_event_reassign", args=[event.id]), {"member": str(team.id)}
    )

    assert response.status_code == 400
    event.refresh_from_db()
    assert event.grading_officer == officer


def test_the_team_finds_an_event_by_name_and_opens_its_page(team: Any) -> None:
    _registered(code="OLG1")

    found = signed_in(team).get(reverse("backoffice:team_events"), {"q": "anytown"})

    text = found.content.decode()
    assert found.status_code == 200
    event = Event.objects.get(code="OLG1")
    assert f'href="{reverse("backoffice:team_event", args=[event.id])}"' in text


def test_the_edit_form_shows_the_events_dates_for_a_browsers_date_fields(team: Any) -> None:
    """A date field (``type=date``) shows only an ISO value: a British one left the form's
    first and last day empty in Chromium, and a save would have failed."""
    event = _registered(code="OLG1")

    page = signed_in(team).get(reverse("backoffice:team_event", args=[event.id]))

    text = page.content.decode()
    fields = re.findall(r'<input type="date" name="(\w+)" value="([^"]*)"', text)
    assert dict(fields) == {"start": "2013-05-11", "end": "2013-05-12", "deadline": "2013-06-09"}
