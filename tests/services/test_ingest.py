"""Importing results files into the registry (issue: results ingestion)."""

from __future__ import annotations

from datetime import date

import pytest
from django.core import serializers

from ecfgrading.lookups.identification import open_cases
from ecfgrading.registry.models import (
    AuditLog,
    Club,
    ClubMembership,
    Event,
    Game,
    PendingIdentification,
    Player,
    Submission,
)
from ecfgrading.services.results.ingest import check_results, import_files, import_results
from ecfgrading.services.results.queue import PendingError, resolve
from tests.services.results_text import LIGHTNING, RAPID, results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB CODE=7WAL#CLUB NAME=Walsall"
SMITH = "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown#DATE OF BIRTH=02/03/2001"
TWO_GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013#COLOUR=WHITE",
    "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013#COLOUR=WHITE",
]


def player(code: int, surname: str, forenames: str, **fields: object) -> Player:
    return Player.objects.create(code=code, surname=surname, forenames=forenames, **fields)


def member(p: Player, club_name: str, code: str | None = None) -> None:
    club, _ = Club.objects.get_or_create(name=club_name, defaults={"code": code})
    ClubMembership.objects.create(player=p, club=club, first_season=2012, last_season=2012)


def snapshot() -> str:
    """Every row that an import may write, except the kept submissions."""
    models = [Player, Club, ClubMembership, Event, Game, PendingIdentification]
    return serializers.serialize("json", [obj for m in models for obj in m.objects.all()])


def test_a_good_file_is_accepted_with_its_games_players_and_clubs() -> None:
    bloggs = player(261619, "Bloggs", "Joe")
    outcome = import_results(results_file([BLOGGS, SMITH], TWO_GAMES), filename="open.txt")
    assert outcome.accepted
    games = list(Game.objects.order_by("sequence"))
    assert [(g.player1_id, g.result, g.round, g.colour) for g in games] == [
        (bloggs.id, "10", 1, "W"),
        (games[1].player1_id, "55", 2, "W"),
    ]
    assert all(g.graded and g.rate == "standard" for g in games)  # 36/90 + 15: G2 standard
    smith = Player.objects.get(surname="Smith")
    assert smith.date_of_birth == date(2001, 3, 2)
    assert smith.code == 1  # the first code the system issues (G28); 261619 is Bloggs's
    assert outcome.report.graded == {"standard": 2}
    assert [p.name for p in outcome.report.new_players] == ["Smith, Jane"]
    assert Event.objects.get(code="XX12345").status == Event.Status.RECEIVED
    walsall = Club.objects.get(code="7WAL")
    assert ClubMembership.objects.get(player=bloggs, club=walsall).last_season == 2013
    assert AuditLog.objects.filter(action="import results").count() == 1


def test_the_raw_bytes_are_kept_exactly() -> None:
    data = results_file([BLOGGS, SMITH], TWO_GAMES).replace(b"\n", b"\r\n")
    outcome = import_results(data, filename="crlf.txt", sender="A N Grader")
    kept = Submission.objects.get(id=outcome.submission_id)
    assert bytes(kept.raw) == data
    assert kept.sender_name == "A N Grader"
    assert kept.status == Submission.Status.ACCEPTED


def test_a_rejected_file_leaves_the_database_as_it_was_but_keeps_its_bytes() -> None:
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES), filename="first.txt")
    before = snapshot()
    bad = results_file(
        [BLOGGS, SMITH, "#PIN=3#NAME=New, Player#CLUB NAME=Elsewhere"],
        ["#PIN1=1#SCORE=1-0#PIN2=3", "#PIN1=3#SCORE=10#PIN2=9"],
        code="YY1",
    )
    outcome = import_results(bad, filename="bad.txt")
    assert not outcome.accepted
    assert snapshot() == before  # no player, club, event or game written
    kept = Submission.objects.get(id=outcome.submission_id)
    assert bytes(kept.raw) == bad
    assert kept.status == Submission.Status.REJECTED
    codes = {p["code"] for p in kept.report["problems"]}
    assert {"bad-score", "unknown-pin"} <= codes


