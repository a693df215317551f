"""Cached public pages with ETags, in the cache every app server shares.

A page is keyed by its full URL, its representation (HTML or JSON), the data token
(``lookups.freshness``): anything published, received or identified since makes
a new token, so a cached page is never stale and needs no invalidation; and the code
deployed (``web.deployed``), so a new deployment never serves an old one's pages. A conditional
request whose ETag still matches gets 304 without the page being rendered.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control

from ecfgrading.lookups.freshness import one_token
from ecfgrading.web.deployed import site_build
from ecfgrading.web.memory import KEPT, MARK, rebuilt, slot_of
from ecfgrading.web.render import wants_json

View = Callable[..., HttpResponse]

# Browsers and proxies may reuse a page this long before asking again (with its ETag).
MAX_AGE = 60


def cached_page(view: View) -> View:
    """Serve GET and HEAD from the shared cache; store pages, redirects and 404s."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        with one_token() as token:
            return _cached(view, request, token, *args, **kwargs)

    return wrapper


def _cached(
    view: View, request: HttpRequest, token: str, *args: Any, **kwargs: Any
) -> HttpResponse:
    """The stored page under ``token``, or the view's page stored for the next asker."""
    key = _key(request, token)
    etag = f'"{key.rsplit(":", 1)[-1]}"'
    if etag in _if_none_match(request):
        return _headers(HttpResponseNotModified(), etag)
    stored = cache.get(key)
    if stored is not None:
        status, content_type, body, *moved = stored
        response = rebuilt(status, body, moved[0] if moved else "")
        response["Content-Type"] = content_type
    else:
        response = view(request, *args, **kwargs)
        if response.status_code in KEPT and not response.streaming:
            kept = (response.status_code, response["Content-Type"], response.content)
            cache.set(key, (*kept, response.get("Location", "")))
    # The worker's own memory may send it again as the stack finished it (web.memory).
    setattr(response, MARK, (slot_of(request, wants_json(request)), token, etag))
    return _headers(response, etag)


def _key(request: HttpRequest, token: str) -> str:
    kind = "json" if wants_json(request) else "html"
    digest = hashlib.sha1(f"{site_build()}|{token}|{kind}|{request.get_full_path()}".encode())
    return f"page:{digest.hexdigest()[:24]}"


def _if_none_match(request: HttpRequest) -> list[str]:
    header = request.headers.get("If-None-Match", "")
    return [tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()]


def _headers(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    response["Vary"] = "Accept"
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response
