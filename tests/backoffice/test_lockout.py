"""Failed sign-ins pause an account briefly, growing with each further failure, and an
address that guesses across names for an hour (issue 24, case 12): a third party cannot
keep an officer out for long, from elsewhere or from an address they share.

"Later" is the record of attempts moved back in time, as the clock would move it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import F
from django.test import Client
from django.urls import reverse

from ecfgrading.backoffice.lockout import account_pause
from tests.backoffice.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = reverse("backoffice:login")
PROXY = "192.0.2.66"  # an address everyone behind one proxy shares
HOME = "192.0.2.10"
MINUTE = dt.timedelta(minutes=1)


def sign_in(name: str, password: str, address: str) -> int:
    response = Client(REMOTE_ADDR=address).post(LOGIN, {"username": name, "password": password})
    return response.status_code


def fail(name: str, address: str, times: int) -> list[int]:
    return [sign_in(name, "wrong", address) for _ in range(times)]


def later(by: dt.timedelta) -> None:
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - by)


def test_the_pause_after_each_failure_doubles_from_a_minute_to_at_most_fifteen() -> None:
    """Issue 24, case 12: docs/deploy.md's numbers for the default limit of 5."""
    assert settings.AXES_FAILURE_LIMIT == 5
    pauses = [account_pause(n) / MINUTE for n in range(4, 11)]

    assert pauses == [0, 1, 2, 4, 8, 15, 15]


def test_a_stranger_sharing_the_address_keeps_the_officer_out_a_minute_not_an_hour(
    officer: Any,
) -> None:
    """Issue 24, case 12: five wrong passwords for olga through the shared proxy."""
    assert fail("olga", PROXY, 5)[-1] == 429

    assert sign_in("olga", PASSWORD, PROXY) == 429  # paused: even the right password
    later(MINUTE + dt.timedelta(seconds=1))
    assert sign_in("olga", PASSWORD, PROXY) == 302


def test_the_pause_is_the_accounts_from_any_address_and_grows_with_each_failure(
    officer: Any,
) -> None:
    fail("olga", PROXY, 5)
    assert sign_in("olga", PASSWORD, HOME) == 429
    assert fail("olga", PROXY, 3) == [429] * 3  # tries during a pause do not count

    later(MINUTE + dt.timedelta(seconds=1))
    assert fail("olga", PROXY, 1) == [429]  # the sixth failure: two minutes now
    later(MINUTE + dt.timedelta(seconds=30))
    assert sign_in("olga", PASSWORD, HOME) == 429
    later(MINUTE)
    assert sign_in("olga", PASSWORD, HOME) == 302


def test_the_lockout_page_says_why_and_when_to_try_again(officer: Any) -> None:
    fail("olga", PROXY, 4)
    response = Client(REMOTE_ADDR=PROXY).post(LOGIN, {"username": "olga", "password": "x"})

    html = " ".join(response.content.decode().split())
    assert response.status_code == 429
    assert "5 failed attempts in a row to sign in as <strong>olga</strong>" in html
    assert "Each further failed attempt doubles the pause, up to 15 minutes" in html
    assert 0 < int(response["Retry-After"]) <= 60


def test_an_address_guessing_across_names_is_paused_for_an_hour(
    officer: Any, other_officer: Any
) -> None:
    """Issue 24, case 12: 30 failures under 10 names, none of them paused by itself."""
    for n in range(10):
        fail(f"guess{n}", "198.51.100.7", 3)

    assert sign_in("oscar", PASSWORD, "198.51.100.7") == 429
    assert sign_in("olga", PASSWORD, HOME) == 302  # elsewhere, nothing is paused
    later(dt.timedelta(minutes=59))
    assert sign_in("oscar", PASSWORD, "198.51.100.7") == 429
    later(dt.timedelta(minutes=1, seconds=1))
    assert sign_in("oscar", PASSWORD, "198.51.100.7") == 302


def test_the_address_page_says_it_is_the_address(officer: Any) -> None:
    for n in range(10):
        fail(f"guess{n}", "198.51.100.8", 3)

    response = Client(REMOTE_ADDR="198.51.100.8").post(
        LOGIN, {"username": "olga", "password": PASSWORD}
    )

    html = " ".join(response.content.decode().split())
    assert "Signing in is paused from this address" in html
    assert "30 failed attempts to sign in from this address" in html