def test_a_report_names_every_mistake_with_its_line() -> None:
    bad = results_file(
        [BLOGGS, "#PIN=2#NAME=Smith, Jane"],  # no code and no club
        ["#PIN1=1#SCORE=1-0#PIN2=2", "#PIN1=2#SCORE=10#PIN2=2", "#PIN1=1#SCORE=10#PIN2=7"],
    )
    (report,) = check_results([("bad.txt", bad)])
    found = sorted((p.code, p.line) for p in report.errors)
    assert found == [
        ("bad-score", 18),  # header 1-14, players 15-16, part 17, results 18-20
        ("no-code-or-club", 16),
        ("plays-himself", 19),
        ("unknown-pin", 20),
    ]
    assert not Submission.objects.exists()  # checking writes nothing


def test_a_code_with_someone_elses_name_is_an_error() -> None:
    player(261619, "Jones", "Peter")
    outcome = import_results(results_file([BLOGGS, SMITH], TWO_GAMES), filename="x.txt")
    assert not outcome.accepted
    (problem,) = list(outcome.report.errors)
    assert problem.code == "code-of-another-player"
    assert "Jones, Peter" in problem.message
    assert problem.line == 15


def test_a_code_of_a_player_without_forenames_names_him_by_his_surname_alone() -> None:
    """The record's name as a list writes it: 'Jones', never 'Jones, ' (issue 20)."""
    player(261619, "Jones", "")
    outcome = import_results(results_file([BLOGGS, SMITH], TWO_GAMES), filename="x.txt")
    (problem,) = list(outcome.report.errors)
    assert problem.code == "code-of-another-player"
    assert "(261619B is 'Jones')" in problem.message


def test_a_wrong_check_letter_rejects_the_file() -> None:
    wrong = BLOGGS.replace("261619B", "261619A")
    outcome = import_results(results_file([wrong, SMITH], TWO_GAMES), filename="x.txt")
    assert not outcome.accepted
    assert [p.code for p in outcome.report.errors] == ["bad-check-letter"]


def test_identification_folds_accents_and_links_by_club() -> None:
    muller = player(100001, "Müller", "Jürgen")
    member(muller, "Anytown")
    entry = "#PIN=2#NAME=Muller, Jurgen#CLUB NAME=Anytown"
    outcome = import_results(results_file([BLOGGS, entry], TWO_GAMES), filename="x.txt")
    assert outcome.accepted
    assert Game.objects.filter(player2=muller).count() == 1
    assert Player.objects.filter(surname__in=["Muller", "Müller"]).count() == 1


def test_same_name_in_two_clubs_without_a_club_goes_to_the_queue() -> None:
    first, second = player(100001, "Smith", "John"), player(100002, "Smith", "John")
    member(first, "Anytown")
    member(second, "Otherton")
    entry = "#PIN=2#NAME=Smith, John#FIDE NO=123"
    entry_with_code_or_club = entry + "#CLUB NAME=Newtown"
    outcome = import_results(
        results_file([BLOGGS, entry_with_code_or_club], TWO_GAMES), filename="x.txt"
    )
    assert outcome.accepted
    (case,) = PendingIdentification.objects.all()
    assert {c["player_id"] for c in case.candidates} == {first.id, second.id}
    waiting = Game.objects.filter(pending1=case) | Game.objects.filter(pending2=case)
    assert waiting.count() == 2
    assert all(g.player1_id is None or g.player2_id is None for g in waiting)
    assert outcome.report.waiting == 2
    assert outcome.report.pending[0].games == 2


def test_same_name_in_two_clubs_with_a_club_links_to_that_club() -> None:
    first, second = player(100001, "Smith", "John"), player(100002, "Smith", "John")
    member(first, "Anytown")
    member(second, "Otherton")
    entry = "#PIN=2#NAME=Smith, John#CLUB NAME=Otherton"
    outcome = import_results(results_file([BLOGGS, entry], TWO_GAMES), filename="x.txt")
    assert outcome.accepted
    assert Game.objects.filter(player2=second).count() == 1
    assert not PendingIdentification.objects.exists()


