"""The public site's one mapping of the error contract (``ecfgrading.errors``), and the
one JSON error body of every door that answers in JSON.

A ``ServiceError`` escaping a view of the site becomes, by its kind (INVALID 400,
NOT_FOUND 404, CONFLICT 409: ``ErrorKind.http_status``), the error page in the site's
layout with its message, or, when the request asks for the page's JSON twin, the body

    {"status": 400, "kind": "invalid", "message": "expected a season such as 2011-12, got 'x'"}

/api/v1 answers with the same body (``web.api.v1``), and so do the site's 404 and 500
handlers (``web.views.errors``). Views therefore never catch a ``ServiceError`` to
choose a status; they catch one only to show a form again. The compatible API keeps the
federation's own shape (``web.api.compat``), a wire contract of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from ecfgrading.errors import ErrorKind, ServiceError
from ecfgrading.services.locks import busy_error, is_busy
from ecfgrading.web.render import wants_json

# The body's "kind" by status: the contract's kinds, and the statuses the site and the
# API answer without a ServiceError (django-ninja's own refusal of a malformed parameter
# is 422, invalid too).
KINDS: dict[int, str] = {kind.http_status: kind.value for kind in ErrorKind} | {
    405: "not-allowed",
    414: ErrorKind.INVALID.value,  # an address too long to read (web.middleware.addresses)
    422: ErrorKind.INVALID.value,
    500: "server-error",
}

# What the error page's heading says, by kind.
HEADINGS = {
    ErrorKind.INVALID.value: "Not understood",
    ErrorKind.NOT_FOUND.value: "Not found",
    ErrorKind.CONFLICT.value: "Not possible now",
}


def error_body(status: int, message: str, **extra: Any) -> dict[str, Any]:
    """The one JSON error body: ``status``, ``kind``, ``message`` (and for a malformed
    API request, ``detail``: each parameter's problem)."""
    return {"status": status, "kind": KINDS[status], "message": message, **extra}


def json_error(status: int, message: str, **extra: Any) -> JsonResponse:
    return JsonResponse(
        error_body(status, message, **extra),
        status=status,
        json_dumps_params={"ensure_ascii": False},
    )


def error_page(request: HttpRequest, status: int, message: str) -> HttpResponse:
    """The error page in the site's layout, or the JSON error body for a JSON request;
    both vary on Accept, as the pages do."""
    if wants_json(request):
        response: HttpResponse = json_error(status, message)
    else:
        kind = KINDS[status]
        context = {
            "kind": kind,
            "heading": HEADINGS[kind],
            "message": message,
            # A request the page did not understand is its query: the page without it.
            "plain_url": request.path if kind == ErrorKind.INVALID and request.GET else "",
        }
        response = render(request, "web/error.html", context, status=status)
    response["Vary"] = "Accept"
    return response


class ServiceErrorMiddleware:
    """A ``ServiceError`` escaping a view is its error page (or JSON body), by kind; so
    is a wait for the database's lock that ran out in one of Django's admin views that
    write in one transaction (``_one_transaction``), whose edits take the registry lock
    (registry.admin), as the services' own ``Busy`` says it, rather than a server error.
    Only there does "nothing was changed" hold: another view may have written a step
    before the one that waited."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if (
            isinstance(exception, OperationalError)
            and _one_transaction(request)
            and is_busy(exception)
        ):
            return _admin_busy_page(request, busy_error(_waited_for(request)).message)
        if not isinstance(exception, ServiceError):
            return None
        return error_page(request, exception.kind.http_status, exception.message)


# A model's admin views that Django runs in one transaction (ModelAdmin.changeform_view,
# delete_view); its list, whose editable rows Django saves in one, where the admin says
# its actions are each one too (``atomic_actions``, registry.admin.base: every list).
_ATOMIC_VIEWS = frozenset({"add_view", "change_view", "delete_view"})


def _one_transaction(request: HttpRequest) -> bool:
    match = getattr(request, "resolver_match", None)
    if match is None or match.namespace != "admin":
        return False
    model_admin = getattr(match.func, "model_admin", None)  # set by ModelAdmin.get_urls
    if model_admin is None:
        return False  # the site's own views: sign-in, passwords, a user's password
    name = match.func.__name__
    return name in _ATOMIC_VIEWS or (
        name == "changelist_view" and getattr(model_admin, "atomic_actions", False)
    )


def _admin_busy_page(request: HttpRequest, message: str) -> HttpResponse:
    """The wait's message in the admin's own layout (409, as a ``Busy`` is anywhere),
    with the way back to the page whose change was not saved."""
    context = {
        **admin.site.each_context(request),
        "title": HEADINGS[ErrorKind.CONFLICT.value],
        "message": message,
        "again": request.path,
    }
    return render(request, "web/admin_busy.html", context, status=ErrorKind.CONFLICT.http_status)


def _waited_for(request: HttpRequest) -> str:
    """What could not be done, as a lock wait's message begins (services.locks)."""
    return "Showing this page" if request.method in ("GET", "HEAD") else "Saving this change"
