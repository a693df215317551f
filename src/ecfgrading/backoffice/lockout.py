"""Pauses after failed sign-ins (issue 24, case 12), on django-axes' record of attempts.

Two limits, neither of which lets a stranger keep an officer out for long:

- **per account**, from any address: after ``AXES_FAILURE_LIMIT`` failures in a row,
  signing in to that account pauses for a minute; each further failure doubles the
  pause, up to ``LONGEST_PAUSE``. A third party who knows the name delays the owner by a
  minute, and only by failing again and again by more (tries during a pause are refused
  and not counted). A success ends it.
- **per client address**, whatever the names: ``LOGIN_ADDRESS_ATTEMPTS`` failures within
  an hour pause that address for an hour, which stops guessing across many names. Behind
  a proxy this needs the client's address (ECFGRADING_CLIENT_IP_HEADER, docs/deploy.md),
  or every visitor shares the proxy's.

The old rule, a lock of an hour on a name tried from one address, let anyone sharing the
victim's address (everyone behind a proxy) lock him out for an hour at a time.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from ecfgrading.services.limits import wait_words

FIRST_PAUSE = dt.timedelta(minutes=1)
LONGEST_PAUSE = dt.timedelta(minutes=15)
ADDRESS_PAUSE = dt.timedelta(hours=1)
# Failures older than this are forgotten (axes deletes them): AXES_COOLOFF_TIME, in hours.
REMEMBERED = dt.timedelta(hours=1)


@dataclass(frozen=True)
class Pause:
    """Signing in is refused until ``until``, for an account or for an address."""

    reason: str  # "account" or "address"
    failures: int
    until: dt.datetime


def account_pause(failures: int) -> dt.timedelta:
    """The pause after ``failures`` failures in a row on one account: none below the
    limit, then 1, 2, 4, 8 minutes..., at most ``LONGEST_PAUSE``."""
    beyond = failures - settings.AXES_FAILURE_LIMIT
    if beyond < 0:
        return dt.timedelta(0)
    return min(FIRST_PAUSE * 2 ** min(beyond, 20), LONGEST_PAUSE)


def pause_of(username: str | None, address: str | None, now: dt.datetime) -> Pause | None:
    """The pause in force now for this name or this address, the later if both."""
    recent = AccessAttempt.objects.filter(attempt_time__gte=now - REMEMBERED)
    pauses = []
    if username:
        failures, last = _failures(recent.filter(username=username))
        if last is not None and failures >= settings.AXES_FAILURE_LIMIT:
            pauses.append(Pause("account", failures, last + account_pause(failures)))
    if address:
        failures, last = _failures(recent.filter(ip_address=address))
        if last is not None and failures >= settings.LOGIN_ADDRESS_ATTEMPTS:
            pauses.append(Pause("address", failures, last + ADDRESS_PAUSE))
    in_force = [pause for pause in pauses if pause.until > now]
    return max(in_force, key=lambda pause: pause.until) if in_force else None


def _failures(attempts: QuerySet[AccessAttempt]) -> tuple[int, dt.datetime | None]:
    found = attempts.aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
    return int(found["failures"] or 0), found["last"]


def _pause_for(request: Any, credentials: dict[str, Any] | None) -> Pause | None:
    now = getattr(request, "axes_attempt_time", None) or timezone.now()
    username = get_client_username(request, credentials)
    return pause_of(username, getattr(request, "axes_ip_address", None), now)


class LoginPauses(AxesDatabaseHandler):
    """axes' database handler with the two pauses above instead of its one lock."""

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        return _pause_for(request, credentials) is not None

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None:  # this failure may have started a pause
            request.axes_locked_out = _pause_for(request, credentials) is not None


def locked_out(
    request: HttpRequest, response: HttpResponse | None, credentials: dict[str, Any] | None
) -> HttpResponse:
    """The page of a refused sign-in: why, and when to try again (429)."""
    pause = _pause_for(request, credentials)
    context: dict[str, Any] = {"username": get_client_username(request, credentials) or ""}
    if pause is not None:
        seconds = max(1, int((pause.until - timezone.now()).total_seconds()))
        context |= {"pause": pause, "wait": wait_words(seconds)}
        context["longest"] = int(LONGEST_PAUSE.total_seconds() // 60)
    answer = render(request, "backoffice/locked.html", context, status=429)
    if pause is not None:
        answer["Retry-After"] = str(seconds)
    return answer
