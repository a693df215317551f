"""Who may open a back-office page: every view names the roles it admits."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from ecfgrading.lookups.roles import Role, has_role

View = Callable[..., HttpResponse]


def role_required(*roles: Role) -> Callable[[View], View]:
    """Anonymous visitors go to the login page; a user without one of these roles gets
    403 (a page he may not see, not a login he lacks)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, *roles):
                raise PermissionDenied("this page is not open to your account")
            return view(request, *args, **kwargs)

        return guarded

    return decorate


def client_ip(request: HttpRequest) -> str | None:
    """The client's address for the login-attempt limit: the proxy's header when the
    deployment names one (ECFGRADING_CLIENT_IP_HEADER), else the connection's."""
    header = getattr(settings, "RATELIMIT_IP_META_KEY", None)
    if isinstance(header, str) and request.META.get(header):
        return str(request.META[header]).split(",")[0].strip()
    return request.META.get("REMOTE_ADDR")
