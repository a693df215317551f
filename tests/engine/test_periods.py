"""Lists, periods, half-years and age dates (rules, section 1)."""

from __future__ import annotations

import ast
import itertools
import re
from datetime import date, timedelta
from pathlib import Path

import pytest

import ecfgrading
from ecfgrading.engine import (
    ECF_2009,
    ECF_2012,
    ECF_2015,
    ListId,
    Period,
    Rate,
    RuleSet,
    rules_for,
)
from ecfgrading.engine.periods import age_on, junior_age

PACKAGE = Path(ecfgrading.__file__).parent


def test_standard_july_list_periods() -> None:
    lid = ListId.parse("2010-07")
    assert lid.p0() == Period(date(2009, 6, 1), date(2010, 5, 31))
    assert lid.period(1) == Period(date(2008, 6, 1), date(2009, 5, 31))
    assert lid.period(2) == Period(date(2007, 6, 1), date(2008, 5, 31))
    assert lid.h0() == Period(date(2009, 12, 1), date(2010, 5, 31))
    assert lid.age_date() == date(2010, 8, 31)


def test_january_rapid_list_periods() -> None:
    lid = ListId.parse("2011-01")
    assert lid.p0() == Period(date(2009, 12, 1), date(2010, 11, 30))
    assert lid.period(1) == Period(date(2008, 12, 1), date(2009, 11, 30))
    assert lid.h0() == Period(date(2010, 6, 1), date(2010, 11, 30))
    assert lid.age_date() == date(2010, 8, 31)


def test_previous_lists_of_the_same_and_the_other_rate() -> None:
    july, january = ListId.parse("2010-07"), ListId.parse("2011-01")
    assert july.previous_same_rate(Rate.STANDARD) == ListId(2009, 7)  # G4
    assert july.previous_same_rate(Rate.RAPID) == ListId(2010, 1)
    assert january.previous_same_rate(Rate.RAPID) == ListId(2010, 7)
    assert july.previous_other_rate(Rate.STANDARD) == ListId(2010, 1)  # G5
    assert july.previous_other_rate(Rate.RAPID) == ListId(2009, 7)
    assert january.previous_other_rate(Rate.RAPID) == ListId(2010, 7)


@pytest.mark.parametrize("text", ["2010-06", "2010", "10-07", "2010-7x"])
def test_a_bad_list_name_says_what_was_expected(text: str) -> None:
    with pytest.raises(ValueError, match="expected a list such as 2010-07"):
        ListId.parse(text)