def test_initials_with_nothing_else_agreeing_wait_in_the_queue() -> None:
    player(100001, "Bloggs", "Joe")
    entry = "#PIN=1#NAME=Bloggs, J#CLUB NAME=Faraway"
    smith = "#PIN=2#BCF CODE=155624B#NAME=Smith, Jane#CLUB NAME=Anytown"
    outcome = import_results(results_file([entry, smith], TWO_GAMES), filename="x.txt")
    assert outcome.accepted
    assert PendingIdentification.objects.filter(name="Bloggs, J").exists()


def test_resolving_a_case_gives_the_waiting_games_their_player() -> None:
    first, second = player(100001, "Smith", "John"), player(100002, "Smith", "John")
    member(first, "Anytown")
    member(second, "Otherton")
    entry = "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown"
    import_results(results_file([BLOGGS, entry], TWO_GAMES), filename="x.txt")
    (case,) = open_cases()
    assert case.games == 2
    linked = resolve(case.id, code=first.ref)
    assert linked == first
    assert (
        Game.objects.filter(player2=first).count() + Game.objects.filter(player1=first).count() == 2
    )
    assert not open_cases().exists()
    with pytest.raises(PendingError, match="already decided"):
        resolve(case.id, create=True)


def test_resolving_a_case_as_a_new_player_issues_a_code() -> None:
    player(100001, "Smith", "John")
    player(100002, "Smith", "John")
    entry = "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown"
    import_results(results_file([BLOGGS, entry], TWO_GAMES), filename="x.txt")
    (case,) = open_cases()
    new = resolve(case.id, create=True)
    assert new.code == 1  # the next code in sequence; the file quoted none (G28)
    assert (new.surname, new.forenames) == ("Smith", "John")


def test_a_higher_submission_index_replaces_earlier_results() -> None:
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES), filename="v1.txt")
    second = results_file([BLOGGS, SMITH], TWO_GAMES[:1], index=2)
    outcome = import_results(second, filename="v2.txt")
    assert outcome.accepted
    assert outcome.report.superseded_games == 2
    assert Game.objects.filter(graded=True).count() == 1
    assert Game.objects.filter(not_graded_reason="superseded").count() == 2
    statuses = dict(Submission.objects.values_list("filename", "status"))
    assert statuses == {"v1.txt": "superseded", "v2.txt": "accepted"}


def test_an_index_not_higher_than_the_last_is_rejected() -> None:
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, index=2), filename="v2.txt")
    corrected = results_file([BLOGGS, SMITH], TWO_GAMES, index=2, name="Anytown Congress 2013")
    outcome = import_results(corrected, filename="again")
    assert not outcome.accepted
    (problem,) = outcome.report.errors
    assert (problem.code, problem.line) == ("stale-submission-index", 3)
    assert Game.objects.count() == 2


def test_defaults_and_lightning_are_recorded_but_not_graded() -> None:
    games = [*TWO_GAMES, "#PIN1=1#SCORE=1d#PIN2=2#ROUND=3#GAME DATE=12/05/2013"]
    outcome = import_results(results_file([BLOGGS, SMITH], games), filename="x.txt")
    assert outcome.report.not_graded == {"default": 1}
    blitz = import_results(
        results_file([BLOGGS, SMITH], TWO_GAMES, code="BLITZ", control=LIGHTNING), filename="b"
    )
    assert blitz.accepted
    assert blitz.report.not_graded == {"lightning": 2}
    assert blitz.report.graded == {}
    assert any(p.code == "not-graded" for p in blitz.report.warnings)


def test_a_rapid_event_grades_rapid_and_undated_games_take_the_final_date() -> None:
    games = ["#PIN1=1#SCORE=10#PIN2=2#ROUND=1"]
    outcome = import_results(
        results_file([BLOGGS, SMITH], games, control=RAPID), filename="rapid.txt"
    )
    assert outcome.report.graded == {"rapid": 1}
    game = Game.objects.get()
    assert (game.game_date, game.date_given) == (date(2013, 5, 12), False)  # G3


