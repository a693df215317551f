"""A synthetic national season, linked as a real federation is, as engine ListInputs.

Players on record belong to clubs, clubs to counties. Standard games come from league
matches between clubs of a county (4-8 boards, paired in board order), weekend
congresses (5-round Swiss sections grouped by strength) and club championships
(round robins inside a club); rapid games from one-day rapidplays (6-round Swiss
sections) and rapid league matches. About a fifth of the active players need an
estimated starting grade (new adults, and juniors aged 8-17, who are always estimated,
G7); the others have previous grades (mean 130, sd 35). Results follow the grade
difference. Most players have stored P1 and P2 totals; rapid seasons, and standard
seasons from ecf-2012 on (the rule set of the list's date, G31), also carry the stored
games of P1 and P2, consistent with the totals (the engine checks it). A few
per cent of extra rows are defaults, games outside P0 and games of the other rate,
which the engine must leave out (G1, G3).

Everything is vectorised with NumPy and seeded: the same arguments give the same
season. ``national_season(200_000, Rate.STANDARD)`` is one season at the scale the
architecture names (60,000 players on record, 200,000 games a year).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import numpy as np
from numpy.typing import NDArray

from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.inputs import (
    RATE_CODES,
    GameTable,
    History,
    ListInputs,
    PlayerTable,
    StoredGames,
    StoredTotals,
)
from ecfgrading.engine.periods import ListId, Period
from ecfgrading.engine.rules import ECF_2009
from ecfgrading.engine.types import Rate, ResultCode

Rng = np.random.Generator
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
DateArray = NDArray[np.datetime64]

LIST_ID = ListId(2010, 7)
MIN_ON_RECORD = 60_000  # the architecture's scale: 60,000 players on record ...
MAX_ON_RECORD = 300_000
GAMES_PER_ACTIVE = 8  # ... 200,000 games a year: 25,000 players play, 16 game ends each
JUNIOR_SHARE = 0.10  # of players on record: ages 8-17 on the age date
NEW_ADULT_SHARE = 0.12  # of active adults: no previous grade of this rate
STANDARD_BANDS = np.array([100.0, 130.0, 160.0])  # Minor, Intermediate, Major, Open
RAPID_BANDS = np.array([90.0, 120.0, 150.0])
WIN, DRAW, LOSS = int(ResultCode.WIN), int(ResultCode.DRAW), int(ResultCode.LOSS)
DEFAULTS = np.array([int(ResultCode.DEFAULT_WIN), int(ResultCode.DEFAULT_LOSS)])


def national_season(
    games: int, rate: Rate, seed: int = 2010, list_id: ListId = LIST_ID
) -> ListInputs:
    """About ``games`` graded P0 games of one rate, plus a few rows the engine must drop."""
    fed = build_federation(games, seed, list_id)
    rng = np.random.default_rng([seed, games, RATE_CODES[rate]])
    cast = roster(fed, games, rng)
    events = standard_games if rate is Rate.STANDARD else rapid_games
    season = events(fed, cast, games, rng)
    players = PlayerTable.of(fed.ids, cast.previous, cast.other_rate, cast.assigned, fed.birth)
    table = game_table(with_noise(season, fed, rng), rate, rng)
    return ListInputs(list_id, rate, players, table, history(fed, cast, games, rate, rng))


# Small vectorised helpers ----------------------------------------------------------------


def day(value: date) -> np.datetime64:
    return np.datetime64(value, "D")


def days_in(rng: Rng, period: Period, n: int) -> DateArray:
    start = day(period.start)
    span = int((day(period.end) - start).astype(np.int64)) + 1
    return start + rng.integers(0, span, n)


def ages_on(birth: DateArray, on: date) -> IntArray:
    """Whole years of age on a day; -1 for an unknown birth date."""
    known = ~np.isnat(birth)
    safe = np.where(known, birth, day(on))
    year = safe.astype("M8[Y]").astype(np.int64) + 1970
    month = safe.astype("M8[M]").astype(np.int64) % 12 + 1
    day_of_month = (safe - safe.astype("M8[M]")).astype(np.int64) + 1
    before = (month > on.month) | ((month == on.month) & (day_of_month > on.day))
    return np.where(known, on.year - year - before, -1)


def grouped(keys: IntArray, groups: int) -> tuple[IntArray, IntArray]:
    """Positions sorted by group and each group's start (CSR, ``groups + 1`` long)."""
    order = np.argsort(keys, kind="stable")
    return order, np.searchsorted(keys[order], np.arange(groups + 1))


