"""A results file held against the registry (services/results/checks.py), issue 8.

`check` must find what `import` would refuse, on SQLite (which stores any width and any
integer) exactly as on PostgreSQL (which refuses them); what the database refuses all
the same is reported on the file, in its own words, and the batch goes on.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, timedelta
from typing import Any

import pytest
from django.core import serializers
from django.db import DataError, connection, transaction
from django.test.utils import CaptureQueriesContext

from ecfgrading.formats import read_results_bytes
from ecfgrading.formats.event_codes import MAX_LENGTH, event_code_problem
from ecfgrading.formats.results_model import ResultsFile
from ecfgrading.registry.bulk import insert_rows
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
from ecfgrading.registry.numbering import CodesExhausted
from ecfgrading.services.results import same_games
from ecfgrading.services.results.checks import (
    EventOnRecord,
    event_on_record,
    refusal_problem,
    registry_problems,
)
from ecfgrading.services.results.import_report import ImportReport
from ecfgrading.services.results.ingest import check_results, import_files, import_results
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

# Lines: EVENT DETAILS 1, EVENT CODE 2, SUBMISSION INDEX 3, EVENT NAME 4, EVENT DATE 5, FINAL
# RESULT DATE 6, then the officers to 10, the time control from 11, PLAYER LIST after it.
BLOGGS = "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB CODE=7WAL#CLUB NAME=Walsall"
SMITH = "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown#DATE OF BIRTH=02/03/2001"
TWO_GAMES = [  # lines 18 and 19 under the standard time control (three lines)
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013#COLOUR=WHITE",
    "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013#COLOUR=WHITE",
]


@pytest.fixture(autouse=True)
def _bloggs_on_record() -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")


def snapshot() -> str:
    """Every row an import may write, except the kept submissions."""
    models = [Player, Club, ClubMembership, Event, Game, PendingIdentification]
    return serializers.serialize("json", [obj for m in models for obj in m.objects.all()])


def checked(data: bytes) -> ImportReport:
    (report,) = check_results([("a.txt", data)])
    return report


def found(report: ImportReport) -> list[tuple[str, int, str]]:
    return [(p.code, p.line, p.field) for p in report.problems]


def assert_refused_and_kept(data: bytes, problem: tuple[str, int, str]) -> None:
    """``check`` names the problem; ``import`` rejects the file, keeps it and writes nothing."""
    assert found(checked(data)) == [problem]
    before = snapshot()
    outcome = import_results(data, filename="a.txt")
    assert not outcome.accepted
    assert found(outcome.report) == [problem]
    kept = Submission.objects.get(id=outcome.submission_id)
    assert (kept.status, bytes(kept.raw)) == (Submission.Status.REJECTED, data)
    assert [p["code"] for p in kept.report["problems"]] == [problem[0]]
    assert snapshot() == before


def assert_accepted(data: bytes) -> ImportReport:
    assert found(checked(data)) == []
    outcome = import_results(data, filename="a.txt")
    assert outcome.accepted, outcome.report.to_text()
    return outcome.report


# --- widths and ranges of the registry's columns --------------------------------------------


def match_games(board: int) -> bytes:
    games = ["#PIN1=1#SCORE=10#PIN2=2#BOARD=1", f"#PIN1=2#SCORE=10#PIN2=1#BOARD={board}"]
    return results_file([BLOGGS, SMITH], games, part="#MATCH RESULTS=Anytown v Walsall")


def test_a_board_above_what_a_smallint_holds_is_an_error_at_its_line() -> None:
    assert_refused_and_kept(match_games(40000), ("out-of-range", 19, "BOARD"))
    assert checked(match_games(32768)).errors[0].message == (
        "expected BOARD at most 32767, got '32768' (line 19)"
    )


def test_the_largest_board_a_smallint_holds_is_accepted() -> None:
    assert_accepted(match_games(32767))
    assert sorted(Game.objects.values_list("board", flat=True)) == [1, 32767]


def test_an_event_name_longer_than_the_registry_stores_is_an_error() -> None:
    wide = results_file([BLOGGS, SMITH], TWO_GAMES, name="N" * 201)
    assert_refused_and_kept(wide, ("too-long", 4, "EVENT NAME"))
    assert checked(wide).errors[0].expected == "a name of at most 200 characters"


def test_an_event_name_of_the_full_width_is_kept_whole() -> None:
    assert_accepted(results_file([BLOGGS, SMITH], TWO_GAMES, name="N" * 200))
    assert Event.objects.get().name == "N" * 200


def test_an_event_code_longer_than_the_registry_stores_is_an_error() -> None:
    wide = results_file([BLOGGS, SMITH], TWO_GAMES, code="C" * 21)
    assert_refused_and_kept(wide, ("bad-event-code", 2, "EVENT CODE"))
    kept = Submission.objects.get()
    assert kept.event_code == "C" * 20  # the rejected file's row shows what it can


def test_the_event_code_pattern_is_as_wide_as_the_registry_keeps_codes() -> None:
    """The reader's pattern (formats.event_codes) stands for the columns' widths."""
    widths = {Event._meta.get_field("code").max_length}
    widths.add(Submission._meta.get_field("event_code").max_length)
    assert widths == {MAX_LENGTH}


# ('#X' cannot be a file's value: a '#' opens the next field, and the code is missing.)
@pytest.mark.parametrize("code", ["A/B", "../X", "X.Y", "X Y", "12345", "É1", "X"])
def test_an_event_code_outside_the_federations_pattern_is_an_error_with_the_validators_words(
    code: str,
) -> None:
    """Issue 24, case 5: codes such as 'A/B', '../X' or '#X' must not get in by a file."""
    data = results_file([BLOGGS, SMITH], TWO_GAMES).replace(b"XX12345", code.encode())
    report = checked(data)
    (problem,) = [p for p in report.problems if p.code == "bad-event-code"]
    said = event_code_problem(code).removesuffix(".")
    assert (problem.line, problem.field, problem.message) == (2, "EVENT CODE", f"{said} (line 2)")
    assert not import_results(data, filename="a.txt").accepted
    assert not Event.objects.exists()


def test_an_event_code_of_the_full_width_is_accepted() -> None:
    assert_accepted(results_file([BLOGGS, SMITH], TWO_GAMES, code="C" * 20))
    assert Submission.objects.get().event_code == Event.objects.get().code == "C" * 20


def test_a_results_officer_longer_than_the_registry_stores_is_an_error() -> None:
    data = results_file([BLOGGS, SMITH], TWO_GAMES).replace(
        b"#RESULTS OFFICER=A N Grader", b"#RESULTS OFFICER=" + b"G" * 201
    )
    assert_refused_and_kept(data, ("too-long", 7, "RESULTS OFFICER"))


@pytest.mark.parametrize(
    ("control", "field"),
    [
        ("#MINUTES FOR GAME=40000", "MINUTES FOR GAME"),
        ("#MINUTES FOR GAME=32767.5", "MINUTES FOR GAME"),  # stored rounded: 32768
        ("#MINUTES FOR GAME=90#SECONDS PER MOVE=99999", "SECONDS PER MOVE"),
    ],
)
def test_a_time_control_the_registry_cannot_hold_is_an_error_at_its_line(
    control: str, field: str
) -> None:
    data = results_file([BLOGGS, SMITH], TWO_GAMES, control=control)
    assert_refused_and_kept(data, ("out-of-range", 11, field))


def test_the_longest_time_control_the_registry_holds_is_accepted() -> None:
    control = "#MINUTES FOR GAME=32767.4"  # stored rounded: 32767
    assert_accepted(results_file([BLOGGS, SMITH], TWO_GAMES, control=control))
    assert Event.objects.get().minutes_for_game == 32767


def test_a_comment_or_part_name_too_long_is_kept_cut_short_with_a_warning() -> None:
    games = [TWO_GAMES[0] + "#COMMENT=" + "c" * 201, TWO_GAMES[1] + "#COMMENT=" + "c" * 200]
    data = results_file([BLOGGS, SMITH], games, part="#SECTION RESULTS=" + "P" * 201)
    report = assert_accepted_with_warnings(data)
    assert found(report) == [("cut-short", 17, "SECTION RESULTS"), ("cut-short", 18, "COMMENT")]
    stored = Game.objects.order_by("line")
    assert [len(g.comment) for g in stored] == [200, 200]
    assert {g.part_name for g in stored} == {"P" * 200}


def assert_accepted_with_warnings(data: bytes) -> ImportReport:
    assert checked(data).errors == []
    outcome = import_results(data, filename="a.txt")
    assert outcome.accepted
    return outcome.report


def test_the_queue_keeps_a_players_details_as_wide_as_the_records_do() -> None:
    """services/people.py checks names and numbers against Player and Club; a waiting
    player is kept in PendingIdentification, which must be as wide, or it would refuse."""
    pairs = [
        (PendingIdentification, "surname", Player, "surname"),
        (PendingIdentification, "forenames", Player, "forenames"),
        (PendingIdentification, "membership_no", Player, "membership_no"),
        (PendingIdentification, "club_name", Club, "name"),
    ]
    for queue, field, record, column in pairs:
        wide = queue._meta.get_field(field).max_length
        assert wide is not None and wide >= record._meta.get_field(column).max_length


# --- an event not yet played -------------------------------------------------------------


def dated(first: date) -> bytes:
    day = first.strftime("%d/%m/%Y")
    games = ["#PIN1=1#SCORE=10#PIN2=2#ROUND=1", "#PIN1=2#SCORE=55#PIN2=1#ROUND=2"]
    return results_file([BLOGGS, SMITH], games, start=day, end=day)


def test_an_event_dated_after_tomorrow_is_an_error_at_its_date() -> None:
    today = date.today()
    assert_refused_and_kept(dated(today + timedelta(days=2)), ("future-event", 5, "EVENT DATE"))
    (problem,) = checked(dated(date(2099, 1, 1))).errors
    assert problem.message == (
        f"expected EVENT DATE a day already played, not after {today:%d/%m/%Y}, got"
        " '01/01/2099': results of games not yet played (line 5)"
    )


def test_an_event_of_today_or_of_tomorrow_a_time_zone_ahead_is_accepted() -> None:
    assert found(checked(dated(date.today() + timedelta(days=1)))) == []
    assert_accepted(dated(date.today()))


# --- the same games under another event code -----------------------------------------------


def read(data: bytes) -> ResultsFile:
    results, _ = read_results_bytes(data)
    assert results is not None
    return results


def test_games_already_received_under_another_code_are_warned_of_naming_that_event() -> None:
    assert import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    again = results_file([BLOGGS, SMITH], TWO_GAMES, code="YY2")

    assert found(checked(again)) == [("games-already-received", 2, "EVENT CODE")]
    outcome = import_results(again, filename="b")

    assert outcome.accepted  # a warning: the grading team decides
    (warning,) = outcome.report.warnings
    assert warning.message == (
        "expected games not yet on record under another event code, got '2 of its 2 graded"
        " games, on record under XX1 (submission 1)': they would count twice. If this file"
        " corrects that event, send it under that code with a higher SUBMISSION INDEX; else"
        " the grading team decides whether it corrects that event, only its new games"
        " count, or it is rejected (line 2)"
    )
    assert Submission.objects.get(id=outcome.submission_id).duplicates == "flagged"


def test_the_same_games_written_from_the_other_side_and_with_accents_are_recognised() -> None:
    bloggs = Player.objects.get(code=261619)
    bloggs.surname = "Blöggs"
    bloggs.save()
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    swapped = [  # PIN1 and PIN2 exchanged, each SCORE from the other side
        "#PIN1=2#SCORE=01#PIN2=1#GAME DATE=11/05/2013",
        "#PIN1=1#SCORE=55#PIN2=2#GAME DATE=12/05/2013",
    ]
    again = results_file([SMITH, BLOGGS.replace("Bloggs", "BLOGGS")], swapped, code="YY2")
    assert [p.code for p in checked(again).problems] == ["games-already-received"]


def test_a_higher_index_of_the_same_event_is_no_resend() -> None:
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    assert_accepted(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1", index=2))


def test_a_file_whose_games_are_not_on_record_is_no_resend() -> None:
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    other_results = [
        g.replace("SCORE=10", "SCORE=01").replace("SCORE=55", "SCORE=10") for g in TWO_GAMES
    ]
    assert_accepted(results_file([BLOGGS, SMITH], other_results, code="YY2"))


def got(report: ImportReport) -> list[str]:
    return [p.got for p in report.problems]


def test_a_file_holding_one_game_on_record_is_flagged_with_that_one() -> None:
    """Issue 24, case 1: one game counted twice is one too many; the count says which part."""
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    changed = [TWO_GAMES[0], TWO_GAMES[1].replace("SCORE=55", "SCORE=10")]
    assert got(checked(results_file([BLOGGS, SMITH], changed, code="YY2"))) == [
        "1 of its 2 graded games, on record under XX1 (submission 1)"
    ]


# Two more players for the larger files below, and the games they add on the second day.
BROWN = "#PIN=3#NAME=Brown, Alan#CLUB NAME=Anytown#DATE OF BIRTH=04/05/1960"
GREEN = "#PIN=4#NAME=Green, Beth#CLUB NAME=Anytown#DATE OF BIRTH=06/07/1970"
MORE_GAMES = [
    "#PIN1=3#SCORE=10#PIN2=4#ROUND=2#GAME DATE=12/05/2013",
    "#PIN1=1#SCORE=01#PIN2=3#ROUND=3#GAME DATE=12/05/2013",
    "#PIN1=4#SCORE=55#PIN2=2#ROUND=3#GAME DATE=12/05/2013",
]


def test_a_superset_of_an_accepted_file_is_flagged_with_the_games_already_on_record() -> None:
    """Issue 24, case 1: a file holding all the games of another event's file, and more."""
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    import_results(
        results_file([BLOGGS, SMITH, BROWN, GREEN], MORE_GAMES, code="ZZ9"), filename="z"
    )
    Submission.objects.filter(event_code="ZZ9").update(status=Submission.Status.REJECTED)
    larger = results_file([BLOGGS, SMITH, BROWN, GREEN], TWO_GAMES + MORE_GAMES, code="YY2")

    assert found(checked(larger)) == [("games-already-received", 2, "EVENT CODE")]
    assert got(checked(larger)) == ["2 of its 5 graded games, on record under XX1 (submission 1)"]


