"""The arithmetic of the integrity check, on plain arrays (no database).

Grades and scores arrive as numpy arrays; every figure is a plain float or int so the
report serialises to JSON without numpy types.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ecfgrading.engine.rules import RuleSet

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class AgreementParams:
    """How games are banded and when a list is suspect; named so they can be tuned."""

    band_width: int = 10  # bands of |d|: 0-9, 10-19, ...
    open_band: int = 50  # the last band is 50+
    min_games: int = 200  # fewer games than this are too few to judge a band by
    tolerance: float = 0.05  # a band whose actual score is further off makes it suspect


@dataclass(frozen=True)
class Distribution:
    """Published grades of one list; spread is the population standard deviation."""

    count: int
    mean: float | None
    median: float | None
    std: float | None


@dataclass(frozen=True)
class HistogramBand:
    low: int  # grades low..low+9
    current: int
    previous: int


@dataclass(frozen=True)
class AgreementBand:
    low: int
    high: int | None  # None: the open band (50+)
    games: int
    expected: float | None  # mean expected score of the stronger player
    actual: float | None  # his mean actual score
    difference: float | None  # actual - expected
    suspect: bool


def distribution(grades: FloatArray) -> Distribution:
    if grades.size == 0:
        return Distribution(0, None, None, None)
    return Distribution(
        int(grades.size), float(grades.mean()), float(np.median(grades)), float(grades.std())
    )


def histogram(current: FloatArray, previous: FloatArray, width: int = 10) -> list[HistogramBand]:
    """Both lists counted in the same bands, from 0 up to the highest grade of either."""
    top = max((int(a.max()) for a in (current, previous) if a.size), default=-1)
    size = top // width + 1
    now, before = (_band_counts(a, width, size) for a in (current, previous))
    return [HistogramBand(i * width, int(now[i]), int(before[i])) for i in range(size)]


def expected_score(d: FloatArray, rules: RuleSet) -> FloatArray:
    """The score that keeps a player's grade where it is against an opponent d below him.

    Under G12 his points per game average ``V + 2*margin*s - margin`` with V his
    opponent's value; they equal his grade G when V = G - d and
    ``s = 0.5 + d / (2 * margin)``, that is 0.5 + d/100: a 50-point difference is
    worth half a point a game, so 0.5 + d/100 is the expected score. The 40-point rule
    makes V at most ``cap`` away, so beyond 40 points the line stops at 0.9 (and 0.1):
    a player 60 points stronger keeps his grade by scoring 90%, not 100%. The clamp to
    [0, 1] keeps a score a score under a rule set without the cap.
    """
    capped = np.clip(d, -rules.cap, rules.cap)
    return np.clip(0.5 + capped / (2 * rules.result_margin), 0.0, 1.0)


def agreement(
    grade1: FloatArray,
    grade2: FloatArray,
    score1: FloatArray,
    rules: RuleSet,
    params: AgreementParams,
) -> list[AgreementBand]:
    """Expected against actual score of the stronger player, banded by |d|."""
    d = grade1 - grade2
    # The stronger player is 'player 1': turn round the games where player 2 is.
    stronger_score = np.where(d < 0, 1.0 - score1, score1)
    gap = np.abs(d)
    bands = params.open_band // params.band_width + 1
    index = np.minimum(gap // params.band_width, bands - 1).astype(np.int64)
    games = np.bincount(index, minlength=bands)
    expected = np.bincount(index, weights=expected_score(gap, rules), minlength=bands)
    actual = np.bincount(index, weights=stronger_score, minlength=bands)
    return [
        _band(i, int(games[i]), float(expected[i]), float(actual[i]), params) for i in range(bands)
    ]


def _band(i: int, games: int, expected: float, actual: float, p: AgreementParams) -> AgreementBand:
    low = i * p.band_width
    high = None if low >= p.open_band else low + p.band_width - 1
    if games == 0:
        return AgreementBand(low, high, 0, None, None, None, False)
    mean_expected, mean_actual = expected / games, actual / games
    difference = mean_actual - mean_expected
    suspect = games >= p.min_games and abs(difference) > p.tolerance
    return AgreementBand(low, high, games, mean_expected, mean_actual, difference, suspect)


def _band_counts(grades: FloatArray, width: int, size: int) -> IntArray:
    index = (grades // width).astype(np.int64)
    return np.bincount(index, minlength=size)
