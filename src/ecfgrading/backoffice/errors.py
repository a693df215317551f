"""The back office's one mapping of the error contract (``ecfgrading.errors``).

Every back-office view is an ``office_view``: it admits the roles it names
(``access.role_required``), and a ``ServiceError`` escaping it is the back office's error
page with its message, the status by its kind (INVALID 400, NOT_FOUND 404, CONFLICT 409:
``ErrorKind.http_status``). So a view never turns an error into a status itself; it
catches a ``ServiceError`` only to say the refusal where the request was made, through
one of two helpers, and a test holds every view to that (tests/backoffice/test_errors.py):

- ``refused``: the form's page again, with the message (``failure`` in its context),
  the status again by kind;
- ``refused_back``: a button's refusal said on the page it came from (a redirect there,
  with the message). What the button names being gone is not a refusal: it escapes to
  the error page (404), as a guessed id does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from ecfgrading.backoffice.access import role_required
from ecfgrading.errors import ErrorKind, ServiceError
from ecfgrading.lookups.roles import Role
from ecfgrading.web.errors import HEADINGS

View = Callable[..., HttpResponse]

# Set on every view ``office_view`` made, so that a test can find a URL without it.
MAPPED = "office_view"


def office_view(*roles: Role) -> Callable[[View], View]:
    """A back-office view: ``roles`` only, and a ServiceError escaping it is the error
    page (``error_page``)."""
    admit = role_required(*roles)

    def decorate(view: View) -> View:
        return open_view(admit(view))

    return decorate


def open_view(view: View) -> View:
    """A back-office view open to anyone (the forgotten-password form): the same error
    page for a ServiceError, no role asked."""

    @wraps(view)
    def mapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ServiceError as error:
            return error_page(request, error)

    setattr(mapped, MAPPED, True)
    return mapped


def error_page(request: HttpRequest, error: ServiceError) -> HttpResponse:
    """The error page in the back office's layout (the site's words for each kind)."""
    context = {"heading": HEADINGS[error.kind.value], "message": error.message}
    return render(request, "backoffice/error.html", context, status=error.kind.http_status)


def refused(
    request: HttpRequest, template: str, context: Mapping[str, Any], error: ServiceError
) -> HttpResponse:
    """The form's page again, saying why the request was refused."""
    shown = {**context, "failure": error.message}
    return render(request, template, shown, status=error.kind.http_status)


def refused_back(
    request: HttpRequest, error: ServiceError, to: str, *, prefix: str = ""
) -> HttpResponse:
    """Back to the page the button is on (``to``), saying why nothing was done."""
    if error.kind is ErrorKind.NOT_FOUND:
        raise error
    messages.error(request, f"{prefix}{error.message}")
    return redirect(to)
