"""``compute_list``: one list of one rate, from columnar inputs to a full outcome.

The steps follow the rules' sections: which games (G1, G3), starting grades (G4..G11),
points (G12, G13), bringing games forward (G14..G19; G35..G38), finishing (G20..G22) and
categories (G23, G24; G39..G41). Which method applies is the rule set's to say (by
default the rule set of the list's date, G31). Nothing here loops over games or players
in Python.
"""

from __future__ import annotations

from datetime import date

import numpy as np

from ecfgrading.engine.categories import CATEGORY_CODES, categories
from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.estimation import GameSides
from ecfgrading.engine.forward import bring_forward, counted_in_p0
from ecfgrading.engine.grading import GamePoints, game_points
from ecfgrading.engine.inputs import (
    RATE_CODES,
    BoolArray,
    DateArray,
    FloatArray,
    IntArray,
    ListInputs,
)
from ecfgrading.engine.outcome import ListOutcome, PlayerColumns
from ecfgrading.engine.periods import Period
from ecfgrading.engine.rules import RuleSet
from ecfgrading.engine.starting import StartingGrades, starting_grades
from ecfgrading.engine.types import Category, ResultCode

_SCORE1 = np.array([code.score1 for code in ResultCode])
_GRADED = np.array([code.graded for code in ResultCode])
_NONE = CATEGORY_CODES.index(Category.NONE)


def compute_list(inputs: ListInputs, rules: RuleSet | None = None) -> ListOutcome:
    """Compute every player's grade, category and explanation for one list, under
    ``rules`` or, by default, the rule set of the list's date (G31)."""
    rules = rules or rules_for(inputs.list_id)
    if rules.needs_stored_games(inputs.rate):
        inputs.check_stored_games()
    games = inputs.games
    graded = graded_games(inputs)
    p1, p2 = games.player1[graded], games.player2[graded]
    score1 = _SCORE1[games.result[graded]]
    sides = GameSides.of(p1, p2, score1)
    age = ages_on(inputs.players.birth, inputs.list_id.age_date(rules))
    junior = (age >= 0) & (age <= rules.junior_max_age)  # unknown birth: never a junior
    active = np.bincount(sides.me, minlength=len(inputs.players)) > 0
    start = starting_grades(inputs.players, active, junior, sides, inputs.history, rules)
    points = game_points(start.value, p1, p2, score1, rules)
    in_h0 = graded & _within(games.date, inputs.list_id.h0())
    season = _Season(p1, p2, points, in_h0[graded], games.date[graded], games.ids[graded])
    columns, counted = _finish(inputs, rules, age, junior, start, season)
    return ListOutcome(
        inputs,
        rules,
        graded,
        in_h0,
        _scatter(points, graded),
        columns,
        counted=(_spread(counted[0], graded), _spread(counted[1], graded)),
    )


def graded_games(inputs: ListInputs) -> BoolArray:
    """G1 (graded result codes) and G3 (this rate, dated within P0)."""
    games = inputs.games
    this_rate = games.rate == RATE_CODES[inputs.rate]
    return np.asarray(_GRADED[games.result] & this_rate & _within(games.date, inputs.list_id.p0()))


def ages_on(birth: DateArray, day: date) -> IntArray:
    """Whole years of age on ``day``; -1 where the date of birth is unknown."""
    known = ~np.isnat(birth)
    safe = np.where(known, birth, np.datetime64("2000-01-01"))
    years = safe.astype("datetime64[Y]").astype(np.int64) + 1970
    months = safe.astype("datetime64[M]").astype(np.int64) % 12 + 1
    days = (safe - safe.astype("datetime64[M]")).astype(np.int64) + 1
    before_birthday = (months > day.month) | ((months == day.month) & (days > day.day))
    return np.where(known, day.year - years - before_birthday, -1).astype(np.int64)


