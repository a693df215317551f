"""The demo's seasons (1 June .. 31 May) and the days events are played on.

Season 0 is 2008-09, before the demo starts: the starting list (2009-07) is its list.
Seasons 1..6 are 2009-10 to 2014-15, played out as results files: the last two annual
standard lists (ecf-2009, to 2011-07), the half-year lists of ecf-2012 (2012-01 to
2014-07) and the first of ecf-2015 (2015-01, 2015-07).
"""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np

Rng = np.random.Generator

SEASONS = 7  # 0 (the starting list's) and the six demo seasons
DEMO_SEASONS = (1, 2, 3, 4, 5, 6)
FIRST_YEAR = 2008  # season 0 starts on 1 June 2008


def season_start(season: int) -> date:
    return date(FIRST_YEAR + season, 6, 1)


def season_end(season: int) -> date:
    return date(FIRST_YEAR + season + 1, 5, 31)


def season_label(season: int) -> str:
    """'2009-10', as leagues name their seasons."""
    year = FIRST_YEAR + season
    return f"{year}-{(year + 1) % 100:02d}"


def age_date(season: int) -> date:
    """31 August at the start of a season: junior sections go by age on this day."""
    return date(FIRST_YEAR + season, 8, 31)


def season_fraction(season: int, day: date) -> float:
    """How far through its season a day is, 0..1."""
    start, end = season_start(season), season_end(season)
    return (day - start).days / (end - start).days


def weekends(season: int, first_month: int = 6, last_month: int = 5) -> list[date]:
    """Saturdays of a season from ``first_month`` to ``last_month`` (months in season order)."""
    order = [6, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5]
    months = set(order[order.index(first_month) : order.index(last_month) + 1])
    day = season_start(season)
    day += timedelta(days=(5 - day.weekday()) % 7)
    found = []
    while day <= season_end(season):
        if day.month in months and not _christmas(day):
            found.append(day)
        day += timedelta(weeks=1)
    return found


def _christmas(day: date) -> bool:
    return (day.month == 12 and day.day >= 22) or (day.month == 1 and day.day <= 2)


def weeknight(rng: Rng, week_of: date) -> date:
    """A Monday to Thursday evening in the week of ``week_of``: league and club nights."""
    monday = week_of - timedelta(days=week_of.weekday())
    return monday + timedelta(days=int(rng.integers(4)))


def spread(first: date, last: date, count: int) -> list[date]:
    """``count`` days evenly spaced from ``first`` to ``last``."""
    if count <= 1:
        return [first]
    step = (last - first).days / (count - 1)
    return [first + timedelta(days=round(step * k)) for k in range(count)]
