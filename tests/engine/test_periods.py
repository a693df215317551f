"""Lists, periods, half-years and age dates (rules, section 1)."""

from __future__ import annotations

import ast
from datetime import date
from pathlib import Path

import pytest

import ecfgrading
from ecfgrading.engine import ListId, Period, Rate
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


def test_standard_lists_are_july_only() -> None:
    with pytest.raises(ValueError, match="July only"):
        ListId.parse("2011-01").check_rate(Rate.STANDARD)


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


# The list calendar (rules section 1, G4, G27, G43), worked by hand from the rules' words:
# standard lists in July only, rapid lists in January and July; only July is revised in
# August.


def test_a_july_list_publishes_both_rates_standard_first_and_january_rapid_only() -> None:
    assert ListId(2012, 7).rates() == (Rate.STANDARD, Rate.RAPID)
    assert ListId(2013, 1).rates() == (Rate.RAPID,)


def test_g27_g43_only_a_july_list_has_an_august_version() -> None:
    assert ListId(2012, 7).has_august
    assert not ListId(2013, 1).has_august


@pytest.mark.parametrize(
    ("text", "rate", "expected"),
    [
        ("2012-07", None, "2013-01"),  # six months on, whatever it publishes
        ("2013-01", None, "2013-07"),
        ("2012-07", Rate.STANDARD, "2013-07"),  # annual
        ("2012-07", Rate.RAPID, "2013-01"),  # half-yearly
        ("2013-01", Rate.RAPID, "2013-07"),
        ("2013-01", Rate.STANDARD, "2013-07"),  # the next July, though January has none
        ("1999-07", Rate.STANDARD, "2000-07"),
    ],
)
def test_the_next_list(text: str, rate: Rate | None, expected: str) -> None:
    assert ListId.parse(text).next(rate) == ListId.parse(expected)


def test_g4_the_next_list_of_a_rate_reads_this_one_as_its_previous_list() -> None:
    lists = [ListId(year, month) for year in range(2008, 2014) for month in (1, 7)]
    for lid in lists:
        for rate in lid.rates():
            assert lid.next(rate).previous_same_rate(rate) == lid, (lid, rate)


@pytest.mark.parametrize(
    ("day", "rate", "expected"),
    [
        # A standard list's P0 is 1 June .. 31 May: the season.
        (date(2012, 5, 31), Rate.STANDARD, "2012-07"),
        (date(2012, 6, 1), Rate.STANDARD, "2013-07"),
        (date(2011, 12, 25), Rate.STANDARD, "2012-07"),
        # A rapid list's P0 ends 31 May (July) or 30 November (January).
        (date(2012, 5, 31), Rate.RAPID, "2012-07"),
        (date(2012, 6, 1), Rate.RAPID, "2013-01"),
        (date(2012, 11, 30), Rate.RAPID, "2013-01"),
        (date(2012, 12, 1), Rate.RAPID, "2013-07"),
        (date(2013, 1, 1), Rate.RAPID, "2013-07"),
        (date(2012, 6, 1), None, "2013-01"),  # any rate: the rapid list comes first
    ],
)
def test_the_list_that_grades_a_day(day: date, rate: Rate | None, expected: str) -> None:
    found = ListId.grading(day, rate)
    assert found == ListId.parse(expected)
    assert day in found.p0()


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
