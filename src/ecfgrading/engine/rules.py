"""The rule sets: every number and choice of the grading rules, named, with its rule.

``ECF_2009`` describes ``shared/spec/grading-rules.md``; ``ECF_2012`` and ``ECF_2015``
the federation's later methods (``grading-rules-eras.md``, G31..G44). A rule set is a
frozen value: the engine asks it, never the year. Which rule set a list's date calls for
(G31) is ``engine.eras.rules_for``; the periods of a list are its date's (G32), whatever
the rule set, and live on ``ListId``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from ecfgrading.engine.types import Rate


class Counting(StrEnum):
    """How a player short of (or beyond) the target's games in P0 is counted."""

    # G14 (standard): notional games at P1's, then P2's, average; G15 (rapid): the most
    # recent actual games of P1, then P2; G19: all P0 games from the target on.
    ECF_2009 = "ecf-2009"
    # G35: the target's number of most recent games of P0, P1 and P2 together, also when
    # P0 alone holds more (both rates).
    COUNT_BACK = "count-back"
    # G37: all P0 games from the target on; G38: whole half-years H2..H5, latest first,
    # the earliest one taken pro rata at its average (both rates).
    WHOLE_HALF_YEARS = "whole-half-years"


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
# G39, G40 (ecf-2015): F on 5 games in P0..P2 with at least one in P0, adults and juniors.
_F = CategoryRule("F", min_n0=1, min_n012=5)


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
    # G14, G15, G19 (ecf-2009); G35 (ecf-2012); G37, G38 (ecf-2015).
    counting: Counting = Counting.ECF_2009
    # G16: 30 or more rapid games in the half-year H0 make an X grade; G36: standard too
    # (ecf-2012); G37: no X (ecf-2015).
    x_rates: frozenset[Rate] = frozenset({Rate.RAPID})
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
    # G23, G39: category tables, first match wins (X, where it applies, comes first).
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

    def x_applies(self, rate: Rate) -> bool:
        """G16, G36: whether 30 games in H0 make an X grade at this rate."""
        return rate in self.x_rates

    def needs_stored_games(self, rate: Rate) -> bool:
        """Whether P1 and P2 must be read game by game (G15, G34, G35, G38), not as
        totals only (G14: ecf-2009 standard)."""
        return not (self.counting is Counting.ECF_2009 and rate is Rate.STANDARD)

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

# From the January 2012 lists (G31): half-yearly standard lists, count back the 30 (20)
# most recent games for both rates (G35), X for standard too (G36); table G39.
ECF_2012 = RuleSet(
    name="ecf-2012",
    counting=Counting.COUNT_BACK,
    x_rates=frozenset({Rate.STANDARD, Rate.RAPID}),
)

# From the January 2015 lists (G31): all games of the latest 12 months (G37), whole
# half-years with the earliest pro rata (G38), no X, and F on 5 games (G39, G40).
ECF_2015 = RuleSet(
    name="ecf-2015",
    counting=Counting.WHOLE_HALF_YEARS,
    x_rates=frozenset(),
    adult_categories=(*_ADULT_CATEGORIES, _F),
    junior_categories=(*_JUNIOR_CATEGORIES, _F),
)

# The rule sets a list version may name (ListVersion.rules_name), by name; read-only so
# no caller can register a rule set behind the others' backs.
RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(
    {rules.name: rules for rules in (ECF_2009, ECF_2012, ECF_2015)}
)


def rule_set(name: str) -> RuleSet:
    """The rule set called ``name``; ValueError naming the known sets otherwise."""
    try:
        return RULE_SETS[name]
    except KeyError:
        known = ", ".join(sorted(RULE_SETS))
        raise ValueError(f"unknown rule set {name!r} (known: {known})") from None
