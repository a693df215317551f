"""Accounts, roles, logins, passwords and the login-attempt limit (issue 11, item 1)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from ecfgrading.lookups.roles import Role, roles_of
from ecfgrading.services.accounts import AccountError, create_user, role_named
from tests.backoffice.conftest import PASSWORD, signed_in

pytestmark = pytest.mark.django_db

LOGIN = "/backoffice/login/"


def test_the_three_roles_are_groups_made_by_the_migration() -> None:
    names = set(Group.objects.values_list("name", flat=True))

    assert {"grading team", "grading officer", "direct member"} <= names


def test_a_user_is_created_in_one_role_with_a_hashed_password() -> None:
    user = create_user("olive", role=Role.OFFICER, email="o@x.example", password=PASSWORD)

    assert list(user.groups.values_list("name", flat=True)) == ["grading officer"]
    assert user.password != PASSWORD and user.check_password(PASSWORD)
    assert roles_of(user) == {Role.OFFICER}


def test_a_taken_user_name_is_refused() -> None:
    create_user("olive", role=Role.OFFICER)

    with pytest.raises(AccountError, match="taken"):
        create_user("olive", role=Role.TEAM)
    assert get_user_model().objects.filter(username="olive").count() == 1


def test_roles_are_named_by_short_words_or_group_names() -> None:
    assert role_named("Officer") is Role.OFFICER
    assert role_named("grading team") is Role.TEAM
    with pytest.raises(AccountError, match="team, officer, member"):
        role_named("admin")


def test_a_superuser_counts_as_the_grading_team() -> None:
    boss = get_user_model().objects.create_superuser("boss", "b@x.example", PASSWORD)

    assert roles_of(boss) == {Role.TEAM}


def test_an_inactive_account_holds_no_role(officer: Any) -> None:
    officer.is_active = False
    officer.save()

    assert roles_of(officer) == frozenset()


def test_signing_in_leads_to_the_back_office_with_the_accounts_role(officer: Any) -> None:
    client = Client()
    response = client.post(LOGIN, {"username": "olga", "password": PASSWORD}, follow=True)

    assert response.redirect_chain[-1][0] == "/backoffice/"
    assert "grading officer" in response.content.decode()
    assert "Signed in as" in response.content.decode()


def test_the_session_cookie_is_httponly_and_samesite(officer: Any) -> None:
    response = Client().post(LOGIN, {"username": "olga", "password": PASSWORD})

    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"


def test_a_wrong_password_is_refused_with_the_form_again(officer: Any) -> None:
    response = Client().post(LOGIN, {"username": "olga", "password": "wrong"})

    assert response.status_code == 200
    assert "Please check" in response.content.decode()
    assert "_auth_user_id" not in response.wsgi_request.session


def test_too_many_wrong_passwords_lock_the_login_with_a_clear_page(officer: Any) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post(LOGIN, {"username": "olga", "password": "wrong"}).status_code == 200

    locked = client.post(LOGIN, {"username": "olga", "password": "wrong"})
    even_right = client.post(LOGIN, {"username": "olga", "password": PASSWORD})

    assert locked.status_code == 429
    assert "Signing in is paused" in locked.content.decode()
    assert f"{settings.AXES_FAILURE_LIMIT} failed attempts" in locked.content.decode()
    assert even_right.status_code == 429
    assert "_auth_user_id" not in even_right.wsgi_request.session


def test_the_lock_is_for_that_name_so_another_officer_still_signs_in(
    officer: Any, other_officer: Any
) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(LOGIN, {"username": "olga", "password": "wrong"})

    response = client.post(LOGIN, {"username": "oscar", "password": PASSWORD})

    assert response.status_code == 302


def test_signing_out_needs_a_post_and_ends_the_session(officer: Any) -> None:
    client = signed_in(officer)

    assert client.get(reverse("backoffice:logout")).status_code == 405
    response = client.post(reverse("backoffice:logout"))

    assert response.status_code == 302
    assert client.get("/backoffice/")["Location"].startswith(LOGIN)


def test_a_password_is_changed_with_the_old_one(officer: Any) -> None:
    client = signed_in(officer)
    new = "another long passphrase 77"

    response = client.post(
        reverse("backoffice:password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
        follow=True,
    )

    assert "Password changed" in response.content.decode()
    officer.refresh_from_db()
    assert officer.check_password(new)


def test_every_form_needs_its_csrf_token(officer: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    refused = client.post(LOGIN, {"username": "olga", "password": PASSWORD})
    page = client.get(LOGIN)
    token = page.cookies[settings.CSRF_COOKIE_NAME].value
    accepted = client.post(
        LOGIN, {"username": "olga", "password": PASSWORD, "csrfmiddlewaretoken": token}
    )

    assert refused.status_code == 403
    assert accepted.status_code == 302


def test_the_admin_still_signs_a_superuser_in_through_the_attempt_limit() -> None:
    get_user_model().objects.create_superuser("boss", "b@x.example", PASSWORD)
    client = Client()

    response = client.post("/admin/login/?next=/admin/", {"username": "boss", "password": PASSWORD})

    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200
