"""The rule set: every number of the grading rules, named, with the rule it serves.

``ECF_2009`` is the default and describes ``shared/spec/grading-rules.md``.
A rule set is a frozen value: pass another one to compute under other rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class CategoryRule:
    """One row of the category table (G23): every minimum must be met."""

    category: str
    min_n0: int = 0  # games in P0
    min_n01: int = 0  # games in P0 + P1
    min_n012: int = 0  # games in P0 + P1 + P2


_ADULT_CATEGORIES = (
    CategoryRule("A", min_n0=30),
    CategoryRule("B", min_n0=20, min_n01=30),
    CategoryRule("C", min_n0=10, min_n012=30),
    CategoryRule("D", min_n0=5, min_n012=15),
    CategoryRule("E", min_n0=1, min_n012=9),
)
_JUNIOR_CATEGORIES = (
    CategoryRule("A", min_n0=30),
    CategoryRule("B", min_n0=20),
    CategoryRule("C", min_n0=10, min_n01=20),
    CategoryRule("D", min_n0=5, min_n012=15),
    CategoryRule("E", min_n0=1, min_n012=9),
)


@dataclass(frozen=True)
class RuleSet:
    """Named parameters of a grading rule set; defaults are ecf-2009."""

    name: str = "ecf-2009"
    # G2: minutes each player has for all moves decide the rate of play.
    rapid_min_minutes: float = 15.0  # below this: lightning, not graded
    standard_min_minutes: float = 60.0  # at or above this: standard
    assumed_moves: int = 60  # an increment is counted over a 60-move game
    # G12: a win scores the opponent's value + 50, a loss - 50.
    result_margin: float = 50.0
    # G12: the 40-point rule; an opponent further away counts as exactly 40 away.
    cap: float = 40.0
    # G14, G19: adults are graded on 30 games, reaching back at most two periods.
    target_adult: int = 30
    # G18: juniors are graded on 20 games.
    target_junior: int = 20
    # G14, G15: P1 and P2 at most ("No grade is based on more than three seasons' play").
    prior_periods: int = 2
    # G16: 30 or more rapid games in the half-year H0 make an X grade.
    x_min_games: int = 30
    # Words: a junior is 17 or less on the age date (31 August).
    junior_max_age: int = 17
    age_date_month: int = 8
    age_date_day: int = 31
    # G20: junior bonus by age on the age date, (up to and including age, bonus).
    junior_bonus: tuple[tuple[int, float], ...] = ((10, 10.0), (17, 5.0))
    # G9: estimates are floored at zero; G21: published grades too.
    floor: float = 0.0
    # G11: the game-weighted mean grade of a closed pool of new players.
    closed_pool_grade: float = 0.0
    # G9: an iterative solver must reach the fixed point to within this.
    estimation_tolerance: float = 1e-9
    # G23: category tables, first match wins.
    adult_categories: tuple[CategoryRule, ...] = _ADULT_CATEGORIES
    junior_categories: tuple[CategoryRule, ...] = _JUNIOR_CATEGORIES
    # G28: grading-code check letter.
    code_weights: tuple[int, ...] = (7, 6, 5, 4, 3, 2)
    code_letters: str = "ABCDEFGHJKL"
    # G29: rating conversions.
    elo_factor: float = 8.0
    fide_offset: float = 650.0
    national_elo_offset: float = 600.0
    fide_minimum: float = 1200.0

    def target(self, junior: bool) -> int:
        """G14/G18: how many games a grade is based on when history allows."""
        return self.target_junior if junior else self.target_adult

    def bonus_for_age(self, age: int) -> float:
        """G20: the junior bonus for an age on the age date (0 for adults)."""
        for max_age, bonus in self.junior_bonus:
            if age <= max_age:
                return bonus
        return 0.0


ECF_2009 = RuleSet()

# The rule sets a list version may name (ListVersion.rules_name), by name; read-only so
# no caller can register a rule set behind the others' backs.
RULE_SETS: Mapping[str, RuleSet] = MappingProxyType({ECF_2009.name: ECF_2009})


def rule_set(name: str) -> RuleSet:
    """The rule set called ``name``; ValueError naming the known sets otherwise."""
    try:
        return RULE_SETS[name]
    except KeyError:
        known = ", ".join(sorted(RULE_SETS))
        raise ValueError(f"unknown rule set {name!r} (known: {known})") from None
