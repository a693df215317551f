"""Each worker's memory of the public pages it has served, answered before the rest of
the middleware runs.

A cached page (``web.caching.cached_page``) is a function of its URL, its representation
and the data token; once made under a token it never changes. The outermost middleware
keeps the last version of each page this process sent, whole (status, body and every
header the middleware stack added), under the token it was made for. A repeat request is
answered from here when the token still matches, after one query for the token and no
other work: no session, authentication, template, shared-cache round trip or header
building. A new token (anything published, received or identified since) makes every
remembered page stale at once; the request then goes down the stack as before.

Only responses ``cached_page`` marked are remembered, and only those that set no cookie
and do not vary by cookie: what the memory sends is exactly what the stack would send to
anyone. The memory is bounded (``ECFGRADING_PAGE_MEMORY_MB``, 32 MB by default; 0 turns
it off) and forgets the least recently used pages first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseNotModified,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
)

from ecfgrading.lookups.freshness import data_token

# Statuses a page is kept with, here and in the shared cache (web.caching): a page, a page
# not found, and where a lookup sends (a code typed in the player lookup redirects to the
# player; the data token keys that answer too).
KEPT = (200, 301, 302, 404)
# What ``cached_page`` sets on a response it may be remembered under: (slot, token, etag).
MARK = "_ecfgrading_page"

Slot = tuple[str, str]  # (representation, full path)


@dataclass(frozen=True)
class Remembered:
    token: str
    etag: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


class PageMemory:
    """A least-recently-used map of slot -> page, bounded by the bytes of the bodies."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.size = 0
        self._pages: OrderedDict[Slot, Remembered] = OrderedDict()
        self._lock = threading.Lock()  # gunicorn may run threads

    def get(self, slot: Slot) -> Remembered | None:
        with self._lock:
            page = self._pages.get(slot)
            if page is not None:
                self._pages.move_to_end(slot)
            return page

    def put(self, slot: Slot, page: Remembered) -> None:
        if len(page.body) > self.capacity // 8:
            return  # a whole list file: the shared cache keeps it
        with self._lock:
            old = self._pages.pop(slot, None)
            if old is not None:
                self.size -= len(old.body)
            self._pages[slot] = page
            self.size += len(page.body)
            while self.size > self.capacity:
                _, dropped = self._pages.popitem(last=False)
                self.size -= len(dropped.body)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self.size = 0


def _capacity() -> int:
    return int(float(getattr(settings, "PAGE_MEMORY_MB", 32)) * 1024 * 1024)


MEMORY = PageMemory(_capacity())


def slot_of(request: HttpRequest, json: bool) -> Slot:
    return ("json" if json else "html", request.get_full_path())


class PageMemoryMiddleware:
    """Outermost: a remembered page under the current token is sent as it was."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if MEMORY.capacity <= 0 or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        found = _recall(request)
        if found is not None:
            return found
        response = self.get_response(request)
        _remember(response)
        return response


def _recall(request: HttpRequest) -> HttpResponseBase | None:
    from ecfgrading.web.render import wants_json

    page = MEMORY.get(slot_of(request, wants_json(request)))
    if page is None or page.token != data_token():
        return None
    if page.etag in _tags(request):
        response: HttpResponseBase = HttpResponseNotModified()
        for name, value in page.headers:
            if name.lower() not in ("content-length", "content-type"):
                response[name] = value
        return response
    response = rebuilt(page.status, page.body, dict(page.headers).get("Location", ""))
    for name, value in page.headers:
        response[name] = value
    return response


def rebuilt(status: int, body: bytes, location: str) -> HttpResponse:
    """A kept page as a response again; a redirect as Django's own (``.url`` and all)."""
    if status in (301, 302) and location:
        moved = HttpResponsePermanentRedirect if status == 301 else HttpResponseRedirect
        return moved(location, content=body)
    return HttpResponse(body, status=status)


def _remember(response: HttpResponseBase) -> None:
    mark = getattr(response, MARK, None)
    if mark is None or not isinstance(response, HttpResponse) or response.cookies:
        return
    if "cookie" in response.get("Vary", "").lower() or response.status_code not in KEPT:
        return
    slot, token, etag = mark
    headers = tuple((name, value) for name, value in response.items() if name != "Set-Cookie")
    MEMORY.put(slot, Remembered(token, etag, response.status_code, headers, response.content))


def _tags(request: HttpRequest) -> list[str]:
    header = request.headers.get("If-None-Match", "")
    return [tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()]
