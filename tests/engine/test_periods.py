"""Lists, periods, half-years and age dates (rules, section 1)."""

from __future__ import annotations

from datetime import date

import pytest

from ecfgrading.engine import ListId, Period, Rate
from ecfgrading.engine.periods import age_on, junior_age


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