def pick_weighted(
    rng: Rng, members: IntArray, starts: IntArray, weights: FloatArray, group: IntArray
) -> IntArray:
    """For each entry of ``group``, a member of that (non-empty) group, by weight."""
    cumulative = np.concatenate(([0.0], np.cumsum(weights[members])))
    low, high = cumulative[starts[group]], cumulative[starts[group + 1]]
    position = np.searchsorted(cumulative, low + rng.random(group.shape[0]) * (high - low))
    return members[np.clip(position - 1, starts[group], starts[group + 1] - 1)]


def play(rng: Rng, strength1: FloatArray, strength2: FloatArray) -> IntArray:
    """Result codes from player1's side: 50 grade points is ten-to-one odds (Elo / 8)."""
    difference = strength1 - strength2
    expected = 1.0 / (1.0 + 10.0 ** (-difference / 50.0))
    drawn = np.minimum(
        0.32 * np.exp(-np.abs(difference) / 80.0), 2 * np.minimum(expected, 1 - expected)
    )
    u = rng.random(difference.shape[0])
    codes = np.full(difference.shape[0], LOSS)
    codes[u < expected + drawn / 2] = DRAW
    codes[u < expected - drawn / 2] = WIN
    return codes


# The federation: players, clubs, counties ------------------------------------------------


@dataclass(frozen=True)
class Federation:
    """Players on record and where they play; the same for both rates of a season."""

    list_id: ListId
    ids: IntArray
    county: IntArray
    club: IntArray  # -1: unattached (plays congresses and rapidplays only)
    club_county: IntArray
    birth: DateArray
    junior: BoolArray
    strength: FloatArray  # true playing strength on the grade scale
    keenness: FloatArray  # how much a player plays, the same at both rates

    @property
    def size(self) -> int:
        return int(self.ids.shape[0])

    @property
    def counties(self) -> int:
        return int(self.club_county.max()) + 1

    @property
    def clubs(self) -> int:
        return int(self.club_county.shape[0])


def players_on_record(games: int) -> int:
    """60,000 at the real scale (200,000 games), more for bigger seasons, at most 300,000."""
    return int(np.clip(games * 0.3, MIN_ON_RECORD, MAX_ON_RECORD))