def test_a_subset_of_an_accepted_file_is_flagged_with_its_games() -> None:
    """Issue 24, case 1: part of a file sent again under another code."""
    import_results(
        results_file([BLOGGS, SMITH, BROWN, GREEN], TWO_GAMES + MORE_GAMES, code="XX1"),
        filename="a",
    )
    part = results_file([BLOGGS, SMITH], TWO_GAMES[1:], code="YY2")
    assert got(checked(part)) == ["1 of its 1 graded games, on record under XX1 (submission 1)"]


def test_a_file_resent_with_surnames_spelt_otherwise_is_recognised_by_who_played() -> None:
    """Issue 24, case 1: 'Smyth' is not the registry's 'Smith' (the queue will ask who she
    is), but she is most likely Smith, and with the same opponent, days, rounds and
    results these are the games on record."""
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    misspelt = [BLOGGS, SMITH.replace("Smith, Jane", "Smyth, Jane")]
    again = results_file(misspelt, TWO_GAMES, code="YY2", name="Anytown Congress (again)")
    assert got(checked(again)) == ["2 of its 2 graded games, on record under XX1 (submission 1)"]


def test_games_a_file_gives_without_rounds_match_the_same_games_given_with_them() -> None:
    """Issue 24, case 1: a round given on one side only does not hide a game sent twice."""
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    unrounded = [g.replace("#ROUND=1", "").replace("#ROUND=2", "") for g in TWO_GAMES]
    assert got(checked(results_file([BLOGGS, SMITH], unrounded, code="YY2"))) == [
        "2 of its 2 graded games, on record under XX1 (submission 1)"
    ]


