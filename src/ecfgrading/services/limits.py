"""Rate limits that hold under concurrency (issue 24, case 14): the feedback form, the
password-reset form.

A use is counted before it is allowed, by one atomic increment that returns the new
count: of twenty simultaneous requests against a limit of five, exactly five see a count
of five or less. (Reading the count, then acting, then counting let eight through.) The
counter is Redis's INCR when the shared cache is Redis, else a database row incremented
by one UPDATE, which PostgreSQL's row lock and SQLite's write lock make exact. Windows
are fixed (a limit of 5/h counts from the start of each hour), as django-ratelimit's.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from ecfgrading.registry.models import RateCount

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    """At most ``limit`` uses per ``seconds``."""

    limit: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """'5/h', '20/d', '3/10m' (the settings check the form at start-up)."""
        found = re.fullmatch(r"([0-9]+)/([0-9]*)([smhd])", text.strip())
        if found is None:
            raise ValueError(f"expected a rate such as 5/h, 20/d or 3/10m, got {text!r}")
        count, times, unit = found.groups()
        return cls(int(count), int(times or 1) * _UNITS[unit])


@dataclass(frozen=True)
class Window:
    """One client's counter of one limit in the current window."""

    key: str
    ends_at: dt.datetime

    def seconds_left(self, now: dt.datetime) -> int:
        return max(1, int((self.ends_at - now).total_seconds()))


def window(group: str, who: str, rate: Rate, now: dt.datetime) -> Window:
    """The window ``now`` falls in. ``who`` (an address, an e-mail) is kept only hashed."""
    number = int(now.timestamp()) // rate.seconds
    digest = hashlib.sha256(who.strip().lower().encode()).hexdigest()[:32]
    ends_at = dt.datetime.fromtimestamp((number + 1) * rate.seconds, tz=dt.UTC)
    return Window(f"limit:{group}:{digest}:{number}", ends_at)


def take(group: str, who: str, rate: Rate, *, now: dt.datetime | None = None) -> int | None:
    """Count one use by ``who``: None when it is within the limit, else the seconds until
    the window ends and ``who`` may try again."""
    moment = now or timezone.now()
    current = window(group, who, rate, moment)
    count = _increment(current, moment, 1)
    return None if count <= rate.limit else current.seconds_left(moment)


def give_back(group: str, who: str, rate: Rate, *, now: dt.datetime | None = None) -> None:
    """Uncount a use that was taken and turned out not to count (a form sent back)."""
    moment = now or timezone.now()
    _increment(window(group, who, rate, moment), moment, -1)


def wait_words(seconds: int) -> str:
    """'after 14:35 (in 23 minutes)', in the site's time zone: when a refused client may
    try again."""
    at = timezone.localtime(timezone.now() + dt.timedelta(seconds=seconds))
    minutes = -(-seconds // 60)
    span = "1 minute" if minutes == 1 else f"{minutes} minutes"
    return f"after {at:%H:%M} (in {span})"


def _increment(current: Window, now: dt.datetime, delta: int) -> int:
    if isinstance(caches["default"], RedisCache):
        return _in_redis(current, now, delta)
    return _in_the_database(current, now, delta)


def _in_redis(current: Window, now: dt.datetime, delta: int) -> int:
    """SET NX, then INCR: both atomic in Redis."""
    cache = caches["default"]
    timeout = current.seconds_left(now) + 1
    for _ in range(2):  # the key may expire between the two: once more
        cache.add(current.key, 0, timeout)
        try:
            return int(cache.incr(current.key, delta))
        except ValueError:
            continue
    return int(cache.incr(current.key, delta))


def _in_the_database(current: Window, now: dt.datetime, delta: int) -> int:
    """INSERT if missing, then one UPDATE count = count + delta: a second request waits
    on the first's row lock (PostgreSQL) or write lock (SQLite) and counts after it."""
    RateCount.objects.filter(ends_at__lt=now).delete()  # windows past: forgotten
    with transaction.atomic():
        RateCount.objects.bulk_create(
            [RateCount(key=current.key, count=0, ends_at=current.ends_at)],
            ignore_conflicts=True,
        )
        counted = RateCount.objects.filter(key=current.key)
        if delta < 0:
            counted = counted.filter(count__gte=-delta)
        counted.update(count=F("count") + delta)
        return int(RateCount.objects.values_list("count", flat=True).get(key=current.key))
