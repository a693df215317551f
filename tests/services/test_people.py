"""One reading of a player's details for results files, the queue and published lists.

services/people.py: the same text gives the same record and the same problem on every
path, on SQLite and on PostgreSQL alike (the FIDE id column holds 10 digits on both).
Lines: in ``results_file`` the player sets start on line 15; in a list CSV the rows on
line 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

import pytest

from ecfgrading.engine.types import Rate
from ecfgrading.formats.problems import Problem
from ecfgrading.lookups.identification import open_cases
from ecfgrading.registry.models import PendingIdentification, Player, Submission
from ecfgrading.services.lists.imports import ListImportResult, import_grade_list
from ecfgrading.services.results.ingest import check_results, import_results
from ecfgrading.services.results.queue import resolve
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#NAME=Bloggs, Joe#CLUB NAME=Walsall"  # line 15
GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013",
]
TEN_DIGITS = "9999999999"
ELEVEN_DIGITS = "99999999999"
LONG = "L" * 101  # one more than the 100 characters of Player.surname and .forenames

LIST_HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\r\n"
)


def smith(extra: str = "", name: str = "Smith, Jane") -> bytes:
    """A file whose second player (line 16) is Smith, with ``extra`` fields."""
    entry = f"#PIN=2#NAME={name}#CLUB NAME=Anytown{extra}"
    return results_file([BLOGGS, entry], GAMES)


def a_list(name: str = "Smith, Jane", fide: str = "") -> bytes:
    """A list of two rows: Bloggs (line 2) and the row under test (line 3)."""
    bloggs = '261619B,"Bloggs, Joe",M,,A,150,148,35,,,,,Anytown,,,,,,,ENG\r\n'
    row = f'233310H,"{name}",F,,C,95,,12,,,,,Anytown,,,,,,{fide},ENG\r\n'
    return (LIST_HEADER + bloggs + row).encode()


def load_list(data: bytes) -> ListImportResult:
    return import_grade_list(
        data, list_id="2009-07", rates=[Rate.STANDARD], filename="grades200907.csv"
    )


def problems(found: Iterable[Problem]) -> list[tuple[str, str, int, str, str]]:
    return [(p.code, p.severity, p.line, p.field, p.got) for p in found]


# FIDE ids ------------------------------------------------------------------------------


def test_a_ten_digit_fide_id_from_a_results_file_is_stored_whole() -> None:
    outcome = import_results(smith(f"#FIDE NO={TEN_DIGITS}"), filename="a.txt")

    assert outcome.accepted
    assert outcome.report.errors == []
    assert Player.objects.get(surname="Smith").fide_id == 9_999_999_999


@pytest.mark.parametrize("bad", [ELEVEN_DIGITS, "12AB45", "0"])
def test_results_check_warns_of_a_fide_no_that_is_not_one_at_its_line(bad: str) -> None:
    (report,) = check_results([("a.txt", smith(f"#FIDE NO={bad}"))])

    # A warning: FIDE NO plays no part in grading, so the file's games still count.
    assert report.ok
    assert problems(report.warnings) == [("bad-fide-id", "warning", 16, "FIDE NO", bad)]
    assert report.warnings[0].message == (
        f"expected FIDE NO a FIDE id of 1 to 10 digits, got '{bad}' (line 16)"
    )
    assert not Submission.objects.exists()


def test_an_import_keeps_the_player_but_not_an_eleven_digit_fide_id() -> None:
    outcome = import_results(smith(f"#FIDE NO={ELEVEN_DIGITS}"), filename="a.txt")

    assert outcome.accepted
    assert problems(outcome.report.warnings) == [
        ("bad-fide-id", "warning", 16, "FIDE NO", ELEVEN_DIGITS)
    ]
    assert Player.objects.get(surname="Smith").fide_id is None


def test_a_ten_digit_fide_code_in_a_list_is_stored_whole() -> None:
    result = load_list(a_list(fide=TEN_DIGITS))

    assert result.imported
    assert Player.objects.get(code=233310).fide_id == 9_999_999_999


def test_a_list_warns_of_an_eleven_digit_fide_code_as_a_results_file_does() -> None:
    result = load_list(a_list(fide=ELEVEN_DIGITS))
    (report,) = check_results([("a.txt", smith(f"#FIDE NO={ELEVEN_DIGITS}"))])

    assert result.imported
    assert problems(result.report.warnings) == [
        ("bad-fide-id", "warning", 3, "FIDECode", ELEVEN_DIGITS)
    ]
    assert result.report.warnings[0].expected == report.warnings[0].expected
    assert Player.objects.get(code=233310).fide_id is None


# Names longer than the registry stores --------------------------------------------------


def test_results_check_reports_a_surname_too_long_to_store_at_its_line() -> None:
    (report,) = check_results([("a.txt", smith(name=f"{LONG}, Jane"))])

    assert not report.ok
    assert [(p.code, p.line, p.field) for p in report.errors] == [("too-long", 16, "NAME")]
    assert report.errors[0].expected == "a surname of at most 100 characters"


def test_a_results_file_with_forenames_too_long_is_rejected_not_cut() -> None:
    outcome = import_results(smith(name=f"Smith, {LONG}"), filename="a.txt")

    assert not outcome.accepted
    assert [(p.code, p.line) for p in outcome.report.errors] == [("too-long", 16)]
    assert outcome.report.errors[0].expected == "a forenames of at most 100 characters"
    assert not Player.objects.exists()
    assert Submission.objects.get().status == Submission.Status.REJECTED


def test_a_name_of_exactly_the_registry_width_is_stored_whole() -> None:
    surname = "S" * 100

    outcome = import_results(smith(name=f"{surname}, Jane"), filename="a.txt")

    assert outcome.accepted
    assert Player.objects.filter(surname=surname, forenames="Jane").exists()


def test_a_list_reports_a_name_too_long_as_a_results_file_does() -> None:
    result = load_list(a_list(name=f"{LONG}, Jane"))
    (report,) = check_results([("a.txt", smith(name=f"{LONG}, Jane"))])

    assert not result.imported
    assert [(p.code, p.line, p.field) for p in result.report.errors] == [("too-long", 3, "Name")]
    assert result.report.errors[0].expected == report.errors[0].expected
    assert not Player.objects.exists()


def test_a_membership_number_too_long_is_an_error_not_cut() -> None:
    (report,) = check_results([("a.txt", smith("#ECF NO=" + "1" * 21))])

    assert [(p.code, p.line, p.field) for p in report.errors] == [("too-long", 16, "ECF NO")]


# The identification queue ---------------------------------------------------------------


def test_a_player_created_from_the_queue_has_the_details_an_import_gives() -> None:
    # Two namesakes in other clubs: the file's John Smith waits in the queue.
    Player.objects.create(code=100001, surname="Smith", forenames="John")
    Player.objects.create(code=100002, surname="Smith", forenames="John")
    details = "#GENDER=m#FIDE NO=1234567890#ECF NO=M12345#DATE OF BIRTH=02/03/2001"
    import_results(smith(details, name="Smith,   John"), filename="a.txt")
    (case,) = open_cases()

    created = resolve(case.id, create=True)

    assert (created.surname, created.forenames, created.sex) == ("Smith", "John", "M")
    assert (created.fide_id, created.membership_no) == (1_234_567_890, "M12345")
    assert created.date_of_birth == date(2001, 3, 2)


def test_the_queue_does_not_keep_a_fide_no_the_import_warned_of() -> None:
    Player.objects.create(code=100001, surname="Smith", forenames="John")
    Player.objects.create(code=100002, surname="Smith", forenames="John")
    outcome = import_results(
        smith(f"#GENDER=X#FIDE NO={ELEVEN_DIGITS}", name="Smith, John"), filename="a.txt"
    )
    case = PendingIdentification.objects.get()

    created = resolve(case.id, create=True)

    assert {p.code for p in outcome.report.warnings} >= {"bad-fide-id", "bad-gender"}
    assert (created.fide_id, created.sex) == (None, "")


def test_a_name_with_no_surname_is_reported_once_with_its_line() -> None:
    (nameless,) = check_results([("a.txt", smith(name=", Jane"))])
    (missing,) = check_results([("b.txt", results_file([BLOGGS, "#PIN=2#CLUB NAME=A"], GAMES))])

    assert [(p.code, p.line, p.got) for p in nameless.errors] == [("missing-name", 16, ", Jane")]
    assert [(p.code, p.line) for p in missing.errors] == [("missing-name", 16)]
