"""Team events: county leagues of club teams, and matches between counties.

A league division is one results file with a MATCH RESULTS part per match; the home
team is PIN1 on every board and has white on odd boards (``WHITE ON=ODD``) or, in some
leagues, on even boards.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np
from numpy.typing import NDArray

from ecfgrading.demo.events import (
    COUNTY_CONTROLS,
    LEAGUE_CONTROLS,
    EventKind,
    Games,
    PlayedEvent,
    PlayedPart,
    World,
)
from ecfgrading.demo.pairing import round_robin
from ecfgrading.demo.play import LEAGUE, STANDARD, PlayStyle, play, reversed_codes
from ecfgrading.demo.seasons import season_label, spread, weekends, weeknight
from ecfgrading.formats.results_model import PartKind, WhiteOn

IntArray = NDArray[np.int64]

SQUAD = 7  # players a club team uses over a season
DIVISION_TEAMS = 8
DIVISION_BOARDS = (6, 5, 4)  # first division, second, the rest
GAMES_PER_TEAM = 17.5  # a team's share of its division's games (8 teams, 5 boards)
TEAM_LETTERS = "ABCDEFGH"


@dataclass(frozen=True)
class Team:
    name: str  # 'Canterbury A'
    squad: IntArray  # players, strongest first

    def strength(self, season: int, world: World) -> float:
        return float(world.people.seen[self.squad[:4], season].mean())


# -- leagues ----------------------------------------------------------------------------


def leagues(world: World, season: int, budget: int) -> list[PlayedEvent]:
    """Every county's league divisions, teams in proportion to its league players."""
    players = _league_players(world, season)
    share = np.array([len(found) for found in players.values()], dtype=float)
    events = []
    for index, county in enumerate(world.counties):
        wanted = round(budget * share[index] / max(1.0, share.sum()) / GAMES_PER_TEAM)
        teams = _teams(world, season, county, players[county], wanted)
        for number, division in enumerate(_divisions(world, season, teams)):
            events.append(_division(world, season, county, number, division))
    return events


def _league_players(world: World, season: int) -> dict[str, dict[int, IntArray]]:
    """County -> club -> its active league players, strongest first."""
    people = world.people
    playing = np.flatnonzero(people.active(season) & people.league)
    found: dict[str, dict[int, IntArray]] = {county: {} for county in world.counties}
    clubs = people.club[playing, season]
    for club in np.unique(clubs).tolist():
        if world.clubs[club].location:
            continue  # the unattached play no league chess
        members = playing[clubs == club]
        ranked = members[np.argsort(-people.seen[members, season], kind="stable")]
        found[world.clubs[club].county][club] = ranked
    return found


