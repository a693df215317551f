"""Club championships: all-play-all inside a club, a round every couple of weeks.

Only a minority of clubs register their internal events for grading (the FAQ), so the
budget decides how many do.
"""

from __future__ import annotations

from datetime import date

import numpy as np
from numpy.typing import NDArray

from ecfgrading.demo.events import CLUB_CONTROLS, EventKind, Games, PlayedEvent, PlayedPart, World
from ecfgrading.demo.pairing import round_robin
from ecfgrading.demo.people import grouped
from ecfgrading.demo.play import STANDARD, play
from ecfgrading.demo.seasons import season_label, spread, weeknight
from ecfgrading.formats.results_model import Colour, PartKind

IntArray = NDArray[np.int64]

SMALLEST = 6
LARGEST = 10


def club_championships(world: World, season: int, budget: int) -> list[PlayedEvent]:
    """Championships of clubs drawn by size until the budget of games is spent."""
    members = _members(world, season)
    events: list[PlayedEvent] = []
    spent = 0
    for club in _clubs_in_draw_order(world, members):
        if spent >= budget:
            break
        event = _championship(world, season, club, members[club])
        events.append(event)
        spent += event.games
    return events


def _members(world: World, season: int) -> dict[int, IntArray]:
    """Club -> its active members; locations and clubs too small for a championship left out."""
    people = world.people
    active = np.flatnonzero(people.active(season))
    found = {}
    for club, players in grouped(active, people.club[active, season]):
        if not world.clubs[club].location and len(players) >= SMALLEST:
            found[club] = players
    return found


def _clubs_in_draw_order(world: World, members: dict[int, IntArray]) -> list[int]:
    """Bigger clubs are likelier to register (a random order weighted by size)."""
    clubs = list(members)
    if not clubs:
        return []
    sizes = np.array([len(members[club]) for club in clubs], dtype=float)
    keys = world.rng.random(len(clubs)) ** (1.0 / sizes)  # weighted sampling without replacement
    return [clubs[k] for k in np.argsort(-keys, kind="stable").tolist()]


def _championship(world: World, season: int, club: int, members: IntArray) -> PlayedEvent:
    rng = world.rng
    people = world.people
    count = min(len(members), int(rng.integers(SMALLEST, LARGEST + 1)))
    # The keenest and strongest enter: weight by appetite and grade.
    weight = people.keen[members] * np.exp(people.seen[members, season] / 60.0)
    entrants = rng.choice(members, count, replace=False, p=weight / weight.sum())
    entrants = entrants[np.argsort(-people.seen[entrants, season], kind="stable")]
    rounds = round_robin(count)
    nights = spread(date(2009 + season - 1, 9, 14), date(2009 + season, 4, 26), len(rounds))
    games = Games.join(
        _round(world, season, entrants, pairs, weeknight(rng, night), number + 1)
        for number, (pairs, night) in enumerate(zip(rounds, nights, strict=True))
    )
    name = world.clubs[club].name
    return PlayedEvent(
        code=world.codes.issue(EventKind.CLUB, season),
        name=f"{name} Club Championship {season_label(season)}",
        kind=EventKind.CLUB,
        season=season,
        control=world.pick(CLUB_CONTROLS, (3.0, 1.0)),
        parts=(PlayedPart(PartKind.SECTION, "Championship", games),),
        county=world.clubs[club].county,
        order=tuple(int(player) for player in entrants),
    )


def _round(
    world: World,
    season: int,
    entrants: IntArray,
    pairs: list[tuple[int, int]],
    day: date,
    number: int,
) -> Games:
    people = world.people
    white = entrants[[one for one, _ in pairs]]
    black = entrants[[two for _, two in pairs]]
    codes = play(
        world.rng,
        people.strength_on(white, season, day),
        people.strength_on(black, season, day),
        STANDARD,
    )
    return Games.of(white, black, codes, day, colour=Colour.WHITE, round=number)
