"""The published list the demo starts from: grading list 2009-07, both rates.

The players on record before the first demo season with enough games in 2006-09 are on
it, with grades from their true strength in 2008-09 (as noisy as a real grade), the
category and games counted the rules give for their game counts (G23, G24), and the
junior bonus in juniors' grades (G20). Players on record without a category are not on
it: their codes reach the system only when a results file quotes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from ecfgrading.demo.people import People
from ecfgrading.demo.places import Club
from ecfgrading.demo.seasons import age_date
from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.types import Category
from ecfgrading.formats.gradelist import GradeList, GradeListRow, RateGrade, write_grade_list

Rng = np.random.Generator
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

LIST_ID = "2009-07"
FILENAME = "grades200907.csv"
EARLIER_SEASONS_PLAYED = 0.85  # on record, so most played in the seasons before
SECOND_CLUB_SHARE = 0.08
RAPID_OFFSET = (-3.0, 9.0)  # a player's rapid grade against his standard one: mean, sd


@cache  # a member by its value: the call is slow, 40,000 rows ask
def _category(value: str) -> Category:
    return Category(value)


@dataclass(frozen=True)
class RateColumns:
    """One rate's figures per player; grade -1 where the player has none."""

    category: tuple[str, ...]
    grade: IntArray
    previous: IntArray
    games: IntArray

    def row(self, player: int) -> RateGrade:
        if self.grade[player] < 0:
            return RateGrade()
        previous = int(self.previous[player])
        return RateGrade(
            _category(self.category[player]),
            int(self.grade[player]),
            previous if previous >= 0 else None,
            int(self.games[player]),
        )


@dataclass(frozen=True)
class Standings:
    """The starting list's figures, drawn before the CSV is written."""

    standard: RateColumns
    rapid: RateColumns
    second_club: IntArray  # -1: none

    @property
    def listed(self) -> BoolArray:
        result: BoolArray = (self.standard.grade >= 0) | (self.rapid.grade >= 0)
        return result


def standings(
    rng: Rng, people: People, clubs: list[Club], expected: tuple[FloatArray, FloatArray]
) -> Standings:
    """Game counts for 2006-09 drawn around ``expected`` (standard, rapid games a season)."""
    junior_age = _junior_ages(people)
    columns = [
        _rate(rng, people, games, junior_age, offset)
        for games, offset in zip(expected, (0.0, 1.0), strict=True)
    ]
    return Standings(columns[0], columns[1], _second_clubs(rng, people, clubs))


def _junior_ages(people: People) -> IntArray:
    """Age on the list's age date (31 August 2009) for juniors, -1 for adults (G25)."""
    age = people.age_on(age_date(1))
    result: IntArray = np.where(age <= 17, age, -1)
    return result


def _rate(
    rng: Rng, people: People, expected: FloatArray, junior_age: IntArray, rapid: float
) -> RateColumns:
    counts = _counts(rng, people, expected)
    junior = junior_age >= 0
    category = _categories(*counts, junior)
    graded = category != ""
    games = _games_counted(*counts, junior)
    true = (people.strength[:, 0] + people.strength[:, 1]) / 2  # over the season 2008-09
    true += rapid * rng.normal(*RAPID_OFFSET, len(true))
    grade = true + rng.normal(0.0, 1.0, len(true)) * 45.0 / np.sqrt(np.maximum(games, 1))
    grade += np.where(junior, np.where(junior_age <= 10, 10.0, 5.0), 0.0)  # G20
    grade = np.maximum(0, np.floor(grade + 0.5)).astype(np.int64)  # G21, G22
    drift = people.strength[:, 1] - people.strength[:, 0]
    previous = np.maximum(0, np.round(grade - drift + rng.normal(0, 5, len(grade))))
    had_grade = counts[1] + counts[2] >= 9
    return RateColumns(
        category=tuple(category.tolist()),
        grade=np.where(graded, grade, -1),
        previous=np.where(graded & had_grade, previous, -1).astype(np.int64),
        games=games,
    )


def _counts(rng: Rng, people: People, expected: FloatArray) -> tuple[IntArray, IntArray, IntArray]:
    """Graded games in P0 (2008-09), P1 and P2 of the players on record."""
    on_record = people.first == 0
    latest = on_record & ~people.idle[:, 0]
    earlier = [on_record & (rng.random(len(expected)) < EARLIER_SEASONS_PLAYED) for _ in range(2)]
    n0, n1, n2 = (rng.poisson(expected * playing) for playing in (latest, *earlier))
    return n0, n1, n2


def _categories(n0: IntArray, n1: IntArray, n2: IntArray, junior: BoolArray) -> np.ndarray:
    """The first category of G23's table that fits; '' for none (not on the list)."""
    three = n0 + n1 + n2
    adult_b = (n0 >= 20) & (n0 + n1 >= 30)
    adult_c = (n0 >= 10) & (three >= 30)
    junior_c = (n0 >= 10) & (n0 + n1 >= 20)
    return np.select(
        [
            n0 >= 30,
            np.where(junior, n0 >= 20, adult_b),
            np.where(junior, junior_c, adult_c),
            (n0 >= 5) & (three >= 15),
            (n0 >= 1) & (three >= 9),
        ],
        ["A", "B", "C", "D", "E"],
        default="",
    )


def _games_counted(n0: IntArray, n1: IntArray, n2: IntArray, junior: BoolArray) -> IntArray:
    """G24: all P0 games once the target is reached, else made up to it (G14, G18)."""
    target = np.where(junior, 20, 30)
    result: IntArray = np.where(n0 >= target, n0, np.minimum(target, n0 + n1 + n2))
    return result


def _second_clubs(rng: Rng, people: People, clubs: list[Club]) -> IntArray:
    """A few players are also members of a second club of their county."""
    second = np.full(len(people), -1, dtype=np.int64)
    by_county: dict[str, list[int]] = {}
    for index, club in enumerate(clubs):
        if not club.location and not club.juniors:
            by_county.setdefault(club.county, []).append(index)
    for player in np.flatnonzero(rng.random(len(people)) < SECOND_CLUB_SHARE).tolist():
        own = clubs[int(people.club[player, 0])]
        options = [c for c in by_county[own.county] if c != people.club[player, 0]]
        if options and not own.location:
            second[player] = options[int(rng.integers(len(options)))]
    return second


def list_csv(people: People, clubs: list[Club], figures: Standings) -> bytes:
    """The list file, one row per listed player in name order (write_grade_list)."""
    listed = np.flatnonzero(figures.listed).tolist()
    listed.sort(key=lambda p: (people.names[p].surname.casefold(), people.names[p].forenames))
    ages = people.age_on(age_date(1)).tolist()
    rows = tuple(_row(people, clubs, figures, player, ages[player]) for player in listed)
    return write_grade_list(GradeList(rows)).encode("utf-8")


def _row(
    people: People, clubs: list[Club], figures: Standings, player: int, age: int
) -> GradeListRow:
    names = [clubs[int(people.club[player, 0])].listed_name]
    if figures.second_club[player] >= 0:
        names.append(clubs[int(figures.second_club[player])].listed_name)
    fide = int(people.fide[player])
    return GradeListRow(
        code=GradingCode(int(people.code[player])),
        name=people.names[player].written,
        sex=people.sex[player],
        junior_age=age if age <= 17 else None,
        standard=figures.standard.row(player),
        rapid=figures.rapid.row(player),
        clubs=tuple(names),
        fide_code=str(fide) if fide else "",
        nation=people.names[player].nation,
    )
