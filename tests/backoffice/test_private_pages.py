"""Every back-office answer is ``Cache-Control: private, no-store`` (issue 24, case 14):
each URL of the back office as the grading team opens it, and the pages of the signed-out
visitor (sign-in, password reset, the lockout page)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.backoffice.conftest import signed_in
from tests.backoffice.test_permissions import (  # noqa: F401 (fixtures)
    CASES,
    objects,
    olgas_event,
    users,
)

pytestmark = pytest.mark.django_db

PRIVATE = "private, no-store"


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_back_office_url_is_private_and_never_stored_for_the_team(
    name: str,
    users: dict[str, Any],  # noqa: F811
    objects: dict[str, Any],  # noqa: F811
) -> None:
    """Issue 24, case 14: whatever the page answers (200, 302, 400...), nobody keeps it."""
    method, arguments, _ = CASES[name]
    url = reverse(f"backoffice:{name}", kwargs=arguments(objects))

    response = getattr(signed_in(users["team"]), method)(url)

    assert response["Cache-Control"] == PRIVATE, (url, response.status_code)


@pytest.mark.parametrize("name", ["login", "password_reset", "password_reset_done", "home"])
def test_the_signed_out_pages_are_private_too(name: str) -> None:
    """Issue 24, case 14: the sign-in page included (and the redirect to it)."""
    response = Client().get(reverse(f"backoffice:{name}"))

    assert response["Cache-Control"] == PRIVATE


def test_the_lockout_page_is_private(officer: Any) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        locked = client.post(reverse("backoffice:login"), {"username": "olga", "password": "x"})

    assert locked.status_code == 429
    assert locked["Cache-Control"] == PRIVATE


def test_the_admin_is_private_and_the_public_site_is_not() -> None:
    assert Client().get("/admin/login/")["Cache-Control"] == PRIVATE
    assert "private" not in Client().get("/help/").get("Cache-Control", "")
