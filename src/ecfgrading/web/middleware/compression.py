"""Public pages and JSON go out gzipped; anything that may hold a secret goes out as is.

Compression next to a secret is the BREACH attack: a page that repeats what the visitor
sent (a lookup echoes its query) and also carries a secret (a CSRF token, a signed-in
user's data) leaks the secret through the compressed size, one guessed character at a
time. The rule is therefore about the response, not a list of pages. A response is
compressed only when it is the same for everyone:

- the request is a GET or HEAD, outside the back office and the admin;
- it is HTML, JSON or CSV (stylesheets and scripts are whitenoise's, compressed once at
  ``collectstatic``);
- it sets no cookie and does not vary by cookie: Django's session and CSRF middleware add
  ``Vary: Cookie`` to every response that read the session or put a CSRF token in the
  page (a form, the login, anything signed in);
- it is not marked ``private`` or ``no-store``.

gzip it is: brotli compresses HTML a little better but needs a package the project does
not install, and gzip is what every client accepts. Django's ``GZipMiddleware`` does the
work (its random padding is Django's own BREACH mitigation, kept); it turns the ETag weak,
which the page caches accept (``web.caching`` and ``web.memory`` compare tags weakly).
This middleware is the outermost, so the page memory keeps a page uncompressed and any
client gets it in the encoding it asked for.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.urls import NoReverseMatch
from django.utils.cache import patch_vary_headers

from ecfgrading.web.reversed import reversed_once

# What is worth compressing: the pages, their JSON twins and the API, the list downloads.
COMPRESSED_TYPES = ("text/html", "application/json", "text/csv")


def _private_prefixes() -> tuple[str, ...]:
    """Where the staff work: never compressed, whatever a response says of itself (an
    address configuration without them, as some tests use, has none)."""
    prefixes = []
    for name in ("backoffice:home", "admin:index"):
        try:
            prefixes.append(reversed_once(name))
        except NoReverseMatch:
            continue
    return tuple(prefixes)


def holds_no_secret(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether the response is one anyone would be sent (the module's rule)."""
    if request.method not in ("GET", "HEAD") or request.path.startswith(_private_prefixes()):
        return False
    if response.cookies or "cookie" in response.get("Vary", "").lower():
        return False
    cache_control = response.get("Cache-Control", "").lower()
    return "private" not in cache_control and "no-store" not in cache_control


def _compressible(response: HttpResponseBase) -> bool:
    kind = response.get("Content-Type", "").split(";", 1)[0].strip().lower()
    return kind in COMPRESSED_TYPES or response.status_code == 304


class PublicCompressionMiddleware(GZipMiddleware):
    """Django's gzip, applied to the responses that hold no secret."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not (_compressible(response) and holds_no_secret(request, response)):
            return response
        if response.status_code == 304:
            return _not_modified(request, response)
        return super().process_response(request, response)  # type: ignore[no-any-return]


def _not_modified(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """A 304 names the representation the client holds: the gzipped one's weak ETag."""
    patch_vary_headers(response, ("Accept-Encoding",))
    etag = response.get("ETag", "")
    asks = re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    if etag.startswith('"') and asks:
        response.headers["ETag"] = "W/" + etag
    return response
