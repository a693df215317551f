"""The grading team's decision on a file holding games already on record under another
event code (issue 24, case 1): a correction of that event, its new games only, or
rejected. Counts are worked out by hand from the files below."""

from __future__ import annotations

import pytest

from ecfgrading.registry.models import AuditLog, Event, Game, Player, Submission
from ecfgrading.services.errors import Conflict
from ecfgrading.services.results.ingest import import_results
from ecfgrading.services.team.duplicates import (
    accept_as_correction,
    accept_new_games_only,
    flagged_files,
    reject_file,
)
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB CODE=7WAL#CLUB NAME=Walsall"
SMITH = "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown#DATE OF BIRTH=02/03/2001"
BROWN = "#PIN=3#NAME=Brown, Alan#CLUB NAME=Anytown#DATE OF BIRTH=04/05/1960"
GREEN = "#PIN=4#NAME=Green, Beth#CLUB NAME=Anytown#DATE OF BIRTH=06/07/1970"
FIRST = [  # the two games of XX1
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013",
]
MORE = [  # three games XX1 does not hold
    "#PIN1=3#SCORE=10#PIN2=4#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=1#SCORE=01#PIN2=3#ROUND=3#GAME DATE=12/05/2013",
    "#PIN1=4#SCORE=55#PIN2=2#ROUND=3#GAME DATE=12/05/2013",
]


@pytest.fixture
def superset() -> Submission:
    """XX1 accepted with two games, then YY2 with those two and three more: flagged."""
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    assert import_results(results_file([BLOGGS, SMITH], FIRST, code="XX1"), filename="a").accepted
    data = results_file([BLOGGS, SMITH, BROWN, GREEN], FIRST + MORE, code="YY2")
    outcome = import_results(data, filename="b")
    assert outcome.accepted
    return Submission.objects.get(id=outcome.submission_id)


def graded(**where: object) -> int:
    return Game.objects.filter(graded=True, **where).count()


def test_a_flagged_file_waits_for_the_team_with_the_event_and_games_on_record(
    superset: Submission,
) -> None:
    (waiting,) = flagged_files()
    assert (waiting.submission_id, waiting.games, waiting.on_record) == (superset.id, 5, 2)
    assert [(h.event_code, h.games) for h in waiting.holdings] == [("XX1", 2)]
    assert graded() == 7  # counted twice until the team decides


def test_accepting_its_new_games_only_removes_the_two_on_record_and_keeps_three(
    superset: Submission,
) -> None:
    decided = accept_new_games_only(superset.id, user=None, actor="tess")

    assert decided.removed == 2
    assert graded(submission=superset) == 3
    assert graded(event__code="XX1") == 2
    removed = Game.objects.filter(submission=superset, graded=False)
    assert set(removed.values_list("round", "result", "not_graded_reason")) == {
        (1, "10", "removed"),  # FIRST's two games
        (2, "55", "removed"),
    }
    superset.refresh_from_db()
    assert (superset.status, superset.duplicates) == ("accepted", "new-games")
    assert flagged_files() == []
    assert AuditLog.objects.filter(action="duplicates: accept new games only").count() == 1


def test_accepting_it_as_a_correction_supersedes_the_event_and_moves_it_there(
    superset: Submission,
) -> None:
    decided = accept_as_correction(superset.id, "XX1", actor="tess")

    assert decided.superseded == 2
    superset.refresh_from_db()
    assert (superset.event_code, superset.submission_index, superset.duplicates) == (
        "XX1",
        2,
        "correction",
    )
    assert graded() == 5  # its five games, once
    assert graded(event__code="XX1", submission=superset) == 5
    assert Submission.objects.get(event_code="XX1", submission_index=1).status == "superseded"
    assert not Event.objects.filter(code="YY2").exists()  # the mistaken code is gone


def test_rejecting_it_leaves_only_the_event_on_record(superset: Submission) -> None:
    decided = reject_file(superset.id, actor="tess")

    assert decided.removed == 5
    superset.refresh_from_db()
    assert (superset.status, superset.duplicates) == ("rejected", "rejected")
    assert graded() == 2 and graded(event__code="XX1") == 2
    assert Game.objects.filter(submission=superset).count() == 5  # kept, never graded


def test_a_decision_is_taken_once_and_only_for_an_event_holding_the_games(
    superset: Submission,
) -> None:
    with pytest.raises(Conflict, match=r"expected one of the events holding its games \(XX1\)"):
        accept_as_correction(superset.id, "ZZ9")
    reject_file(superset.id)
    with pytest.raises(Conflict, match="wait for a decision"):
        accept_new_games_only(superset.id)
