"""The first months of the season after the demo's last list: results received, not graded.

After the August 2012 lists the grading team receives the new season's first results:
congresses, rapidplays and junior events played from June to November 2012 (leagues and
club championships report when their season is over). They are imported, and their
players identified, but no list is computed from them: they are what a player page's
"next list" shows, with a provisional grade.

The new season draws from its own generator (seeded by the demo's seed), so the three
demo seasons, their files and their lists are the same bytes with or without it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import numpy as np

from ecfgrading.demo.events import PlayedEvent, World
from ecfgrading.demo.people import IDLE_SHARE, LEAVER_SHARE, People, ages_at_season_start, drifted
from ecfgrading.demo.schedule import AUGUST_CUTOFF, NEXT_SEASON_CUTOFF, received_on
from ecfgrading.demo.seasons import SEASONS
from ecfgrading.demo.tournaments import (
    CONGRESS,
    JUNIOR_CONGRESS,
    JUNIOR_RAPID,
    LIGHTNING,
    RAPIDPLAY,
    Format,
    tournaments,
)

NEXT_SEASON = SEASONS  # 2012-13, after the demo's last season
LAST_PLAYED = date(2012, 11, 30)  # the first events of the season: June to November
# The grading team turns to the new season's files once the August lists are out, and
# has them all by mid-December.
FIRST_RECEIVED = date(2012, *AUGUST_CUTOFF) + timedelta(days=1)
SEASON_SHARE = 0.22  # of a full season's games: the tournaments of June to November
FORMATS: tuple[tuple[Format, float, int], ...] = (
    (CONGRESS, 0.4, 2),  # (format, share of the part season, at least this many events)
    (RAPIDPLAY, 0.36, 2),
    (JUNIOR_RAPID, 0.12, 1),
    (JUNIOR_CONGRESS, 0.1, 1),
    (LIGHTNING, 0.02, 1),  # not graded (G2)
)


def next_season_events(world: World) -> tuple[People, list[PlayedEvent]]:
    """The players as they start 2012-13, and the events they play up to November."""
    rng = np.random.default_rng([world.seed, NEXT_SEASON])
    people = continued(rng, world.people)
    later = replace(world, rng=rng, people=people, _juniors={}, _counties={})
    events: list[PlayedEvent] = []
    budget = world.size.games * SEASON_SHARE
    for fmt, share, least in FORMATS:
        autumn = replace(fmt, months=(6, 11))
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
