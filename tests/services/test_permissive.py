"""Requests that used to be taken without a word and are now refused, saying why (issue 8,
item 9): a list no one can mean, publishing a list nobody is anchored in, a queue
decision that decides nothing, a FIDE rating no one has."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ecfgrading.cli import main
from ecfgrading.engine import Rate
from ecfgrading.lookups.versions import VersionError
from ecfgrading.registry.models import (
    GradingList,
    ListVersion,
    PendingIdentification,
    Player,
    StartingGradeAssignment,
)
from ecfgrading.services.grading.assignments import assign_starting_grade
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.lists.imports import import_grade_list
from ecfgrading.services.results.ingest import import_results
from ecfgrading.services.results.queue import PendingError, resolve
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

STANDARD = Rate.STANDARD
LIST_2012 = (
    b"Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    b"ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
    b'261619B,"Bloggs, Joe",M,,A,150,148,30,,,,,Walsall,,,,,,,ENG\n'
    b'233310H,"Smith, John",M,,A,120,118,30,,,,,Anytown,,,,,,,ENG\n'
    b'102807J,"Smith, John",M,,A,100,104,30,,,,,Otherton,,,,,,,ENG\n'
)
BLOGGS = "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall"
NEWCOMER = "#PIN=2#NAME=Newman, Nat#CLUB NAME=Anytown"
TWO_GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013",
]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


# A list no one can mean ------------------------------------------------------------------


def test_a_list_from_before_any_results_is_refused_and_nothing_is_made() -> None:
    import_results(results_file([BLOGGS, NEWCOMER], TWO_GAMES), filename="a.txt")

    code, output = invoke("grade", "--list", "1899-07", "--rate", "standard")

    assert (code, output) == (
        1,
        "Error: expected graded standard games in 1898-06-01..1899-05-31, the latest "
        "period of list 1899-07, got none: nothing to grade\n",
    )
    assert not GradingList.objects.exists()


def test_a_list_whose_games_all_wait_for_identification_says_so() -> None:
    import_grade_list(LIST_2012, list_id="2012-07", rates=(STANDARD,))
    namesake = "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown"  # like both Smiths: queued
    import_results(results_file([BLOGGS, namesake], TWO_GAMES), filename="a.txt")
    assert PendingIdentification.objects.count() == 1

    with pytest.raises(VersionError) as refused:
        compute_version("2013-07", STANDARD)

    assert refused.value.message.endswith(
        "got none; 2 wait for their players to be identified: nothing to grade"
    )
    assert not GradingList.objects.filter(list_id="2013-07").exists()


# Publishing a list nobody is anchored in (G11) -----------------------------------------


def test_a_list_of_unanchored_players_is_published_only_when_allowed() -> None:
    # Bloggs's code is not on record as a grade: with no list before 2013-07 and no
    # assignments, Bloggs and the newcomer only meet each other, a closed pool (G11).
    import_results(results_file([BLOGGS, NEWCOMER], TWO_GAMES), filename="a.txt")
    compute_version("2013-07", STANDARD)

    code, output = invoke(
        "publish", "--list", "2013-07", "--rate", "standard", "--version", "initial"
    )

    assert (code, output) == (
        1,
        "Error: 2 of 2 players of 2013-07 standard initial are unanchored (G11): publish "
        "the lists before it (such as 2013-01 standard) or assign starting grades (G6) and "
        "grade it again, or publish it as it is with --allow-unanchored\n",
    )
    assert ListVersion.objects.get().status == ListVersion.Status.DRAFT
    publish_version("2013-07", STANDARD, "initial", allow_unanchored=True)
    assert ListVersion.objects.get().status == ListVersion.Status.PUBLISHED


def test_a_list_half_of_whose_players_are_anchored_is_published_without_asking() -> None:
    import_grade_list(LIST_2012, list_id="2013-01", rates=(STANDARD,))
    players = [
        BLOGGS,  # 150 in the 2013-01 list (G4, G33): anchors the newcomer he plays
        NEWCOMER,
        "#PIN=3#NAME=Doe, Jane#CLUB NAME=Faraway",
        "#PIN=4#NAME=Roe, Rita#CLUB NAME=Faraway",  # Doe and Roe: a closed pool
    ]
    games = [*TWO_GAMES, "#PIN1=3#SCORE=55#PIN2=4#ROUND=1#GAME DATE=11/05/2013"]
    import_results(results_file(players, games), filename="a.txt")
    run = compute_version("2013-07", STANDARD)
    assert (run.players, run.unanchored) == (4, 2)  # 2 of 4: not most

    published = publish_version("2013-07", STANDARD, "initial")

    assert published.status == ListVersion.Status.PUBLISHED


# A queue decision that decides nothing -------------------------------------------------


def test_a_queue_decision_names_the_two_choices_it_expects() -> None:
    expected = (
        "expected either a grading code to link the case to or a new player, not both or neither"
    )
    with pytest.raises(PendingError, match=expected):
        resolve(1)
    with pytest.raises(PendingError, match=expected):
        resolve(1, code="261619B", create=True)


@pytest.mark.parametrize("options", [(), ("--code", "261619B", "--new")], ids=["neither", "both"])
def test_identify_resolve_names_its_own_options_when_given_neither_or_both(
    options: tuple[str, ...],
) -> None:
    code, output = invoke("identify", "resolve", "1", *options)

    assert code == 2  # a usage error, found before the database is opened
    assert output.endswith("Error: expected either --code CODE or --new, not both or neither\n")


# A FIDE rating no one has (G29, G30) ---------------------------------------------------


@pytest.mark.parametrize("rating", [99999, 3001, 999, 0, -1500])
def test_a_fide_rating_outside_any_published_range_is_refused_as_a_rating(rating: int) -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")

    code, output = invoke(
        "assign", "261619B", "--rate", "standard", "--from", "2013-07", "--fide", str(rating)
    )

    assert (code, output) == (1, f"Error: expected a FIDE rating from 1000 to 3000, got {rating}\n")
    assert not StartingGradeAssignment.objects.exists()


@pytest.mark.parametrize(("rating", "grade"), [(1000, 43.75), (3000, 293.75), (2250, 200.0)])
def test_a_fide_rating_in_range_is_converted_by_g29(rating: int, grade: float) -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")

    made = assign_starting_grade("261619B", STANDARD, valid_from="2013-07", fide=rating)

    # G29: ECF = (FIDE - 650) / 8, e.g. (1000 - 650) / 8 = 43.75.
    assert (made.grade, made.reason) == (grade, f"FIDE {rating}")
