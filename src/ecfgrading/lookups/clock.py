"""The site's own "today": the day public pages, the provisional grades and the
federation's API reason from.

In production it is the clock's day in the federation's time zone. A site whose data
lives in another time fixes it with the ``SITE_TODAY`` setting (``ECFGRADING_TODAY``, or
the date in ``ECFGRADING_HOME/today``, which ``ecfgrading demo`` writes: the demo's
world ends in December 2015, docs/deploy.md). Audit times, mail and the back office's
deadlines keep the clock: they record and schedule what happens now.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone


def today() -> dt.date:
    """The day the public site reasons from: the setting's, else the clock's."""
    fixed: dt.date | None = getattr(settings, "SITE_TODAY", None)
    return fixed if fixed is not None else timezone.localdate()


def not_after_today(moment: dt.datetime | None) -> dt.datetime | None:
    """``moment``, or the last instant of the site's today when it is later: no page says
    that something happened after the day it reasons from (a demo built in 2026 about a
    world of 2015; on the clock nothing recorded is later than now)."""
    if moment is None:
        return None
    day = today()
    if timezone.localdate(moment) <= day:
        return moment
    return dt.datetime.combine(day, dt.time.max, tzinfo=timezone.get_current_timezone())
