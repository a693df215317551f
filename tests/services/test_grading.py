"""Grading runs on the database: versions (G26), publication, games left out."""

from __future__ import annotations

from datetime import date

import pytest

from ecfgrading.engine import Rate
from ecfgrading.errors import ErrorKind
from ecfgrading.lookups.versions import VersionError
from ecfgrading.registry.models import (
    Game,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    StoredGamePoints,
    StoredPeriodTotal,
)
from ecfgrading.services.grading.assignments import assign_starting_grade
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.lists.imports import import_grade_list
from ecfgrading.services.results.ingest import import_files, import_results
from tests.e2e.federation import Federation
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
    publish_version("2013-07", STANDARD, "initial", allow_unanchored=True)  # a first list
    with pytest.raises(VersionError, match="already published"):
        publish_version("2013-07", STANDARD, "initial", allow_unanchored=True)
    with pytest.raises(VersionError, match="immutable"):
        compute_version("2013-07", STANDARD, "initial")
    assert compute_version("2013-07", STANDARD).version == "august"
    publish_version("2013-07", STANDARD, "august", allow_unanchored=True)
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
    publish_version("2013-07", STANDARD, "rev7", allow_unanchored=True)
    with pytest.raises(VersionError, match="expected a version after rev7"):
        compute_version("2013-07", STANDARD, "initial")  # it could never be current


def test_a_list_with_no_graded_games_in_its_latest_period_is_not_made() -> None:
    import_results(results_file(PLAYERS, GAMES), filename="a.txt")  # games of May 2013
    with pytest.raises(VersionError) as refused:
        compute_version("2012-07", STANDARD)  # P0 June 2011 .. June 2012 (G32)
    assert refused.value.message == (
        "expected graded standard games in 2011-06-01..2012-06-30, the latest period of "
        "list 2012-07, got none: nothing to grade"
    )
    assert not GradingList.objects.exists()


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


# The rule set a version names -------------------------------------------------------------


def test_g31_a_version_records_the_rule_set_of_its_date() -> None:
    import_results(results_file(PLAYERS, GAMES), filename="a.txt")  # games of May 2013
    run = compute_version("2013-07", STANDARD)

    assert ListVersion.objects.get(name="initial").rules_name == "ecf-2012"  # 2012-01..2014-07
    assert run.rule_set == "ecf-2012"
    assert "rule set ecf-2012" in run.to_text()


def test_g31_a_what_if_draft_records_its_rule_set_and_is_never_published() -> None:
    import_results(results_file(PLAYERS, GAMES), filename="a.txt")
    compute_version("2013-07", STANDARD, rules_name="ecf-2015")
    assert ListVersion.objects.get(name="initial").rules_name == "ecf-2015"

    with pytest.raises(VersionError) as refused:
        publish_version("2013-07", STANDARD, "initial", allow_unanchored=True)

    assert refused.value.kind is ErrorKind.CONFLICT
    assert "computed under ecf-2015, but list 2013-07 is graded under ecf-2012" in str(
        refused.value
    )
    assert not ListVersion.objects.filter(status=ListVersion.Status.PUBLISHED).exists()
    compute_version("2013-07", STANDARD)  # again under its own rules: publishable
    published = publish_version("2013-07", STANDARD, "initial", allow_unanchored=True)
    assert published.rules_name == "ecf-2012"


def test_an_unknown_rule_set_is_refused_with_the_known_ones_before_anything_is_written() -> None:
    known = r"\(known: ecf-2009, ecf-2012, ecf-2015\)"
    with pytest.raises(VersionError, match=rf"unknown rule set 'ecf-2099' {known}"):
        compute_version("2013-07", STANDARD, rules_name="ecf-2099")

    assert not GradingList.objects.exists()


def test_a_draft_recomputed_names_the_rules_of_its_new_computation() -> None:
    import_results(results_file(PLAYERS, GAMES), filename="a.txt")
    compute_version("2013-07", STANDARD)
    ListVersion.objects.filter(name="initial").update(rules_name="older-rules")  # a draft

    compute_version("2013-07", STANDARD)

    assert ListVersion.objects.get(name="initial").rules_name == "ecf-2012"


# What a run stores, column by column (G17, G20..G24) --------------------------------------

