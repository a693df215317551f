"""The demo's back-office logins (issue 11, done-when): one of the grading team, two
grading officers with events of their own, one direct member linked to a demo player;
made by the demo build only, and printed at its end with their passwords."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from ecfgrading.demo import build_demo
from ecfgrading.demo.registration import MISSING
from ecfgrading.demo.summary import DemoSummary
from ecfgrading.lookups.direct_members import games_received
from ecfgrading.lookups.roles import Role, roles_of
from ecfgrading.registry.models import DirectMember, Event
from tests.flushing import flush_database

pytestmark = pytest.mark.django_db


def test_no_demo_login_exists_outside_the_demo() -> None:
    names = {"grader", "olivia", "owen", "member"}

    assert not get_user_model().objects.filter(username__in=names).exists()


@pytest.fixture(scope="module")
def built(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DemoSummary]:
    home = tmp_path_factory.mktemp("demo-logins")
    with django_db_blocker.unblock():
        yield build_demo(home, size="tiny", seed=5)
        flush_database()


def test_the_build_prints_each_login_with_its_password(built: DemoSummary) -> None:
    text = built.to_text()
    tail = text.split("Back-office logins (demo passwords; sign in at /backoffice/):\n")[1]
    lines = tail.splitlines()

    assert [line.split()[:3] for line in lines] == [
        ["grader", "password", "demo-grader-2012"],
        ["olivia", "password", "demo-olivia-2012"],
        ["owen", "password", "demo-owen-2012"],
        ["member", "password", "demo-member-2012"],
    ]
    assert "grading officer: events CG159901" in lines[1]
    assert "direct member:" in lines[3]


# The build hashed the passwords with Django's default hasher (PBKDF2), not the tests'.
@override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"])
def test_each_login_has_its_role_and_signs_in_with_the_printed_password(
    built: DemoSummary,
) -> None:
    roles = {"grader": Role.TEAM, "olivia": Role.OFFICER, "owen": Role.OFFICER}
    roles["member"] = Role.MEMBER
    for login in built.logins:
        user = get_user_model().objects.get(username=login.username)
        assert roles_of(user) == {roles[login.username]}
        client = Client()
        response = client.post(
            reverse("backoffice:login"),
            {"username": login.username, "password": login.password},
        )
        assert response.status_code == 302, login.username
        assert response["Location"] == reverse("backoffice:home")


def test_the_officers_have_events_one_of_them_overdue(built: DemoSummary) -> None:
    for name, missing in zip(("olivia", "owen"), MISSING[:2], strict=True):
        codes = set(
            Event.objects.filter(grading_officer__username=name).values_list("code", flat=True)
        )
        assert len(codes) >= 3  # up to four of 2012-13 besides, as the demo's size has
        assert missing[0] in codes  # registered, played, never reported
    olivias = set(Event.objects.filter(grading_officer__username="olivia"))
    assert not olivias & set(Event.objects.filter(grading_officer__username="owen"))


def test_the_member_is_a_demo_player_with_games_received_for_the_next_list(
    built: DemoSummary,
) -> None:
    member = DirectMember.objects.select_related("player", "user").get()

    assert member.user.username == "member"
    assert member.number == f"DM{member.player.code:06d}"
    assert member.player.ref in built.logins[3].what
    assert games_received(member.player, "2013-07").count > 0
