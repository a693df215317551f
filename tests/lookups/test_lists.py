"""The published lists (G26, G27): the catalogue the lists page, its twin and /api/v1
show, the current lists, and G29's conversions, from versions made by hand."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ecfgrading.engine.types import Rate
from ecfgrading.lookups.conversions import Conversion, Scale, conversion_table, convert
from ecfgrading.lookups.lists import catalogue, current_lists_shown
from ecfgrading.registry.models import GradingList, ListVersion

pytestmark = pytest.mark.django_db


def _publish(list_id: str, rate: str, name: str, month: int, day: int) -> None:
    grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate=rate)
    ListVersion.objects.create(
        grading_list=grading_list,
        name=name,
        status=ListVersion.Status.PUBLISHED,
        published_at=datetime(int(list_id[:4]), month, day, tzinfo=UTC),
    )


@pytest.fixture
def published() -> None:
    """July 2012 (both rates, standard revised in August and again) and January 2013."""
    _publish("2012-07", "rapid", "initial", 7, 15)
    _publish("2012-07", "standard", "initial", 7, 15)
    _publish("2012-07", "standard", "august", 8, 28)
    _publish("2012-07", "standard", "rev1", 10, 1)
    _publish("2013-01", "rapid", "initial", 1, 15)


def test_the_catalogue_lists_the_latest_list_first_standard_first_oldest_version_first(
    published: None,
) -> None:
    found = catalogue()
    assert [(item.list_id, item.label) for item in found.lists] == [
        ("2013-01", "January 2013"),
        ("2012-07", "July 2012"),
    ]
    july = found.lists[1]
    assert [(v.info.rate.value, v.info.name, v.current) for v in july.versions] == [
        ("standard", "initial", False),
        ("standard", "august", False),
        ("standard", "rev1", True),  # G26: the latest published version is the current one
        ("rapid", "initial", True),
    ]


def test_the_current_list_of_each_rate_is_its_latest_list_at_its_latest_version(
    published: None,
) -> None:
    current = {c.rate: (c.list_id, c.current.name) for c in catalogue().current}
    assert current == {Rate.STANDARD: ("2012-07", "rev1"), Rate.RAPID: ("2013-01", "initial")}


def test_the_home_page_shows_one_current_list_a_rate(published: None) -> None:
    """Issue 23: the January rapid list is the current rapid list; the July one beside it
    made three "current" lists on the home page, and readers could not tell which."""
    shown = [(c.rate.value, c.list_id) for c in current_lists_shown()]
    assert shown == [("standard", "2012-07"), ("rapid", "2013-01")]


def test_nothing_published_is_an_empty_catalogue() -> None:
    found = catalogue()
    assert (found.lists, found.current) == ((), ())


# G29 by hand: FIDE = ECF x 8 + 650, national Elo = ECF x 8 + 600; minimum FIDE 1200.


def test_g29_a_fide_rating_converts_unrounded() -> None:
    found = convert(Scale.FIDE, 1900)
    assert (found.ecf, found.fide, found.national_elo) == (156.25, 1900, 1850)


def test_g29_the_table_rows_are_the_same_figures_whole() -> None:
    rows = {row.ecf: row for row in conversion_table().rows}
    assert rows[150] == Conversion(150, 1850, 1800, below_fide_minimum=False)
    assert rows[60] == Conversion(60, 1130, 1080, below_fide_minimum=True)
    for grade, row in rows.items():
        exact = convert(Scale.ECF, grade)
        assert (row.fide, row.national_elo) == (round(exact.fide), round(exact.national_elo))
