"""The back office's front page and the forgotten-password form; logins and the other
password pages are Django's auth views with our templates (backoffice/urls.py)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from ecfgrading.backoffice.access import client_ip
from ecfgrading.backoffice.errors import office_view, open_view
from ecfgrading.lookups.roles import Role, roles_of
from ecfgrading.services.limits import Rate, take, wait_words
from ecfgrading.services.password_reset import request_reset

RESET_TEMPLATE = "backoffice/accounts/password_reset.html"


@office_view(Role.TEAM, Role.OFFICER, Role.MEMBER)
def home(request: HttpRequest) -> HttpResponse:
    """What this account can do, by its roles."""
    roles = roles_of(request.user)
    return render(
        request,
        "backoffice/home.html",
        {
            "roles": sorted(role.value for role in roles),
            "is_team": Role.TEAM in roles,
            "is_officer": Role.OFFICER in roles,
            "is_member": Role.MEMBER in roles,
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@open_view
def password_reset(request: HttpRequest) -> HttpResponse:
    """A link to set a new password, by mail (issue 24, case 10): the same answer whether
    or not an account has the address (the worker looks), within the limits per address
    typed and per client."""
    form = PasswordResetForm(request.POST if request.method == "POST" else None)
    if request.method != "POST":
        return render(request, RESET_TEMPLATE, {"form": form})
    if not form.is_valid():
        return render(request, RESET_TEMPLATE, {"form": form}, status=400)
    wait = _reset_wait(request, form.cleaned_data["email"])
    if wait is not None:
        context = {"form": form, "wait": wait_words(wait)}
        response = render(request, RESET_TEMPLATE, context, status=429)
        response["Retry-After"] = str(wait)
        return response
    request_reset(form.cleaned_data["email"])
    return redirect("backoffice:password_reset_done")


def _reset_wait(request: HttpRequest, email: str) -> int | None:
    """Seconds to wait when this address or this client has asked too often, else None;
    both are counted either way."""
    by_client = take(
        "reset-client",
        client_ip(request) or "unknown",
        Rate.parse(settings.PASSWORD_RESET_CLIENT_RATE),
    )
    by_address = take("reset-address", email, Rate.parse(settings.PASSWORD_RESET_RATE))
    waits = [wait for wait in (by_client, by_address) if wait is not None]
    return max(waits) if waits else None
