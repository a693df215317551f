"""Individual tournaments: weekend congresses, rapidplays, junior events, lightning, online.

Each is one or more Swiss sections (SECTION RESULTS with ROUND), players placed in
sections by the grade organisers see. Entrants come from across the federation, most
from the host county. A congress circuit (``circuit``) runs through every half-year,
and its regulars play every weekend of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta

import numpy as np
from numpy.typing import NDArray

from ecfgrading.demo.events import (
    CONGRESS_CONTROLS,
    JUNIOR_STANDARD_CONTROLS,
    LIGHTNING_CONTROLS,
    ONLINE_CONTROLS,
    RAPID_CONTROLS,
    EventKind,
    Games,
    PlayedEvent,
    PlayedPart,
    World,
)
from ecfgrading.demo.pairing import Swiss, round_robin
from ecfgrading.demo.places import towns
from ecfgrading.demo.play import (
    BLITZ,
    RAPID,
    STANDARD,
    PlayStyle,
    bounds,
    decided,
    points,
    result_draws,
)
from ecfgrading.demo.seasons import age_date, weekends
from ecfgrading.engine.rateplay import TimeControl
from ecfgrading.formats.results_model import Colour, PartKind

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

HOST_PULL = 20.0  # an entrant from the host county, against one from elsewhere
# (name, highest grade allowed); None: open to all. Organisers' usual 2009 bands.
CONGRESS_SECTIONS = (("Open", None), ("Major", 170), ("Intermediate", 145), ("Minor", 120))
RAPID_SECTIONS = (("Open", None), ("Major", 150), ("Minor", 120), ("Novices", 90))
JUNIOR_SECTIONS = (("Under 18", None), ("Under 14", 13), ("Under 12", 11), ("Under 10", 9))
SMALLEST_SECTION = 6
PLAYING_UP = 0.12  # entrants who choose a stronger section than they must


@dataclass(frozen=True)
class Format:
    """How one kind of tournament is run."""

    kind: EventKind
    title: str  # '{town} Congress', '{county} Junior Rapidplay'...
    controls: list[TimeControl]
    style: PlayStyle
    rounds: tuple[int, ...]  # possible numbers of rounds
    entrants: float  # median number of entrants
    sections: tuple[tuple[str, int | None], ...]
    days: Callable[[date, int], list[date]]  # the day of each round
    months: tuple[int, int] = (6, 5)  # first and last month, in season order
    by_age: bool = False  # junior sections go by age, not grade


def _weekend(saturday: date, rounds: int) -> list[date]:
    """Friday evening, two on Saturday, the rest on Sunday (a sixth on Monday)."""
    offsets = [-1, 0, 0, 1, 1, 2, 2][:rounds]
    return [saturday + timedelta(days=k) for k in offsets]


def _one_day(saturday: date, rounds: int) -> list[date]:
    return [saturday] * rounds


def _two_days(saturday: date, rounds: int) -> list[date]:
    return [saturday + timedelta(days=int(k >= (rounds + 1) // 2)) for k in range(rounds)]


def _evening(saturday: date, rounds: int) -> list[date]:
    return [saturday - timedelta(days=3)] * rounds


CONGRESS = Format(
    kind=EventKind.CONGRESS,
    title="{town} {when} Congress",
    controls=CONGRESS_CONTROLS,
    style=STANDARD,
    rounds=(5, 5, 5, 6),
    entrants=70,
    sections=CONGRESS_SECTIONS,
    days=_weekend,
)
RAPIDPLAY = Format(
    kind=EventKind.RAPIDPLAY,
    title="{town} Rapidplay",
    controls=RAPID_CONTROLS,
    style=RAPID,
    rounds=(6, 6, 7),
    entrants=60,
    sections=RAPID_SECTIONS,
    days=_one_day,
)
JUNIOR_RAPID = Format(
    kind=EventKind.JUNIOR,
    title="{county} Junior Rapidplay",
    controls=RAPID_CONTROLS,
    style=RAPID,
    rounds=(6, 7),
    entrants=50,
    sections=JUNIOR_SECTIONS,
    days=_one_day,
    by_age=True,
)
JUNIOR_CONGRESS = Format(
    kind=EventKind.JUNIOR,
    title="{county} Junior Congress",
    controls=JUNIOR_STANDARD_CONTROLS,
    style=STANDARD,
    rounds=(5,),
    entrants=40,
    sections=JUNIOR_SECTIONS,
    days=_two_days,
    by_age=True,
)
LIGHTNING = Format(
    kind=EventKind.LIGHTNING,
    title="{county} Lightning Championship",
    controls=LIGHTNING_CONTROLS,
    style=BLITZ,
    rounds=(9, 11),
    entrants=30,
    sections=(("Open", None),),
    days=_evening,
)
ONLINE = Format(
    kind=EventKind.ONLINE,
    title="{county} Online Rapid",
    controls=ONLINE_CONTROLS,
    style=RAPID,
    rounds=(7,),
    entrants=40,
    sections=(("Open", None),),
    days=_evening,
)


def tournaments(
    world: World, season: int, fmt: Format, budget: int, least: int = 0
) -> list[PlayedEvent]:
    """Events of one format until the season's budget of games is spent (``least`` at least)."""
    field = _Field(world, season, _appetite(world, season, fmt))
    events: list[PlayedEvent] = []
    spent = 0
    dates = weekends(season, *fmt.months)
    while (spent < budget or len(events) < least) and len(field.willing) >= 4:
        event = _tournament(world, season, fmt, field, dates, budget - spent)
        if event is None:
            break
        events.append(event)
        spent += event.games
    return events