def test_two_players_meeting_again_the_same_day_in_another_round_is_no_resend() -> None:
    """Issue 24, case 1: a rapid event's rounds on one day are told apart by the round."""
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    later_rounds = [
        g.replace("#ROUND=1", "#ROUND=5").replace("#ROUND=2", "#ROUND=6") for g in TWO_GAMES
    ]
    assert_accepted(results_file([BLOGGS, SMITH], later_rounds, code="YY2"))


def test_superseded_results_are_not_held_against_a_new_code() -> None:
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES[:1], code="XX1", index=2), filename="b")
    only_second = results_file([BLOGGS, SMITH], TWO_GAMES[1:], code="YY2")
    assert found(checked(only_second)) == []  # its game was in submission 1, now superseded
    only_first = results_file([BLOGGS, SMITH], TWO_GAMES[:1], code="ZZ3")
    assert found(checked(only_first)) == [("games-already-received", 2, "EVENT CODE")]


def test_players_asked_for_in_chunks_padded_to_a_few_sizes_find_every_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 25: the players are asked for a few at a time (IN_CHUNK, three here) and
    each list is padded to a power of two by repeating its last player, so that the
    statement has a few texts. Four players on record are two chunks, the second of
    one player padded to eight: every one of the five games is still found."""
    monkeypatch.setattr(same_games, "IN_CHUNK", 3)
    players = [BLOGGS, SMITH, BROWN, GREEN]
    import_results(results_file(players, TWO_GAMES + MORE_GAMES, code="XX1"), filename="a")
    again = results_file(players, TWO_GAMES + MORE_GAMES, code="YY2")
    assert got(checked(again)) == ["5 of its 5 graded games, on record under XX1 (submission 1)"]


def test_looking_for_the_same_games_costs_nothing_for_strangers_and_one_query_else(
    django_assert_num_queries: Any,
) -> None:
    import_results(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"), filename="a")
    strangers = ["#PIN=1#NAME=Stranger, Sam#CLUB NAME=Anytown", "#PIN=2#NAME=Other, Olga#CLUB=X"]
    with django_assert_num_queries(0):  # no player on record: no game of theirs either
        registry_problems(read(results_file(strangers, TWO_GAMES)), {}, today=date.today())
    linked = {1: Player.objects.get(code=261619).id, 2: Player.objects.get(surname="Smith").id}
    with django_assert_num_queries(1):
        found_again = registry_problems(
            read(results_file([BLOGGS, SMITH], TWO_GAMES, code="YY2")),
            linked,
            today=date.today(),
        )
    assert [p.code for p in found_again] == ["games-already-received"]


# --- the rate of play the event was registered with -------------------------------------


def registered_standard(code: str = "XX12345") -> Event:
    """Registered at 90 minutes and 30 seconds a move: 120 minutes each by G2, standard."""
    return Event.objects.create(
        code=code,
        name="Anytown Congress",
        rate="standard",
        minutes_for_game=90,
        seconds_per_move=30,
        start_date=date(2013, 5, 11),
        end_date=date(2013, 5, 12),
    )


def test_a_file_at_another_rate_than_the_event_was_registered_with_is_an_error_naming_both() -> (
    None
):
    """Issue 24, case 4: a standard event given MINUTES FOR GAME=30 does not become rapid."""
    registered_standard()
    rapid = results_file([BLOGGS, SMITH], TWO_GAMES, control="#MINUTES FOR GAME=30")

    (problem,) = checked(rapid).problems
    assert (problem.code, problem.line, problem.field) == (
        "rate-not-registered",
        11,
        "MINUTES FOR GAME",
    )
    assert problem.message == (
        "expected the rate of play XX12345 was registered with, standard (90 min + 30 s/move),"
        " got 'rapid (30 min)': ask the grading team to correct the event if it was"
        " registered at the wrong rate (line 11)"
    )
    assert not import_results(rapid, filename="a.txt").accepted
    assert Event.objects.get().rate == "standard"
    assert not Game.objects.exists()


def test_a_file_at_the_registered_rate_with_another_time_control_is_accepted() -> None:
    """Issue 24, case 4: the contract is the rate (G2), not the clock's every setting."""
    registered_standard()
    assert_accepted(results_file([BLOGGS, SMITH], TWO_GAMES))  # 36 in 90, then 15: standard
    assert set(Game.objects.values_list("rate", flat=True)) == {"standard"}


