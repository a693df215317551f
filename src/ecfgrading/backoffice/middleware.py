"""Every answer of the back office (and Django's admin) is ``Cache-Control: private,
no-store`` (issue 24, case 14): its pages hold names, addresses and a CSRF token, and no
browser history, shared proxy or cache may keep them, the sign-in and lockout pages
included. One middleware, so that no view can forget it."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

# Where the staff work, as the compression rule names it (one definition of the prefixes).
from ecfgrading.web.middleware.compression import _private_prefixes

PRIVATE = "private, no-store"


class PrivatePagesMiddleware:
    """Answers under /backoffice/ and /admin/ are never stored by anyone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if request.path.startswith(_private_prefixes()):
            response["Cache-Control"] = PRIVATE
        return response
