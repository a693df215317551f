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
from ecfgrading.demo.people import grouped
from ecfgrading.demo.play import LEAGUE, STANDARD, PlayStyle, result_draws, results, reversed_codes
from ecfgrading.demo.seasons import season_fraction, season_label, spread, weekends, weeknight
from ecfgrading.formats.results_model import PartKind, WhiteOn

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

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
    for club, members in grouped(playing, people.club[playing, season]):
        if world.clubs[club].location:
            continue  # the unattached play no league chess
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
    drawn = [
        _drawn(world, (teams[home], teams[away]), boards, weeknight(rng, night))
        for fixtures, night in zip(schedule, nights, strict=True)
        for home, away in fixtures
    ]
    # Every match's line-ups and games at once: a national demo plays 80,000 league
    # matches, each drawn in turn (``_drawn``) and played here.
    turnouts = [turnout for match in drawn for turnout in match.turnouts]
    lines = iter(_line_ups(world, season, turnouts, boards))
    matches = [
        Match(match.name, next(lines), next(lines), match.day, match.draws) for match in drawn
    ]
    games = board_games(world, season, matches, white_on, LEAGUE)
    parts = [
        PlayedPart(PartKind.MATCH, match.name, played, white_on, match.day)
        for match, played in zip(matches, games, strict=True)
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


@dataclass(frozen=True)
class Match:
    """A match as it was drawn: who played on which board, on which day, and the draws
    that decide its results (``play.result_draws``); ``board_games`` plays it."""

    name: str
    home: IntArray  # the home side in board order: PIN1 on every board
    away: IntArray
    day: date
    draws: FloatArray


@dataclass(frozen=True)
class _Turnout:
    """A team's turnout for a match as drawn: each squad member's availability and lot,
    and the give or take in the grade order of the boards (``_line_ups``)."""

    squad: IntArray
    available: FloatArray
    lots: FloatArray
    give_or_take: FloatArray


@dataclass(frozen=True)
class _Drawn:
    """A league match's draws, in the order they are made: its day (before), each team's
    turnout, then its results."""

    name: str
    day: date
    turnouts: tuple[_Turnout, _Turnout]
    draws: FloatArray


def _drawn(world: World, teams: tuple[Team, Team], boards: int, day: date) -> _Drawn:
    home, away = teams
    turnouts = (_turnout(world.rng, home, boards), _turnout(world.rng, away, boards))
    draws = result_draws(world.rng, boards, LEAGUE)
    return _Drawn(f"{home.name} v {away.name}", day, turnouts, draws)


def _turnout(rng: np.random.Generator, team: Team, boards: int) -> _Turnout:
    available = rng.beta(5.0, 2.0, len(team.squad))
    lots = rng.random(len(team.squad))
    return _Turnout(team.squad, available, lots, rng.normal(0.0, 5.0, boards))


def _line_ups(world: World, season: int, turnouts: list[_Turnout], boards: int) -> list[IntArray]:
    """Who turned out: ``boards`` of each squad, in board order (grade, give or take).
    The squads of a size are picked at once, each row as it would be alone."""
    found: dict[int, IntArray] = {}
    by_size: dict[int, list[int]] = {}
    for index, turnout in enumerate(turnouts):
        by_size.setdefault(len(turnout.squad), []).append(index)
    for indices in by_size.values():
        squads = np.array([turnouts[k].squad for k in indices])
        available = np.array([turnouts[k].available for k in indices])
        lots = np.array([turnouts[k].lots for k in indices])
        # Weighted sampling without replacement: the largest u ** (1 / weight) win.
        picked = np.argsort(-(lots ** (1.0 / available)), axis=1)[:, :boards]
        chosen = np.take_along_axis(squads, picked, axis=1)
        give_or_take = np.array([turnouts[k].give_or_take for k in indices])
        order = world.people.seen[chosen, season] + give_or_take
        ranked = np.take_along_axis(chosen, np.argsort(-order, axis=1, kind="stable"), axis=1)
        found.update(zip(indices, ranked, strict=True))
    return [found[index] for index in range(len(turnouts))]


def board_games(
    world: World, season: int, matches: list[Match], white_on: WhiteOn, style: PlayStyle
) -> list[Games]:
    """Each match's games (the matches have as many boards each). PIN1 is always the home
    player; his colour follows from ``white_on`` and the board."""
    home = np.array([match.home for match in matches])
    away = np.array([match.away for match in matches])
    home_white = (np.arange(home.shape[1]) % 2 == 0) == (white_on is WhiteOn.ODD)
    days = [match.day for match in matches]
    shares = np.array([season_fraction(season, day) for day in days])[:, np.newaxis]
    white = world.people.strength_at(np.where(home_white, home, away), season, shares)
    black = world.people.strength_at(np.where(home_white, away, home), season, shares)
    codes = results(white, black, style, np.stack([match.draws for match in matches], axis=1))
    codes = np.where(home_white, codes, reversed_codes(codes))
    return Games.boards(home, away, codes, days)


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
    squads = _CountySquads(world, season)
    days = weekends(season, 10, 4)
    matches: dict[int, list[PlayedPart]] = {}
    spent, attempts = 0, 0
    while spent < budget and attempts < 1000 and len(world.counties) > 1:
        attempts += 1
        home, away = (int(k) for k in rng.choice(len(world.counties), 2, replace=False))
        part = _county_match(world, season, (home, away), squads, days)
        if part is not None:
            matches.setdefault(home, []).append(part)
            spent += len(part.games)
    return [_county_event(world, season, home, parts) for home, parts in sorted(matches.items())]


class _CountySquads:
    """Each county's best players in each section, the same all season (a county
    plays many matches in a section: its pool is sorted once)."""

    def __init__(self, world: World, season: int) -> None:
        self.county = world.county_of(season)
        self.eligible = world.people.active(season)
        self.seen = world.people.seen[:, season]
        self._best: dict[tuple[int, int], IntArray | None] = {}

    def best(self, section: int, county: int, boards: int) -> IntArray | None:
        """The best ``2 * boards`` of the county allowed in the section, strongest first;
        None when it has fewer than ``boards``."""
        key = (section, county)
        if key not in self._best:
            ceiling = COUNTY_SECTIONS[section][1]
            allowed = self.eligible & ((self.seen <= ceiling) if ceiling is not None else True)
            pool = np.flatnonzero(allowed & (self.county == county))
            ranked = pool[np.argsort(-self.seen[pool], kind="stable")[: 2 * boards]]
            self._best[key] = ranked if len(pool) >= boards else None
        return self._best[key]


def _county_match(
    world: World,
    season: int,
    sides: tuple[int, int],
    squads: _CountySquads,
    days: list[date],
) -> PlayedPart | None:
    rng = world.rng
    section = int(rng.integers(len(COUNTY_SECTIONS)))
    name, _, share = COUNTY_SECTIONS[section]
    boards = max(4, round(world.size.county_boards * share) // 2 * 2)
    best = [squads.best(section, side, boards) for side in sides]
    teams = [_county_team(world, season, squad, boards) for squad in best]
    if any(team is None for team in teams):
        return None
    home, away = (team for team in teams if team is not None)
    day = days[int(rng.integers(len(days)))]
    title = f"{world.counties[sides[0]]} v {world.counties[sides[1]]} ({name})"
    match = Match(title, home, away, day, result_draws(rng, len(home), STANDARD))
    (games,) = board_games(world, season, [match], WhiteOn.ODD, STANDARD)
    return PlayedPart(PartKind.MATCH, title, games, WhiteOn.ODD, day)


def _county_team(world: World, season: int, best: IntArray | None, boards: int) -> IntArray | None:
    """The strongest available: ``boards`` of the best ``2 * boards`` in the section."""
    if best is None:
        return None
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
