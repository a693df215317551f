"""Errors are pages (or JSON for JSON clients), never tracebacks."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ecfgrading.web.render import json_error, wants_json


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A 404 with the lookup boxes; the message of an Http404 raised by a view is shown."""
    message = _message(exception)
    if wants_json(request):
        return json_error(message or "not found", 404)
    return render(request, "web/404.html", {"message": message}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if wants_json(request):
        return json_error("the server could not answer; try again later", 500)
    return render(request, "web/500.html", status=500)


def _message(exception: Exception | None) -> str:
    if exception is None or not exception.args:
        return ""
    text = exception.args[0]
    return text if isinstance(text, str) else ""
