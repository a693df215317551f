"""One error contract (style.md 14): every refusal a user can meet is a ServiceError whose
kind an edge can answer with (invalid 400, not found 404, conflict 409)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from ecfgrading.demo.build import DemoError
from ecfgrading.engine import Rate
from ecfgrading.errors import ErrorKind, ServiceError, user_input
from ecfgrading.lookups.explain import BreakdownError, breakdowns
from ecfgrading.lookups.exports import ExportError, export_list
from ecfgrading.lookups.versions import VersionError
from ecfgrading.registry.models import PublishedVersionError
from ecfgrading.registry.numbering import CodesExhausted
from ecfgrading.services.events import EventError, register_event
from ecfgrading.services.grading.assignments import AssignmentError, assign_starting_grade
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.lists.imports import ListImportError, import_grade_list
from ecfgrading.services.merge import MergeError, merge_players
from ecfgrading.services.results.ingest import import_results
from ecfgrading.services.results.queue import PendingError, resolve
from tests.services.results_text import results_file

INVALID, NOT_FOUND, CONFLICT = ErrorKind.INVALID, ErrorKind.NOT_FOUND, ErrorKind.CONFLICT
LIST = (
    b"Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    b"ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
    b'261619B,"Bloggs, Joe",M,,A,150,148,30,,,,,Walsall,,,,,,,ENG\n'
)


@pytest.mark.parametrize(
    "error",
    [
        AssignmentError,
        BreakdownError,
        CodesExhausted,
        DemoError,
        EventError,
        ExportError,
        ListImportError,
        MergeError,
        PendingError,
        PublishedVersionError,
        VersionError,
    ],
)
def test_every_user_facing_error_is_a_service_error(error: type[Exception]) -> None:
    assert issubclass(error, ServiceError)


def test_the_registrys_refusals_are_conflicts() -> None:
    assert CodesExhausted("used up").kind is CONFLICT
    assert PublishedVersionError("immutable").kind is CONFLICT


def test_a_parsers_value_error_becomes_an_invalid_request_with_its_message() -> None:
    with pytest.raises(VersionError) as caught, user_input(VersionError):
        raise ValueError("expected a list such as 2010-07, got 'x'")
    assert (caught.value.kind, str(caught.value)) == (
        INVALID,
        "expected a list such as 2010-07, got 'x'",
    )


def kind_of(call: Callable[..., object], *args: Any, **kwargs: Any) -> tuple[type, ErrorKind]:
    """The class and kind of the ServiceError that the call raises."""
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    return type(caught.value), caught.value.kind


@pytest.mark.django_db
def test_a_bad_argument_is_invalid() -> None:
    assert kind_of(compute_version, "2010-13", Rate.STANDARD) == (VersionError, INVALID)
    assert kind_of(compute_version, "2011-01", Rate.STANDARD) == (VersionError, INVALID)
    assert kind_of(export_list, "2010-07", fmt="pdf") == (ExportError, INVALID)
    assert kind_of(merge_players, "261619A", "261619B") == (MergeError, INVALID)  # check letter
    assert kind_of(breakdowns, "261619B", "July") == (BreakdownError, INVALID)
    assert kind_of(
        assign_starting_grade, "261619B", Rate.STANDARD, valid_from="2010-13", grade=100
    ) == (AssignmentError, INVALID)
    end_before_start = {"start": date(2013, 5, 12), "end": date(2013, 5, 11)}
    assert kind_of(
        register_event, "E1", name="E", kind="league", rate=Rate.STANDARD, **end_before_start
    ) == (EventError, INVALID)


@pytest.mark.django_db
def test_something_named_but_not_on_record_is_not_found() -> None:
    assert kind_of(merge_players, "261619B", "102807J") == (MergeError, NOT_FOUND)
    assert kind_of(breakdowns, "261619B") == (BreakdownError, NOT_FOUND)
    assert kind_of(resolve, 999, create=True) == (PendingError, NOT_FOUND)
    assert kind_of(export_list, "2010-07") == (ExportError, NOT_FOUND)
    assert kind_of(publish_version, "2010-07", Rate.STANDARD, "initial") == (
        VersionError,
        NOT_FOUND,
    )


@pytest.mark.django_db
def test_what_the_records_already_hold_is_a_conflict() -> None:
    import_grade_list(LIST, list_id="2009-07", rates=(Rate.STANDARD,))
    again = kind_of(import_grade_list, LIST, list_id="2009-07", rates=(Rate.STANDARD,))
    assert again == (ListImportError, CONFLICT)
    players = ["#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe", "#PIN=2#NAME=Smith, Jane#CLUB NAME=X"]
    season = {"start": "03/10/2009", "end": "03/10/2009"}  # in the P0 of list 2010-07
    import_results(results_file(players, ["#PIN1=1#SCORE=10#PIN2=2"], **season), filename="a")
    compute_version("2010-07", Rate.STANDARD)
    publish_version("2010-07", Rate.STANDARD, "initial")
    assert kind_of(publish_version, "2010-07", Rate.STANDARD, "initial") == (
        VersionError,
        CONFLICT,
    )
    event: dict[str, Any] = {"name": "E", "kind": "league", "rate": Rate.STANDARD}
    days = {"start": date(2013, 5, 11), "end": date(2013, 5, 12)}
    register_event("E1", **event, **days)
    assert kind_of(register_event, "E1", **event, **days) == (EventError, CONFLICT)