class _Season:
    """The graded P0 games with their points, seen per player."""

    def __init__(
        self,
        p1: IntArray,
        p2: IntArray,
        points: GamePoints,
        in_h0: BoolArray,
        date: DateArray,
        order: IntArray,
    ):
        self.p1, self.p2, self.points, self.in_h0 = p1, p2, points, in_h0
        self.date, self.order = date, order  # game ids grow with recording (G15, G35)

    def totals(
        self, size: int, only: BoolArray | None = None, only2: BoolArray | None = None
    ) -> tuple[IntArray, FloatArray]:
        """Games and points per player (G17's n0 and T0), optionally of some games only
        (``only`` for both sides, or for player1's side when ``only2`` is player2's)."""
        keep1 = np.ones(self.p1.shape[0], dtype=bool) if only is None else only
        keep2 = keep1 if only2 is None else only2
        p1, p2 = self.p1[keep1], self.p2[keep2]
        n = np.bincount(p1, minlength=size) + np.bincount(p2, minlength=size)
        total = np.bincount(p1, self.points.points1[keep1], minlength=size) + np.bincount(
            p2, self.points.points2[keep2], minlength=size
        )
        return n.astype(np.int64), total.astype(np.float64)

    def counted(self, rules: RuleSet, limit: IntArray) -> tuple[BoolArray, BoolArray]:
        """Per game, whether player1's and player2's sides count (G35; else all do)."""
        size = self.p1.shape[0]
        mask = counted_in_p0(
            np.concatenate([self.p1, self.p2]),
            np.concatenate([self.date, self.date]),
            np.concatenate([self.order, self.order]),
            limit,
            rules.counting,
        )
        return mask[:size], mask[size:]


def _finish(
    inputs: ListInputs,
    rules: RuleSet,
    age: IntArray,
    junior: BoolArray,
    start: StartingGrades,
    season: _Season,
) -> tuple[PlayerColumns, tuple[BoolArray, BoolArray]]:
    size = len(inputs.players)
    n0, t0 = season.totals(size)
    h0, th0 = season.totals(size, season.in_h0)
    active = n0 > 0
    x_grade = active & rules.x_applies(inputs.rate) & (h0 >= rules.x_min_games)  # G16, G36
    wanted = np.where(junior, rules.target_junior, rules.target_adult)
    target = np.where(active & ~x_grade, wanted, 0)  # G14, G18, G35, G38: games aimed at
    forward = bring_forward(
        rules, inputs.rate, n0, target, inputs.history, inputs.list_id.half_years()
    )
    counted_sides = season.counted(rules, target)  # G35: the N most recent P0 games only
    n_counted, t_counted = season.totals(size, *counted_sides)
    counted = np.where(x_grade, h0, n_counted + forward.from_p1 + forward.from_p2)
    total = np.where(x_grade, th0, t_counted + forward.points)
    calculated = np.divide(total, counted, out=np.full(size, np.nan), where=counted > 0)
    bonus = np.where(active & junior, _junior_bonus(age, rules), 0.0)  # G20
    unrounded = np.maximum(calculated + bonus, rules.floor)  # G21
    grade = np.floor(np.nan_to_num(unrounded, nan=-1.0) + 0.5).astype(np.int64)  # G22
    history = inputs.history
    category = categories((n0, history.p1.n, history.p2.n), x_grade, junior, rules)
    columns = PlayerColumns(
        active=active,
        junior=junior,
        age=age,
        start=start.value,
        source=start.source,
        unanchored=start.unanchored,
        first_estimate=start.first_estimate,
        n0=n0,
        t0=t0,
        h0=h0,
        x_grade=x_grade,
        forward=forward,
        calculated=calculated,
        bonus=bonus,
        unrounded=unrounded,
        grade=np.where(active, grade, -1),
        category=np.where(active, category, _NONE).astype(np.int8),
        games_counted=np.where(active, counted, 0),
    )
    return columns, counted_sides


def _junior_bonus(age: IntArray, rules: RuleSet) -> FloatArray:
    """G20 bands: the first band whose top age is not below the player's age."""
    bands = [age <= top for top, _ in rules.junior_bonus]
    return np.select(bands, [bonus for _, bonus in rules.junior_bonus], 0.0)


def _within(dates: DateArray, period: Period) -> BoolArray:
    start, end = np.datetime64(period.start, "D"), np.datetime64(period.end, "D")
    return np.asarray((dates >= start) & (dates <= end))


def _spread(column: BoolArray, graded: BoolArray) -> BoolArray:
    """A per-graded-game column aligned with all input games (False elsewhere)."""
    out = np.zeros(graded.shape[0], dtype=bool)
    out[graded] = column
    return out


def _scatter(points: GamePoints, graded: BoolArray) -> GamePoints:
    """Per-game columns aligned with all input games (NaN for games not graded)."""

    def full(column: FloatArray) -> FloatArray:
        out = np.full(graded.shape[0], np.nan)
        out[graded] = column
        return out

    return GamePoints(
        *(full(c) for c in (points.value1, points.points1, points.value2, points.points2))
    )