def _teams(
    world: World, season: int, county: str, clubs: dict[int, IntArray], wanted: int
) -> list[Team]:
    """Squads of SQUAD players, the strongest in the A team; as many as the county needs."""
    capacity = {club: len(members) // SQUAD for club, members in clubs.items()}
    total = sum(len(members) for members in clubs.values())
    teams = []
    for club, members in clubs.items():
        fair = round(wanted * len(members) / max(1, total))
        count = min(capacity[club], max(1, fair)) if len(members) >= 4 else 0
        for letter, squad in zip(TEAM_LETTERS, _squads(members, count), strict=False):
            teams.append(Team(f"{world.clubs[club].name} {letter}", squad))
    return teams


def _squads(members: IntArray, count: int) -> list[IntArray]:
    if count <= 0:
        return []
    if count == 1:
        return [members[: max(SQUAD, min(len(members), SQUAD + 2))]]
    return [members[k * SQUAD : (k + 1) * SQUAD] for k in range(count)]


def _divisions(world: World, season: int, teams: list[Team]) -> list[list[Team]]:
    """Teams by strength, eight to a division; a last division of three or fewer merges up."""
    ranked = sorted(teams, key=lambda team: -team.strength(season, world))
    divisions = [ranked[k : k + DIVISION_TEAMS] for k in range(0, len(ranked), DIVISION_TEAMS)]
    if len(divisions) > 1 and len(divisions[-1]) < 4:
        last = divisions.pop()  # popped first: ``divisions[-2] += divisions.pop()`` would
        divisions[-1].extend(last)  # put the merged division in the place of the one above
    return [division for division in divisions if len(division) >= 2]


def _division(
    world: World, season: int, county: str, number: int, teams: list[Team]
) -> PlayedEvent:
    rng = world.rng
    boards = min(DIVISION_BOARDS[min(number, 2)], *(len(team.squad) for team in teams))
    white_on = WhiteOn.ODD if rng.random() < 0.7 else WhiteOn.EVEN
    schedule = _fixtures(len(teams))
    nights = spread(date(2009 + season - 1, 9, 21), date(2009 + season, 4, 19), len(schedule))
    parts = [
        _match(world, season, teams[home], teams[away], boards, white_on, weeknight(rng, night))
        for fixtures, night in zip(schedule, nights, strict=True)
        for home, away in fixtures
    ]
    return PlayedEvent(
        code=world.codes.issue(EventKind.LEAGUE, season),
        name=f"{county} League {season_label(season)} Division {number + 1}",
        kind=EventKind.LEAGUE,
        season=season,
        control=world.pick(LEAGUE_CONTROLS, (3.0, 2.0, 1.0)),
        parts=tuple(parts),
        county=county,
    )


def _fixtures(count: int) -> list[list[tuple[int, int]]]:
    """A single round robin for big divisions, home and away for small ones."""
    single = round_robin(count)
    if count >= 7:
        return single
    return single + [[(away, home) for home, away in fixtures] for fixtures in single]


def _match(
    world: World,
    season: int,
    home: Team,
    away: Team,
    boards: int,
    white_on: WhiteOn,
    day: date,
) -> PlayedPart:
    ours, theirs = _line_up(world, season, home, boards), _line_up(world, season, away, boards)
    games = board_games(world, season, (ours, theirs), white_on, day, LEAGUE)
    name = f"{home.name} v {away.name}"
    return PlayedPart(PartKind.MATCH, name, games, white_on, day)


def _line_up(world: World, season: int, team: Team, boards: int) -> IntArray:
    """Who turned out: ``boards`` of the squad, in board order (grade, give or take)."""
    rng = world.rng
    available = rng.beta(5.0, 2.0, len(team.squad))
    # Weighted sampling without replacement: the largest u ** (1 / weight) win.
    chosen = team.squad[np.argsort(-(rng.random(len(team.squad)) ** (1.0 / available)))[:boards]]
    order = world.people.seen[chosen, season] + rng.normal(0.0, 5.0, boards)
    result: IntArray = chosen[np.argsort(-order, kind="stable")]
    return result


def board_games(
    world: World,
    season: int,
    sides: tuple[IntArray, IntArray],
    white_on: WhiteOn,
    day: date,
    style: PlayStyle,
) -> Games:
    """PIN1 is always the home player; his colour follows from ``white_on`` and the board."""
    home, away = sides
    home_white = (np.arange(len(home)) % 2 == 0) == (white_on is WhiteOn.ODD)
    white = world.people.strength_on(np.where(home_white, home, away), season, day)
    black = world.people.strength_on(np.where(home_white, away, home), season, day)
    codes = play(world.rng, white, black, style)
    codes = np.where(home_white, codes, reversed_codes(codes))
    return Games.of(home, away, codes, day, board=np.arange(1, len(home) + 1))


# -- county matches ---------------------------------------------------------------------

# (section, highest grade allowed, share of boards): the counties championship's sections.
COUNTY_SECTIONS = (
    ("Open", None, 1.0),
    ("U180", 180, 0.75),
    ("U160", 160, 0.75),
    ("U140", 140, 0.75),
)


def county_matches(world: World, season: int, budget: int) -> list[PlayedEvent]:
    """Matches between counties; each home county sends one file of its home matches."""
    rng = world.rng
    county = world.county_of(season)
    eligible = world.people.active(season)
    days = weekends(season, 10, 4)
    matches: dict[int, list[PlayedPart]] = {}
    spent, attempts = 0, 0
    while spent < budget and attempts < 1000 and len(world.counties) > 1:
        attempts += 1
        home, away = (int(k) for k in rng.choice(len(world.counties), 2, replace=False))
        part = _county_match(world, season, (home, away), county, eligible, days)
        if part is not None:
            matches.setdefault(home, []).append(part)
            spent += len(part.games)
    return [_county_event(world, season, home, parts) for home, parts in sorted(matches.items())]


def _county_match(
    world: World,
    season: int,
    sides: tuple[int, int],
    county: np.ndarray,
    eligible: np.ndarray,
    days: list[date],
) -> PlayedPart | None:
    rng = world.rng
    name, ceiling, share = COUNTY_SECTIONS[int(rng.integers(len(COUNTY_SECTIONS)))]
    boards = max(4, round(world.size.county_boards * share) // 2 * 2)
    seen = world.people.seen[:, season]
    allowed = eligible & ((seen <= ceiling) if ceiling is not None else True)
    pools = [np.flatnonzero(allowed & (county == side)) for side in sides]
    teams = [_county_team(world, season, pool, boards) for pool in pools]
    if any(team is None for team in teams):
        return None
    home, away = (team for team in teams if team is not None)
    day = days[int(rng.integers(len(days)))]
    games = board_games(world, season, (home, away), WhiteOn.ODD, day, STANDARD)
    title = f"{world.counties[sides[0]]} v {world.counties[sides[1]]} ({name})"
    return PlayedPart(PartKind.MATCH, title, games, WhiteOn.ODD, day)


def _county_team(world: World, season: int, pool: IntArray, boards: int) -> IntArray | None:
    """The strongest available: ``boards`` of the best ``2 * boards`` in the section."""
    if len(pool) < boards:
        return None
    seen = world.people.seen[pool, season]
    best = pool[np.argsort(-seen, kind="stable")[: 2 * boards]]
    chosen = world.rng.choice(best, boards, replace=False)
    result: IntArray = chosen[np.argsort(-world.people.seen[chosen, season], kind="stable")]
    return result


def _county_event(world: World, season: int, home: int, parts: list[PlayedPart]) -> PlayedEvent:
    county = world.counties[home]
    ordered = sorted(parts, key=lambda part: (part.results_date or date.min, part.name))
    return PlayedEvent(
        code=world.codes.issue(EventKind.COUNTY, season),
        name=f"{county} County Matches {season_label(season)}",
        kind=EventKind.COUNTY,
        season=season,
        control=world.pick(COUNTY_CONTROLS, (2.0, 1.0)),
        parts=tuple(ordered),
        county=county,
    )
