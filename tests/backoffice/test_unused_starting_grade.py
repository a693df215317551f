"""A starting grade for an adult already graded is saved, but said never to be used (G6;
issue 24, case 14): failing only G4 and G5 does an assigned grade count, so an adult with
a grade above zero in the previous list of the rate (G4) or of the other rate (G5)
starts from that grade. A junior, whose previous grade is never his start (G7), and an
ungraded adult get no such warning. The team may still save it (documented in
docs/team.md): the preview and the saved message say so plainly."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.urls import reverse

from ecfgrading.engine import Rate
from ecfgrading.registry.models import (
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    StartingGradeAssignment,
)
from tests.backoffice.conftest import signed_in

pytestmark = pytest.mark.django_db


def graded(who: Player, list_id: str, rate: Rate, grade: int) -> None:
    grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate=rate)
    version, _ = ListVersion.objects.get_or_create(grading_list=grading_list, name="initial")
    ListEntry.objects.create(
        version=version, player=who, grade=grade, category="A", games_counted=30, published=True
    )
    if not version.is_published:
        version.status = ListVersion.Status.PUBLISHED
        version.published_at = datetime(2012, 7, 1, tzinfo=UTC)
        version.save()


def propose(team: Any, who: Player, rate: str = "standard", **more: str) -> Any:
    form = {"code": who.ref, "rate": rate, "valid_from": "2013-07", "grade": "120", **more}
    return signed_in(team).post(reverse("backoffice:team_assignments"), form, follow=True)


def test_an_adult_graded_in_the_previous_list_is_warned_g4(team: Any) -> None:
    """Issue 24, case 14. On the code before, the preview said only that he is given it."""
    adult = Player.objects.create(code=100001, surname="Graded", forenames="Gary")
    graded(adult, "2013-01", Rate.STANDARD, 150)  # standard lists half-yearly from 2012

    preview = propose(team, adult).content.decode()

    assert "This grade will not be used" in preview
    assert (
        "It will not be used: Graded, Gary is an adult graded 150 in the standard list "
        "2013-01, which is his starting grade in standard 2013-07 (G4)"
    ) in preview


def test_saving_it_anyway_keeps_it_and_says_it_will_not_be_used(team: Any) -> None:
    """Issue 24, case 14: warned, not refused: the save says it again."""
    adult = Player.objects.create(code=100001, surname="Graded", forenames="Gary")
    graded(adult, "2013-01", Rate.STANDARD, 150)  # standard lists half-yearly from 2012

    saved = propose(team, adult, confirm="1").content.decode()

    assert StartingGradeAssignment.objects.filter(player=adult, grade=120.0).exists()
    assert "Note that it will not be used: Graded, Gary is an adult graded 150" in saved


def test_an_adult_graded_only_in_the_other_rate_is_warned_g5(team: Any) -> None:
    """G5: standard 2013-07 starts from rapid 2013-01 failing a standard grade."""
    adult = Player.objects.create(code=100001, surname="Rapid", forenames="Rita")
    graded(adult, "2013-01", Rate.RAPID, 131)

    preview = propose(team, adult).content.decode()

    assert "graded 131 in the rapid list 2013-01, which is his starting grade" in preview
    assert "(G5)" in preview


@pytest.mark.parametrize(
    ("born", "grade"),
    [
        (date(2000, 1, 1), 150),  # a junior (13 on 31 August 2013): his grade is no start
        (None, 0),  # a grade of zero is not a grade (G4)
    ],
)
def test_no_warning_where_the_assigned_grade_is_used(
    team: Any, born: date | None, grade: int
) -> None:
    player = Player.objects.create(code=100001, surname="New", forenames="Ned", date_of_birth=born)
    graded(player, "2013-01", Rate.STANDARD, grade)

    preview = propose(team, player).content.decode()

    assert "is given a starting standard grade of 120.0" in preview
    assert "will not be used" not in preview


def test_an_ungraded_adult_is_not_warned(team: Any) -> None:
    adult = Player.objects.create(code=100001, surname="Abroad", forenames="Anna")

    preview = propose(team, adult).content.decode()

    assert "is given a starting standard grade of 120.0" in preview
    assert "will not be used" not in preview