def test_a_batch_finds_players_created_by_an_earlier_file() -> None:
    first = results_file([BLOGGS, SMITH], TWO_GAMES)
    second = results_file([BLOGGS, SMITH], TWO_GAMES, code="OTHER")
    outcomes = import_files([("a.txt", first), ("b.txt", second)])
    assert all(o.accepted for o in outcomes)
    assert Player.objects.filter(surname="Smith").count() == 1
    assert [p.name for p in outcomes[1].report.new_players] == []


def test_the_feedback_report_reads_as_text_and_json() -> None:
    outcome = import_results(results_file([BLOGGS, SMITH], TWO_GAMES), filename="open.txt")
    text = outcome.report.to_text()
    assert "accepted" in text
    assert "graded standard: 2 games" in text
    assert "new player Smith, Jane" in text
    data = outcome.report.as_dict()
    assert data["graded"] == {"standard": 2}
    assert data["ok"] is True


def test_a_new_player_from_the_queue_keeps_the_code_his_file_gave() -> None:
    player(100001, "Smith", "John")  # a namesake: the unknown code goes to the queue
    entry = "#PIN=2#BCF CODE=155624B#NAME=Smith, John#CLUB NAME=Newtown"
    import_results(results_file([BLOGGS, entry], TWO_GAMES), filename="x.txt")
    (case,) = open_cases()
    created = resolve(case.id, create=True)
    assert created.ref == "155624B"
    newtown = Club.objects.get(name="Newtown")
    assert ClubMembership.objects.filter(player=created, club=newtown, last_season=2013).exists()


def test_a_file_may_name_a_location_with_or_without_its_star() -> None:
    Club.objects.create(name="Dover", is_location=True)
    dover = "#PIN=2#NAME=Smith, Jane#CLUB NAME=Dover*"
    import_results(results_file([BLOGGS, dover], TWO_GAMES), filename="a.txt")
    plain = "#PIN=2#NAME=Smith, Jane#CLUB NAME=Dover"
    import_results(results_file([BLOGGS, plain], TWO_GAMES, code="BB1"), filename="b.txt")
    assert list(
        Club.objects.filter(name__startswith="Dover").values_list("name", "is_location")
    ) == [("Dover", True)]


def test_a_code_quoted_in_a_file_does_not_use_up_the_codes_above_it() -> None:
    typo = "#PIN=1#BCF CODE=999998L#NAME=Typo, Tom#CLUB NAME=Walsall"
    assert import_results(results_file([typo, SMITH], TWO_GAMES), filename="a").accepted
    newcomer = "#PIN=2#NAME=Newman, Ned#CLUB NAME=Anytown"
    outcome = import_results(results_file([BLOGGS, newcomer], TWO_GAMES, code="BB1"), filename="b")
    assert outcome.accepted
    assert Player.objects.get(surname="Newman").code < 999998


def test_a_value_the_database_refuses_rejects_the_file_and_the_batch_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.db import DataError

    import ecfgrading.services.results.write as writer

    def refuse(*args: object, **how: object) -> None:
        raise DataError("value too long for type character varying(200)")

    monkeypatch.setattr(writer, "insert_rows", refuse)
    first = results_file([BLOGGS, SMITH], TWO_GAMES)
    outcomes = import_files([("a.txt", first), ("b.txt", first)])
    assert [o.accepted for o in outcomes] == [False, False]  # both tried, both kept
    report = outcomes[0].report
    assert [p.code for p in report.errors] == ["import-conflict"]
    assert report.new_players == ()  # rolled back: no code was given to anyone
    assert (report.graded, report.linked, report.accepted) == ({}, 0, False)
    assert not Player.objects.exists()
    assert Submission.objects.filter(status="rejected").count() == 2


def test_a_fide_number_that_is_not_one_is_ignored() -> None:
    odd = SMITH + "#FIDE NO=²"
    assert import_results(results_file([BLOGGS, odd], TWO_GAMES), filename="a").accepted
    assert Player.objects.get(surname="Smith").fide_id is None