LIST_HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
)
ENTRY_COLUMNS = (
    "grade", "unrounded", "calculated", "category", "previous_grade", "games_latest",
    "games_counted", "n1", "n2", "junior_age", "bonus", "start_grade", "start_source",
    "flags", "published",
)  # fmt: skip
OCTOBER = date(2009, 10, 3)


def stored_2010_07(fed: Federation, player: Player, scores: list[str]) -> ListVersion:
    """``player`` meets one fresh opponent assigned 150 (G6) per score in October 2009."""
    games = fed.against(player, scores, 150, OCTOBER)
    assert all(outcome.accepted for outcome in import_files([fed.event(games)]))
    return ListVersion.objects.get(pk=compute_version("2010-07", STANDARD).version_id)


def test_a_run_stores_an_adults_figures_in_their_own_columns() -> None:
    # Known starts from his 2009-07 grade of 150 (G4); against 150s nine draws score 150
    # each and a win 200 (G12): (9 * 150 + 200) / 10 = 155 over ten games. Nothing is
    # stored for periods before 2009-07 (G17), so n1 = n2 = 0: category E (G23).
    fed = Federation()
    known = fed.player("Known", "Kim")
    csv = LIST_HEADER + f'{known.ref},"Known, Kim",F,,A,150,148,30,,,,,,,,,,,,ENG\n'
    import_grade_list(csv.encode(), list_id="2009-07", rates=(STANDARD,))

    version = stored_2010_07(fed, known, ["55"] * 9 + ["10"])

    entries = ListEntry.objects.filter(version=version)
    assert entries.filter(player=known).values(*ENTRY_COLUMNS).get() == {
        "grade": 155,
        "unrounded": 155.0,
        "calculated": 155.0,
        "category": "E",
        "previous_grade": 150,
        "games_latest": 10,
        "games_counted": 10,
        "n1": 0,
        "n2": 0,
        "junior_age": None,
        "bonus": 0.0,
        "start_grade": 150.0,
        "start_source": "previous",
        "flags": "",
        "published": True,
    }
    totals = StoredPeriodTotal.objects.filter(version=version, player=known)
    assert list(totals.values_list("n", "total")) == [(10, 1550.0)]
    points = StoredGamePoints.objects.filter(version=version, player=known)
    rows = points.values_list("game_id", "period", "date", "sequence", "points")
    mine = Game.objects.filter(player1=known)
    draws = mine.filter(result="55").values_list("id", flat=True)
    (win,) = mine.filter(result="10").values_list("id", flat=True)
    # Period 0, dated, in recording order (game ids grow with it: the G15 tie-break).
    expected = [(g, 0, OCTOBER, g, 150.0) for g in draws] + [(win, 0, OCTOBER, win, 200.0)]
    assert sorted(rows) == sorted(expected)


def test_a_run_stores_a_juniors_figures_in_their_own_columns() -> None:
    # Young is 12 on 31 August 2010 and assigned 140 (G6). The 150s are within 40 of
    # him: eight draws score 150 and a win 200 (G12), (8 * 150 + 200) / 9 = 155.56;
    # +5 for his age (G20) makes 160.56, published as 161 (G22); E on nine games (G23).
    # Each opponent drew or lost his one game: ungraded, so not published (G23).
    fed = Federation()
    young = fed.player("Young", "Yan", born=date(1998, 3, 2))
    assign_starting_grade(young.ref, STANDARD, valid_from="2010-07", grade=140)

    version = stored_2010_07(fed, young, ["55"] * 8 + ["10"])

    entries = ListEntry.objects.filter(version=version)
    assert entries.filter(player=young).values(*ENTRY_COLUMNS).get() == {
        "grade": 161,
        "unrounded": pytest.approx(1400 / 9 + 5),
        "calculated": pytest.approx(1400 / 9),
        "category": "E",
        "previous_grade": None,
        "games_latest": 9,
        "games_counted": 9,
        "n1": 0,
        "n2": 0,
        "junior_age": 12,
        "bonus": 5.0,
        "start_grade": 140.0,
        "start_source": "assigned",
        "flags": "",
        "published": True,
    }
    (beaten,) = Game.objects.filter(player1=young, result="10").values_list("player2", flat=True)
    assert entries.filter(player=beaten).values("grade", "category", "published").get() == {
        "grade": 140 - 50,  # G12: Young's 140 is within 40 of 150; a loss scores V - 50
        "category": "",
        "published": False,
    }
