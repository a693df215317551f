"""The team's page of files holding games on record under another event code (issue 24,
case 1): the file, the event holding its games and how many, and the three decisions."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from ecfgrading.registry.models import Game, Player, Submission
from ecfgrading.services.results.ingest import import_results
from tests.backoffice.conftest import signed_in
from tests.services.results_text import results_file
from tests.services.test_duplicates import BLOGGS, BROWN, FIRST, GREEN, MORE, SMITH

pytestmark = pytest.mark.django_db


@pytest.fixture
def flagged() -> Submission:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    import_results(results_file([BLOGGS, SMITH], FIRST, code="XX1"), filename="xx1.txt")
    data = results_file([BLOGGS, SMITH, BROWN, GREEN], FIRST + MORE, code="YY2")
    return Submission.objects.get(id=import_results(data, filename="yy2.txt").submission_id)


def test_the_team_sees_the_flagged_file_with_the_event_and_the_games_on_record(
    team: Any, flagged: Submission
) -> None:
    page = signed_in(team).get(reverse("backoffice:team_duplicates")).content.decode()
    assert "YY2 submission 1: yy2.txt" in page
    assert "2 of its 5 graded games are on record elsewhere" in page
    assert 'value="correction:XX1"' in page and "XX1 (submission 1)" in page


def test_the_team_accepts_its_new_games_only_from_the_page(team: Any, flagged: Submission) -> None:
    client = signed_in(team)
    url = reverse("backoffice:team_duplicates_decide", args=[flagged.id])
    shown = client.post(url, {"decision": "new-games"}).content.decode()
    assert "stays accepted: 2 of its 5 graded games, on record elsewhere, are removed" in shown
    assert Game.objects.filter(submission=flagged, graded=True).count() == 5  # not yet
    answer = client.post(url, {"decision": "new-games", "confirm": "yes"}, follow=True)

    assert "accepted for its new games only: 2 games already on record removed" in (
        answer.content.decode()
    )
    assert Game.objects.filter(submission=flagged, graded=True).count() == 3
    assert "No file is waiting" in answer.content.decode()


def test_a_decision_without_a_choice_says_what_was_expected(team: Any, flagged: Submission) -> None:
    client = signed_in(team)
    url = reverse("backoffice:team_duplicates_decide", args=[flagged.id])
    page = client.post(url, {"decision": "maybe"}, follow=True).content.decode()
    assert "Nothing decided: expected a decision" in page and "&#x27;maybe&#x27;" in page
    flagged.refresh_from_db()
    assert flagged.duplicates == "flagged"


def test_the_team_confirms_a_correction_after_seeing_what_it_replaces(
    team: Any, flagged: Submission
) -> None:
    client = signed_in(team)
    url = reverse("backoffice:team_duplicates_decide", args=[flagged.id])
    shown = client.post(url, {"decision": "correction:XX1"}).content.decode()
    assert "becomes XX1&#x27;s submission 2" in shown and "the 2 games of XX1" in shown
    answer = client.post(url, {"decision": "correction:XX1", "confirm": "yes"}, follow=True)

    assert "accepted as a correction of XX1: 2 games of its earlier files replaced" in (
        answer.content.decode()
    )
    assert Game.objects.filter(graded=True).count() == 5
