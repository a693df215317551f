"""The top players of a current list: the federation's ``list_top_players`` page.

Who is ranked: every player published in the current version of the current list of one
rate (G26), as the rating list reads them (``grades.rating_rows``: merged records count
for their survivor, G28; his club is the first the website shows, C2), optionally only
those of one sex, one nation, or one side of an age. They are ranked by that grade,
highest first, ties by name (``name_key``, then code), and the first ``count`` kept;
each carries his grade in the previous list of the same rate (G4), when he had one.

Ages: a player's age is his whole years on the *age date* (``periods.age_on``): 31
December of the list's year, or today. *Under* N keeps those younger than N on that day
(a U18 list is of players not yet 18 on 31 December); *over* N keeps those of N or
more (a senior's O50 counts from his 50th birthday). A player with no date of birth on
record is in no age-limited list: his age is not known.

Privacy: dates of birth are read here only to decide who is admitted; they never leave
this module (``TopPlayer`` holds the rating list's public row, never an age).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from ecfgrading.engine.periods import ListId, age_on
from ecfgrading.engine.types import Rate
from ecfgrading.errors import NotFound
from ecfgrading.lookups.clock import today
from ecfgrading.lookups.grades import RatingRow, lists_in_force, rating_rows
from ecfgrading.lookups.lists import CurrentList, lists_by_rate
from ecfgrading.registry.models import Player


class AgeBasis(StrEnum):
    """The day ages are counted on."""

    YEAR_END = "age31dec"  # 31 December of the list's year
    TODAY = "Age"  # the day of the request


class AgeSide(StrEnum):
    UNDER = "under"  # younger than the limit on the age date
    OVER = "over"  # the limit's age or older on the age date


@dataclass(frozen=True)
class AgeLimit:
    """``under 18``, ``over 50``: one side of an age, counted on ``basis``' day."""

    side: AgeSide
    years: int
    basis: AgeBasis

    def admits(self, age: int) -> bool:
        return age < self.years if self.side is AgeSide.UNDER else age >= self.years

    def day(self, found: CurrentList) -> dt.date:
        """The age date for the list ``found``."""
        if self.basis is AgeBasis.TODAY:
            return today()
        return dt.date(ListId.parse(found.list_id).year, 12, 31)


@dataclass(frozen=True)
class TopQuery:
    """Which players to rank, and how many to give."""

    rate: Rate
    count: int
    age: AgeLimit | None = None
    nation: str | None = None  # upper case, e.g. ENG; None: every nation
    sex: str | None = None  # M or F; None: both


@dataclass(frozen=True)
class TopPlayer:
    """One ranked player: his place, the rating list's public row, his grades."""

    rank: int  # 1 for the highest grade; by position, so ties have consecutive ranks
    row: RatingRow
    grade: int  # in the version in force of the current list
    prior: int | None  # in the previous list of the same rate (G4), at its latest version


@dataclass(frozen=True)
class TopList:
    found: CurrentList  # the current list of the rate asked
    age_date: dt.date | None  # the day ages were counted on, when an age was asked
    players: tuple[TopPlayer, ...]


def top_players(query: TopQuery) -> TopList:
    """The first ``query.count`` players of the current list of ``query.rate`` that the
    query admits, by grade (highest first), then name."""
    in_force = lists_in_force()
    found = in_force.get(query.rate)
    if found is None:
        raise NotFound(f"no {query.rate.value} list has been published")
    # Both rates' lists, as the rating list reads them, so that a player's club is the
    # one the rating list and a club's roster name (clubs lapse by the latest season, C2).
    graded = [(_grade(row, query.rate), row) for row in rating_rows(in_force)]
    chosen = [(grade, row) for grade, row in graded if grade is not None and _admitted(row, query)]
    day = None
    if query.age is not None:
        day = query.age.day(found)
        of_age = _of_age(query.age, day)
        chosen = [(grade, row) for grade, row in chosen if row.player_id in of_age]
    chosen.sort(key=lambda pair: (-pair[0], pair[1].name_key, pair[1].code))
    first = chosen[: query.count]
    prior = _prior_grades(found, [row.player_id for _grade, row in first])
    ranked = tuple(
        TopPlayer(place, row, grade, prior.get(row.player_id))
        for place, (grade, row) in enumerate(first, start=1)
    )
    return TopList(found, day, ranked)


def _grade(row: RatingRow, rate: Rate) -> int | None:
    grades = row.grades(rate)
    return grades.grade if grades is not None else None


def _admitted(row: RatingRow, query: TopQuery) -> bool:
    """The public conditions: sex and nation."""
    if query.sex is not None and row.gender != query.sex:
        return False
    return query.nation is None or row.nation.upper() == query.nation


def _of_age(limit: AgeLimit, day: dt.date) -> set[int]:
    """The surviving players whose age on ``day`` the limit admits. The database narrows
    by year of birth (one year either side of the bound); ``age_on`` decides exactly."""
    born = Player.objects.filter(merged_into__isnull=True, date_of_birth__isnull=False)
    if limit.side is AgeSide.UNDER:
        born = born.filter(date_of_birth__gte=dt.date(day.year - limit.years - 1, 1, 1))
    else:
        born = born.filter(date_of_birth__lte=dt.date(day.year - limit.years + 1, 12, 31))
    rows = born.order_by().values_list("id", "date_of_birth")
    return {pk for pk, birth in rows if limit.admits(age_on(birth, day))}


def _prior_grades(found: CurrentList, players: Collection[int]) -> dict[int, int]:
    """The players' grades in the previous list of the same rate (G4), at its latest
    published version; none when that list is not on record."""
    previous = str(ListId.parse(found.list_id).previous_same_rate(found.rate))
    earlier = next((f for f in lists_by_rate()[found.rate] if f.list_id == previous), None)
    if earlier is None or not players:
        return {}
    rows = rating_rows({found.rate: earlier}, players)
    grades = {row.player_id: _grade(row, found.rate) for row in rows}
    return {pk: grade for pk, grade in grades.items() if grade is not None}