# -- the congress circuit ------------------------------------------------------------------

# One open section, so that no regular is left in a section too small for five rounds.
CIRCUIT = replace(
    CONGRESS, title="{town} Grand Prix Congress", rounds=(5,), sections=(("Open", None),)
)
CIRCUIT_HALVES = ((7, 12), (1, 5))  # July to December, January to May: a half-year each
CIRCUIT_WEEKENDS = 7  # in each half-year: 35 games for a regular who plays them all
CIRCUIT_REGULARS = (0.002, 2, 24)  # share of the players; at least, at most
SMALLEST_FIELD = 6  # the regulars and a few others: one section, all-play-all


def circuit(world: World, season: int, budget: int) -> list[PlayedEvent]:
    """The season's congress circuit: seven weekends in each half-year, and regulars
    (the keenest congress players) who play every one of them.

    A regular plays about 35 standard games in each half-year, so that he is graded X
    on the half-year alone under ecf-2012 (G36), and A under ecf-2015 (G37). Each
    weekend is open to others too, as many as the circuit's ``budget`` of games allows.
    """
    regulars = circuit_regulars(world, season)
    if len(regulars) == 0:
        return []
    appetite = _appetite(world, season, CIRCUIT)
    appetite[regulars] = 0.0
    each = budget / (len(CIRCUIT_HALVES) * CIRCUIT_WEEKENDS)
    events = []
    for months in CIRCUIT_HALVES:
        saturdays = weekends(season, *months)
        step = (len(saturdays) - 1) / (CIRCUIT_WEEKENDS - 1)  # evenly spread, first to last
        for number in range(CIRCUIT_WEEKENDS):
            saturday = saturdays[round(number * step)]
            events.append(_circuit_weekend(world, season, regulars, appetite, saturday, each))
    return events


def circuit_regulars(world: World, season: int) -> IntArray:
    """The active adults with the greatest appetite for congresses, strongest first."""
    people = world.people
    share, least, most = CIRCUIT_REGULARS
    count = min(most, max(least, round(len(people) * share)))
    adult = people.active(season) & ~world.juniors(season) & (people.congress > 0)
    candidates = np.flatnonzero(adult)
    keenest = candidates[np.argsort(-people.congress[candidates], kind="stable")[:count]]
    result: IntArray = keenest[np.argsort(-people.seen[keenest, season], kind="stable")]
    return result


def _circuit_weekend(
    world: World,
    season: int,
    regulars: IntArray,
    appetite: FloatArray,
    saturday: date,
    games: float,
) -> PlayedEvent:
    rng = world.rng
    host = int(rng.integers(len(world.counties)))
    rounds = CIRCUIT.rounds[0]
    field = int(CIRCUIT.entrants * rng.lognormal(0.0, 0.3))
    field = max(SMALLEST_FIELD, len(regulars) + 4, min(field, round(2 * games / rounds)))
    weights = appetite * np.where(world.county_of(season) == host, HOST_PULL, 1.0)
    others = min(field - len(regulars), int(np.count_nonzero(weights)))
    drawn = weighted_sample(rng, weights, others) if others > 0 else np.zeros(0, dtype=np.int64)
    entrants = np.concatenate([regulars, drawn.astype(np.int64)])
    days = CIRCUIT.days(saturday, rounds)
    county = world.counties[host]
    parts = _sections(world, season, CIRCUIT, entrants, rounds, days)
    return PlayedEvent(
        code=world.codes.issue(CIRCUIT.kind, season),
        name=_title(world, CIRCUIT, county, days[0]),
        kind=CIRCUIT.kind,
        season=season,
        control=world.pick(CIRCUIT.controls, (3.0, 2.0, 1.0)),
        parts=tuple(parts),
        county=county,
        order=tuple(player for part in parts for player in _section_players(part)),
    )


