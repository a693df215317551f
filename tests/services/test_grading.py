"""Grading runs on the database: versions (G26), publication, games left out."""

from __future__ import annotations

import pytest

from ecfgrading.engine import Rate
from ecfgrading.registry.models import ListEntry, ListVersion, Player, StoredGamePoints
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.results.ingest import import_results
from ecfgrading.services.versions import VersionError
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

PLAYERS = [
    "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall",
    "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown",
]
GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013",
]
STANDARD = Rate.STANDARD


def test_g26_versions_are_named_in_order_and_published_ones_are_immutable() -> None:
    import_results(results_file(PLAYERS, GAMES), filename="a.txt")
    assert compute_version("2013-07", STANDARD).version == "initial"
    assert compute_version("2013-07", STANDARD).version == "initial"  # the draft, again
    publish_version("2013-07", STANDARD, "initial")
    with pytest.raises(VersionError, match="already published"):
        publish_version("2013-07", STANDARD, "initial")
    with pytest.raises(VersionError, match="immutable"):
        compute_version("2013-07", STANDARD, "initial")
    assert compute_version("2013-07", STANDARD).version == "august"
    publish_version("2013-07", STANDARD, "august")
    assert compute_version("2013-07", STANDARD).version == "rev1"
    with pytest.raises(VersionError, match=r"draft rev1 .* is in progress"):
        compute_version("2013-07", STANDARD, "rev2")
    with pytest.raises(VersionError, match="only July lists"):
        compute_version("2013-01", Rate.RAPID, "august")


def test_g26_a_version_name_must_be_one_that_can_come_next() -> None:
    import_results(results_file(PLAYERS, GAMES), filename="a.txt")
    with pytest.raises(VersionError, match="expected a version name initial, august or revN"):
        compute_version("2013-07", STANDARD, "bogus name!")
    compute_version("2013-07", STANDARD, "rev7")
    publish_version("2013-07", STANDARD, "rev7")
    with pytest.raises(VersionError, match="expected a version after rev7"):
        compute_version("2013-07", STANDARD, "initial")  # it could never be current


def test_grading_a_list_with_no_games_gives_an_empty_version() -> None:
    run = compute_version("2013-07", STANDARD)
    assert (run.games, run.players, run.published) == (0, 0, 0)


def test_recomputing_a_draft_replaces_its_rows() -> None:
    import_results(results_file(PLAYERS, GAMES), filename="a.txt")
    compute_version("2013-07", STANDARD)
    compute_version("2013-07", STANDARD)
    draft = ListVersion.objects.get(name="initial")
    assert ListEntry.objects.filter(version=draft).count() == 2
    assert StoredGamePoints.objects.filter(version=draft).count() == 4  # two per game (G17)


def test_games_of_players_awaiting_identification_are_left_out_and_reported() -> None:
    Player.objects.create(code=100001, surname="Smith", forenames="Jane")
    Player.objects.create(code=100002, surname="Smith", forenames="Jane")
    import_results(results_file(PLAYERS, GAMES), filename="a.txt")  # Smith: two namesakes
    others = [
        "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall",
        "#PIN=2#BCF CODE=100001K#NAME=Smith, Jane",  # check letter: 7 + 2 = 9 -> K
    ]
    assert import_results(results_file(others, GAMES[:1], code="OTHER"), filename="b").accepted
    run = compute_version("2013-07", STANDARD)
    assert run.waiting == {"XX12345": 2}
    assert run.games == 1
    assert "left out, players awaiting identification: 2 games: XX12345 (2)" in run.to_text()
