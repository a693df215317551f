"""Processing time, as the federation's rating API reports it in every JSON body.

The federation's service allows each network (a class C, /24, of addresses) ten
minutes of processing a day, reset at midnight GMT, and says so in every answer:
``processing_time`` (this request), ``total_processing_time_today`` (the network's
requests today, this one included) and ``max_processing_time_daily``, all in seconds.
We report the same honestly: the time is measured around the view, and the day's
totals are kept in the shared cache (``settings.CACHES``), so that every app server
adds to one total. This server reports the allowance but does not refuse requests
beyond it (docs/api.md says so): clients that pace themselves by it keep working.
"""

from __future__ import annotations

import datetime as dt
import ipaddress

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

MAX_PROCESSING_TIME_DAILY = 600  # seconds a day per network, as the federation's service
_MICROSECONDS = 1_000_000
_KEEP_SECONDS = 2 * 24 * 3600  # a day's total outlives its day, then goes


def network(request: HttpRequest) -> str:
    """The client's /24 (IPv4) or /48 (IPv6) network; behind a proxy, the address in the
    header ``settings.RATELIMIT_IP_META_KEY`` names (as the feedback form's rate limit)."""
    header = getattr(settings, "RATELIMIT_IP_META_KEY", None) or "REMOTE_ADDR"
    text = str(request.META.get(header, "")).split(",")[0].strip()
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return "unknown"
    prefix = 24 if address.version == 4 else 48
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))


def add_time(request: HttpRequest, seconds: float) -> float:
    """Add ``seconds`` to the network's total for today (GMT); the new total, in seconds."""
    day = dt.datetime.now(dt.UTC).date().isoformat()
    key = f"compat-time:{day}:{network(request)}"
    spent = max(1, round(seconds * _MICROSECONDS))
    try:
        total = cache.incr(key, spent)  # one write on the common path
    except ValueError:  # the network's first request today
        if cache.add(key, spent, timeout=_KEEP_SECONDS):
            return spent / _MICROSECONDS
        total = cache.incr(key, spent)  # another server added it meanwhile
    return int(total) / _MICROSECONDS