def test_g31_standard_lists_are_july_only_before_2012_01() -> None:
    message = (
        "standard lists are published in July only before 2012-01 "
        "(standard January lists exist from 2012-01), got 2011-01"
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        ListId.parse("2011-01").check_rate(Rate.STANDARD)


@pytest.mark.parametrize("text", ["2011-07", "2012-01", "2012-07", "2013-01", "2015-01"])
def test_g31_standard_lists_are_half_yearly_from_2012_01(text: str) -> None:
    lid = ListId.parse(text)
    lid.check_rate(Rate.STANDARD)  # no error
    lid.check_rate(Rate.RAPID)


def test_ages_turn_on_the_birthday() -> None:
    assert age_on(date(2000, 8, 31), date(2010, 8, 31)) == 10
    assert age_on(date(2000, 9, 1), date(2010, 8, 31)) == 9
    assert junior_age(date(1992, 9, 1), ListId(2010, 7)) == 17
    assert junior_age(date(1992, 8, 31), ListId(2010, 7)) is None
    assert junior_age(None, ListId(2010, 7)) is None


def test_periods_contain_their_ends() -> None:
    p0 = ListId(2010, 7).p0()
    assert date(2009, 6, 1) in p0
    assert date(2010, 5, 31) in p0
    assert date(2010, 6, 1) not in p0


# Half-years, cut-offs and periods across the transition (G32), by hand from its table.


def _p(start: str, end: str) -> Period:
    return Period(date.fromisoformat(start), date.fromisoformat(end))


G32_TABLE = [
    # list, rate, H0, P0, P1, P2
    (
        "2011-07",
        Rate.STANDARD,
        _p("2010-12-01", "2011-05-31"),  # not used by an ecf-2009 standard list
        _p("2010-06-01", "2011-05-31"),
        _p("2009-06-01", "2010-05-31"),
        _p("2008-06-01", "2009-05-31"),
    ),
    (
        "2011-07",
        Rate.RAPID,
        _p("2010-12-01", "2011-05-31"),
        _p("2010-06-01", "2011-05-31"),
        _p("2009-06-01", "2010-05-31"),
        _p("2008-06-01", "2009-05-31"),
    ),
    (
        "2012-01",
        None,
        _p("2011-06-01", "2011-12-31"),  # the 7-month transition half-year
        _p("2010-12-01", "2011-12-31"),  # 13 months
        _p("2009-12-01", "2010-11-30"),
        _p("2008-12-01", "2009-11-30"),
    ),
    (
        "2012-07",
        None,
        _p("2012-01-01", "2012-06-30"),
        _p("2011-06-01", "2012-06-30"),  # 13 months
        _p("2010-06-01", "2011-05-31"),
        _p("2009-06-01", "2010-05-31"),
    ),
    (
        "2013-01",
        None,
        _p("2012-07-01", "2012-12-31"),
        _p("2012-01-01", "2012-12-31"),
        _p("2010-12-01", "2011-12-31"),
        _p("2009-12-01", "2010-11-30"),
    ),
    (
        "2013-07",
        None,
        _p("2013-01-01", "2013-06-30"),
        _p("2012-07-01", "2013-06-30"),
        _p("2011-06-01", "2012-06-30"),
        _p("2010-06-01", "2011-05-31"),
    ),
    (
        "2014-01",
        None,
        _p("2013-07-01", "2013-12-31"),
        _p("2013-01-01", "2013-12-31"),
        _p("2012-01-01", "2012-12-31"),
        _p("2010-12-01", "2011-12-31"),
    ),
    (
        "2014-07",
        None,
        _p("2014-01-01", "2014-06-30"),
        _p("2013-07-01", "2014-06-30"),
        _p("2012-07-01", "2013-06-30"),
        _p("2011-06-01", "2012-06-30"),
    ),
    (
        "2015-01",
        None,
        _p("2014-07-01", "2014-12-31"),
        _p("2014-01-01", "2014-12-31"),
        _p("2013-01-01", "2013-12-31"),
        _p("2012-01-01", "2012-12-31"),
    ),
]


@pytest.mark.parametrize(
    ("text", "rate", "h0", "p0", "p1", "p2"),
    G32_TABLE,
    ids=[f"{row[0]}-{row[1] or 'both'}" for row in G32_TABLE],
)
def test_g32_the_transition_lists(
    text: str, rate: Rate | None, h0: Period, p0: Period, p1: Period, p2: Period
) -> None:
    """G32's table: periods are the list's, the same for both rates from 2012-01."""
    lid = ListId.parse(text)
    for each in lid.rates() if rate is None else (rate,):
        lid.check_rate(each)
    assert lid.h0() == h0
    assert lid.p0() == p0
    assert (lid.period(0), lid.period(1), lid.period(2)) == (p0, p1, p2)


@pytest.mark.parametrize(
    ("text", "cutoff"),
    [
        ("2010-01", date(2009, 11, 30)),
        ("2010-07", date(2010, 5, 31)),
        ("2011-01", date(2010, 11, 30)),
        ("2011-07", date(2011, 5, 31)),  # the last ecf-2009 cut-off
        ("2012-01", date(2011, 12, 31)),  # both rates (G32, D3)
        ("2012-07", date(2012, 6, 30)),
        ("2013-01", date(2012, 12, 31)),
        ("2015-07", date(2015, 6, 30)),
    ],
)
def test_g32_cutoffs(text: str, cutoff: date) -> None:
    lid = ListId.parse(text)
    assert lid.cutoff() == cutoff
    assert lid.p0().end == cutoff
    assert lid.h0().end == cutoff


@pytest.mark.parametrize(
    ("text", "halves"),
    [
        (
            "2010-07",
            [
                ("2009-12-01", "2010-05-31"),
                ("2009-06-01", "2009-11-30"),
                ("2008-12-01", "2009-05-31"),
                ("2008-06-01", "2008-11-30"),
                ("2007-12-01", "2008-05-31"),
                ("2007-06-01", "2007-11-30"),
            ],
        ),
        (
            "2012-01",
            [
                ("2011-06-01", "2011-12-31"),
                ("2010-12-01", "2011-05-31"),
                ("2010-06-01", "2010-11-30"),
                ("2009-12-01", "2010-05-31"),
                ("2009-06-01", "2009-11-30"),
                ("2008-12-01", "2009-05-31"),
            ],
        ),
        (
            "2013-07",  # C12: H2 = Jan-Jun 2012, H3 = the 7-month half-year
            [
                ("2013-01-01", "2013-06-30"),
                ("2012-07-01", "2012-12-31"),
                ("2012-01-01", "2012-06-30"),
                ("2011-06-01", "2011-12-31"),
                ("2010-12-01", "2011-05-31"),
                ("2010-06-01", "2010-11-30"),
            ],
        ),
        (
            "2015-01",  # C15
            [
                ("2014-07-01", "2014-12-31"),
                ("2014-01-01", "2014-06-30"),
                ("2013-07-01", "2013-12-31"),
                ("2013-01-01", "2013-06-30"),
                ("2012-07-01", "2012-12-31"),
                ("2012-01-01", "2012-06-30"),
            ],
        ),
    ],
)
def test_g32_half_years_h0_to_h5_latest_first(text: str, halves: list[tuple[str, str]]) -> None:
    assert ListId.parse(text).half_years() == tuple(_p(start, end) for start, end in halves)


def test_g32_half_years_follow_each_other_and_only_the_transition_is_7_months() -> None:
    seven = {_p("2011-06-01", "2011-12-31")}
    for lid in (ListId(year, month) for year in range(2008, 2021) for month in (1, 7)):
        halves = lid.half_years()
        assert len(halves) == 6
        for later, earlier in itertools.pairwise(halves):
            assert earlier.end + timedelta(days=1) == later.start, lid
        for half in halves:
            months = (half.end.year - half.start.year) * 12 + half.end.month - half.start.month
            assert months + 1 == (7 if half in seven else 6), (lid, half)


def test_g32_g34_p1_and_p2_are_the_p0_of_the_same_list_one_and_two_years_earlier() -> None:
    """Except standard 2012-01 (P1, P2) and 2013-01 (P2): no January standard list then."""
    exceptions = []
    for lid in (ListId(year, month) for year in range(2008, 2021) for month in (1, 7)):
        for rate in lid.rates():
            for k in (1, 2):
                earlier = lid.years_earlier(k)
                if rate in earlier.rates():
                    assert lid.period(k) == earlier.p0(), (lid, rate, k)
                else:
                    exceptions.append((str(lid), rate, k))
    assert exceptions == [
        ("2012-01", Rate.STANDARD, 1),
        ("2012-01", Rate.STANDARD, 2),
        ("2013-01", Rate.STANDARD, 2),
    ]


@pytest.mark.parametrize(
    ("text", "age_date"),
    [
        ("2011-07", date(2011, 8, 31)),
        ("2012-01", date(2011, 8, 31)),  # the first January standard list: previous August
        ("2012-07", date(2012, 8, 31)),
        ("2013-01", date(2012, 8, 31)),  # C17(a)
        ("2013-07", date(2013, 8, 31)),  # C17(b)
        ("2015-01", date(2014, 8, 31)),
        ("2015-07", date(2015, 8, 31)),  # C18
    ],
)
def test_g42_age_dates_of_half_year_lists_of_either_rate(text: str, age_date: date) -> None:
    lid = ListId.parse(text)
    assert lid.age_date(rules_for(lid)) == age_date
    assert lid.age_date() == age_date


def test_g42_a_junior_has_the_same_age_in_a_july_list_and_the_january_list_after_it() -> None:
    birth = date(2001, 9, 15)  # C17(a): 10 on 31 August 2012, 11 a fortnight later
    for text in ("2012-07", "2013-01"):
        lid = ListId.parse(text)
        assert junior_age(birth, lid, rules_for(lid)) == 10
    assert junior_age(birth, ListId(2013, 7), ECF_2012) == 11
    # Seventeen on the age date (2011-08-31) of a January standard list is still a junior.
    assert junior_age(date(1993, 9, 1), ListId(2012, 1), ECF_2012) == 17
    assert junior_age(date(1993, 8, 31), ListId(2012, 1), ECF_2012) is None


# The list calendar (rules section 1, G4, G27, G31, G43), worked by hand from the rules'
# words: standard lists in July only up to 2011-07 and in January and July from 2012-01,
# rapid lists in January and July; only July is revised in August.


@pytest.mark.parametrize(
    ("text", "rates"),
    [
        ("2010-07", (Rate.STANDARD, Rate.RAPID)),
        ("2011-01", (Rate.RAPID,)),  # no standard January list before 2012-01
        ("2011-07", (Rate.STANDARD, Rate.RAPID)),  # the last annual standard list
        ("2012-01", (Rate.STANDARD, Rate.RAPID)),  # the first half-year standard list
        ("2012-07", (Rate.STANDARD, Rate.RAPID)),
        ("2013-01", (Rate.STANDARD, Rate.RAPID)),
        ("2015-01", (Rate.STANDARD, Rate.RAPID)),
    ],
)
def test_g31_the_rates_a_list_publishes_standard_first(text: str, rates: tuple[Rate, ...]) -> None:
    assert ListId.parse(text).rates() == rates


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("2009-07", ECF_2009),
        ("2011-01", ECF_2009),
        ("2011-07", ECF_2009),  # the last ecf-2009 list of either rate
        ("2012-01", ECF_2012),  # the first ecf-2012 list of both rates
        ("2013-07", ECF_2012),
        ("2014-07", ECF_2012),
        ("2015-01", ECF_2015),
        ("2019-07", ECF_2015),
    ],
)
def test_g31_the_rule_set_of_a_list_by_its_date(text: str, rules: RuleSet) -> None:
    assert rules_for(ListId.parse(text)) is rules


