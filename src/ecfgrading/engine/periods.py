"""Lists, half-years, periods and ages (rules section 1; G31..G34, G42, G43)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

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

    def overlaps(self, other: Period) -> bool:
        return self.start <= other.end and other.start <= self.end

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
    # August, which list follows which, the half-years and periods of each list (G31,
    # G32, G33, G43). Written here once, from the ``CALENDAR`` value; nothing else does
    # month arithmetic on lists.

    def rates(self) -> tuple[Rate, ...]:
        """The rates this list publishes, standard first (G31): rapid lists every January
        and July; standard lists in July, and in January too from 2012-01."""
        if self.month == 7 or self >= CALENDAR.half_yearly_standard_from:
            return (Rate.STANDARD, Rate.RAPID)
        return (Rate.RAPID,)

    @property
    def has_august(self) -> bool:
        """G27, G43: a July list of either rate has an ``august`` version, its definitive
        one; a January list has only ``initial`` and ``revN``."""
        return self.month == 7

    def check_rate(self, rate: Rate) -> None:
        """G31: there is no standard January list before the first half-yearly one."""
        if rate not in self.rates():
            first = CALENDAR.half_yearly_standard_from
            raise ValueError(
                f"standard lists are published in July only before {first} "
                f"(standard January lists exist from {first}), got {self}"
            )

    def next(self, rate: Rate | None = None) -> ListId:
        """The list after this one: six months on, or the next that publishes ``rate`` -
        the list whose previous list of that rate (G4) is this one, when this list
        publishes it."""
        following = ListId(self.year, 7) if self.month == 1 else ListId(self.year + 1, 1)
        if rate is None or rate in following.rates():
            return following
        return following.next(rate)

    def before(self) -> ListId:
        """The list month six months earlier, whatever it publishes."""
        return ListId(self.year, 1) if self.month == 7 else ListId(self.year - 1, 7)

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
        """The season a list closes, named by the year it ends in: the July 2010 list
        closes 2009-10; the January 2011 list's P0 ends in 2010-11; from 2012 a list is
        likewise named by its own year."""
        return self.year

    def cutoff(self) -> date:
        """G32: the last day of the list's periods: 31 May (July) and 30 November of the
        previous year (January) up to 2011-07; 30 June and 31 December from 2012-01."""
        if self < CALENDAR.half_yearly_standard_from:
            return date(self.year, 5, 31) if self.month == 7 else date(self.year - 1, 11, 30)
        return date(self.year, 6, 30) if self.month == 7 else date(self.year - 1, 12, 31)

    def half_years(self) -> tuple[Period, ...]:
        """G32: H0, the half-year ending on the cut-off, then H1 .. H5, latest first."""
        found = [CALENDAR.half_year_of(self.cutoff())]
        while len(found) < 6:
            found.append(CALENDAR.half_year_of(found[-1].start - timedelta(days=1)))
        return tuple(found)

    def p0(self) -> Period:
        """G32: the "latest 12 months", H1 + H0 (13 months for 2012-01 and 2012-07)."""
        return self.period(0)

    def period(self, k: int) -> Period:
        """G32: P0 = H1 + H0, P1 = H3 + H2, P2 = H5 + H4. For every ecf-2009 list P_k is
        the P0 of the list of the same month k years earlier."""
        halves = self.half_years()
        return Period(halves[2 * k + 1].start, halves[2 * k].end)

    def h0(self) -> Period:
        """The half-year H0 (X, G16 and G36): the last half-year of P0."""
        return self.half_years()[0]

    def age_date(self, rules: RuleSet = ECF_2009) -> date:
        """G42: 31 August of the list's year (July) or of the previous year (January),
        for either rate."""
        year = self.year if self.month == 7 else self.year - 1
        return date(year, rules.age_date_month, rules.age_date_day)

    def previous_same_rate(self, rate: Rate) -> ListId:
        """G4, G33: the latest earlier list of this rate (standard 2011-07 for standard
        2012-01, six months earlier from then on)."""
        return self._latest_before(rate)

    def previous_other_rate(self, rate: Rate) -> ListId:
        """G5, G33: the latest earlier list of the other rate (rapid Y-01 for standard
        Y-07; standard (Y-1)-07 for rapid lists to 2011-07, six months earlier from then)."""
        return self._latest_before(rate.other)

    def _latest_before(self, rate: Rate) -> ListId:
        earlier = self.before()
        while rate not in earlier.rates():
            earlier = earlier.before()
        return earlier

    def stored_by(self, rate: Rate, k: int) -> tuple[ListId, ...]:
        """G17, G34: the lists whose stored points are read for P_k (k = 1, 2): the list of
        the same rate and month k years earlier, whose P0 is exactly P_k; where that list
        does not exist (standard January lists before 2012-01), the annual standard lists
        whose P0 overlap P_k, read by date."""
        earlier = self.years_earlier(k)
        if rate in earlier.rates():
            return (earlier,)
        wanted = self.period(k)
        annual = (ListId(year, 7) for year in range(wanted.start.year, wanted.end.year + 2))
        return tuple(lid for lid in annual if lid.p0().overlaps(wanted))


@dataclass(frozen=True)
class Calendar:
    """G31, G32: the federation's list calendar across its rule sets, as named values."""

    # G31: the first half-yearly standard list (standard lists were annual before it).
    half_yearly_standard_from: ListId
    # G32: the 7-month transition half-year between the old half-years (December..May,
    # June..November) and the calendar ones (January..June, July..December).
    transition: Period

    def half_year_of(self, day: date) -> Period:
        """G32: the half-year a day lies in."""
        if day < self.transition.start:
            if day.month >= 12:
                return Period(date(day.year, 12, 1), date(day.year + 1, 5, 31))
            if day.month <= 5:
                return Period(date(day.year - 1, 12, 1), date(day.year, 5, 31))
            return Period(date(day.year, 6, 1), date(day.year, 11, 30))
        if day <= self.transition.end:
            return self.transition
        if day.month <= 6:
            return Period(date(day.year, 1, 1), date(day.year, 6, 30))
        return Period(date(day.year, 7, 1), date(day.year, 12, 31))


CALENDAR = Calendar(
    half_yearly_standard_from=ListId(2012, 1),
    transition=Period(date(2011, 6, 1), date(2011, 12, 31)),
)


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