def test_a_registered_event_takes_its_files_details_and_keeps_the_teams() -> None:
    """What the file gives (results-file.md: name, dates, time control, officer) replaces
    what the event was registered with; what only the team sets stays; it is received."""
    registered = registered_standard()
    Event.objects.filter(id=registered.id).update(
        kind="congress", results_deadline=date(2013, 6, 30), fee_class="A"
    )
    stamp = Event.objects.get(id=registered.id).updated_at
    assert_accepted(
        results_file([BLOGGS, SMITH], TWO_GAMES, name="Anytown Open", start="10/05/2013")
    )
    event = Event.objects.get(id=registered.id)
    assert (event.name, event.start_date, event.end_date) == (
        "Anytown Open",
        date(2013, 5, 10),
        date(2013, 5, 12),
    )
    # The file's STANDARD control: 36 moves in 90 minutes, then 15 for the rest.
    control = (
        event.minutes_for_game,
        event.moves_first_session,
        event.minutes_first_session,
        event.minutes_rest_of_game,
        event.seconds_per_move,
    )
    assert control == (None, 36, 90, 15, None)
    assert (event.officer_name, event.status, event.rate) == ("A N Grader", "received", "standard")
    assert (event.kind, event.results_deadline, event.fee_class) == (
        "congress",
        date(2013, 6, 30),
        "A",
    )
    assert event.updated_at > stamp
    # The import's audit entry: the registered row as it was read, beside what the file
    # made of it; the kind and the deadline, which the file leaves alone, are not in it.
    entry = AuditLog.objects.filter(action="import results").latest("id")
    assert entry.details["before"] == {
        "name": "Anytown Congress",
        "start_date": "2013-05-11",
        "status": "registered",
    }
    assert entry.details["after"] == {
        "name": "Anytown Open",
        "start_date": "2013-05-10",
        "status": "received",
    }


