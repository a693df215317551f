"""The first months of the season after the demo's last list: results received, not graded.

After the August 2015 lists the grading team receives the new season's first results:
congresses, rapidplays and junior events played from July to November 2015, in the
half-year after the last list's cut-off (30 June, G32; leagues and club championships
report when their season is over). They are imported, and their players identified, but
no list is computed from them: they are what a player page's "next list" shows, with a
provisional grade.

The new season draws from its own generator (seeded by the demo's seed), so the demo's
six seasons, their files and their lists are the same bytes with or without it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import numpy as np

from ecfgrading.demo.events import PlayedEvent, World
from ecfgrading.demo.people import IDLE_SHARE, LEAVER_SHARE, People, ages_at_season_start, drifted
from ecfgrading.demo.schedule import AUGUST_CUTOFF, NEXT_SEASON, NEXT_SEASON_CUTOFF, received_on
from ecfgrading.demo.seasons import season_start
from ecfgrading.demo.tournaments import (
    CONGRESS,
    JUNIOR_CONGRESS,
    JUNIOR_RAPID,
    LIGHTNING,
    RAPIDPLAY,
    Format,
    tournaments,
)

STARTED = season_start(NEXT_SEASON)  # 1 June 2015: 2015-16, after the demo's last season
FIRST_MONTH = 7  # the first events of the season: July (after the cut-off) to November
LAST_PLAYED = date(STARTED.year, 11, 30)
# The grading team turns to the new season's files once the August lists are out, and
# has them all by mid-December.
FIRST_RECEIVED = date(STARTED.year, *AUGUST_CUTOFF) + timedelta(days=1)
SEASON_SHARE = 0.2  # of a full season's games: the tournaments of July to November
FORMATS: tuple[tuple[Format, float, int], ...] = (
    (CONGRESS, 0.4, 2),  # (format, share of the part season, at least this many events)
    (RAPIDPLAY, 0.36, 2),
    (JUNIOR_RAPID, 0.12, 1),
    (JUNIOR_CONGRESS, 0.1, 1),
    (LIGHTNING, 0.02, 1),  # not graded (G2)
)


def next_season_events(world: World) -> tuple[People, list[PlayedEvent]]:
    """The players as they start 2015-16, and the events they play up to November."""
    rng = np.random.default_rng([world.seed, NEXT_SEASON])
    people = continued(rng, world.people)
    later = replace(world, rng=rng, people=people, _juniors={}, _counties={})
    events: list[PlayedEvent] = []
    budget = world.size.games * SEASON_SHARE
    for fmt, share, least in FORMATS:
        autumn = replace(fmt, months=(FIRST_MONTH, 11))
        events += tournaments(later, NEXT_SEASON, autumn, round(budget * share), least)
    played = [event for event in events if event.last_day <= LAST_PLAYED]
    return people, [replace(e, received=_received(rng, e)) for e in played]


def continued(rng: np.random.Generator, people: People) -> People:
    """One more season of every column that has a column per season."""
    count, last = len(people), NEXT_SEASON - 1
    ages = ages_at_season_start(people, last)
    stays = (people.last == last) & (rng.random(count) >= LEAVER_SHARE)
    strength_after = drifted(rng, people.strength[:, -1], ages)
    return replace(
        people,
        club=np.column_stack([people.club, people.club[:, last]]),
        strength=np.column_stack([people.strength, strength_after]),
        seen=np.column_stack([people.seen, people.strength[:, -1] + rng.normal(0, 6, count)]),
        idle=np.column_stack([people.idle, rng.random(count) < IDLE_SHARE]),
        last=np.where(stays, NEXT_SEASON, people.last),
    )


def _received(rng: np.random.Generator, event: PlayedEvent) -> date:
    return min(max(received_on(rng, event), FIRST_RECEIVED), NEXT_SEASON_CUTOFF)
