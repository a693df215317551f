"""What the officer and the team see of remembered identification (issue 24, case 3)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from ecfgrading.lookups.identification import open_cases
from ecfgrading.registry.models import Club, ClubMembership, Player
from ecfgrading.services.results.ingest import import_results
from tests.backoffice.conftest import signed_in
from tests.backoffice.test_officers import register, submit, upload
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#NAME=Bloggs, Joe#CLUB NAME=Walsall"
SMITH = "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown"
GAMES = ["#PIN1=1#SCORE=10#PIN2=2", "#PIN1=2#SCORE=55#PIN2=1"]


def john_smiths_of_newtown() -> Player:
    """Two John Smiths of one club: the matcher cannot tell which the file means."""
    club = Club.objects.create(name="Newtown")
    smiths = [Player.objects.create(code=c, surname="Smith", forenames="John") for c in (1, 2)]
    for p in smiths:
        ClubMembership.objects.create(player=p, club=club, first_season=2013, last_season=2013)
    return smiths[1]


def test_the_officers_check_of_a_resubmission_says_the_player_was_identified_as_decided(
    officer: Any, team: Any
) -> None:
    """issue 24, case 3: the check report shows "identified as the team decided on"."""
    chosen = john_smiths_of_newtown()
    office = signed_in(officer)
    register(office)
    submit(office, results_file([BLOGGS, SMITH], GAMES, code="OLG1"))
    (case,) = open_cases()
    decided = signed_in(team).post(
        reverse("backoffice:team_case_decide", args=[case.id]),
        {"action": "link", "code": chosen.ref},
    )
    assert decided.status_code == 302

    page = upload(office, results_file([BLOGGS, SMITH], GAMES, code="OLG1", index=2))

    text = page.content.decode()
    on = f"{timezone.localdate():%d/%m/%Y}"
    assert f"{chosen.ref}): identified as the team decided on {on}" in text
    queue = signed_in(team).get(reverse("backoffice:team_identify")).content.decode()
    assert "No open cases" in queue and "identified as the team decided on" in queue
    assert chosen.ref in queue


def test_the_queue_shows_two_cases_of_one_person_as_one(team: Any) -> None:
    """issue 24, case 3: the queue held 9 open cases for 2 people."""
    john_smiths_of_newtown()
    again = "#PIN=3#NAME=Smith, John#CLUB NAME=Newtown"
    games = [*GAMES, "#PIN1=3#SCORE=10#PIN2=1"]
    import_results(results_file([BLOGGS, SMITH, again], games), filename="twice.txt")

    queue = signed_in(team).get(reverse("backoffice:team_identify")).content.decode()
    assert "1 open case," in queue
    assert "the same person in 1 more case, decided with it" in queue
