"""The rules in numbers, for pages that explain them to players (help, lists, player pages).

Every figure comes from the rule set (``engine.rules.ECF_2009`` by default) and every
worked example is computed by the engine's own functions, so a page can never state a
rule differently from the calculation that applies it.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass

import numpy as np

from ecfgrading.engine.grading import game_points
from ecfgrading.engine.rateplay import Session, TimeControl, rate_of_play
from ecfgrading.engine.rules import ECF_2009, CategoryRule, RuleSet
from ecfgrading.lookups.conversions import Conversion, ConversionTable, conversion, conversion_table

_SPANS = {0: "latest season", 1: "two latest seasons", 2: "latest three seasons"}


@dataclass(frozen=True)
class CategoryLine:
    """One category and what it takes, in the seeds' words (G16, G23)."""

    category: str
    text: str


@dataclass(frozen=True)
class BonusLine:
    """G20: the junior bonus for an age band on the age date."""

    ages: str  # "10 or under", "11 to 17"
    bonus: int


@dataclass(frozen=True)
class FortyPointExample:
    """G12 worked for one game: each side is capped from its own grade."""

    own: int
    opponent: int
    counted: int  # the opponent's grade as it counts for you
    win: int
    draw: int
    loss: int
    counted_for_opponent: int  # your grade as it counts for him


@dataclass(frozen=True)
class RateExample:
    """G2 applied to a time control."""

    control: str
    minutes: float
    outcome: str  # standard, rapid, or why it is not graded


@dataclass(frozen=True)
class Guide:
    """Every number the help page states."""

    rules_name: str
    adult: tuple[CategoryLine, ...]
    junior: tuple[CategoryLine, ...]
    margin: int  # G12: +50 for a win, -50 for a loss
    cap: int  # G12: the 40-point rule
    example: FortyPointExample
    target_adult: int  # G14, G19
    target_junior: int  # G18
    seasons: int  # at most three seasons' games (G14)
    x_min_games: int  # G16
    listed_min_games: int  # the last category: nine games in three seasons...
    listed_min_latest: int  # ...at least one of them in the latest season
    junior_max_age: int
    age_date: str  # 31 August
    bonus: tuple[BonusLine, ...]  # G20
    rapid_min_minutes: int  # G2
    standard_min_minutes: int
    assumed_moves: int
    rate_examples: tuple[RateExample, ...]
    conversions: ConversionTable  # G29
    conversion_example: Conversion


def guide(rules: RuleSet = ECF_2009) -> Guide:
    last = rules.adult_categories[-1]
    return Guide(
        rules_name=rules.name,
        adult=category_lines(rules, junior=False),
        junior=category_lines(rules, junior=True),
        margin=_whole(rules.result_margin),
        cap=_whole(rules.cap),
        example=forty_point_example(120, 170, rules),
        target_adult=rules.target_adult,
        target_junior=rules.target_junior,
        seasons=rules.prior_periods + 1,
        x_min_games=rules.x_min_games,
        listed_min_games=last.min_n012,
        listed_min_latest=last.min_n0,
        junior_max_age=rules.junior_max_age,
        age_date=_age_date(rules),
        bonus=bonus_lines(rules),
        rapid_min_minutes=_whole(rules.rapid_min_minutes),
        standard_min_minutes=_whole(rules.standard_min_minutes),
        assumed_moves=rules.assumed_moves,
        rate_examples=rate_examples(rules),
        conversions=conversion_table(rules),
        conversion_example=conversion(150, rules),
    )


def category_lines(rules: RuleSet = ECF_2009, *, junior: bool) -> tuple[CategoryLine, ...]:
    """The category table of adults or juniors, X first (G16, G23)."""
    table = rules.junior_categories if junior else rules.adult_categories
    x_games = f"{rules.x_min_games} or more games in the latest half-season"
    x_text = f"Rapid only. Grade based on {x_games}"
    return (CategoryLine("X", x_text), *(category_line(row) for row in table))


def category_line(row: CategoryRule) -> CategoryLine:
    """'B': 'Grade based on 30 or more games in the two latest seasons, of which at least
    20 were played in the latest season'."""
    back = 2 if row.min_n012 else 1 if row.min_n01 else 0
    total = (row.min_n0, row.min_n01, row.min_n012)[back]
    text = f"Grade based on {total} or more games in the {_SPANS[back]}"
    if back:
        verb = "was" if row.min_n0 == 1 else "were"
        text += f", of which at least {row.min_n0} {verb} played in the latest season"
    return CategoryLine(row.category, text)


def bonus_lines(rules: RuleSet = ECF_2009) -> tuple[BonusLine, ...]:
    """G20: '10 or under: +10', '11 to 17: +5'."""
    lines, youngest = [], 0
    for max_age, bonus in rules.junior_bonus:
        ages = f"{max_age} or under" if youngest == 0 else f"{youngest} to {max_age}"
        lines.append(BonusLine(ages, _whole(bonus)))
        youngest = max_age + 1
    return tuple(lines)


def forty_point_example(own: int, opponent: int, rules: RuleSet = ECF_2009) -> FortyPointExample:
    """G12 by the engine's own function, for a game between grades ``own`` and ``opponent``."""
    start = np.array([own, opponent], dtype=np.float64)
    sides = np.array([0, 0, 0]), np.array([1, 1, 1])
    scores = np.array([1.0, 0.5, 0.0])
    points = game_points(start, sides[0], sides[1], scores, rules)
    win, draw, loss = (_whole(value) for value in points.points1)
    return FortyPointExample(
        own=own,
        opponent=opponent,
        counted=_whole(points.value1[0]),
        win=win,
        draw=draw,
        loss=loss,
        counted_for_opponent=_whole(points.value2[0]),
    )


# G2's worked examples (grading-rules.md): each player's time for all moves.
_CONTROLS = (
    TimeControl.game(90, 30),
    TimeControl((Session(100, 40),), rest_minutes=30),
    TimeControl.game(55, 5),
    TimeControl.game(15, 10),
    TimeControl.game(10, 5),
    TimeControl.game(5, 3),
)


def rate_examples(rules: RuleSet = ECF_2009) -> tuple[RateExample, ...]:
    found = ((tc, rate_of_play(tc, rules)) for tc in _CONTROLS)
    return tuple(
        RateExample(str(tc), tc.total_minutes(rules), _outcome(str(rate))) for tc, rate in found
    )


def _outcome(rate: str) -> str:
    return rate if rate in ("standard", "rapid") else f"not graded ({rate})"


def _age_date(rules: RuleSet) -> str:
    return f"{rules.age_date_day} {calendar.month_name[rules.age_date_month]}"


def _whole(value: float) -> int:
    """A rule's number as players read it: the rule set keeps floats for the arithmetic."""
    return round(float(value))
