"""Lists, periods and ages (rules, section 1)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ecfgrading.engine.rules import ECF_2009, RuleSet
from ecfgrading.engine.types import Rate

_LIST_ID = re.compile(r"^(\d{4})-(01|07)$")


@dataclass(frozen=True)
class Period:
    """A date range, both ends inclusive."""

    start: date
    end: date

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.start <= day <= self.end

    def shifted(self, years: int) -> Period:
        return Period(_add_years(self.start, years), _add_years(self.end, years))

    def __str__(self) -> str:
        return f"{self.start.isoformat()}..{self.end.isoformat()}"


@dataclass(frozen=True, order=True)
class ListId:
    """One publication of grades, named by year and month: ``2010-07``."""

    year: int
    month: int

    def __post_init__(self) -> None:
        if self.month not in (1, 7):
            raise ValueError(f"expected a list month of 01 or 07, got {self.month:02d}")

    @classmethod
    def parse(cls, text: str) -> ListId:
        match = _LIST_ID.match(text.strip())
        if match is None:
            raise ValueError(f"expected a list such as 2010-07 or 2011-01, got {text!r}")
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    # The list calendar: which rates a list month publishes, which lists are revised in
    # August, which list follows which. Written here once; nothing else does month
    # arithmetic on lists.

    def rates(self) -> tuple[Rate, ...]:
        """The rates this list publishes, standard first: standard lists are annual (July),
        rapid lists half-yearly, so January is rapid only (ecf-2009, rules section 1)."""
        return (Rate.STANDARD, Rate.RAPID) if self.month == 7 else (Rate.RAPID,)

    @property
    def has_august(self) -> bool:
        """G27, G43: a July list of either rate has an ``august`` version, its definitive
        one; a January list has only ``initial`` and ``revN``."""
        return self.month == 7

    def check_rate(self, rate: Rate) -> None:
        """Standard lists are annual (July); rapid lists are half-yearly."""
        if rate not in self.rates():
            raise ValueError(f"standard lists are published in July only, got {self}")

    def next(self, rate: Rate | None = None) -> ListId:
        """The list after this one: six months on, or the next that publishes ``rate`` -
        the list whose previous list of that rate (G4) is this one, when this list
        publishes it."""
        following = ListId(self.year, 7) if self.month == 1 else ListId(self.year + 1, 1)
        if rate is None or rate in following.rates():
            return following
        return following.next(rate)

    @classmethod
    def grading(cls, day: date, rate: Rate | None = None) -> ListId:
        """The first list (of ``rate``) whose latest period P0 holds ``day``: the list that
        grades a game played that day (G3), or whose P0 is the season under way."""
        candidate = ListId(season_of(day) - 1, 7)  # its P0 ended a season before ``day``
        while day not in candidate.p0() or (rate is not None and rate not in candidate.rates()):
            candidate = candidate.next()
        return candidate

    def years_earlier(self, years: int) -> ListId:
        return ListId(self.year - years, self.month)

    def season(self) -> int:
        """The season in which the list's P0 ends (July 2010: 2010; January 2011: 2011)."""
        return season_of(self.p0().end)

    def p0(self) -> Period:
        """The latest 12-month period: June..May for July, December..November for January."""
        if self.month == 7:
            return Period(date(self.year - 1, 6, 1), date(self.year, 5, 31))
        return Period(date(self.year - 2, 12, 1), date(self.year - 1, 11, 30))

    def period(self, k: int) -> Period:
        """P0, P1, P2: P_k is the P0 of the list of the same month k years earlier."""
        return self.years_earlier(k).p0()

    def h0(self) -> Period:
        """The half-year H0 (rapid X, G16): the last six months of P0."""
        p0 = self.p0()
        if self.month == 7:
            return Period(date(self.year - 1, 12, 1), p0.end)
        return Period(date(self.year - 1, 6, 1), p0.end)

    def age_date(self, rules: RuleSet = ECF_2009) -> date:
        """31 August of the list's year (July) or of the previous year (January)."""
        year = self.year if self.month == 7 else self.year - 1
        return date(year, rules.age_date_month, rules.age_date_day)

    def previous_same_rate(self, rate: Rate) -> ListId:
        """G4: the list whose grade is a player's previous grade."""
        if rate is Rate.STANDARD:
            return self.years_earlier(1)
        return ListId(self.year, 1) if self.month == 7 else ListId(self.year - 1, 7)

    def previous_other_rate(self, rate: Rate) -> ListId:
        """G5: the latest list of the other rate published before this one."""
        if rate is Rate.STANDARD:
            return ListId(self.year, 1)  # rapid Y-01 for standard Y-07
        return ListId(self.year - 1, 7)  # rapid Y-07 and rapid (Y+1)-01 alike


def season_of(day: date) -> int:
    """The season (1 June .. 31 May) a day falls in, named by the year it ends."""
    return day.year + 1 if day.month >= 6 else day.year


def age_on(birth: date, day: date) -> int:
    """Whole years of age on ``day``."""
    before_birthday = (day.month, day.day) < (birth.month, birth.day)
    return day.year - birth.year - int(before_birthday)


def junior_age(birth: date | None, list_id: ListId, rules: RuleSet = ECF_2009) -> int | None:
    """The age published for a junior, or None for an adult or unknown birth date."""
    if birth is None:
        return None
    age = age_on(birth, list_id.age_date(rules))
    return age if age <= rules.junior_max_age else None


def _add_years(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)
