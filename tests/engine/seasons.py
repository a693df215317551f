"""Hypothesis strategies for small random seasons: ``seasons()`` draws ListInputs.

Small enough for the per-game reference (tests/engine/reference.py) to run in
milliseconds, varied enough to reach every rule: list dates in the three eras (G31:
ecf-2009 lists to 2011-07, ecf-2012 from 2012-01, ecf-2015 from 2015-01, standard
January lists from 2012-01, the transition lists around the 7-month half-year, G32),
every starting-grade source, juniors either side of the age limit, defaults, games
outside P0 or of the other rate or with no date, P0 games on a few event days (equal
dates, so that recording order matters, G35), closed pools, stored P1/P2 totals and,
whenever the rule set used needs them (G15, G35, G38), stored games consistent with
them: dated inside their period, on a few days (G15: recording order), and spread over
its two half-years so that some players have games in both, some in only one (G38).

Hypothesis draws the shape of a season (rate, list, sizes, a few switches) and a
seed; the columns are then filled from ``numpy.random.default_rng(seed)``. Drawing
every value through Hypothesis was a hundred times slower; shrinking still reduces
the sizes and the switches.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import numpy as np
from hypothesis import strategies as st
from numpy.typing import NDArray

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
from ecfgrading.engine.rules import ECF_2009, ECF_2012, ECF_2015, RuleSet
from ecfgrading.engine.types import Rate, ResultCode
from tests.engine.reference import rules_of_date

Rng = np.random.Generator
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
DateArray = NDArray[np.datetime64]

NAT = np.datetime64("NaT", "D")
# Mostly graded results, some defaults (G1), as (code, weight).
RESULT_WEIGHTS = {
    ResultCode.WIN: 4,
    ResultCode.LOSS: 4,
    ResultCode.DRAW: 3,
    ResultCode.DEFAULT_WIN: 1,
    ResultCode.DEFAULT_LOSS: 1,
    ResultCode.DOUBLE_DEFAULT: 1,
}
ALL_RULES = (ECF_2009, ECF_2012, ECF_2015)
# G31: the list months of each rule set's era that seasons are drawn from (standard
# January lists exist from 2012-01 only; ``ListId.rates`` says which rates a list has).
ERA_LISTS = {
    ECF_2009.name: tuple(ListId(y, m) for y in range(2008, 2012) for m in (1, 7)),
    ECF_2012.name: tuple(ListId(y, m) for y in range(2012, 2015) for m in (1, 7)),
    ECF_2015.name: tuple(ListId(y, m) for y in range(2015, 2025) for m in (1, 7)),
}


@dataclass(frozen=True)
class Shape:
    """What Hypothesis decides about a season; the rest comes from the seed."""

    list_id: ListId
    rate: Rate
    players: int
    games: int
    hub: float  # share of games involving player 0, so that A, B and X grades occur
    marathon: int  # extra graded H0 games of player 0: about the X threshold (G16, G36)
    in_h0: float  # share of P0 games dated in H0 (the rest in H1)
    event_days: int  # 0: P0 games on any day; else on this many days per half-year
    history: float  # share of players with stored P1/P2 games
    stored_games: bool  # stored games of P1/P2 given, not only their totals
    seed: int


@st.composite
def shapes(
    draw: st.DrawFn,
    rates: tuple[Rate, ...] = (Rate.STANDARD, Rate.RAPID),
    max_players: int = 25,
    max_games: int = 80,
    eras: tuple[RuleSet, ...] = ALL_RULES,
    rules: RuleSet | None = None,
) -> Shape:
    era = draw(st.sampled_from(eras))
    rate = draw(st.sampled_from(rates))
    list_id = draw(st.sampled_from([lid for lid in ERA_LISTS[era.name] if rate in lid.rates()]))
    used = rules or rules_of_date(list_id)
    return Shape(
        list_id=list_id,
        rate=rate,
        players=draw(st.integers(2, max_players)),
        games=draw(st.integers(1, max_games)),
        hub=draw(st.sampled_from((0.0, 0.5, 0.8))),
        marathon=draw(st.sampled_from((0, 0, 25, 32))),
        in_h0=draw(st.sampled_from((0.0, 0.5, 0.9))),
        event_days=draw(st.sampled_from((0, 3))),
        history=draw(st.sampled_from((0.0, 0.5, 0.9))),
        # G14 (ecf-2009 standard) reads totals only; every other method needs the games.
        stored_games=used.needs_stored_games(rate) or draw(st.booleans()),
        seed=draw(st.integers(0, 2**32 - 1)),
    )


def seasons(
    rates: tuple[Rate, ...] = (Rate.STANDARD, Rate.RAPID),
    max_players: int = 25,
    max_games: int = 80,
    eras: tuple[RuleSet, ...] = ALL_RULES,
    rules: RuleSet | None = None,
) -> st.SearchStrategy[ListInputs]:
    """Small random seasons: 2..max_players players, 1..max_games games (and sometimes
    25 or 32 more for player 0, in H0), for a list dated in the era of one of ``eras``
    (G31), fit to be computed under ``rules`` (None: the rule set of the list's date):
    with every stored game of P1 and P2 when that rule set needs them."""
    return shapes(rates, max_players, max_games, eras, rules).map(season_of)


def season_of(shape: Shape) -> ListInputs:
    rng = np.random.default_rng(shape.seed)
    return ListInputs(
        shape.list_id,
        shape.rate,
        player_table(shape, rng),
        game_table(shape, rng),
        history(shape, rng),
    )


# Players -------------------------------------------------------------------------------


def grades(rng: Rng, n: int, p_none: float, p_zero: float) -> FloatArray:
    """Published grades: none (NaN), zero (not a grade, G4) or whole numbers."""
    values = rng.integers(1, 251, n).astype(np.float64)
    kind = rng.random(n)
    values[kind < p_none + p_zero] = 0.0
    values[kind < p_none] = np.nan
    return values


def assigned_grades(rng: Rng, n: int) -> FloatArray:
    """G6: usually none; conversions from FIDE give eighths (G29)."""
    values = rng.integers(0, 2001, n) / 8
    return np.where(rng.random(n) < 0.8, np.nan, values)


def births(rng: Rng, n: int, age_date: date) -> DateArray:
    """Unknown for half; otherwise ages 5..30, many either side of 17 (the junior limit)."""
    ages = rng.integers(5, 31, n)
    days = np.datetime64(age_date, "D") - (ages * 365.25).astype(np.int64)
    days = days + rng.integers(-200, 201, n)
    return np.where(rng.random(n) < 0.5, NAT, days)


def player_table(shape: Shape, rng: Rng) -> PlayerTable:
    n = shape.players
    return PlayerTable.of(
        ids=rng.choice(10**6, n, replace=False) + 1,
        previous=grades(rng, n, p_none=0.4, p_zero=0.1),
        other_rate=grades(rng, n, p_none=0.7, p_zero=0.05),
        assigned=assigned_grades(rng, n),
        birth=births(rng, n, shape.list_id.age_date()),
    )


# Games ---------------------------------------------------------------------------------


def days_in(rng: Rng, period: Period, n: int) -> DateArray:
    start = np.datetime64(period.start, "D")
    span = (np.datetime64(period.end, "D") - start).astype(np.int64) + 1
    return start + rng.integers(0, span, n)


def event_days_in(rng: Rng, period: Period, n: int, events: int) -> DateArray:
    """n days of a period: any day, or one of ``events`` days when events > 0."""
    if events == 0:
        return days_in(rng, period, n)
    return days_in(rng, period, events)[rng.integers(0, events, n)]


def game_days(shape: Shape, rng: Rng, n: int) -> DateArray:
    """Mostly P0 (H0 or H1), some in P1 or after P0, a few unknown (G3)."""
    list_id = shape.list_id
    p0 = list_id.period(0)
    h0, h1 = list_id.half_years()[:2]
    after = Period(p0.end + timedelta(days=1), p0.end + timedelta(days=60))
    choices = [
        event_days_in(rng, h0, n, shape.event_days),
        event_days_in(rng, h1, n, shape.event_days),
        days_in(rng, list_id.period(1), n),
        days_in(rng, after, n),
        np.full(n, NAT),
    ]
    inside = 0.9
    weights = [inside * shape.in_h0, inside * (1 - shape.in_h0), 0.04, 0.04, 0.02]
    pick = rng.choice(len(choices), n, p=weights)
    return np.choose(pick, choices)


def game_table(shape: Shape, rng: Rng) -> GameTable:
    n, size = shape.games, shape.players
    player1 = rng.integers(0, size, n)
    player1[rng.random(n) < shape.hub] = 0
    player2 = (player1 + rng.integers(1, size, n)) % size
    swap = rng.random(n) < 0.5
    player1, player2 = np.where(swap, player2, player1), np.where(swap, player1, player2)
    codes = np.array([int(code) for code in RESULT_WEIGHTS])
    weights = np.array(list(RESULT_WEIGHTS.values()), dtype=np.float64)
    own = RATE_CODES[shape.rate]
    rate = np.where(rng.random(n) < 0.9, own, 1 - own)
    result = rng.choice(codes, n, p=weights / weights.sum())
    day = game_days(shape, rng, n)
    if shape.marathon:
        m = shape.marathon
        player1 = np.r_[player1, np.zeros(m, np.int64)]
        player2 = np.r_[player2, rng.integers(1, size, m)]
        graded = [int(ResultCode.WIN), int(ResultCode.LOSS), int(ResultCode.DRAW)]
        result = np.r_[result, rng.choice(graded, m)]
        h0 = shape.list_id.h0()
        day = np.r_[day, event_days_in(rng, h0, m, shape.event_days)]
        rate = np.r_[rate, np.full(m, own)]
    return GameTable.of(
        # Not the row index (engines must key by position), nor in row order: a larger id
        # was recorded later (G35's tie-break on equal dates).
        ids=rng.permutation(player1.shape[0]) * 7 + 11,
        player1=player1,
        player2=player2,
        result=result,
        date=day,
        rate=rate,
    )


# History (G17) -------------------------------------------------------------------------


def stored_counts(shape: Shape, rng: Rng) -> IntArray:
    """Games per (player, period): none, a few, or enough to matter for categories."""
    n = shape.players * 2
    counts = np.where(rng.random(n) < 0.5, rng.integers(1, 6, n), rng.integers(1, 36, n))
    return np.where(rng.random(n) < shape.history, counts, 0)


def history(shape: Shape, rng: Rng) -> History:
    """Stored games and totals of P1 and P2 that agree (as G15, G35 and G38 require)."""
    counts = stored_counts(shape, rng)
    slot = np.repeat(np.arange(counts.shape[0]), counts)  # slot = 2 * player + (period - 1)
    player, period = slot // 2, slot % 2 + 1
    m = slot.shape[0]
    days = stored_days(shape, rng, slot)
    points = rng.integers(-200, 1201, m) / 4
    totals = [period_totals(player[period == k], points[period == k], shape) for k in (1, 2)]
    if m == 0 or not shape.stored_games:
        return History(totals[0], totals[1])  # ecf-2009 standard lists need only the totals
    order = rng.permutation(m) + 1
    games = StoredGames.of(np.arange(m) + 10**6, player, period, days, order, points)
    return History(totals[0], totals[1], games)


def stored_days(shape: Shape, rng: Rng, slot: IntArray) -> DateArray:
    """Dates of stored games inside their period P_k = H_2k + H_2k+1 (G32, G34): each
    (player, period) slot has two candidate days in each half-year, so that equal dates
    are common (G15, G35: recording order), and puts its games in the later half, the
    earlier half or both (G38: whole half-years, empty ones skipped)."""
    slots = 2 * shape.players
    half_years = shape.list_id.half_years()
    later = np.empty((slots, 2), "M8[D]")
    earlier = np.empty((slots, 2), "M8[D]")
    for k in (1, 2):
        rows = np.arange(k - 1, slots, 2)
        later[rows] = days_in(rng, half_years[2 * k], 2 * rows.size).reshape(-1, 2)
        earlier[rows] = days_in(rng, half_years[2 * k + 1], 2 * rows.size).reshape(-1, 2)
    late_share = rng.choice(np.array([0.0, 0.5, 1.0]), slots)
    late = rng.random(slot.shape[0]) < late_share[slot]
    pick = rng.integers(0, 2, slot.shape[0])
    return np.where(late, later[slot, pick], earlier[slot, pick])


def period_totals(player: IntArray, points: FloatArray, shape: Shape) -> StoredTotals:
    size = shape.players
    n = np.bincount(player, minlength=size)
    total = np.bincount(player, weights=points, minlength=size)
    return StoredTotals.of(n, total, size)
