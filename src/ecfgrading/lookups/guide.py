"""The rules in numbers, for pages that explain them to players (help, lists, player pages).

Every figure comes from the rule set (``engine.rules.ECF_2009`` by default) and every
worked example is computed by the engine's own functions, so a page can never state a
rule differently from the calculation that applies it. The federation's three rule sets
(G31) are compared side by side by ``rule_sets``, their dates from the engine's calendar
(``engine.eras``, ``engine.periods``); ``era`` names the lists a rule set was used for.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass

import numpy as np

from ecfgrading.engine.eras import ERAS
from ecfgrading.engine.grading import game_points
from ecfgrading.engine.periods import CALENDAR, ListId, Period
from ecfgrading.engine.rateplay import Session, TimeControl, rate_of_play
from ecfgrading.engine.rules import ECF_2009, CategoryRule, Counting, RuleSet
from ecfgrading.engine.types import Rate
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
    era: RuleSetEra  # G31: the lists computed under this rule set
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
        era=era(rules.name),
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


# G31: the rule sets by list date --------------------------------------------------------------

_MONTHS = {1: "January", 7: "July"}
_NUMBERS = {2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class RuleSetEra:
    """A rule set as pages name it, with the lists computed under it (G31)."""

    name: str  # ecf-2012
    first_list: str | None  # 2012-01; None: every list before the next rule set's
    last_list: str | None  # 2014-07; None: every list since its first
    dates: str  # "January 2012 to July 2014", "up to July 2011", "from January 2015"
    anchor: str  # its column on the help page (/help/#rules-ecf-2012); "": not the federation's

    @property
    def words(self) -> str:
        """'rules of January 2012 to July 2014', 'rules up to July 2011'; '' for a rule set
        that is no era of the federation's calendar."""
        if not self.dates:
            return ""
        joined = self.first_list is not None and self.last_list is not None
        return f"rules {'of ' if joined else ''}{self.dates}"


def era(name: str) -> RuleSetEra:
    """The rule set ``name`` (a version's ``rules_name``) and the lists of its era (G31);
    a name of no era (an older or what-if rule set) with no dates."""
    for k, (first, rules) in enumerate(ERAS):
        if rules.name != name:
            continue
        begins = None if k == 0 else first
        ends = ERAS[k + 1][0].before() if k + 1 < len(ERAS) else None
        return RuleSetEra(
            name=name,
            first_list=None if begins is None else str(begins),
            last_list=None if ends is None else str(ends),
            dates=_dates(begins, ends),
            anchor=f"rules-{name}",
        )
    return RuleSetEra(name=name, first_list=None, last_list=None, dates="", anchor="")


def eras() -> tuple[RuleSetEra, ...]:
    """The federation's rule sets in the order they applied, with their lists (G31)."""
    return tuple(era(rules.name) for _first, rules in ERAS)


def _dates(first: ListId | None, last: ListId | None) -> str:
    if first is None and last is None:
        return "every list"
    if first is None:
        return f"up to {_month(last)}"
    if last is None:
        return f"from {_month(first)}"
    return f"{_month(first)} to {_month(last)}"


def _month(list_id: ListId | None) -> str:
    """July 2011"""
    assert list_id is not None
    return f"{_MONTHS[list_id.month]} {list_id.year}"


@dataclass(frozen=True)
class RuleSetFacts:
    """One rule set's method in plain words, each figure from its values (G31..G41)."""

    era: RuleSetEra
    standard_lists: str  # how often standard lists are published
    rapid_lists: str
    cutoffs: str  # the last day of play a list grades
    transition: str  # a half-year of other than six months in its lists, if any
    target_adult: int  # G14, G35, G37
    target_junior: int  # G18
    counted: str  # which games a grade counts
    forward: str  # how games are brought forward (G14, G15, G35, G38)
    x_rates: tuple[Rate, ...]  # G16, G36: the rates with an X category
    x_min_games: int
    x: str
    categories: tuple[str, ...]  # the adult categories, X first where it applies
    lowest_category: str  # G23, G40: the last category, the one every listed player fits
    lowest_games: int  # ...games in the latest three years
    lowest_latest: int  # ...of them in the latest 12 months
    lowest: str

    @property
    def lists(self) -> str:
        """'Up to July 2011'"""
        return _capital(self.era.dates)

    @property
    def played_up_to(self) -> str:
        return f"{self.cutoffs} {self.transition}".strip()

    @property
    def letters(self) -> str:
        return ", ".join(self.categories)


@dataclass(frozen=True)
class RuleSetRow:
    """One line of the side-by-side table: what it compares, one cell per rule set."""

    label: str
    cells: tuple[str, ...]


@dataclass(frozen=True)
class RuleSets:
    """The federation's rule sets side by side, oldest first (help page)."""

    rule_sets: tuple[RuleSetFacts, ...]
    half_yearly_standard_from: str  # G31: 'January 2012', the first January standard list

    @property
    def changed(self) -> str:
        """'January 2012 and January 2015': the first lists of each later rule set."""
        starts = [
            _month(ListId.parse(f.era.first_list)) for f in self.rule_sets if f.era.first_list
        ]
        return " and ".join([", ".join(starts[:-1]), starts[-1]] if len(starts) > 1 else starts)

    @property
    def rows(self) -> tuple[RuleSetRow, ...]:
        return tuple(
            RuleSetRow(label, tuple(str(getattr(facts, name)) for facts in self.rule_sets))
            for label, name in _ROWS
        )