@pytest.mark.parametrize(
    ("text", "august"),
    [
        ("2011-01", False),
        ("2011-07", True),
        ("2012-01", False),
        ("2012-07", True),
        ("2013-01", False),
    ],
)
def test_g27_g43_only_a_july_list_has_an_august_version(text: str, august: bool) -> None:
    assert ListId.parse(text).has_august is august


@pytest.mark.parametrize(
    ("text", "rate", "expected"),
    [
        ("2012-07", None, "2013-01"),  # six months on, whatever it publishes
        ("2013-01", None, "2013-07"),
        ("2010-07", Rate.STANDARD, "2011-07"),  # annual up to 2011-07
        ("2011-01", Rate.STANDARD, "2011-07"),  # the next July, though January has none
        ("2011-07", Rate.STANDARD, "2012-01"),  # half-yearly from 2012-01 (G31)
        ("2012-07", Rate.STANDARD, "2013-01"),
        ("2013-01", Rate.STANDARD, "2013-07"),
        ("2012-07", Rate.RAPID, "2013-01"),  # half-yearly
        ("2013-01", Rate.RAPID, "2013-07"),
        ("1999-07", Rate.STANDARD, "2000-07"),
    ],
)
def test_the_next_list(text: str, rate: Rate | None, expected: str) -> None:
    assert ListId.parse(text).next(rate) == ListId.parse(expected)


