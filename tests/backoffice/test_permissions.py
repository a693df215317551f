"""Every back-office URL for every role (issue 11, item 1): the public goes to the login
page, each role sees its own pages only, and an officer guessing the id of another
officer's event finds nothing (404, which tells him nothing either)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import URLPattern, reverse

from ecfgrading.backoffice import urls as backoffice_urls
from ecfgrading.registry.models import Event, Submission
from tests.backoffice import cases_audit, cases_members, cases_team
from tests.backoffice.conftest import signed_in
from tests.backoffice.permission_table import (
    LOGIN,
    NO_ARGS,
    OFFICE,
    PUBLIC,
    ROLES,
    SIGNED_IN,
    Case,
    open_to,
)

pytestmark = pytest.mark.django_db

_open_to = open_to


@pytest.fixture
def users(member: Any, officer: Any, other_officer: Any, team: Any) -> dict[str, Any]:
    return {
        "anonymous": None,
        "member": member,
        "officer": officer,
        "other officer": other_officer,
        "team": team,
    }


@pytest.fixture
def olgas_event(officer: Any) -> Event:
    """An event of officer olga with its accepted results file."""
    event = Event.objects.create(
        code="OLGA1",
        name="Olga's Congress",
        rate="standard",
        start_date=dt.date(2011, 5, 1),
        end_date=dt.date(2011, 5, 2),
        grading_officer=officer,
        status=Event.Status.RECEIVED,
    )
    Submission.objects.create(
        event=event,
        event_code="OLGA1",
        raw=b"#EVENT DETAILS\n#EVENT CODE=OLGA1\n",
        sha256="0" * 64,
        status=Submission.Status.ACCEPTED,
    )
    return event


# name -> (method, URL arguments, expected status by role). GET unless said.
CASES: dict[str, Case] = {
    "home": ("get", NO_ARGS, SIGNED_IN),
    "login": ("get", NO_ARGS, {"anonymous": 200} | dict.fromkeys(ROLES[1:], 302)),
    "logout": ("post", NO_ARGS, dict.fromkeys(ROLES, 302)),
    "password_change": ("get", NO_ARGS, _open_to(*ROLES[1:])),
    "password_change_done": ("get", NO_ARGS, _open_to(*ROLES[1:])),
    "password_reset": ("get", NO_ARGS, PUBLIC),
    "password_reset_done": ("get", NO_ARGS, PUBLIC),
    "password_reset_confirm": ("get", lambda o: {"uidb64": "MQ", "token": "x-y"}, PUBLIC),
    "password_reset_complete": ("get", NO_ARGS, PUBLIC),
    "events": ("get", NO_ARGS, OFFICE),
    "register": ("get", NO_ARGS, OFFICE),
    "rate": ("get", NO_ARGS, OFFICE),
    "upload": ("get", NO_ARGS, OFFICE),
    # His own files sent (issue 24, case 14): each officer's page holds only his.
    "submissions": ("get", NO_ARGS, OFFICE),
    # An empty submission is a bad request for those who may submit at all.
    "submit": ("post", NO_ARGS, _open_to() | {"officer": 400, "other officer": 400, "team": 400}),
    # Guessed ids: another officer's event is not found, and so is one that does not exist.
    "download": (
        "get",
        lambda o: {"event_id": o["event"].id},
        _open_to("officer", "team") | {"other officer": 404},
    ),
}
AREAS = (cases_team, cases_members, cases_audit)
for _area in AREAS:
    assert not set(_area.CASES) & set(CASES), "a URL name in two tables"
    CASES |= _area.CASES


@pytest.fixture
def objects(users: dict[str, Any], olgas_event: Event) -> dict[str, Any]:
    """What the URLs' arguments are made from: olga's event, and each area's own."""
    found: dict[str, Any] = {"event": olgas_event}
    for area in AREAS:
        found |= area.prepare(users)
    return found


def test_every_back_office_url_is_in_the_table() -> None:
    names = {p.name for p in backoffice_urls.urlpatterns if isinstance(p, URLPattern)}

    assert names == set(CASES)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_each_url_admits_its_roles_only(
    name: str, role: str, users: dict[str, Any], objects: dict[str, Any]
) -> None:
    method, arguments, expected = CASES[name]
    url = reverse(f"backoffice:{name}", kwargs=arguments(objects))
    client = signed_in(users[role])

    response = getattr(client, method)(url)

    if expected[role] == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith("/backoffice/login/?next=")
    else:
        assert response.status_code == expected[role], response.content[:300]


@pytest.mark.parametrize("role", ["officer", "other officer", "team"])
def test_a_guessed_id_of_no_event_is_not_found(
    role: str, users: dict[str, Any], olgas_event: Event
) -> None:
    client = signed_in(users[role])

    response = client.get(reverse("backoffice:download", kwargs={"event_id": olgas_event.id + 1}))

    assert response.status_code == 404


def test_another_officers_events_are_not_on_his_dashboard(
    other_officer: Any, olgas_event: Event
) -> None:
    page = signed_in(other_officer).get(reverse("backoffice:events")).content.decode()

    assert "OLGA1" not in page


def test_the_team_sees_every_officers_events(team: Any, olgas_event: Event) -> None:
    page = signed_in(team).get(reverse("backoffice:events")).content.decode()

    assert "OLGA1" in page
    assert reverse("backoffice:download", kwargs={"event_id": olgas_event.id}) in page


@pytest.mark.parametrize("name", ["register", "upload", "submit", "password_change", "logout"])
def test_forms_refuse_a_post_without_the_csrf_token(
    name: str, officer: Any, olgas_event: Event
) -> None:
    client = signed_in(officer, enforce_csrf_checks=True)

    response = client.post(reverse(f"backoffice:{name}"), {})

    assert response.status_code == 403
    assert b"CSRF" in response.content