def _appetite(world: World, season: int, fmt: Format) -> FloatArray:
    """How likely each player is to enter one of these events this season."""
    people, active = world.people, world.people.active(season)
    if fmt.kind is EventKind.JUNIOR:
        weight = people.keen * world.juniors(season)
    elif fmt.kind is EventKind.CONGRESS:
        weight = people.congress
    elif fmt.kind is EventKind.ONLINE:
        weight = people.online
    else:
        weight = people.rapid
    result: FloatArray = weight * active
    return result


class _Field:
    """Who may enter a season's events of one format, and how likely, by host county.

    The same for every event of the season: drawn once, not for each event over the
    whole federation (a national demo plays 700 tournaments a season).
    """

    def __init__(self, world: World, season: int, appetite: FloatArray) -> None:
        self.appetite = appetite
        self.willing = np.flatnonzero(appetite)
        self._county = world.county_of(season)
        self._chances: dict[int, FloatArray] = {}

    def entrants(self, rng: np.random.Generator, host: int, count: int) -> IntArray:
        """``count`` players, those of the host county HOST_PULL times likelier: as
        ``weighted_sample`` draws them from every player's weight."""
        chances = self._chances.get(host)
        if chances is None:
            weights = self.appetite * np.where(self._county == host, HOST_PULL, 1.0)
            chances = self._chances[host] = weights[self.willing] / weights.sum()
        drawn = rng.choice(len(self.willing), count, replace=False, p=chances)
        result: IntArray = self.willing[drawn]
        return result


def _tournament(
    world: World, season: int, fmt: Format, field: _Field, dates: list[date], left: int
) -> PlayedEvent | None:
    rng = world.rng
    host = int(rng.integers(len(world.counties)))
    rounds = int(rng.choice(fmt.rounds))
    wanted = _entrants(world, fmt, len(field.willing), rounds, left)
    entrants = field.entrants(rng, host, wanted)
    days = fmt.days(dates[int(rng.integers(len(dates)))], rounds)
    parts = _sections(world, season, fmt, entrants, rounds, days)
    if not parts:
        return None
    county = world.counties[host]
    return PlayedEvent(
        code=world.codes.issue(fmt.kind, season),
        name=_title(world, fmt, county, days[0]),
        kind=fmt.kind,
        season=season,
        control=world.pick(fmt.controls, (3.0, 2.0, 1.0)[: len(fmt.controls)]),
        parts=tuple(parts),
        county=county,
        order=tuple(player for part in parts for player in _section_players(part)),
    )


def weighted_sample(rng: np.random.Generator, weights: FloatArray, count: int) -> IntArray:
    """``rng.choice(len(weights), count, replace=False, p=weights / weights.sum())``: the
    same draws and the same players, drawn among those of some weight only.

    Each pass of the choice sums its probabilities cumulatively; over the whole
    federation that was the tournaments' biggest cost. Players of no weight change no
    cumulative sum and are never drawn, so leaving them out changes nothing (the total
    is still summed over every player, as the choice's caller did).
    """
    able = np.flatnonzero(weights)
    drawn = rng.choice(len(able), count, replace=False, p=weights[able] / weights.sum())
    result: IntArray = able[drawn]
    return result