def test_g4_the_next_list_of_a_rate_reads_this_one_as_its_previous_list() -> None:
    lists = [ListId(year, month) for year in range(2008, 2017) for month in (1, 7)]
    for lid in lists:
        for rate in lid.rates():
            assert lid.next(rate).previous_same_rate(rate) == lid, (lid, rate)


@pytest.mark.parametrize(
    ("day", "rate", "expected"),
    [
        # Up to 2011-07 (ecf-2009): a standard list's P0 is 1 June .. 31 May, the season.
        (date(2010, 5, 31), Rate.STANDARD, "2010-07"),
        (date(2010, 6, 1), Rate.STANDARD, "2011-07"),
        (date(2010, 12, 25), Rate.STANDARD, "2011-07"),
        # A rapid list's P0 ends 31 May (July) or 30 November (January).
        (date(2010, 5, 31), Rate.RAPID, "2010-07"),
        (date(2010, 6, 1), Rate.RAPID, "2011-01"),
        (date(2010, 11, 30), Rate.RAPID, "2011-01"),
        (date(2010, 12, 1), Rate.RAPID, "2011-07"),
        (date(2011, 1, 1), Rate.RAPID, "2011-07"),
        (date(2010, 6, 1), None, "2011-01"),  # any rate: the rapid list comes first
        # The transition half-year 1 June .. 31 December 2011 is H0 of both 2012-01 lists.
        (date(2011, 5, 31), Rate.STANDARD, "2011-07"),
        (date(2011, 5, 31), Rate.RAPID, "2011-07"),
        (date(2011, 6, 1), Rate.STANDARD, "2012-01"),
        (date(2011, 6, 1), Rate.RAPID, "2012-01"),
        (date(2011, 11, 30), Rate.RAPID, "2012-01"),
        (date(2011, 12, 1), Rate.RAPID, "2012-01"),  # the rapid cut-off moved (G32, D3)
        (date(2011, 12, 31), Rate.STANDARD, "2012-01"),
        (date(2011, 12, 31), Rate.RAPID, "2012-01"),
        (date(2011, 12, 31), None, "2012-01"),
        # From 2012-01 both rates: cut-offs 30 June and 31 December.
        (date(2012, 1, 1), Rate.STANDARD, "2012-07"),
        (date(2012, 1, 1), Rate.RAPID, "2012-07"),
        (date(2012, 6, 30), Rate.STANDARD, "2012-07"),
        (date(2012, 7, 1), Rate.STANDARD, "2013-01"),
        (date(2012, 7, 1), Rate.RAPID, "2013-01"),
        (date(2012, 12, 31), Rate.STANDARD, "2013-01"),
        (date(2013, 1, 1), Rate.STANDARD, "2013-07"),
        (date(2013, 1, 1), None, "2013-07"),
        (date(2014, 12, 31), Rate.STANDARD, "2015-01"),
    ],
)
def test_the_list_that_grades_a_day(day: date, rate: Rate | None, expected: str) -> None:
    found = ListId.grading(day, rate)
    assert found == ListId.parse(expected)
    assert day in found.p0()


