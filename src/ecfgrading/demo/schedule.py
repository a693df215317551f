"""When results reach the grading team, and the lists each batch goes into.

Organisers send a file a few weeks after the event, and by the end of its half-year at
the latest (31 December, 30 June: the cut-offs of the half-year lists, G32); leagues and
club championships once their season is over. So the January lists (rapid only to
2011-01, both rates from 2012-01) grade the autumn's tournaments, and the July lists the
whole season. A few files each year come only in July (late results, in time for the
August versions, G26), and one event sends a corrected file with a higher SUBMISSION
INDEX.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

import numpy as np

from ecfgrading.demo.events import EventKind, Games, Played, PlayedEvent, PlayedPart
from ecfgrading.demo.play import LOSS, WIN
from ecfgrading.demo.seasons import (
    DEMO_SEASONS,
    FIRST_YEAR,
    SEASONS,
    season_end,
    season_label,
    season_start,
)
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate

Rng = np.random.Generator

LATE_EVENTS = 3  # a season, received in July: for the August versions
LATE_SEASONS = DEMO_SEASONS
CORRECTED_SEASON = 1
CORRECTED_GAMES = 3  # results the corrected file puts right
INITIAL, AUGUST = "initial", "august"
RAPID = Rate.RAPID
LATE_KINDS = (EventKind.CONGRESS, EventKind.RAPIDPLAY, EventKind.CLUB, EventKind.JUNIOR)
AUGUST_CUTOFF = (8, 15)  # (month, day): files received by then go into the August lists
FIRST_LIST = ListId.grading(season_start(1))  # 2010-01, the first list after the starting list
LAST_LIST = ListId(season_end(DEMO_SEASONS[-1]).year, 7)  # 2015-07
NEXT_SEASON = SEASONS  # 2015-16: its first results are received after the last list
NEXT_SEASON_CUTOFF = date(FIRST_YEAR + NEXT_SEASON, 12, 15)  # its first files are all in


@dataclass(frozen=True)
class ListRun:
    """One list version to compute and publish."""

    list_id: str
    rate: Rate
    version: str


@dataclass(frozen=True)
class Step:
    """One step of the demo's history: import what arrived by ``cutoff``, then grade."""

    title: str
    cutoff: date
    lists: tuple[ListRun, ...]


def steps() -> list[Step]:
    """Every list from 2010-01 to 2015-07 in date order (G31): a January list's initial
    version, a July list's initial and August versions (G43), standard first; then the
    first results of 2015-16, imported after the last list and graded in none."""
    found = []
    list_id = FIRST_LIST
    while list_id <= LAST_LIST:
        found += _steps_of(list_id)
        list_id = list_id.next()
    # The new season's first results (nextseason): received and identified, not graded.
    return [*found, Step(f"{season_label(NEXT_SEASON)} so far", NEXT_SEASON_CUTOFF, ())]


def world_today() -> date:
    """The demo world's today: the day after its last step's cut-off, when its latest
    files are in. The site reasons from it (``lookups.clock``), not from the clock."""
    return steps()[-1].cutoff + timedelta(days=1)


def _steps_of(list_id: ListId) -> list[Step]:
    rates = list_id.rates()

    def runs(version: str) -> tuple[ListRun, ...]:
        return tuple(ListRun(str(list_id), rate, version) for rate in rates)

    if list_id.month == 1:
        title = f"rapid {list_id}" if rates == (RAPID,) else f"January {list_id.year}"
        return [Step(title, date(list_id.year - 1, 12, 31), runs(INITIAL))]
    found = [Step(f"July {list_id.year} initial", date(list_id.year, 6, 30), runs(INITIAL))]
    if list_id.has_august:
        found.append(
            Step(f"July {list_id.year} august", date(list_id.year, *AUGUST_CUTOFF), runs(AUGUST))
        )
    return found


def received_on(rng: Rng, event: PlayedEvent) -> date:
    """A few weeks after the last game, and by the end of its half-year (unless late)."""
    if event.kind is EventKind.LEAGUE:
        delay = int(rng.integers(10, 45))
    else:
        delay = 3 + int(rng.exponential(18.0))
    return min(event.last_day + timedelta(days=delay), half_year_end(event.last_day))


def half_year_end(day: date) -> date:
    """The cut-off a file is sent by: 30 June or 31 December, whichever comes first."""
    return date(day.year, 6, 30) if day.month <= 6 else date(day.year, 12, 31)


def with_receipts(rng: Rng, events: list[PlayedEvent]) -> list[PlayedEvent]:
    """Every event with the day its file arrived; a few each season arrive late: events
    of the spring, due by 30 June, that come in July."""
    dated = [replace(event, received=received_on(rng, event)) for event in events]
    for season in LATE_SEASONS:
        spring = date(FIRST_YEAR + season + 1, 1, 1)
        candidates = [
            k
            for k, e in enumerate(dated)
            if e.season == season and e.kind in LATE_KINDS and e.last_day >= spring
        ]
        chosen = rng.choice(candidates, min(LATE_EVENTS, len(candidates)), replace=False)
        for index in chosen.tolist():
            july = date(FIRST_YEAR + season + 1, 7, int(rng.integers(2, 31)))
            dated[index] = replace(dated[index], received=july, late=True)
    return dated


def correction(rng: Rng, events: list[PlayedEvent]) -> tuple[PlayedEvent, PlayedEvent] | None:
    """An event of the first season and its corrected file: results put right, sent in July.

    The grading team imports the correction after the initial list; the higher
    SUBMISSION INDEX replaces every earlier result of the event.
    """
    candidates = [
        e
        for e in events
        if e.season == CORRECTED_SEASON and e.kind is EventKind.CONGRESS and not e.late
    ]
    if not candidates:
        return None
    original = candidates[int(rng.integers(len(candidates)))]
    fixed = replace(
        original,
        parts=_put_right(rng, original.parts),
        received=date(FIRST_YEAR + CORRECTED_SEASON + 1, 7, 12),
        late=True,
    )
    return original, fixed


def _put_right(rng: Rng, parts: tuple[PlayedPart, ...]) -> tuple[PlayedPart, ...]:
    """Decisive results keyed the wrong way round in the first file, now reversed."""
    places = [
        (p, g)
        for p, part in enumerate(parts)
        for g, game in enumerate(part.games)
        if game.code in (WIN, LOSS)
    ]
    chosen = rng.choice(len(places), min(CORRECTED_GAMES, len(places)), replace=False)
    games = [list(part.games) for part in parts]
    for index in chosen.tolist():
        p, g = places[index]
        games[p][g] = _reversed(games[p][g])
    return tuple(
        replace(part, games=Games.from_played(fixed))
        for part, fixed in zip(parts, games, strict=True)
    )


def _reversed(game: Played) -> Played:
    return replace(game, code=LOSS if game.code == WIN else WIN)