# The side-by-side table's lines: (label, the attribute of RuleSetFacts each cell shows).
_ROWS = (
    ("Lists", "lists"),
    ("Standard lists", "standard_lists"),
    ("Rapid lists", "rapid_lists"),
    ("Games played up to", "played_up_to"),
    ("Games counted", "counted"),
    ("Bringing games forward", "forward"),
    ("X grades", "x"),
    ("Categories", "letters"),
    ("Lowest category (who is listed)", "lowest"),
)


def rule_sets() -> RuleSets:
    """ecf-2009, ecf-2012 and ecf-2015 (G31), in the order they applied."""
    return RuleSets(
        rule_sets=tuple(rule_set_facts(rules) for _first, rules in ERAS),
        half_yearly_standard_from=_month(CALENDAR.half_yearly_standard_from),
    )


def rule_set_facts(rules: RuleSet) -> RuleSetFacts:
    found = era(rules.name)
    first = ListId.parse(found.first_list) if found.first_list else None
    last = ListId.parse(found.last_list) if found.last_list else None
    january = _a_january_list(first, last)
    adult, junior = rules.target_adult, rules.target_junior
    x_rates = tuple(rate for rate in (Rate.STANDARD, Rate.RAPID) if rules.x_applies(rate))
    lowest = rules.adult_categories[-1]
    letters = tuple(row.category for row in rules.adult_categories)
    years = _NUMBERS.get(rules.prior_periods + 1, str(rules.prior_periods + 1))  # G14: P0..P2
    return RuleSetFacts(
        era=found,
        standard_lists=_how_often(Rate.STANDARD, january),
        rapid_lists=_how_often(Rate.RAPID, january),
        cutoffs=_cutoffs(january),
        transition=_transition(first),
        target_adult=adult,
        target_junior=junior,
        counted=_counted(rules.counting, adult, junior, years),
        forward=_forward(rules.counting),
        x_rates=x_rates,
        x_min_games=rules.x_min_games,
        x=_x(x_rates, rules.x_min_games),
        categories=(*(("X",) if x_rates else ()), *letters),
        lowest_category=lowest.category,
        lowest_games=lowest.min_n012,
        lowest_latest=lowest.min_n0,
        lowest=(
            f"{lowest.category}: {lowest.min_n012} or more games in the latest {years} years, "
            f"at least {lowest.min_n0} of them in the latest 12 months."
        ),
    )


def _a_january_list(first: ListId | None, last: ListId | None) -> ListId:
    """A January list of the era, whose rates and cut-off are the era's (G31, G32)."""
    if first is not None:
        return first if first.month == 1 else first.next()
    assert last is not None
    return last if last.month == 1 else last.before()


def _how_often(rate: Rate, january: ListId) -> str:
    if rate in january.rates():
        return "Twice a year, in January and July"
    return "Once a year, in July"


def _cutoffs(january: ListId) -> str:
    """G32: the last day of play of a July and of a January list."""
    july = january.next()
    return (
        f"{_day(july.cutoff())} for a July list; {_day(january.cutoff())} of the year before "
        "for a January list."
    )


def _transition(first: ListId | None) -> str:
    """G32: a half-year of other than six months in the era's first list, and the lists
    whose latest 12 months it lengthens."""
    if first is None:
        return ""
    half = first.h0()
    if _months(half) == 6:
        return ""
    longer, lid = [], first
    while _months(lid.p0()) != 12:
        longer.append(lid)
        lid = lid.next()
    months = ", ".join(_MONTHS[each.month] for each in longer[:-1])
    months = f"{months} and {_MONTHS[longer[-1].month]}" if months else _MONTHS[first.month]
    lengthened = (
        f", so the latest 12 months of the {months} {first.year} lists were {_months(first.p0())}"
        if longer
        else ""
    )
    return (
        f"The latest half-year of the {_month(first)} lists ran {_months(half)} months, "
        f"{_span(half)}{lengthened}."
    )


def _months(period: Period) -> int:
    start, end = period.start, period.end
    return (end.year - start.year) * 12 + end.month - start.month + 1


def _span(period: Period) -> str:
    """'1 June to 31 December 2011', '1 December 2010 to 31 May 2011'"""
    start, end = period.start, period.end
    first = _day(start) if start.year == end.year else f"{_day(start)} {start.year}"
    return f"{first} to {_day(end)} {end.year}"


def _day(day: dt.date) -> str:
    """31 May"""
    return f"{day.day} {calendar.month_name[day.month]}"


def _counted(counting: Counting, adult: int, junior: int, years: str) -> str:
    juniors = f" ({junior} for a junior)"
    if counting is Counting.COUNT_BACK:
        return (
            f"The {adult} most recent games{juniors} of the latest {years} years, even when "
            "the latest 12 months hold more."
        )
    return (
        f"All games of the latest 12 months when there are {adult} or more{juniors}; "
        f"otherwise made up to {adult} with earlier games, from the latest {years} years at "
        "most."
    )


def _forward(counting: Counting) -> str:
    if counting is Counting.COUNT_BACK:
        return (
            "Standard and rapid: the most recent actual games of the earlier half-years, "
            "each with the points it scored."
        )
    if counting is Counting.WHOLE_HALF_YEARS:
        return (
            "Standard and rapid: whole half-years, latest first, each with the points its "
            "games scored; of the last one needed only the games still wanted, at that "
            "half-year's average."
        )
    return (
        "Standard: the games needed at an earlier season's average score. Rapid: the most "
        "recent actual games of the earlier seasons, each with the points it scored."
    )


def _x(rates: tuple[Rate, ...], games: int) -> str:
    if not rates:
        return "None: a player with many games is graded on all his games of the latest 12 months."
    which = " and ".join(rate.value for rate in rates)
    only = " only" if len(rates) == 1 else ""
    return (
        f"{_capital(which)}{only}: {games} or more games in the latest half-year make an X "
        "grade, on those games alone."
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
