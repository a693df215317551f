"""Pages and their JSON twins (datasette's idea): one view, two representations.

A view builds its template context and a plain ``data`` value (dicts, lists, strings,
numbers, ISO dates); ``respond`` sends HTML, or JSON when the request asks for it by
``?format=json`` or an ``Accept`` header that prefers ``application/json``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

JSON = "application/json"


def wants_json(request: HttpRequest) -> bool:
    """``?format=json``, or an Accept header that ranks JSON above HTML."""
    asked = request.GET.get("format")
    if asked is not None:
        return asked == "json"
    accept = request.headers.get("Accept", "")
    if JSON not in accept:
        return False
    return "text/html" not in accept or accept.index(JSON) < accept.index("text/html")


def respond(
    request: HttpRequest,
    template: str,
    context: Mapping[str, Any],
    *,
    data: Any,
    status: int = 200,
) -> HttpResponse:
    """The page, or its JSON twin; both vary on Accept."""
    if wants_json(request):
        response: HttpResponse = JsonResponse(
            plain(data), status=status, safe=False, json_dumps_params={"ensure_ascii": False}
        )
    else:
        response = render(request, template, dict(context), status=status)
    response["Vary"] = "Accept"
    return response


def plain(value: Any) -> Any:
    """Dataclasses, enums and dates as JSON values (dates in ISO form)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    return value


def dumps(value: Any) -> str:
    return json.dumps(plain(value), ensure_ascii=False)
