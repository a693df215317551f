"""The back office's starting grades (G6): the preview refuses what the save would, in
the service's words (issue 20), and states G30 in the rule set's numbers."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from ecfgrading.engine import RuleSet
from ecfgrading.registry.models import Player, StartingGradeAssignment
from ecfgrading.services.grading import assignments as checks
from tests.backoffice.conftest import signed_in

pytestmark = pytest.mark.django_db


def form(**given: object) -> dict[str, object]:
    player = Player.objects.create(code=100001, surname="Abroad", forenames="Anna")
    return {"code": player.ref, "rate": "standard", "valid_from": "2013-07"} | given


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"grade": "450"}, "Expected a grade from 0 to 400, got 450"),
        ({"grade": "-5"}, "Expected a grade from 0 to 400, got -5"),
        ({"fide": "3200"}, "Expected a FIDE rating from 1000 to 3000, got 3200"),
    ],
)
def test_the_preview_refuses_an_out_of_range_grade_with_the_saves_message(
    team: Any, given: dict[str, str], expected: str
) -> None:
    shown = signed_in(team).post(reverse("backoffice:team_assignments"), form(**given))
    assert shown.status_code == 400
    assert expected in shown.content.decode()  # the failure notice capitalises it
    assert not StartingGradeAssignment.objects.exists()


def test_the_page_states_g30_in_the_rule_sets_numbers(
    team: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checks, "RULES", RuleSet(fide_offset=700.0, elo_factor=10.0))
    client = signed_in(team)
    page = client.get(reverse("backoffice:team_assignments")).content.decode()
    assert "ECF = (FIDE - 700) / 10 (G30)" in page
    shown = client.post(reverse("backoffice:team_assignments"), form(fide="1850"))
    # (1850 - 700) / 10 = 115
    assert "FIDE 1850 converted by G29, (1850 - 700) / 10 (G30)" in shown.content.decode()
    assert "a starting standard grade of 115.0" in shown.content.decode()