def test_g32_from_the_transition_the_list_that_grades_a_day_holds_it_in_h0() -> None:
    """G32: a game is graded first by the list whose H0 it lies in (then regraded, as H1,
    by the next list)."""
    day = date(2011, 6, 1)
    while day <= date(2016, 12, 31):
        for rate in (Rate.STANDARD, Rate.RAPID):
            found = ListId.grading(day, rate)
            assert day in found.h0(), (day, rate)
            assert day in found.next(rate).half_years()[1], (day, rate)
        day += timedelta(days=17)


def test_the_list_calendar_is_worked_out_in_the_engine_only() -> None:
    """Which rates a list month has and which list follows which are ListId's (rules
    section 1, G4, G27): no module outside the engine compares a month with July or
    builds a list id by arithmetic, as four modules once did, each in its own words."""
    assert _list_month_arithmetic(PACKAGE) == []


def test_the_calendar_scan_finds_month_arithmetic(tmp_path: Path) -> None:
    source = tmp_path / "pkg" / "lookups" / "later.py"
    source.parent.mkdir(parents=True)
    source.write_text(
        "def following(lid):\n"
        "    if lid.month == 7:\n"
        "        return ListId(lid.year + 1, 1)\n"
        "    return ListId(2010, 7)\n"  # a literal list is no arithmetic
    )
    assert _list_month_arithmetic(tmp_path / "pkg") == [
        "lookups/later.py:2 compares a month with July",
        "lookups/later.py:3 builds a list id by arithmetic",
    ]


def _list_month_arithmetic(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where.startswith("engine/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and _compares_month_with_july(node):
                found.append(f"{where}:{node.lineno} compares a month with July")
            elif isinstance(node, ast.Call) and _list_id_by_arithmetic(node):
                found.append(f"{where}:{node.lineno} builds a list id by arithmetic")
    return found


def _compares_month_with_july(node: ast.Compare) -> bool:
    sides = [node.left, *node.comparators]
    month = any(isinstance(side, ast.Attribute) and side.attr == "month" for side in sides)
    return month and any(isinstance(side, ast.Constant) and side.value == 7 for side in sides)


def _list_id_by_arithmetic(node: ast.Call) -> bool:
    if not (isinstance(node.func, ast.Name) and node.func.id == "ListId"):
        return False
    return any(
        isinstance(part, ast.BinOp | ast.IfExp) for arg in node.args for part in ast.walk(arg)
    )
