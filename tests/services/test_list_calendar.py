"""The list calendar where the team and the members meet it: the list the compute form
offers, the list a member's page shows first, the next list a provisional grade is for,
the lists a mailing goes before. Each once worked the calendar out in its own words; each
now asks ``ListId`` (rules section 1 and G31: standard lists in July, and in January too
from 2012-01; rapid lists in January and July; G4; G27; G32: from 2012 a list's period
ends on 30 June or 31 December). Expected lists are worked by hand from those words."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from ecfgrading.engine import ListId, Rate
from ecfgrading.lookups.direct_members import default_list
from ecfgrading.lookups.drafts import default_choice
from ecfgrading.lookups.provisional import next_list
from ecfgrading.registry.models import GradingList, ListVersion
from ecfgrading.services.errors import ServiceError
from ecfgrading.services.members import check_mailing

pytestmark = pytest.mark.django_db

SPRING_2013 = date(2013, 3, 1)  # in the season 2012-13, graded by the July 2013 lists


def _made(*lists: str) -> None:
    """Grading lists on record, as 'list_id rate'."""
    for each in lists:
        list_id, rate = each.split()
        GradingList.objects.create(list_id=list_id, rate=rate)


def _published_standard(list_id: str) -> None:
    grading_list = GradingList.objects.create(list_id=list_id, rate=Rate.STANDARD.value)
    ListVersion.objects.create(
        grading_list=grading_list,
        name=ListVersion.INITIAL,
        status=ListVersion.Status.PUBLISHED,
        published_at=datetime(int(list_id[:4]), 7, 15, tzinfo=UTC),
    )


@pytest.mark.parametrize(
    ("made", "offered"),
    [
        (["2012-07 standard"], "2012-07 rapid"),  # July publishes both rates
        (["2012-07 rapid"], "2012-07 standard"),  # ... so its standard list is still due
        (["2012-07 standard", "2012-07 rapid"], "2013-01 standard"),  # G31: both from 2012
        (["2012-07 standard", "2012-07 rapid", "2013-01 rapid"], "2013-01 standard"),
        (
            ["2012-07 standard", "2012-07 rapid", "2013-01 standard", "2013-01 rapid"],
            "2013-07 standard",
        ),
        (["2010-07 standard", "2010-07 rapid"], "2011-01 rapid"),  # before 2012: rapid only
    ],
)
def test_the_team_is_offered_the_first_list_not_yet_computed(made: list[str], offered: str) -> None:
    _made(*made)
    choice = default_choice(SPRING_2013)
    assert f"{choice.list_id} {choice.rate}" == offered
    assert choice.version == ListVersion.INITIAL


@pytest.mark.parametrize(
    ("published", "today", "shown"),
    [
        (None, SPRING_2013, "2013-07"),  # the July list whose season is under way
        (None, date(2013, 6, 30), "2013-07"),  # the period's last day (G32)
        (None, date(2013, 7, 1), "2014-07"),  # graded by 2014-01, then 2014-07: July's
        (None, date(2010, 6, 1), "2011-07"),  # before 2012: a new season from June
        ("2011-07", SPRING_2013, "2012-07"),  # the July list after the latest published
        ("2013-07", date(2013, 7, 1), "2014-07"),
    ],
)
def test_a_members_page_shows_the_july_list_of_the_season_or_the_one_after_the_latest(
    published: str | None, today: date, shown: str
) -> None:
    if published:
        _published_standard(published)
    assert default_list(today) == shown


def test_g4_the_provisional_grade_is_for_the_list_after_the_current_one() -> None:
    assert next_list(ListId(2012, 7), Rate.STANDARD) == ListId(2013, 1)  # G31
    assert next_list(ListId(2010, 7), Rate.STANDARD) == ListId(2011, 7)
    assert next_list(ListId(2012, 7), Rate.RAPID) == ListId(2013, 1)
    assert next_list(ListId(2013, 1), Rate.RAPID) == ListId(2013, 7)


def test_g27_members_are_mailed_before_july_and_august_lists_only() -> None:
    assert check_mailing("2013-07", "initial") == ListId(2013, 7)
    with pytest.raises(ServiceError, match="expected a July list"):
        check_mailing("2013-01", "initial")
