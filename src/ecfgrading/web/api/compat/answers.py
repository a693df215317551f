"""Bodies of the federation's rating-API shapes, with ETags, kept in the shared cache.

Every v2 answer, and the rating list as CSV, is a function of its route, of what has
been published, received and identified since (``freshness.data_token``) and of the day
(a date left out means today): its bytes are kept in the shared cache under those, so a
name search or the national list is made once per change, not once per request, and a
conditional request whose ETag still matches gets 304 before anything is read. The REST
shapes' short answers (a player, a rating, games, a club) are made afresh in a few
indexed queries; their ETag is a digest of their content. A rating list carries
``Last-Modified`` besides, the publication time of the versions it holds, so that a
program that keeps a date rather than an ETag asks with ``If-Modified-Since``
(RFC 9110 13.2.2: an ``If-None-Match`` is read first, and then the date is not).

The v2 bodies carry this request's processing times besides (``meter``), so their
content is kept without them and completed per request, and their ETag is weak: the
same answer, not the same bytes. Every failure a user can cause (an unknown code, a bad
date) is a ``ServiceError``: the v2 shape answers it with ``success: false`` and its
message, as JSON with status 200, as the federation's service answers (its clients read
``success``); the REST shape with ``{"success": false, "message": ...}`` and the status
its kind names (404 for no one, 400 for a parameter missing or malformed), as the REST
clients tell "no such player" from "service unavailable" by the status. That is this
door's one mapping of the error contract (``attempt``); its shapes are the federation's
wire contract, not the site's JSON error body (``web.errors``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date

from ecfgrading.lookups.clock import today
from ecfgrading.lookups.freshness import data_token
from ecfgrading.services.errors import ServiceError
from ecfgrading.web.api.compat import meter

JSON = "application/json"
CSV = "text/csv; charset=utf-8"
MAX_AGE = 60  # clients may reuse an answer this long before asking again (with its ETag)
# Part of every kept answer's key: a release that changes a shape serves no answer kept
# in the shared cache by an earlier one (issue 22 changed categories and columns).
SHAPES = 2

Build = Callable[[], Any]


@dataclass(frozen=True)
class Made:
    """An answer's content: whether it succeeded, its bytes (for v2, its JSON members
    without braces, completed per request) and its status."""

    success: bool
    body: bytes
    status: int = 200

    @property
    def digest(self) -> str:
        return hashlib.sha1(self.body).hexdigest()[:24]


def dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def last_modified(published: dt.datetime | None) -> int | None:
    """A publication time in whole seconds since the epoch, as HTTP dates carry it (a
    client's ``If-Modified-Since`` copied from ``Last-Modified`` must compare equal)."""
    return None if published is None else int(published.timestamp())


class Answering:
    """One request's answer: its validators (ETag, Last-Modified) and its processing
    time so far."""

    def __init__(
        self,
        request: HttpRequest,
        tag: str,
        *,
        weak: bool,
        modified: dt.datetime | None = None,
        started: float | None = None,
    ) -> None:
        self.request = request
        self.started = time.perf_counter() if started is None else started
        self.etag = f'{"W/" if weak else ""}"{tag}"'
        self.modified = last_modified(modified)

    def unchanged(self) -> HttpResponseBase | None:
        """304 Not Modified when the client's copy is still this answer, by its ETag
        (``If-None-Match``) or, without one, its date (``If-Modified-Since``), as RFC
        9110 13.2.2 orders them (Django's ``get_conditional_response``); else None."""
        found: HttpResponseBase | None = get_conditional_response(
            self.request, etag=self.etag, last_modified=self.modified
        )
        return None if found is None else self.headed(found)

    def respond(self, body: bytes, content_type: str) -> HttpResponse:
        """The answer, with its validators and caching headers."""
        response = HttpResponse(body, content_type=content_type)
        self.headed(response)
        return response

    def headed(self, response: HttpResponseBase) -> HttpResponseBase:
        response["ETag"] = self.etag
        if self.modified is not None:
            response["Last-Modified"] = http_date(self.modified)
        patch_cache_control(response, public=True, max_age=MAX_AGE)
        return response

    def meta(self, success: bool) -> dict[str, Any]:
        """``success`` and the processing times (``meter``), measured until now."""
        return processing(self.request, self.started, success)


def processing(request: HttpRequest, started: float, success: bool) -> dict[str, Any]:
    """``success`` and the processing times (``meter``) of a request begun at ``started``."""
    spent = time.perf_counter() - started
    total = meter.add_time(request, spent)
    return {
        "success": success,
        "processing_time": round(spent, 4),
        "total_processing_time_today": round(total, 4),
        "max_processing_time_daily": meter.MAX_PROCESSING_TIME_DAILY,
    }


def kept(route: str, make: Callable[[], Made]) -> tuple[str, Callable[[], Made]]:
    """A long answer's tag (from the data token, the day and the route) and a function
    that gives its content from the shared cache, made there once."""
    day = today().isoformat()
    tag = hashlib.sha1(f"{SHAPES}|{data_token()}|{day}|{route}".encode()).hexdigest()[:24]

    def content() -> Made:
        found: Made | None = cache.get(f"compat:{tag}")
        if found is None:
            found = make()
            cache.set(f"compat:{tag}", found)
        return found

    return tag, content


def attempt(build: Build) -> tuple[Any, ServiceError | None]:
    """``build()`` and None, or None and the ServiceError it raised: the one place this
    door meets the error contract."""
    try:
        return build(), None
    except ServiceError as error:
        return None, error


def v2_members(build: Build) -> Made:
    """The answer's JSON members, or on a ServiceError a failure's ``message``."""
    payload, refused = attempt(build)
    if refused is not None:
        return Made(False, dumps({"message": refused.message})[1:-1])
    return Made(True, dumps(payload)[1:-1])


def v2_json(
    request: HttpRequest,
    build: Build,
    *,
    keep: str | None = None,
    modified: dt.datetime | None = None,
) -> HttpResponseBase:
    """A v2 body: ``success`` and the processing times, then the answer's members; kept
    in the shared cache under the route ``keep`` when given (a long answer); dated
    ``modified`` (a rating list's publication) when given."""
    started = time.perf_counter()
    if keep is None:
        made = v2_members(build)
        tag = made.digest
    else:
        tag, content = kept(keep, lambda: v2_members(build))
    answering = Answering(request, tag, weak=True, modified=modified, started=started)
    unchanged = answering.unchanged()
    if unchanged is not None:
        answering.meta(True)  # a 304 costs a little time too
        return unchanged
    if keep is not None:
        made = content()
    head = dumps(answering.meta(made.success))[:-1]
    body = head + (b"," + made.body if made.body else b"") + b"}"
    return answering.respond(body, JSON)


def v2_failure(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """A request no route answers: ``success: false`` and why, with ``status``."""
    body = dumps({**processing(request, time.perf_counter(), False), "message": message})
    return uncached(HttpResponse(body, content_type=JSON, status=status))


def uncached(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-cache"
    return response


def rest_body(build: Build) -> Made:
    """The newer REST shape: ``{"success": ..., "message": ..., "data": ...}``; a
    ServiceError is ``success: false`` with the status its kind names."""
    data, refused = attempt(build)
    if refused is not None:
        return rest_refused(refused.message, refused.kind.http_status)
    return Made(True, dumps({"success": True, "message": "", "data": data}))


def rest_refused(message: str, status: int) -> Made:
    return Made(False, dumps({"success": False, "message": message, "data": None}), status)


def rest_json(request: HttpRequest, build: Build) -> HttpResponseBase:
    return rest_answer(request, rest_body(build))


def rest_answer(request: HttpRequest, made: Made) -> HttpResponseBase:
    """A REST answer; a failure is not cached (the next request may find what it asks)."""
    if made.status != 200:
        return uncached(HttpResponse(made.body, content_type=JSON, status=made.status))
    answering = Answering(request, made.digest, weak=False)
    unchanged = answering.unchanged()
    return answering.respond(made.body, JSON) if unchanged is None else unchanged


def csv_file(
    request: HttpRequest,
    route: str,
    filename: str,
    make: Callable[[], bytes],
    modified: dt.datetime | None,
) -> HttpResponseBase:
    """A CSV download, named ``filename``, of the bytes ``make`` gives (a long answer),
    dated ``modified`` (the publication of the lists it holds)."""
    tag, content = kept(f"csv|{route}", lambda: Made(True, make()))
    answering = Answering(request, tag, weak=False, modified=modified)
    unchanged = answering.unchanged()
    if unchanged is not None:
        return unchanged
    response = answering.respond(content().body, CSV)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
