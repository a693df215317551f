"""lookups.shaped.Statement: a values_list query compiled once per shape of its arguments
gives, for any values, the rows building the queryset with those values gives (issue 25);
it is built again only for a new shape, and anything it cannot keep is built each time."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.db.models import QuerySet, Sum
from django.test.utils import CaptureQueriesContext

from ecfgrading.lookups import shaped
from ecfgrading.lookups.shaped import Statement
from ecfgrading.registry.models import ClubMembership, Player

pytestmark = pytest.mark.django_db


class _Counted:
    """A builder that counts how often it is asked to build."""

    def __init__(self, build: Any) -> None:
        self.build, self.calls = build, 0

    def __call__(self, *args: Any) -> QuerySet[Any]:
        self.calls += 1
        return self.build(*args)


def _players() -> list[Player]:
    born = [dt.date(1990, 1, 1), dt.date(2001, 6, 30), None, dt.date(1975, 12, 31)]
    return [
        Player.objects.create(code=600_000 + k, surname=f"Shape{k}", date_of_birth=day)
        for k, day in enumerate(born)
    ]


def _by_ids(ids: list[int], after: dt.date) -> QuerySet[Any]:
    return (
        Player.objects.filter(id__in=ids, date_of_birth__gt=after)
        .order_by("code")
        .values_list("id", "code", "surname", "date_of_birth")
    )


def test_rows_are_those_of_the_queryset_built_with_the_values() -> None:
    made = _players()
    ids = [p.id for p in made]
    statement = Statement(_by_ids)
    for wanted, after in [
        (ids, dt.date(1980, 1, 1)),
        (ids[:3], dt.date(1900, 1, 1)),
        (ids[1:2], dt.date(2001, 6, 29)),
        (ids[1:2], dt.date(2001, 6, 30)),  # the day itself is not after it
        ([ids[3], ids[0], ids[3]], dt.date(1970, 1, 1)),
    ]:
        expected = list(_by_ids(wanted, after))
        assert statement.rows(wanted, after) == expected
    # Dates come back as dates on both databases (SQLite's converter applied).
    (row,) = statement.rows(ids[1:2], dt.date(2000, 1, 1))
    assert row == (made[1].id, 600_001, "Shape1", dt.date(2001, 6, 30))


def test_built_once_per_shape_a_list_rounded_up_to_a_power_of_two() -> None:
    ids = [p.id for p in _players()]
    counted = _Counted(_by_ids)
    statement = Statement(counted)
    day = dt.date(1900, 1, 1)
    statement.rows(ids[:3], day)  # 3 -> 4
    statement.rows(ids, day)  # 4
    statement.rows(ids[1:4], dt.date(1980, 1, 1))  # 3 -> 4, another date
    assert counted.calls == 2  # a shape is built twice, with two sets of markers
    statement.rows(ids[:1], day)  # 1
    statement.rows(ids[:2], day)  # 2
    assert counted.calls == 6
    with CaptureQueriesContext(connection) as queries:
        assert [row[1] for row in statement.rows(ids[:2], day)] == [600_000, 600_001]
    assert len(queries) == 1


def test_text_and_a_value_used_twice() -> None:
    _players()

    def named(surname: str, code: int) -> QuerySet[Any]:
        near = Player.objects.filter(surname=surname) | Player.objects.filter(code=code)
        return near.filter(code__lte=code).order_by("code").values_list("code", flat=False)

    counted = _Counted(named)
    statement = Statement(counted)
    assert statement.rows("Shape2", 600_001) == [(600_001,)]
    assert statement.rows("Shape0", 600_003) == [(600_000,), (600_003,)]
    assert statement.rows("Nobody", 600_002) == [(600_002,)]
    assert counted.calls == 2


def test_an_aggregate_by_group() -> None:
    made = _players()

    def births(ids: list[int]) -> QuerySet[Any]:
        return (
            Player.objects.filter(id__in=ids)
            .order_by()
            .values("surname")
            .annotate(n=Sum("code"))
            .values_list("surname", "n")
            .order_by("surname")
        )

    ids = [p.id for p in made]
    assert Statement(births).rows(ids[:2]) == [("Shape0", 600_000), ("Shape1", 600_001)]


def test_what_cannot_be_kept_is_built_each_time() -> None:
    ids = [p.id for p in _players()]
    counted = _Counted(_by_ids)
    statement = Statement(counted)
    day = dt.date(1900, 1, 1)
    assert statement.rows([], day) == []  # an empty list: nothing to ask for
    assert statement.rows([2**40], day) == []  # no integer column holds it
    assert statement.rows({ids[0]: 1}.keys(), day) == list(_by_ids([ids[0]], day))  # not a list
    assert counted.calls == 3


def test_a_marker_django_does_not_pass_as_given_is_never_kept() -> None:
    """A builder that turns its value into another leaves its marker out of the
    parameters: that shape is built for each call, with the right answer."""
    made = _players()

    def next_code(code: int) -> QuerySet[Any]:
        return Player.objects.filter(code=code + 1).values_list("surname")

    counted = _Counted(next_code)
    statement = Statement(counted)
    assert statement.rows(600_000) == [("Shape1",)]
    assert statement.rows(600_002) == [("Shape3",)]
    assert counted.calls == 4  # the two marked builds once, then the real one each call
    assert made


def test_a_value_worked_out_from_an_argument_is_never_kept_as_a_constant() -> None:
    """A season three before the one given (as a club's lapse is worked out): compiled
    once, the first call's value would answer every later one."""
    made = _players()

    def within(code: int, spread: int) -> QuerySet[Any]:
        return (
            Player.objects.filter(code__lte=code, code__gt=code - spread)
            .order_by("code")
            .values_list("code")
        )

    statement = Statement(within)
    assert statement.rows(600_003, 2) == [(600_002,), (600_003,)]
    assert statement.rows(600_001, 3) == [(600_000,), (600_001,)]
    assert statement.rows(600_003, 1) == [(600_003,)]
    assert made


def test_values_worked_out_from_two_arguments_or_landing_on_another_marker() -> None:
    """Worked out by ``build``, a value could equal another argument's marker (a season
    three before the one given, the fourth of a list's markers) or be the same in both
    builds (a difference of two arguments): either way it must not be kept."""
    made = _players()
    ids = [p.id for p in made]

    def lapsed(code: int, ids: list[int]) -> QuerySet[Any]:
        return (
            Player.objects.filter(id__in=ids, code__gt=code - 3)
            .order_by("code")
            .values_list("code")
        )

    def apart(high: int, low: int) -> QuerySet[Any]:
        return (
            Player.objects.filter(code__lte=high, code__gte=low, id__gte=high - low)
            .order_by("code")
            .values_list("code")
        )

    for build, calls in (
        (lapsed, [(600_004, ids), (600_001, ids)]),
        (apart, [(600_003, 600_001), (600_002, 599_000)]),
    ):
        statement = Statement(build)
        for args in calls:
            assert statement.rows(*args) == list(build(*args))


def test_a_small_integer_column_and_a_value_it_cannot_hold() -> None:
    _players()

    def seasons(first: int) -> QuerySet[Any]:
        return ClubMembership.objects.filter(first_season__lte=first).values_list("club_id")

    counted = _Counted(seasons)
    statement = Statement(counted)
    assert statement.rows(2015) == []
    assert statement.rows(2016) == []
    assert counted.calls == 2  # compiled: the markers fit a small integer column
    assert statement.rows(40_000) == list(seasons(40_000))


def test_a_build_that_refuses_its_markers_is_built_each_time() -> None:
    made = _players()
    counted = _Counted(lambda ids: Player.objects.filter(id__in=ids).values_list("code"))
    statement = Statement(counted)
    for _ in range(2):
        assert statement.rows([str(made[0].id)]) == [(600_000,)]  # text for a number
    assert counted.calls == 4  # the two marked builds (refused) once, the real one each call


def test_only_values_list_queries() -> None:
    with pytest.raises(TypeError, match="values_list"):
        Statement(lambda code: Player.objects.filter(code=code)).rows(1)


def test_the_kept_shapes_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [p.id for p in _players()]
    monkeypatch.setattr(shaped, "KEPT_SHAPES", 2)
    counted = _Counted(_by_ids)
    statement = Statement(counted)
    day = dt.date(1900, 1, 1)
    for size in (1, 2, 4, 1):  # the third shape drops the two kept
        statement.rows(ids[:size], day)
    assert counted.calls == 8


def test_a_long_list_is_built_each_time() -> None:
    ids = [p.id for p in _players()]
    counted = _Counted(_by_ids)
    statement = Statement(counted)
    many = ids + list(range(10**6, 10**6 + shaped.LONGEST))
    for _ in range(2):
        assert statement.rows(many, dt.date(1980, 1, 1)) == list(_by_ids(ids, dt.date(1980, 1, 1)))
    assert counted.calls == 2
