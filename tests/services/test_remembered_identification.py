"""The team's identification decisions are remembered (issue 24, case 3): a resubmission
comes in with the player the team chose, cases of superseded files close themselves, and
the cases of one person are decided once."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from ecfgrading.lookups.identification import open_case_list, open_cases
from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    Game,
    NameAlias,
    PendingIdentification,
    Player,
    Submission,
)
from ecfgrading.services.merge import merge_players
from ecfgrading.services.results.ingest import check_results, import_files, import_results
from ecfgrading.services.results.queue import PendingError, resolve
from ecfgrading.services.team.identification import preview_link
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB CODE=7WAL#CLUB NAME=Walsall"
# Two John Smiths of Newtown are on record: they tie (95 and 95), a person must choose.
SMITH = "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown"
GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013",
]


def player(code: int, surname: str, forenames: str) -> Player:
    return Player.objects.create(code=code, surname=surname, forenames=forenames)


def member(p: Player, club_name: str) -> None:
    club, _ = Club.objects.get_or_create(name=club_name)
    ClubMembership.objects.create(player=p, club=club, first_season=2013, last_season=2013)


def two_john_smiths() -> tuple[Player, Player]:
    """A father and son of one club (a person tells them apart, not the matcher)."""
    player(261619, "Bloggs", "Joe")
    first, second = player(100001, "Smith", "John"), player(100002, "Smith", "John")
    member(first, "Newtown")
    member(second, "Newtown")
    return first, second


def games_of(p: Player, submission: Submission) -> int:
    return Game.objects.filter(Q(player1=p) | Q(player2=p), submission=submission).count()


def today() -> str:
    return f"{timezone.localdate():%d/%m/%Y}"


def test_a_resubmission_after_the_team_linked_a_player_comes_in_identified_with_no_new_case() -> (
    None
):
    """issue 24, case 3: a linked player came back as a new case in every resubmission."""
    first, _ = two_john_smiths()
    import_results(results_file([BLOGGS, SMITH], GAMES), filename="v1.txt")
    (case,) = open_cases()
    resolve(case.id, code=first.ref)

    outcome = import_results(results_file([BLOGGS, SMITH], GAMES, index=2), filename="v2.txt")

    assert outcome.accepted
    assert not open_cases().exists()
    v2 = Submission.objects.get(filename="v2.txt")
    assert games_of(first, v2) == 2  # both games of the file are his
    assert outcome.report.waiting == 0
    (told,) = outcome.report.remembered
    assert (told.pin, told.code, told.decided_on) == (2, first.ref, today())
    assert f"identified as the team decided on {today()}" in outcome.report.to_text()


def test_a_remembered_decision_is_dated_by_the_teams_day_not_by_utc() -> None:
    """Taken at 23:30 UTC on 1 July 2026, 00:30 on 2 July in London (BST, UTC+1): the
    report says 2 July, on both databases (a plain statement gives SQLite's time naive)."""
    first, _ = two_john_smiths()
    import_results(results_file([BLOGGS, SMITH], GAMES), filename="v1.txt")
    (case,) = open_cases()
    resolve(case.id, code=first.ref)
    late = dt.datetime(2026, 7, 1, 23, 30, tzinfo=dt.UTC)
    assert NameAlias.objects.update(decided_at=late) == 1

    outcome = import_results(results_file([BLOGGS, SMITH], GAMES, index=2), filename="v2.txt")

    (told,) = outcome.report.remembered
    assert told.decided_on == "02/07/2026"


def test_a_resubmission_after_the_team_created_a_new_player_gives_him_his_games() -> None:
    """issue 24, case 3: the new player is one of three John Smiths now, yet the file's
    John Smith is the one the team put on record for this event."""
    two_john_smiths()
    import_results(results_file([BLOGGS, SMITH], GAMES), filename="v1.txt")
    (case,) = open_cases()
    new = resolve(case.id, create=True)

    outcome = import_results(results_file([BLOGGS, SMITH], GAMES, index=2), filename="v2.txt")

    assert outcome.accepted and not open_cases().exists()
    assert games_of(new, Submission.objects.get(filename="v2.txt")) == 2
    assert Player.objects.filter(surname="Smith").count() == 3  # no fourth record


def test_the_check_report_says_who_was_identified_as_the_team_decided() -> None:
    """issue 24, case 3: the officer's check of a resubmission names the player and when."""
    first, _ = two_john_smiths()
    import_results(results_file([BLOGGS, SMITH], GAMES), filename="v1.txt")
    resolve(open_cases().get().id, code=first.ref)

    (report,) = check_results([("v2.txt", results_file([BLOGGS, SMITH], GAMES, index=2))])

    assert report.ok
    (told,) = report.remembered
    assert (told.name, told.code, told.player) == ("Smith, John", first.ref, "Smith, John")
    alias = NameAlias.objects.get()
    assert (alias.decision, alias.spelling, alias.club_name) == ("link", "Smith, John", "newtown")


def test_another_event_with_the_same_spelling_at_the_same_club_takes_the_decision() -> None:
    """issue 24, case 3: in another event, the same spelling at the same club is the player
    the team chose, as long as the team always chose him."""
    _, second = two_john_smiths()
    import_results(results_file([BLOGGS, SMITH], GAMES), filename="e1.txt")
    resolve(open_cases().get().id, code=second.ref)

    other = results_file([BLOGGS, SMITH], GAMES, code="XX99999", name="Newtown Rapid")
    outcome = import_results(other, filename="e2.txt")

    assert outcome.accepted and not open_cases().exists()
    assert games_of(second, Submission.objects.get(filename="e2.txt")) == 2


def test_a_turn_asks_once_whether_any_decision_is_remembered_and_each_file_takes_it() -> None:
    """Issue 25: an importer's turn asks the database once, not once a file, whether the
    team remembered any decision (under the registry lock, which the team's decisions
    take); every file of the turn still takes the decision."""
    _, second = two_john_smiths()
    import_results(results_file([BLOGGS, SMITH], GAMES), filename="e1.txt")
    resolve(open_cases().get().id, code=second.ref)
    files = [
        (f"r{n}.txt", results_file([BLOGGS, SMITH], GAMES, code=f"XX9999{n}", name=f"Rapid {n}"))
        for n in range(3)
    ]
    asked: list[str] = []

    def counted(execute: Any, sql: str, *args: Any) -> Any:
        if "registry_namealias" in sql and "LIMIT 1" in sql:
            asked.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(counted):
        outcomes = import_files(files)

    assert all(outcome.accepted for outcome in outcomes) and not open_cases().exists()
    assert [len(outcome.report.remembered) for outcome in outcomes] == [1, 1, 1]
    for name, _ in files:
        assert games_of(second, Submission.objects.get(filename=name)) == 2
    assert len(asked) == 1


def test_another_event_is_asked_again_when_the_team_chose_differently_before() -> None:
    """issue 24, case 3: two events where the spelling was decided as two players are no
    evidence for a third."""
    first, second = two_john_smiths()
    for code in ("XX11111", "XX22222"):
        import_results(results_file([BLOGGS, SMITH], GAMES, code=code), filename=code)
    for case, chosen in zip(open_cases(), (first, second), strict=True):
        resolve(case.id, code=chosen.ref)

    third = import_results(results_file([BLOGGS, SMITH], GAMES, code="XX33333"), filename="e3")

    assert third.accepted and third.report.remembered == ()
    assert [c.name for c in open_case_list()] == ["Smith, John"]


def test_a_superseded_submissions_open_cases_close_themselves() -> None:
    """issue 24, case 3: cases of superseded files stayed open ("9 games waiting")."""
    two_john_smiths()
    import_results(results_file([BLOGGS, SMITH], GAMES), filename="v1.txt")
    (old,) = open_cases()

    import_results(results_file([BLOGGS, SMITH], GAMES[:1], index=2), filename="v2.txt")

    old.refresh_from_db()
    assert old.status == "superseded" and old.resolved_at is not None
    (new,) = open_cases()
    assert new.submission.filename == "v2.txt" and new.games == 1
    with pytest.raises(PendingError, match="later submission of its event replaced its file"):
        resolve(old.id, create=True)


def test_two_cases_of_one_person_in_the_queue_are_decided_once() -> None:
    """issue 24, case 3: the queue held 9 open cases for 2 people."""
    first, _ = two_john_smiths()
    jones = "#PIN=3#BCF CODE=100003C#NAME=Jones, Ann"
    again = "#PIN=4#NAME=Smith, John#CLUB NAME=Newtown"  # entered twice by the officer
    games = [*GAMES, "#PIN1=3#SCORE=01#PIN2=4#ROUND=3#GAME DATE=12/05/2013"]
    player(100003, "Jones", "Ann")
    import_results(results_file([BLOGGS, SMITH, jones, again], games), filename="v1.txt")
    assert open_cases().count() == 2

    (shown,) = open_case_list()
    assert shown.games == 3 and len(shown.same) == 1
    said = preview_link(shown.id, first.ref).lines
    assert f"waits in case {shown.same[0]} with 1 game: decided with this one." in " ".join(said)
    resolve(shown.id, code=first.ref)

    assert not open_cases().exists()
    assert set(PendingIdentification.objects.values_list("status", "resolved_player")) == {
        ("linked", first.id)
    }
    assert Game.objects.filter(Q(player1=first) | Q(player2=first)).count() == 3


def test_two_namesakes_who_played_each_other_are_not_decided_together() -> None:
    """issue 24, case 3: a father and son of one name and club are two people."""
    first, _ = two_john_smiths()
    son = "#PIN=3#NAME=Smith, John#CLUB NAME=Newtown"
    games = [*GAMES, "#PIN1=2#SCORE=10#PIN2=3#ROUND=3#GAME DATE=12/05/2013"]
    import_results(results_file([BLOGGS, SMITH, son], games), filename="v1.txt")
    father = open_cases().get(pin=2)
    assert [(c.pin, c.same) for c in open_case_list()] == [(2, ()), (3, ())]

    resolve(father.id, code=first.ref)

    assert [case.pin for case in open_cases()] == [3]


def test_a_merge_is_remembered_for_a_resubmission_of_the_absorbed_players_event() -> None:
    """issue 24, case 3: after a merge, a resubmission spelling the absorbed record's name
    finds the survivor instead of putting a third record on record."""
    player(261619, "Bloggs", "Joe")
    kept = player(100001, "Smith", "John")
    smyth = "#PIN=2#NAME=Smyth, Jon#CLUB NAME=Newtown"
    import_results(results_file([BLOGGS, smyth], GAMES), filename="v1.txt")
    gone = Player.objects.get(surname="Smyth")  # put on record by the import
    merge_players(gone.ref, kept.ref)

    outcome = import_results(results_file([BLOGGS, smyth], GAMES, index=2), filename="v2.txt")

    assert outcome.accepted and outcome.report.new_players == ()
    assert games_of(kept, Submission.objects.get(filename="v2.txt")) == 2
    assert NameAlias.objects.get().decision == "merge"