def _entrants(world: World, fmt: Format, willing: int, rounds: int, left: int) -> int:
    """A lognormal field, no bigger than the players willing or the budget left needs."""
    drawn = int(fmt.entrants * world.rng.lognormal(0.0, 0.45))
    needed = max(8, 2 * left // rounds + 8)
    return max(4, min(drawn, willing * 2 // 5, needed, 400))


def _title(world: World, fmt: Format, county: str, day: date) -> str:
    places = towns(county)
    town = places[int(world.rng.integers(len(places) - 2))]  # a town with a club
    when = ("Winter", "Spring", "Summer", "Autumn")[(day.month % 12) // 3]
    return f"{fmt.title.format(town=town, county=county, when=when)} {day.year}"


# -- sections ----------------------------------------------------------------------------


def _sections(
    world: World, season: int, fmt: Format, entrants: IntArray, rounds: int, days: list[date]
) -> list[PlayedPart]:
    seen = world.people.seen[entrants, season]
    rank = _placing(world, season, fmt, entrants, seen)
    parts = []
    for index, (name, _) in enumerate(fmt.sections):
        members = entrants[rank == index]
        if len(members) >= 2:
            order = members[np.argsort(-world.people.seen[members, season], kind="stable")]
            games = section_games(world, season, order, rounds, days, fmt.style)
            parts.append(PlayedPart(PartKind.SECTION, name, games))
    return parts


def _placing(
    world: World, season: int, fmt: Format, entrants: IntArray, seen: FloatArray
) -> IntArray:
    """Each entrant's section: the lowest he may enter, now and then one higher.

    Sections too small to run are merged into the one above.
    """
    used = fmt.sections[: max(1, min(len(fmt.sections), len(entrants) // 20 + 1))]
    measure = world.people.age_on(age_date(season))[entrants] if fmt.by_age else seen
    rank = np.zeros(len(entrants), dtype=np.int64)
    for index, (_, ceiling) in enumerate(used):
        if ceiling is not None:
            rank[measure <= ceiling] = index
    up = world.rng.random(len(entrants)) < PLAYING_UP
    rank = np.where(up, np.maximum(rank - 1, 0), rank)
    for index in range(len(used) - 1, 0, -1):
        if np.count_nonzero(rank == index) < SMALLEST_SECTION:
            rank[rank == index] = index - 1
    return rank


def _section_players(part: PlayedPart) -> list[int]:
    return list(dict.fromkeys(part.games.players()))


def section_games(
    world: World,
    season: int,
    players: IntArray,
    rounds: int,
    days: list[date],
    style: PlayStyle,
) -> Games:
    """A Swiss (or, for a handful of players, an all-play-all) in rating order."""
    odds = _Odds(world.people.strength_on(players, season, days[0]), style)
    if len(players) <= rounds + 1:
        return _all_play_all(world, players, odds, days)
    swiss = Swiss(len(players))
    games: list[Games] = []
    for number in range(rounds):
        pairs = swiss.pairings()
        sides = _sides(pairs)
        codes = odds.results(world.rng, sides)
        swiss.record(pairs, *(side.tolist() for side in points(codes)))
        games.append(_played(players, sides, codes, days[number], number + 1))
    return Games.join(games)


class _Odds:
    """A section's games' ``bounds`` for every pairing of its players, white first (by
    their numbers in the section): worked out once for all its rounds."""

    def __init__(self, strength: FloatArray, style: PlayStyle) -> None:
        self.style = style
        white, black = strength[:, np.newaxis], strength[np.newaxis, :]
        self.win_below, self.draw_below = bounds(white, black, style)

    def results(self, rng: np.random.Generator, sides: IntArray) -> IntArray:
        """The results of a round's pairings (``_sides``), as ``play`` draws them."""
        white, black = sides[:, 0], sides[:, 1]
        draws = result_draws(rng, len(sides), self.style)
        return decided(
            self.win_below[white, black], self.draw_below[white, black], self.style, draws
        )


def _all_play_all(world: World, players: IntArray, odds: _Odds, days: list[date]) -> Games:
    games: list[Games] = []
    for number, pairs in enumerate(round_robin(len(players))[: len(days)]):
        sides = _sides(pairs)
        codes = odds.results(world.rng, sides)
        games.append(_played(players, sides, codes, days[number], number + 1))
    return Games.join(games)


def _sides(pairs: list[tuple[int, int]]) -> IntArray:
    """The pairs as an array: white's column, then black's."""
    result: IntArray = np.array(pairs, dtype=np.int64).reshape(len(pairs), 2)
    return result


def _played(players: IntArray, sides: IntArray, codes: IntArray, day: date, number: int) -> Games:
    """PIN1 is white, as most tournament programs write it."""
    white, black = players[sides[:, 0]], players[sides[:, 1]]
    return Games.of(white, black, codes, day, colour=Colour.WHITE, round=number)
