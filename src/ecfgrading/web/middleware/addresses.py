"""An address too long to be a lookup is refused with the site's error page (414).

gunicorn reads request lines up to its maximum, 8,190 bytes (``ecfgrading serve`` sets
it); below that, Django answers. A query of some kilobytes is a pasted text or a robot,
never a name: the site says so in its own layout, with the lookup box, instead of the
server's bare "URI Too Long". Beyond 8,190 bytes gunicorn still answers itself.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

from ecfgrading.web.errors import error_page, json_error

# The longest address read (path and query, as sent): gunicorn's own default request-line
# limit, so nothing that was answered before is refused now.
LONGEST_ADDRESS = 4094
# Addresses whose every answer is JSON, whatever the Accept header says (the APIs).
JSON_ONLY = ("/api/", "/v2/")


class LongAddressMiddleware:
    """A request whose address is longer than ``LONGEST_ADDRESS`` gets the 414 page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        length = len(request.get_full_path())
        if length <= LONGEST_ADDRESS:
            return self.get_response(request)
        message = (
            f"This address is {length:,} characters long; the site reads addresses of up "
            f"to {LONGEST_ADDRESS:,}. A surname and an initial or two find a player."
        )
        if request.path.startswith(JSON_ONLY):
            return json_error(414, message)
        return error_page(request, 414, message)
