"""When results reach the grading team, and the lists each batch goes into.

Organisers send a file a few weeks after the event; leagues once the season is over.
Nearly everything of a season arrives by the end of June, in time for the initial July
lists; a few files each year come only in July (late results, in time for the August
versions, G26), and one event sends a corrected file with a higher SUBMISSION INDEX.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

import numpy as np

from ecfgrading.demo.events import EventKind, Played, PlayedEvent, PlayedPart
from ecfgrading.demo.play import LOSS, WIN
from ecfgrading.demo.seasons import FIRST_YEAR, season_end
from ecfgrading.engine.types import Rate

Rng = np.random.Generator

LATE_EVENTS = 3  # a season, for the seasons of July 2010 and July 2011
LATE_SEASONS = (1, 2)
CORRECTED_SEASON = 1
CORRECTED_GAMES = 3  # results the corrected file puts right
INITIAL, AUGUST = "initial", "august"
RAPID = Rate.RAPID
LATE_KINDS = (EventKind.CONGRESS, EventKind.RAPIDPLAY, EventKind.CLUB, EventKind.JUNIOR)
AUGUST_CUTOFF = (8, 15)  # (month, day): files received by then go into the August lists
NEXT_SEASON_CUTOFF = date(2012, 12, 15)  # the new season's first files are all in


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
    """Rapid lists every January, July lists in July, revised in August (G26); then the
    first results of 2012-13, imported after the last list and graded in none."""
    found = []
    for year in (2010, 2011, 2012):
        july = f"{year}-07"
        found += [
            Step(
                f"rapid {year}-01", date(year - 1, 12, 31), (ListRun(f"{year}-01", RAPID, INITIAL),)
            ),
            Step(f"July {year} initial", date(year, 6, 30), _both(july, INITIAL)),
            Step(f"July {year} august", date(year, *AUGUST_CUTOFF), _both(july, AUGUST)),
        ]
    # The new season's first results (nextseason): received and identified, not graded.
    return [*found, Step("2012-13 so far", NEXT_SEASON_CUTOFF, ())]


def _both(list_id: str, version: str) -> tuple[ListRun, ...]:
    return (ListRun(list_id, Rate.STANDARD, version), ListRun(list_id, RAPID, version))


def received_on(rng: Rng, event: PlayedEvent) -> date:
    """A few weeks after the last game, and by 28 June at the latest (unless late)."""
    if event.kind is EventKind.LEAGUE:
        delay = int(rng.integers(10, 45))
    else:
        delay = 3 + int(rng.exponential(18.0))
    return min(event.last_day + timedelta(days=delay), _june(event.season))


def _june(season: int) -> date:
    return date(season_end(season).year, 6, 28)


def with_receipts(rng: Rng, events: list[PlayedEvent]) -> list[PlayedEvent]:
    """Every event with the day its file arrived; a few each season arrive late."""
    dated = [replace(event, received=received_on(rng, event)) for event in events]
    for season in LATE_SEASONS:
        candidates = [k for k, e in enumerate(dated) if e.season == season and e.kind in LATE_KINDS]
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
        replace(part, games=tuple(fixed)) for part, fixed in zip(parts, games, strict=True)
    )


def _reversed(game: Played) -> Played:
    return replace(game, code=LOSS if game.code == WIN else WIN)
