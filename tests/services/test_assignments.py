"""Starting grades (G6; G29/G30 from a FIDE rating): one set of checks for the back
office's preview, its save and the CLI (issue 20: the preview lacked the range check)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ecfgrading.engine import Rate, RuleSet
from ecfgrading.registry.models import Player, StartingGradeAssignment
from ecfgrading.services.grading import assignments as checks
from ecfgrading.services.grading.assignments import AssignmentError, assign_starting_grade
from ecfgrading.services.team.assignments import propose

pytestmark = pytest.mark.django_db

BLOGGS = "261619B"


@pytest.fixture(autouse=True)
def _bloggs() -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")


def refusal(call: Callable[..., object], **given: object) -> str:
    with pytest.raises(AssignmentError) as refused:
        call(BLOGGS, Rate.STANDARD, valid_from="2013-07", **given)
    return str(refused.value)


@pytest.mark.parametrize(
    ("grade", "expected"),
    [
        (400.5, "expected a grade from 0 to 400, got 400.5"),
        (-1.0, "expected a grade from 0 to 400, got -1"),
        (float("nan"), "expected a grade from 0 to 400, got nan"),
    ],
)
def test_the_preview_refuses_a_grade_out_of_range_as_the_save_does(
    grade: float, expected: str
) -> None:
    assert refusal(propose, grade=grade) == expected
    assert refusal(assign_starting_grade, grade=grade) == expected
    assert not StartingGradeAssignment.objects.exists()


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"fide": 999}, "expected a FIDE rating from 1000 to 3000, got 999"),
        ({"grade": 120.0, "fide": 1850}, "expected either a grade or a FIDE rating"),
        ({}, "expected either a grade or a FIDE rating"),
    ],
)
def test_the_preview_and_the_save_refuse_alike(given: dict[str, float], expected: str) -> None:
    assert refusal(propose, **given).startswith(expected)
    assert refusal(propose, **given) == refusal(assign_starting_grade, **given)


def test_the_preview_shows_what_the_save_stores() -> None:
    """G29/G30 by hand: (1850 - 650) / 8 = 150."""
    shown = propose(BLOGGS, Rate.RAPID, valid_from="2013-07", fide=1850)
    saved = assign_starting_grade(BLOGGS, Rate.RAPID, valid_from="2013-07", fide=1850)
    assert (shown.grade, shown.reason) == (150.0, "FIDE 1850")
    assert (saved.grade, saved.reason) == (150.0, "FIDE 1850")


def test_g30_the_conversion_and_its_words_follow_the_rule_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another rule set, other numbers: (1850 - 700) / 10 = 115."""
    monkeypatch.setattr(checks, "RULES", RuleSet(fide_offset=700.0, elo_factor=10.0))
    shown = propose(BLOGGS, Rate.STANDARD, valid_from="2013-07", fide=1850)
    assert shown.grade == 115.0
    assert "FIDE 1850 converted by G29, (1850 - 700) / 10 (G30)." in shown.words
