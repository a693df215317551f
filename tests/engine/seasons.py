"""Hypothesis strategies for small random seasons: ``seasons()`` draws ListInputs.

Small enough for the per-game reference (tests/engine/reference.py) to run in
milliseconds, varied enough to reach every rule: every starting-grade source,
juniors either side of the age limit, defaults, games outside P0 or of the other
rate or with no date, closed pools, stored P1/P2 totals and, for rapid, stored games
consistent with them (with equal dates, so that recording order matters, G15).

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
from ecfgrading.engine.types import Rate, ResultCode

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


@dataclass(frozen=True)
class Shape:
    """What Hypothesis decides about a season; the rest comes from the seed."""

    list_id: ListId
    rate: Rate
    players: int
    games: int
    hub: bool  # about half the games involve player 0, so that A, B and X grades occur
    in_h0: float  # share of P0 games dated in H0
    history: float  # share of players with stored P1/P2 games
    seed: int


@st.composite
def shapes(
    draw: st.DrawFn,
    rates: tuple[Rate, ...] = (Rate.STANDARD, Rate.RAPID),
    max_players: int = 25,
    max_games: int = 80,
) -> Shape:
    rate = draw(st.sampled_from(rates))
    month = 7 if rate is Rate.STANDARD else draw(st.sampled_from((1, 7)))
    return Shape(
        list_id=ListId(draw(st.integers(2010, 2024)), month),
        rate=rate,
        players=draw(st.integers(2, max_players)),
        games=draw(st.integers(1, max_games)),
        hub=draw(st.booleans()),
        in_h0=draw(st.sampled_from((0.0, 0.5, 0.9))),
        history=draw(st.sampled_from((0.0, 0.5, 0.9))),
        seed=draw(st.integers(0, 2**32 - 1)),
    )


def seasons(
    rates: tuple[Rate, ...] = (Rate.STANDARD, Rate.RAPID),
    max_players: int = 25,
    max_games: int = 80,
) -> st.SearchStrategy[ListInputs]:
    """Small random seasons: 2..max_players players, 1..max_games games."""
    return shapes(rates, max_players, max_games).map(season_of)


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


def game_days(shape: Shape, rng: Rng, n: int) -> DateArray:
    """Mostly P0 (part in H0), some in P1 or after P0, a few unknown (G3)."""
    list_id = shape.list_id
    p0 = list_id.period(0)
    after = Period(p0.end + timedelta(days=1), p0.end + timedelta(days=60))
    choices = [
        days_in(rng, list_id.h0(), n),
        days_in(rng, p0, n),
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
    if shape.hub:
        player1[rng.random(n) < 0.5] = 0
    player2 = (player1 + rng.integers(1, size, n)) % size
    swap = rng.random(n) < 0.5
    player1, player2 = np.where(swap, player2, player1), np.where(swap, player1, player2)
    codes = np.array([int(code) for code in RESULT_WEIGHTS])
    weights = np.array(list(RESULT_WEIGHTS.values()), dtype=np.float64)
    own = RATE_CODES[shape.rate]
    rate = np.where(rng.random(n) < 0.9, own, 1 - own)
    return GameTable.of(
        ids=np.arange(n) * 7 + 11,  # not the row index: engines must key by position
        player1=player1,
        player2=player2,
        result=rng.choice(codes, n, p=weights / weights.sum()),
        date=game_days(shape, rng, n),
        rate=rate,
    )


# History (G17) -------------------------------------------------------------------------


def stored_counts(shape: Shape, rng: Rng) -> IntArray:
    """Games per (player, period): none, a few, or enough to matter for categories."""
    n = shape.players * 2
    counts = np.where(rng.random(n) < 0.5, rng.integers(1, 6, n), rng.integers(1, 36, n))
    return np.where(rng.random(n) < shape.history, counts, 0)


def history(shape: Shape, rng: Rng) -> History:
    """Stored games and totals of P1 and P2 that agree (as rapid lists require)."""
    counts = stored_counts(shape, rng)
    slot = np.repeat(np.arange(counts.shape[0]), counts)  # slot = 2 * player + (period - 1)
    player, period = slot // 2, slot % 2 + 1
    m = slot.shape[0]
    # Three candidate days per slot, so that equal dates (G15: recording order) are common.
    days = np.empty(m, "M8[D]")
    for k in (1, 2):
        candidates = days_in(rng, shape.list_id.period(k), 3 * counts.shape[0]).reshape(-1, 3)
        pick = candidates[slot, rng.integers(0, 3, m)]
        days[period == k] = pick[period == k]
    points = rng.integers(-200, 1201, m) / 4
    totals = [period_totals(player[period == k], points[period == k], shape) for k in (1, 2)]
    if m == 0 or (shape.rate is Rate.STANDARD and rng.random() < 0.5):
        return History(totals[0], totals[1])  # standard lists need only the totals
    order = rng.permutation(m) + 1
    games = StoredGames.of(np.arange(m) + 10**6, player, period, days, order, points)
    return History(totals[0], totals[1], games)


def period_totals(player: IntArray, points: FloatArray, shape: Shape) -> StoredTotals:
    size = shape.players
    n = np.bincount(player, minlength=size)
    total = np.bincount(player, weights=points, minlength=size)
    return StoredTotals.of(n, total, size)
