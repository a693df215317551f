"""Bodies of the federation's rating-API shapes, with ETags, kept in the shared cache.

Every v2 answer, and the rating list as CSV, is a function of its route, of what has
been published, received and identified since (``freshness.data_token``) and of the day
(a date left out means today): its bytes are kept in the shared cache under those, so a
name search or the national list is made once per change, not once per request, and a
conditional request whose ETag still matches gets 304 before anything is read. The REST
shapes' short answers (a player, a rating, games, a club) are made afresh in a few
indexed queries; their ETag is a digest of their content.

The v2 bodies carry this request's processing times besides (``meter``), so their
content is kept without them and completed per request, and their ETag is weak: the
same answer, not the same bytes. Every failure a user can cause (an unknown code, a bad
date) is a ``ServiceError`` turned into ``success: false`` with its message, as JSON with
status 200, as the federation's service answers: its clients read ``success``. That is
this door's one mapping of the error contract (``attempt``); its shape is the
federation's wire contract, not the site's JSON error body (``web.errors``).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_cache_control

from ecfgrading.lookups.freshness import data_token
from ecfgrading.services.errors import ServiceError
from ecfgrading.web.api.compat import meter

JSON = "application/json"
CSV = "text/csv; charset=utf-8"
MAX_AGE = 60  # clients may reuse an answer this long before asking again (with its ETag)

Build = Callable[[], Any]


@dataclass(frozen=True)
class Made:
    """An answer's content: whether it succeeded and its bytes (for v2, its JSON members
    without braces, completed per request)."""

    success: bool
    body: bytes

    @property
    def digest(self) -> str:
        return hashlib.sha1(self.body).hexdigest()[:24]


def dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


class Answering:
    """One request's answer: its ETag, and its processing time so far."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request
        self.started = time.perf_counter()

    def fresh(self, tag: str) -> bool:
        """The client's copy (If-None-Match) is still the answer tagged ``tag``."""
        header = self.request.headers.get("If-None-Match", "")
        tags = {t.strip().removeprefix("W/") for t in header.split(",") if t.strip()}
        return f'"{tag}"' in tags

    def respond(
        self, body: bytes | None, content_type: str, tag: str, *, weak: bool
    ) -> HttpResponse:
        """The answer (None: 304 Not Modified) with its ETag and caching headers."""
        if body is None:
            response: HttpResponse = HttpResponseNotModified()
        else:
            response = HttpResponse(body, content_type=content_type)
        response["ETag"] = f'{"W/" if weak else ""}"{tag}"'
        patch_cache_control(response, public=True, max_age=MAX_AGE)
        return response

    def meta(self, success: bool) -> dict[str, Any]:
        """``success`` and the processing times (``meter``), measured until now."""
        spent = time.perf_counter() - self.started
        total = meter.add_time(self.request, spent)
        return {
            "success": success,
            "processing_time": round(spent, 4),
            "total_processing_time_today": round(total, 4),
            "max_processing_time_daily": meter.MAX_PROCESSING_TIME_DAILY,
        }


def kept(route: str, make: Callable[[], Made]) -> tuple[str, Callable[[], Made]]:
    """A long answer's tag (from the data token, the day and the route) and a function
    that gives its content from the shared cache, made there once."""
    day = timezone.localdate().isoformat()
    tag = hashlib.sha1(f"{data_token()}|{day}|{route}".encode()).hexdigest()[:24]

    def content() -> Made:
        found: Made | None = cache.get(f"compat:{tag}")
        if found is None:
            found = make()
            cache.set(f"compat:{tag}", found)
        return found

    return tag, content


def attempt(build: Build) -> tuple[Any, str | None]:
    """``build()`` and None, or None and the message of the ServiceError it raised: the
    one place this door meets the error contract (every kind is ``success: false``)."""
    try:
        return build(), None
    except ServiceError as error:
        return None, error.message


def v2_members(build: Build) -> Made:
    """The answer's JSON members, or on a ServiceError a failure's ``message``."""
    payload, refused = attempt(build)
    if refused is not None:
        return Made(False, dumps({"message": refused})[1:-1])
    return Made(True, dumps(payload)[1:-1])


def v2_json(request: HttpRequest, build: Build, *, keep: str | None = None) -> HttpResponse:
    """A v2 body: ``success`` and the processing times, then the answer's members; kept
    in the shared cache under the route ``keep`` when given (a long answer)."""
    answering = Answering(request)
    if keep is None:
        made = v2_members(build)
        tag = made.digest
    else:
        tag, content = kept(keep, lambda: v2_members(build))
    if answering.fresh(tag):
        answering.meta(True)  # a 304 costs a little time too
        return answering.respond(None, JSON, tag, weak=True)
    if keep is not None:
        made = content()
    head = dumps(answering.meta(made.success))[:-1]
    body = head + (b"," + made.body if made.body else b"") + b"}"
    return answering.respond(body, JSON, tag, weak=True)


def v2_failure(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """A request no route answers: ``success: false`` and why, with ``status``."""
    answering = Answering(request)
    body = dumps({**answering.meta(False), "message": message})
    response = HttpResponse(body, content_type=JSON, status=status)
    response["Cache-Control"] = "no-cache"
    return response


def rest_body(build: Build) -> Made:
    """The newer REST shape: ``{"success": ..., "message": ..., "data": ...}``."""
    data, refused = attempt(build)
    if refused is not None:
        return rest_refused(refused)
    return Made(True, dumps({"success": True, "message": "", "data": data}))


def rest_refused(message: str) -> Made:
    return Made(False, dumps({"success": False, "message": message, "data": None}))


def rest_json(request: HttpRequest, build: Build) -> HttpResponse:
    return rest_answer(request, rest_body(build))


def rest_answer(request: HttpRequest, made: Made) -> HttpResponse:
    answering = Answering(request)
    body = None if answering.fresh(made.digest) else made.body
    return answering.respond(body, JSON, made.digest, weak=False)


def csv_file(
    request: HttpRequest, route: str, filename: str, make: Callable[[], bytes]
) -> HttpResponse:
    """A CSV download, named ``filename``, of the bytes ``make`` gives (a long answer)."""
    answering = Answering(request)
    tag, content = kept(f"csv|{route}", lambda: Made(True, make()))
    if answering.fresh(tag):
        return answering.respond(None, CSV, tag, weak=False)
    response = answering.respond(content().body, CSV, tag, weak=False)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
