"""Errors are pages (or JSON for JSON clients), never tracebacks: Django's 404 and 500
handlers, answering as ``web.errors`` answers a ServiceError (one page, one JSON body)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ecfgrading.web.errors import error_page, json_error
from ecfgrading.web.render import wants_json

NO_PAGE = "There is no page at this address."


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A 404 with the lookup boxes; the message of an Http404 raised by a view is shown."""
    return error_page(request, 404, _message(exception) or NO_PAGE)


def server_error(request: HttpRequest) -> HttpResponse:
    """A plain page that needs nothing the failure may have broken (500.html)."""
    if wants_json(request):
        return json_error(500, "the server could not answer; try again later")
    return render(request, "web/500.html", status=500)


def _message(exception: Exception | None) -> str:
    if exception is None or not exception.args:
        return ""
    text = exception.args[0]
    return text if isinstance(text, str) else ""
