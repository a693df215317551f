"""Every back-office page is valid HTML (html5lib, strict), with no inline script or style
(the content security policy allows neither)."""

from __future__ import annotations

import re
from typing import Any

import html5lib
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.backoffice.conftest import signed_in
from tests.backoffice.test_officers import good_file, register

pytestmark = pytest.mark.django_db


def assert_valid(html: str) -> None:
    html5lib.HTMLParser(strict=True).parse(html)
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
    assert "<style" not in html and " style=" not in html, "inline style"


@pytest.mark.parametrize(
    "name",
    ["home", "events", "register", "upload", "password_change", "password_change_done"],
)
def test_an_officers_pages_are_valid(name: str, officer: Any) -> None:
    response = signed_in(officer).get(reverse(f"backoffice:{name}"))

    assert response.status_code == 200
    assert_valid(response.content.decode())


@pytest.mark.parametrize(
    "name", ["login", "password_reset", "password_reset_done", "password_reset_complete"]
)
def test_the_public_account_pages_are_valid(name: str, client: Any) -> None:
    assert_valid(client.get(reverse(f"backoffice:{name}")).content.decode())


def test_the_check_submit_and_events_pages_are_valid(officer: Any, smtp: Any) -> None:
    client = signed_in(officer)
    register(client)
    checked = client.post(
        reverse("backoffice:upload"), {"results": SimpleUploadedFile("r.txt", good_file())}
    )
    content = re.search(r'name="content" value="([^"]+)"', checked.content.decode())
    assert content is not None
    done = client.post(
        reverse("backoffice:submit"), {"filename": "r.txt", "content": content.group(1)}
    )
    events = client.get(reverse("backoffice:events"))

    for page in (checked, done, events):
        assert page.status_code == 200
        assert_valid(page.content.decode())


def test_the_forbidden_page_is_valid(member: Any) -> None:
    response = signed_in(member).get(reverse("backoffice:events"))

    assert response.status_code == 403
    assert "not open to your account" in response.content.decode()
    assert_valid(response.content.decode())


def test_the_lockout_page_is_valid(officer: Any, client: Any, settings: Any) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(reverse("backoffice:login"), {"username": "olga", "password": "x"})

    assert response.status_code == 429
    assert_valid(response.content.decode())