def build_federation(games: int, seed: int, list_id: ListId = LIST_ID) -> Federation:
    """Players on record for a season of about ``games`` games; a dozen active per club."""
    on_record = players_on_record(games)
    rng = np.random.default_rng([seed, on_record])
    clubs = max(40, games // GAMES_PER_ACTIVE // 12)
    counties = max(10, clubs // 30)
    club_county = rng.choice(counties, clubs, p=rng.dirichlet(np.full(counties, 3.0)))
    club_size = rng.pareto(2.5, clubs) + 1.0
    club = rng.choice(clubs, on_record, p=club_size / club_size.sum())
    birth, junior = births(rng, on_record, list_id)
    return Federation(
        list_id=list_id,
        ids=rng.choice(900_000, on_record, replace=False) + 100_000,
        county=club_county[club],
        club=np.where(rng.random(on_record) < 0.1, -1, club),
        club_county=club_county,
        birth=birth,
        junior=junior,
        strength=strengths(rng, birth, junior, list_id),
        keenness=rng.gamma(1.2, 1.0, on_record),
    )


def births(rng: Rng, n: int, list_id: ListId) -> tuple[DateArray, BoolArray]:
    """Juniors (ages 8-17) always have a birth date; four adults in ten have one."""
    junior = rng.random(n) < JUNIOR_SHARE
    ages = np.where(junior, rng.integers(8, 18, n), rng.integers(18, 86, n))
    # Born between age + 1 years (exclusive) and age years before the age date.
    birth = day(list_id.age_date()) - (ages * 365.25).astype(np.int64) - rng.integers(1, 360, n)
    known = junior | (rng.random(n) < 0.4)
    return np.where(known, birth, np.datetime64("NaT", "D")), junior


def strengths(rng: Rng, birth: DateArray, junior: BoolArray, list_id: ListId) -> FloatArray:
    ages = ages_on(birth, list_id.age_date())
    adult = rng.normal(130.0, 35.0, junior.shape[0])
    young = -20.0 + 9.0 * ages + rng.normal(0.0, 25.0, junior.shape[0])
    return np.clip(np.where(junior, young, adult), 0.0, 280.0)


# Who plays this rate, and what is on record about him ------------------------------------


@dataclass(frozen=True)
class Roster:
    """The players of one rate this season and their grades of record."""

    active: IntArray  # indices of the players who play this season
    weight: FloatArray  # per player on record: his share of games (0: inactive)
    previous: FloatArray  # G4
    other_rate: FloatArray  # G5
    assigned: FloatArray  # G6
    new: BoolArray  # active adults with no previous grade of this rate


def roster(fed: Federation, games: int, rng: Rng) -> Roster:
    n = fed.size
    wanted = min(n, games // GAMES_PER_ACTIVE)
    chance = fed.keenness * np.where(fed.junior, 1.5, 1.0)
    active = np.sort(rng.choice(n, wanted, replace=False, p=chance / chance.sum()))
    weight = np.zeros(n)
    weight[active] = rng.gamma(1.5, 1 / 1.5, wanted) * fed.keenness[active]
    playing = weight > 0
    new = ~fed.junior & playing & (rng.random(n) < NEW_ADULT_SHARE)
    graded = ~new & (playing | (rng.random(n) < 0.6))  # inactive: lapsed grades
    previous = np.maximum(np.round(fed.strength + rng.normal(0, 7, n)), 1.0)
    previous = np.where(rng.random(n) < 0.003, 0.0, previous)  # G4: 0 is not a grade
    other_chance = np.where(new, 0.25, np.where(fed.junior, 0.5, 0.7))
    other = np.maximum(np.round(fed.strength + rng.normal(0, 12, n)), 1.0)
    fide = np.round(fed.strength * 8 + rng.normal(0, 80, n)) / 8  # G29, G30: eighths
    assigned_chance = np.where(fed.junior, 0.03, np.where(new, 0.02, 0.0))
    return Roster(
        active=active,
        weight=weight,
        previous=np.where(graded, previous, np.nan),
        other_rate=np.where(rng.random(n) < other_chance, other, np.nan),
        assigned=np.where(rng.random(n) < assigned_chance, fide, np.nan),
        new=new,
    )


# Events ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Games:
    player1: IntArray
    player2: IntArray
    result: IntArray
    date: DateArray

    @classmethod
    def concat(cls, parts: list[Games]) -> Games:
        return cls(
            np.concatenate([g.player1 for g in parts]),
            np.concatenate([g.player2 for g in parts]),
            np.concatenate([g.result for g in parts]),
            np.concatenate([g.date for g in parts]),
        )

    def take(self, rows: IntArray) -> Games:
        return Games(self.player1[rows], self.player2[rows], self.result[rows], self.date[rows])

    def __len__(self) -> int:
        return int(self.player1.shape[0])


def played(fed: Federation, one: IntArray, two: IntArray, when: DateArray, rng: Rng) -> Games:
    return Games(one, two, play(rng, fed.strength[one], fed.strength[two]), when)


def standard_games(fed: Federation, cast: Roster, games: int, rng: Rng) -> Games:
    """60% league (a fifth of boards lost to short teams), 28% congresses, 12% clubs."""
    return Games.concat(
        [
            league(fed, cast, int(games * 0.60 / 0.80), rng, boards=(4, 5, 6, 8)),
            congresses(fed, cast, int(games * 0.28), rng, STANDARD_BANDS, rounds=5, days=2),
            championships(fed, cast, int(games * 0.12), rng),
            junior_pools(fed, cast, games // 500, rng),
        ]
    )


def rapid_games(fed: Federation, cast: Roster, games: int, rng: Rng) -> Games:
    """75% rapidplays, 25% rapid league (a tenth of boards lost to short teams)."""
    return Games.concat(
        [
            congresses(fed, cast, int(games * 0.75), rng, RAPID_BANDS, rounds=6, days=0),
            league(fed, cast, int(games * 0.25 / 0.90), rng, boards=(4,)),
            junior_pools(fed, cast, games // 500, rng),
        ]
    )


def club_members(fed: Federation, cast: Roster) -> tuple[IntArray, IntArray, FloatArray]:
    """Active members grouped by club (CSR) and each club's total weight."""
    playing = cast.active[fed.club[cast.active] >= 0]
    order, starts = grouped(fed.club[playing], fed.clubs)
    members = playing[order]
    total = np.bincount(fed.club[members], weights=cast.weight[members], minlength=fed.clubs)
    return members, starts, total.astype(np.float64)


def league(fed: Federation, cast: Roster, games: int, rng: Rng, boards: tuple[int, ...]) -> Games:
    """Matches between two clubs of a county; boards paired in strength order."""
    members, starts, club_weight = club_members(fed, cast)
    club_weight = np.where(np.diff(starts) >= min(boards), club_weight, 0.0)
    home, away = fixtures(fed, club_weight, int(games / np.mean(boards)) + 1, rng)
    size = rng.choice(np.array(boards), home.shape[0])
    match1, side1 = distinct(
        rng, size, lambda slot: pick_weighted(rng, members, starts, cast.weight, home[slot])
    )
    match2, side2 = distinct(
        rng, size, lambda slot: pick_weighted(rng, members, starts, cast.weight, away[slot])
    )
    # A team short of players defaults the bottom boards: both teams field the same number.
    fielded = np.minimum(
        np.bincount(match1, minlength=size.shape[0]), np.bincount(match2, minlength=size.shape[0])
    )
    side1 = in_board_order(fed, match1, side1, fielded)
    side2 = in_board_order(fed, match2, side2, fielded)
    match = np.repeat(np.arange(size.shape[0]), fielded)
    match_day = days_in(rng, fed.list_id.period(0), home.shape[0])
    return played(fed, side1, side2, match_day[match], rng)


def distinct(
    rng: Rng, size: IntArray, draw: Callable[[IntArray], IntArray]
) -> tuple[IntArray, IntArray]:
    """Up to ``size[g]`` different players for each group g, drawn by ``draw(group)``.

    Draws twice as many as needed with replacement and keeps the first different ones.
    """
    group = np.repeat(np.arange(size.shape[0]), 2 * size)
    if group.shape[0] == 0:
        return group, group
    player = draw(group)
    _, first = np.unique(group * (int(player.max()) + 1) + player, return_index=True)
    new = np.zeros(group.shape[0], bool)
    new[first] = True
    taken = np.cumsum(new)
    before = np.concatenate(([0], taken))[np.searchsorted(group, group)]
    keep = new & (taken - before <= size[group])
    return group[keep], player[keep]


def in_board_order(
    fed: Federation, match: IntArray, player: IntArray, fielded: IntArray
) -> IntArray:
    """Each team strongest first, cut to the boards both teams fielded."""
    order = np.lexsort((-fed.strength[player], match))
    match, player = match[order], player[order]
    board = np.arange(match.shape[0]) - np.searchsorted(match, match)
    return player[board < fielded[match]]


def fixtures(
    fed: Federation, club_weight: FloatArray, matches: int, rng: Rng
) -> tuple[IntArray, IntArray]:
    """Home clubs by weight, away clubs from the same county; a club never plays itself."""
    by_county, county_starts = grouped(fed.club_county, fed.counties)
    home = rng.choice(fed.clubs, matches, p=club_weight / club_weight.sum())
    away = pick_weighted(rng, by_county, county_starts, club_weight, fed.club_county[home])
    for _ in range(5):
        again = np.flatnonzero(away == home)
        county = fed.club_county[home[again]]
        away[again] = pick_weighted(rng, by_county, county_starts, club_weight, county)
    keep = away != home
    return home[keep], away[keep]


def congresses(
    fed: Federation,
    cast: Roster,
    games: int,
    rng: Rng,
    bands: FloatArray,
    rounds: int,
    days: int,
) -> Games:
    """Swiss events over ``days + 1`` days: weekend congresses or one-day rapidplays."""
    entrants = rng.integers(30, 180, max(1, int(games / (rounds * 50))))
    event, player = entries(fed, cast, entrants, rng)
    event, section, player = sections(fed, event, player, bands, rng)
    period = fed.list_id.period(0)
    start = np.minimum(days_in(rng, period, entrants.shape[0]), day(period.end) - days)
    offsets = np.linspace(0, days, rounds).round().astype(np.int64)
    dates = (start[:, None] + offsets[None, :]).astype("M8[D]")
    return swiss(fed, event, section, player, dates, rng)


def entries(
    fed: Federation, cast: Roster, entrants: IntArray, rng: Rng
) -> tuple[IntArray, IntArray]:
    """Three entrants in five from the host county, the rest from anywhere; by weight."""
    by_county, county_starts = grouped(fed.county[cast.active], fed.counties)
    county_members = cast.active[by_county]
    share = cast.weight[cast.active] / cast.weight[cast.active].sum()
    host = fed.county[rng.choice(cast.active, entrants.shape[0], p=share)]

    def draw(event: IntArray) -> IntArray:
        local = pick_weighted(rng, county_members, county_starts, cast.weight, host[event])
        anywhere = rng.choice(cast.active, event.shape[0], p=share)
        return np.where(rng.random(event.shape[0]) < 0.6, local, anywhere)

    return distinct(rng, entrants, draw)  # no one enters an event twice


def sections(
    fed: Federation, event: IntArray, player: IntArray, bands: FloatArray, rng: Rng
) -> tuple[IntArray, IntArray, IntArray]:
    """Sections by entry grade, contiguous and even (the odd one out has a bye: no game)."""
    entry_grade = fed.strength[player] + rng.normal(0, 10, player.shape[0])
    section = event * (bands.shape[0] + 1) + np.searchsorted(bands, entry_grade)
    order = np.lexsort((rng.random(player.shape[0]), section))
    event, section, player = event[order], section[order], player[order]
    first = np.searchsorted(section, section, side="left")
    size = np.searchsorted(section, section, side="right") - first
    keep = np.arange(section.shape[0]) - first < size - size % 2
    return event[keep], section[keep], player[keep]


def swiss(
    fed: Federation,
    event: IntArray,
    section: IntArray,
    player: IntArray,
    dates: DateArray,
    rng: Rng,
) -> Games:
    """Round 1 top half v bottom half; then by score, then grade, next to each other."""
    score = np.zeros(player.shape[0])
    grade = fed.strength[player]
    parts = []
    for r in range(dates.shape[1]):
        order = np.lexsort((-grade, -score, section))
        one, two = fold(order, section) if r == 0 else (order[0::2], order[1::2])
        games = played(fed, player[one], player[two], dates[event[one], r], rng)
        won = np.where(games.result == WIN, 1.0, np.where(games.result == DRAW, 0.5, 0.0))
        score[one] += won
        score[two] += 1.0 - won
        parts.append(games)
    return Games.concat(parts)


def fold(order: IntArray, section: IntArray) -> tuple[IntArray, IntArray]:
    """Pair k with k + n/2 inside each (sorted, contiguous, even) section."""
    first = np.searchsorted(section, section, side="left")
    half = (np.searchsorted(section, section, side="right") - first) // 2
    top = np.flatnonzero(np.arange(section.shape[0]) - first < half)
    return order[top], order[top + half[top]]


def championships(fed: Federation, cast: Roster, games: int, rng: Rng) -> Games:
    """Round robins of 6 to 10 members inside a club, over the season."""
    members, starts, club_weight = club_members(fed, cast)
    count = np.diff(starts)
    parts = []
    for size in range(6, 11):
        weight = np.where(count >= size, club_weight, 0.0)
        events = max(1, int(games / 5 / (size * (size - 1) // 2)))
        club = rng.choice(fed.clubs, events, p=weight / weight.sum())
        offset = rng.integers(0, count[club])
        seats = starts[club][:, None] + (offset[:, None] + np.arange(size)) % count[club][:, None]
        table = members[seats]
        i, j = np.triu_indices(size, 1)
        one, two = table[:, i].ravel(), table[:, j].ravel()
        parts.append(played(fed, one, two, days_in(rng, fed.list_id.period(0), one.shape[0]), rng))
    return Games.concat(parts)


def junior_pools(fed: Federation, cast: Roster, games: int, rng: Rng) -> Games:
    """School clubs: juniors who play only each other, a closed pool each (G11)."""
    idle = np.flatnonzero(fed.junior & (cast.weight == 0))
    pools = min(games // 6, idle.shape[0] // 4)
    table = rng.choice(idle, 4 * pools, replace=False).reshape(pools, 4)
    i, j = np.triu_indices(4, 1)
    one, two = table[:, i].ravel(), table[:, j].ravel()
    return played(fed, one, two, days_in(rng, fed.list_id.period(0), one.shape[0]), rng)


def with_noise(games: Games, fed: Federation, rng: Rng) -> Games:
    """Add 2% defaults (G1), 1% games of the last season and 0.5% after P0 (G3)."""
    n = len(games)
    defaults = games.take(rng.choice(n, n // 50, replace=False))
    defaults = Games(
        defaults.player1, defaults.player2, rng.choice(DEFAULTS, len(defaults)), defaults.date
    )
    late = games.take(rng.choice(n, n // 100, replace=False))
    late = Games(late.player1, late.player2, late.result, late.date - 365)
    early = games.take(rng.choice(n, n // 200, replace=False))
    early = Games(early.player1, early.player2, early.result, early.date + 365)
    return Games.concat([games, defaults, late, early])


def game_table(games: Games, rate: Rate, rng: Rng) -> GameTable:
    """0.5% of the rows are of the other rate (a mixed event), so not of this list."""
    n = len(games)
    own = RATE_CODES[rate]
    rates = np.where(rng.random(n) < 0.005, 1 - own, own)
    return GameTable.of(
        np.arange(n) + 1, games.player1, games.player2, games.result, games.date, rates
    )


# Stored history (G17) --------------------------------------------------------------------


def history(fed: Federation, cast: Roster, games: int, rate: Rate, rng: Rng) -> History:
    counts = [stored_counts(fed, cast, games, k, rng) for k in (1, 2)]
    average = [fed.strength - 6 * k * fed.junior + rng.normal(0, 8, fed.size) for k in (1, 2)]
    if not rules_for(fed.list_id).needs_stored_games(rate):  # G14: totals only
        totals = [
            StoredTotals.of(n, n * avg, fed.size) for n, avg in zip(counts, average, strict=True)
        ]
        return History(totals[0], totals[1])
    return stored_games(fed, counts, average, rng)


def stored_counts(fed: Federation, cast: Roster, games: int, k: int, rng: Rng) -> IntArray:
    """Most active players played last season too; new ones seldom; some lapsed ones."""
    expected = 2 * games * cast.weight / cast.weight.sum()
    returning = cast.weight > 0
    # Players on record not playing now: about 0.3 * games stored game ends in all.
    lapsed = min(0.5, 0.3 * games / 11 / max(1, int((~returning).sum())))
    chance = np.where(cast.new, 0.2 / k, np.where(returning, 0.85 - 0.1 * k, lapsed))
    mean = np.where(cast.new, 4.0, np.where(returning, expected, 10.0))
    return np.where(rng.random(fed.size) < chance, rng.poisson(mean) + 1, 0)


def stored_games(
    fed: Federation, counts: list[IntArray], average: list[FloatArray], rng: Rng
) -> History:
    """Every stored game of P1 and P2 (G15, G35, G38), on event days across both of each
    period's half-years (equal dates are common)."""
    size = fed.size
    parts = []
    for k in (1, 2):
        player = np.repeat(np.arange(size), counts[k - 1])
        event_days = days_in(rng, fed.list_id.period(k), 150)
        when = event_days[rng.integers(0, 150, player.shape[0])]
        points = np.round(average[k - 1][player] + rng.normal(0, 45, player.shape[0]), 2)
        parts.append((player, np.full(player.shape[0], k), when, points))
    player, period, when, points = (np.concatenate(column) for column in zip(*parts, strict=True))
    # Recorded in date order, give or take a fortnight of late results.
    order = np.argsort(np.argsort(when.astype(np.int64) + rng.integers(0, 15, when.shape[0]))) + 1
    games = StoredGames.of(np.arange(player.shape[0]) + 1, player, period, when, order, points)
    totals = [
        StoredTotals.of(
            np.bincount(player[period == k], minlength=size),
            np.bincount(player[period == k], weights=points[period == k], minlength=size),
            size,
        )
        for k in (1, 2)
    ]
    return History(totals[0], totals[1], games)


# What a season looks like ----------------------------------------------------------------


@dataclass(frozen=True)
class SeasonStats:
    on_record: int
    rows: int  # game rows, including those the engine must drop
    graded: int  # graded games of this rate in P0 (G1, G3)
    active: int  # players with a graded game in P0
    estimated_share: float  # of active players: no fixed starting grade (G7)
    junior_share: float  # of active players
    games_per_player: float  # mean graded P0 games per active player
    median_games: float
    stored_games: int


def describe(inputs: ListInputs) -> SeasonStats:
    games, players = inputs.games, inputs.players
    p0 = inputs.list_id.period(0)
    graded = (games.result <= int(ResultCode.DRAW)) & (games.rate == RATE_CODES[inputs.rate])
    graded &= (games.date >= day(p0.start)) & (games.date <= day(p0.end))
    ends = np.concatenate((games.player1[graded], games.player2[graded]))
    per_player = np.bincount(ends, minlength=len(players))
    active = per_player > 0
    age = ages_on(players.birth, inputs.list_id.age_date())
    junior = (age >= 0) & (age <= ECF_2009.junior_max_age)
    fixed = ~junior & ((players.previous > 0) | (players.other_rate > 0))
    fixed |= ~np.isnan(players.assigned)
    return SeasonStats(
        on_record=len(players),
        rows=len(games),
        graded=int(graded.sum()),
        active=int(active.sum()),
        estimated_share=float((active & ~fixed).sum() / active.sum()),
        junior_share=float((active & junior).sum() / active.sum()),
        games_per_player=float(per_player[active].mean()),
        median_games=float(np.median(per_player[active])),
        stored_games=len(inputs.history.games),
    )