def test_a_club_code_not_of_four_characters_is_warned_of_and_the_club_found_by_name() -> None:
    anytown = Club.objects.create(name="Anytown")
    odd = "#PIN=2#NAME=Smith, Jane#CLUB CODE=ANYTWN#CLUB NAME=Anytown"  # line 16

    outcome = import_results(results_file([BLOGGS, odd], TWO_GAMES), filename="a")

    assert outcome.accepted  # on PostgreSQL too: the code never reaches the 4-character column
    assert [(p.code, p.line) for p in outcome.report.warnings if p.code == "bad-club-code"] == [
        ("bad-club-code", 16)
    ]
    smith = Player.objects.get(surname="Smith")
    assert ClubMembership.objects.filter(player=smith, club=anytown).exists()
    assert list(Club.objects.filter(name="Anytown").values_list("code", flat=True)) == [None]


def test_clubs_known_by_name_learn_their_code_and_county_from_a_file() -> None:
    known = Club.objects.create(name="Anytown")
    coded = Club.objects.create(name="Walsall", code="7WAL")
    sets = [
        "#PIN=1#NAME=Bloggs, Joe#CLUB CODE=ANYT#CLUB NAME=Anytown",
        "#PIN=2#NAME=Smith, Jane#CLUB CODE=7WAL#CLUB NAME=Walsall#CLUB COUNTY=Staffordshire",
    ]
    outcome = import_results(results_file(sets, TWO_GAMES), filename="open.txt")
    assert outcome.accepted
    known.refresh_from_db()
    coded.refresh_from_db()
    assert (known.code, known.county) == ("ANYT", None)
    assert (coded.code, coded.county.name if coded.county else None) == ("7WAL", "Staffordshire")
    assert Club.objects.count() == 2


@pytest.mark.parametrize("field", ["CLUB NAME", "CLUB COUNTY"])
def test_a_club_or_county_name_too_long_to_store_is_an_error_at_its_line(field: str) -> None:
    wide = f"#PIN=2#NAME=Smith, Jane#CLUB CODE=ANYT#{field}={'C' * 101}"  # line 16

    (report,) = check_results([("a", results_file([BLOGGS, wide], TWO_GAMES))])

    assert [(p.code, p.line, p.field) for p in report.errors] == [("too-long", 16, field)]
    assert report.errors[0].expected == "a name of at most 100 characters"


def test_an_accepted_files_kept_report_is_the_feedback_built_after_the_commit() -> None:
    player(261619, "Bloggs", "Joe")
    outcome = import_results(results_file([BLOGGS, SMITH], TWO_GAMES), filename="a")

    report = Submission.objects.get(id=outcome.submission_id).report
    assert (report["accepted"], report["graded"]) == (True, {"standard": 2})
    assert [p["name"] for p in report["new_players"]] == ["Smith, Jane"]


def test_the_same_bytes_sent_again_are_skipped_saying_so() -> None:
    data = results_file([BLOGGS, SMITH], TWO_GAMES)
    first = import_results(data, filename="a.txt")
    again = import_results(data, filename="a-again.txt")
    assert again.accepted and again.already and again.submission_id == first.submission_id
    assert again.report.to_text() == (
        f"a-again.txt: already accepted as submission {first.submission_id}; skipped"
    )
    assert Submission.objects.count() == 1 and Game.objects.count() == 2


def test_a_queued_players_candidates_are_named_as_on_record() -> None:
    """The report names each candidate by his code and name as the records hold them;
    the importer takes them from the index it identified with (issue 8: no query)."""
    first, second = player(100001, "Smith", "John"), player(100002, "Smith", "John")
    member(first, "Anytown")
    member(second, "Otherton")
    entry = "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown"
    outcome = import_results(results_file([BLOGGS, entry], TWO_GAMES), filename="x.txt")
    (waiting,) = outcome.report.pending
    named = sorted((c.player_id, c.code, c.name) for c in waiting.candidates)
    assert named == [(p.id, p.ref, "Smith, John") for p in (first, second)]
    stored = Submission.objects.get().report["pending"][0]["candidates"]
    assert sorted((c["code"], c["name"]) for c in stored) == [
        (p.ref, "Smith, John") for p in (first, second)
    ]
