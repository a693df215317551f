"""Reports from the public (the seeds' Grading Feedback Form): stored with a reference,
followed by it, never giving away the sender's name or e-mail address."""

from __future__ import annotations

import dataclasses
import re

import pytest

from ecfgrading.lookups.queries import feedback_status
from ecfgrading.registry.models import AuditLog, Feedback, Player
from ecfgrading.services.errors import ErrorKind, ServiceError
from ecfgrading.services.feedback import (
    FeedbackError,
    NewFeedback,
    submit_feedback,
)
from ecfgrading.services.merge import merge_players

pytestmark = pytest.mark.django_db

# FB- and eight characters none of which reads as another (no 0 O 1 I L 5 S 2 Z 8 B).
REF = re.compile(r"^FB-[34679ACDEFGHJKMNPQRTUVWXY]{8}$")


@pytest.fixture
def smith() -> Player:
    # 233310H validates under G28 (grading-rules.md's examples).
    return Player.objects.create(code=233310, surname="Smith", forenames="John")


def _report(**changes: str) -> NewFeedback:
    fields = {
        "kind": "wrong-result",
        "player_code": "233310H",
        "event": "Bath League 2011-12",
        "message": "Round 3 against Jones was a draw, not a loss.",
        "name": "John Smith",
        "email": "john@example.org",
    }
    return NewFeedback(**{**fields, **changes})


def test_a_report_is_stored_with_its_fields_and_a_reference(smith: Player) -> None:
    ref = submit_feedback(_report())

    assert REF.match(ref), ref
    stored = Feedback.objects.get(ref=ref)
    assert stored.kind == "wrong-result"
    assert stored.player == smith
    assert stored.player_code == "233310H"
    assert stored.event == "Bath League 2011-12"
    assert stored.message == "Round 3 against Jones was a draw, not a loss."
    assert (stored.name, stored.email) == ("John Smith", "john@example.org")
    assert stored.status == "open"


def test_a_report_is_recorded_in_the_audit_log_without_private_details(smith: Player) -> None:
    ref = submit_feedback(_report())

    entry = AuditLog.objects.get(action="feedback.submitted")
    assert entry.object_id == str(Feedback.objects.get(ref=ref).pk)
    assert entry.details["ref"] == ref
    assert "john@example.org" not in str(entry.details)
    assert "John Smith" not in str(entry.details)


def test_references_differ_from_one_report_to_the_next(smith: Player) -> None:
    refs = {submit_feedback(_report()) for _ in range(40)}
    assert len(refs) == 40


def test_a_code_is_read_in_any_case_and_with_spaces_around(smith: Player) -> None:
    ref = submit_feedback(_report(player_code="  233310h "))
    assert Feedback.objects.get(ref=ref).player == smith


def test_a_merged_code_resolves_to_the_surviving_player(smith: Player) -> None:
    # 102807J: another of G28's examples; it is merged into Smith's record.
    Player.objects.create(code=102807, surname="Smyth", forenames="John")
    merge_players("102807J", "233310H")

    ref = submit_feedback(_report(player_code="102807J"))

    stored = Feedback.objects.get(ref=ref)
    assert stored.player == smith
    assert stored.player_code == "102807J"  # as typed
    assert feedback_status(ref).player_code == "233310H"


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("233310A", "wrong check letter"),  # G28: H is the letter of 233310
        ("233310", "six digits and a check letter"),
        ("155624B", "no player has the grading code 155624B"),  # valid, but not on record
    ],
)
def test_a_code_that_names_no_player_is_refused(smith: Player, code: str, words: str) -> None:
    with pytest.raises(FeedbackError) as caught:
        submit_feedback(_report(player_code=code))
    assert words in caught.value.problems["player_code"]
    assert not Feedback.objects.exists()


def test_every_problem_of_a_report_is_listed_at_once() -> None:
    with pytest.raises(FeedbackError) as caught:
        submit_feedback(_report(kind="complaint", player_code="", message=" ", email="nope"))
    problems = caught.value.problems
    assert set(problems) == {"kind", "message", "email"}
    assert "a wrong result" in problems["kind"]  # the form's words, not its values
    assert "‘nope’" in problems["email"]
    assert caught.value.kind is ErrorKind.INVALID
    assert isinstance(caught.value, ServiceError)


def test_a_report_about_a_record_needs_the_players_code() -> None:
    for kind in ("wrong-result", "wrong-details", "duplicate"):
        with pytest.raises(FeedbackError) as caught:
            submit_feedback(_report(kind=kind, player_code=""))
        assert set(caught.value.problems) == {"player_code"}


def test_a_missing_event_needs_the_event_but_not_a_code() -> None:
    with pytest.raises(FeedbackError) as caught:
        submit_feedback(_report(kind="missing-event", player_code="", event=""))
    assert set(caught.value.problems) == {"event"}

    ref = submit_feedback(_report(kind="missing-event", player_code="", event="Hastings 2011"))
    assert Feedback.objects.get(ref=ref).player is None


def test_a_message_longer_than_the_model_allows_is_refused() -> None:
    limit = Feedback._meta.get_field("message").max_length
    assert limit == 5000
    with pytest.raises(FeedbackError) as caught:
        submit_feedback(_report(kind="other", player_code="", message="x" * 5001))
    assert "5,001 characters where at most 5,000 fit" in caught.value.problems["message"]


def test_the_status_shows_the_answer_but_never_the_name_or_e_mail(smith: Player) -> None:
    ref = submit_feedback(_report())
    Feedback.objects.filter(ref=ref).update(status="resolved", answer="Corrected: a draw.")

    status = feedback_status(ref)

    assert (status.status, status.status_label) == ("resolved", "Resolved")
    assert status.answer == "Corrected: a draw."
    assert status.kind_label == "A wrong result"
    assert (status.player_code, status.player_name) == ("233310H", "Smith, John")
    values = str(dataclasses.asdict(status))
    assert "john@example.org" not in values and "John Smith" not in values
    assert not {"name", "email", "message"} & {f.name for f in dataclasses.fields(status)}


def test_a_reference_is_found_whatever_its_case(smith: Player) -> None:
    ref = submit_feedback(_report())
    assert feedback_status(ref.lower()).ref == ref


def test_an_unknown_reference_is_not_found() -> None:
    with pytest.raises(ServiceError) as caught:
        feedback_status("FB-AAAAAAAA")
    assert caught.value.kind is ErrorKind.NOT_FOUND
    assert "FB-AAAAAAAA" in caught.value.message
