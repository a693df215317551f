"""Writers that change who is on record in place note the players they changed, so that a
running importer's index of players loads them again (services/changes.py)."""

from __future__ import annotations

import pytest

from ecfgrading.engine import Rate
from ecfgrading.registry.models import IdentityChange, PendingIdentification, Player
from ecfgrading.services.lists.imports import import_grade_list
from ecfgrading.services.merge import merge_players
from ecfgrading.services.results.ingest import import_results
from ecfgrading.services.results.queue import resolve
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
)
SMITHS = (
    '233310H,"Smith, John",M,,A,120,118,30,,,,,Anytown,,,,,,,ENG\n'
    '102807J,"Smith, John",M,,A,100,104,30,,,,,Otherton,,,,,,,ENG\n'
)


def noted() -> list[int]:
    return sorted(IdentityChange.objects.values_list("player_id", flat=True))


def player(code: int) -> Player:
    return Player.objects.get(code=code)


def test_a_merge_notes_both_players() -> None:
    import_grade_list((HEADER + SMITHS).encode(), list_id="2012-07", rates=(Rate.STANDARD,))

    merge_players("102807J", "233310H")

    assert noted() == sorted([player(102807).id, player(233310).id])


def test_a_queue_decision_notes_the_player_it_chose() -> None:
    import_grade_list((HEADER + SMITHS).encode(), list_id="2012-07", rates=(Rate.STANDARD,))
    players = [
        "#PIN=1#BCF CODE=233310H#NAME=Smith, John",
        "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown",  # like both Smiths: queued
    ]
    import_results(results_file(players, ["#PIN1=1#SCORE=10#PIN2=2"]), filename="a.txt")
    before = noted()

    resolve(PendingIdentification.objects.get().id, code="102807J")

    assert noted() == sorted([*before, player(102807).id])


def test_a_list_import_notes_the_players_whose_details_it_changed_and_no_others() -> None:
    import_grade_list((HEADER + SMITHS).encode(), list_id="2012-07", rates=(Rate.STANDARD,))
    assert noted() == []  # new players are found by their ids
    renamed = SMITHS.replace('102807J,"Smith, John"', '102807J,"Smith, Johnny"')

    import_grade_list((HEADER + renamed).encode(), list_id="2013-07", rates=(Rate.STANDARD,))

    assert noted() == [player(102807).id]