def test_a_later_file_cannot_change_the_rate_an_earlier_file_gave_the_event() -> None:
    """Issue 24, case 4: an event on record keeps its rate; the team corrects it if wrong."""
    assert_accepted(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1"))
    later = results_file(
        [BLOGGS, SMITH], TWO_GAMES, code="XX1", index=2, control="#MINUTES FOR GAME=20"
    )
    assert found(checked(later)) == [("rate-not-registered", 11, "MINUTES FOR GAME")]


# --- what the database refuses all the same ----------------------------------------------


@pytest.mark.postgresql
def test_a_row_refused_by_copy_is_a_django_database_error() -> None:
    with pytest.raises(DataError, match="character varying"), transaction.atomic():
        insert_rows(Club, ("name", "code"), [("x" * 101, None)])


@pytest.mark.postgresql
def test_a_refusal_from_copy_is_reported_at_its_line_and_the_batch_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After the checks no file reaches the database with a bad value: one is slipped in
    under them, as a writer's bug would, on the first file's second game (each time the
    file is written: its turn is written again, a savepoint a file, once it is refused)."""
    import ecfgrading.services.results.write as writer

    def spoil(model: Any, columns: tuple[str, ...], rows: list[Any], **how: Any) -> None:
        if Event.objects.filter(id=rows[0].event_id, code="XX1").exists():
            rows = [rows[0], rows[1]._replace(board=40000)]
        insert_rows(model, columns, rows, **how)

    monkeypatch.setattr(writer, "insert_rows", spoil)
    first = results_file([BLOGGS, SMITH], TWO_GAMES, code="XX1")
    second = results_file([BLOGGS, SMITH], TWO_GAMES, code="XX2")

    outcomes = import_files([("a.txt", first), ("b.txt", second)])

    assert [o.accepted for o in outcomes] == [False, True]
    (problem,) = outcomes[0].report.errors
    assert (problem.code, problem.line, problem.field) == ("import-conflict", 19, "BOARD")
    assert problem.message == (
        "the database refused the file: 'value \"40000\" is out of range for type smallint';"
        " nothing was imported (line 19)"
    )
    statuses = dict(Submission.objects.values_list("filename", "status"))
    assert statuses == {"a.txt": "rejected", "b.txt": "accepted"}
    assert list(Event.objects.values_list("code", flat=True)) == ["XX2"]


def test_a_refused_player_code_points_at_the_player_that_gave_it() -> None:
    results = read(results_file([BLOGGS, SMITH], TWO_GAMES))
    said = (
        'duplicate key value violates unique constraint "registry_player_code_key"\n'
        "DETAIL:  Key (code)=(261619) already exists."
    )
    problem = refusal_problem(results, DataError(said))
    assert (problem.line, problem.field) == (15, "ECF CODE")
    assert problem.got == (
        'duplicate key value violates unique constraint "registry_player_code_key"'
        " DETAIL:  Key (code)=(261619) already exists."
    )


@pytest.mark.parametrize(
    "error",
    [
        DataError("CHECK constraint failed: game_player_not_himself"),
        DataError("value too long for type character varying(200)"),
        CodesExhausted("no grading code is left to issue"),
    ],
)
def test_a_refusal_that_names_no_line_points_at_the_event_code_and_says_what_it_was(
    error: Exception,
) -> None:
    problem = refusal_problem(read(results_file([BLOGGS, SMITH], TWO_GAMES)), error)
    assert (problem.code, problem.line, problem.field) == ("import-conflict", 2, "EVENT CODE")
    expected = f"the database refused the file: {str(error)!r}; nothing was imported"
    assert problem.message == f"{expected} (line 2)"


# --- a UTF-16 file without a byte-order mark ---------------------------------------------


@pytest.mark.parametrize(
    ("data", "code"),
    [
        # Recognised, and rejected for its own mistake.
        (
            results_file([BLOGGS, SMITH], ["#PIN1=1#SCORE=1-0#PIN2=2"])
            .decode()
            .encode("utf-16-le"),
            "bad-score",
        ),
        # Cut short by one byte: recognised, and its broken last line named.
        (
            results_file([BLOGGS, SMITH], TWO_GAMES).decode().encode("utf-16-le")[:-1],
            "bad-encoding",
        ),
        # Bytes with NULs that are no UTF-16: read as 8-bit text, the NULs escaped.
        (b"#EVENT DETAILS\x00\x00\x01\n#EVENT CODE=X\x00Y\n", "missing-section"),
    ],
)
def test_a_rejected_utf16_file_without_a_bom_is_stored_as_rejected(data: bytes, code: str) -> None:
    outcome = import_results(data, filename="utf16.txt")

    assert not outcome.accepted
    kept = Submission.objects.get(id=outcome.submission_id)
    assert kept.status == Submission.Status.REJECTED
    assert code in {p["code"] for p in kept.report["problems"]}
    assert "\x00" not in json.dumps(kept.report, ensure_ascii=False)
    assert bytes(kept.raw) == data


def test_the_event_on_record_is_read_by_one_statement_its_rate_and_highest_index() -> None:
    """What the checks hold a file against: the rate the event was registered with and
    the highest SUBMISSION INDEX accepted or since superseded (a rejected or waiting
    file's does not count), both in one statement; nothing for an unknown code."""
    registered_standard("XX12345")
    for index, status in ((3, "accepted"), (4, "superseded"), (5, "rejected"), (6, "received")):
        Submission.objects.create(
            event_code="XX12345", submission_index=index, status=status, raw=b"", sha256=str(index)
        )
    details = read(results_file([BLOGGS, SMITH], TWO_GAMES, code="XX12345")).event
    assert details.time_control is not None
    with CaptureQueriesContext(connection) as queries:
        found = event_on_record(details)
    assert (found.rate, found.highest_index, found.known) == ("standard", 4, True)
    assert len(queries.captured_queries) == 1
    unknown = read(results_file([BLOGGS, SMITH], TWO_GAMES, code="ZZ99999")).event
    assert event_on_record(unknown) == EventOnRecord(None, None, asked=True)
    assert event_on_record(unknown).known is False  # asked, and no such event
    with CaptureQueriesContext(connection) as queries:  # nothing to hold against them
        none = replace(details, time_control=None, submission_index=None)
        assert event_on_record(none) == EventOnRecord(None, None)
        assert event_on_record(none).known is None  # not asked: the writer looks
    assert not queries.captured_queries
