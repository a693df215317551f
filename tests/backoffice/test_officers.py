"""A grading officer's workflow (issue 11, item 2): register an event (G2 rate, deadline),
upload, check, submit, feedback on screen and by real e-mail, download back."""

from __future__ import annotations

import base64
import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ecfgrading.registry.models import Event, Game, OutboxMessage, Player, Submission
from ecfgrading.services.officers import MAX_UPLOAD_BYTES, results_deadline
from tests.backoffice.conftest import signed_in
from tests.services.results_text import RAPID, results_file

pytestmark = pytest.mark.django_db

BLOGGS = "#PIN=1#NAME=Bloggs, Joe#CLUB NAME=Walsall"
SMITH = "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown"
GAMES = ["#PIN1=1#SCORE=10#PIN2=2", "#PIN1=2#SCORE=55#PIN2=1"]


def register(client: Client, code: str = "OLG1", **time_control: int) -> Any:
    control = time_control or {
        "moves_first_session": 36,
        "minutes_first_session": 90,
        "minutes_rest_of_game": 15,
    }
    return client.post(
        reverse("backoffice:register"),
        {
            "code": code,
            "name": "Anytown Congress",
            "kind": "congress",
            "start": "2013-05-11",
            "end": "2013-05-12",
            **control,
        },
    )


def upload(client: Client, data: bytes, name: str = "results.txt") -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(reverse("backoffice:upload"), {"results": SimpleUploadedFile(name, data)})


def submit(client: Client, data: bytes, name: str = "results.txt") -> Any:
    content = base64.b64encode(data).decode()
    return client.post(reverse("backoffice:submit"), {"filename": name, "content": content})


def good_file(code: str = "OLG1") -> bytes:
    return results_file([BLOGGS, SMITH], GAMES, code=code)


def test_g2_an_event_registered_with_36_in_90_and_15_is_standard_due_four_weeks_on(
    officer: Any,
) -> None:
    response = register(signed_in(officer))

    assert response.status_code == 302
    event = Event.objects.get(code="OLG1")
    # G2: T = 90 + 15 = 105 minutes >= 60: standard.
    assert event.rate == "standard"
    assert event.grading_officer == officer
    assert event.results_deadline == dt.date(2013, 6, 9)  # 12 May + 28 days
    assert (event.moves_first_session, event.minutes_first_session) == (36, 90)
    page = signed_in(officer).get(reverse("backoffice:events")).content.decode()
    assert "OLG1" in page and "9 June 2013" in page


def test_g2_the_rate_is_shown_as_the_time_control_is_typed(officer: Any) -> None:
    client = signed_in(officer)
    url = reverse("backoffice:rate")

    rapid = client.get(url, {"minutes_for_game": 20, "seconds_per_move": 10}).json()
    blitz = client.get(url, {"minutes_for_game": 5, "seconds_per_move": 3}).json()
    standard = client.get(url, {"minutes_for_game": 50, "seconds_per_move": 10}).json()

    assert rapid["rate"] == "rapid"  # 20 + 10 = 30 minutes: 15 <= T < 60
    assert blitz["rate"] == ""  # 5 + 3 = 8 minutes < 15: lightning, not graded
    assert "lightning" in blitz["words"]
    assert standard["rate"] == "standard"  # 50 + 10 = 60 minutes: T >= 60


def test_g2_a_lightning_event_is_not_registered(officer: Any) -> None:
    response = register(signed_in(officer), minutes_for_game=5, seconds_per_move=3)

    assert response.status_code == 400  # the form again: a refusal answers its kind's status
    assert "not registered" in response.content.decode()
    assert not Event.objects.filter(code="OLG1").exists()


def test_a_taken_code_is_refused_with_a_message(officer: Any, other_officer: Any) -> None:
    register(signed_in(other_officer))

    response = register(signed_in(officer))

    assert "it is on record" in response.content.decode()
    assert Event.objects.get(code="OLG1").grading_officer == other_officer


def test_the_check_shows_problems_with_line_numbers_and_stores_nothing(officer: Any) -> None:
    client = signed_in(officer)
    register(client)
    bad = results_file([BLOGGS, SMITH], [*GAMES, "#PIN1=1#SCORE=70#PIN2=2"], code="OLG1")

    response = upload(client, bad)

    page = response.content.decode()
    assert response.status_code == 200
    assert "would be rejected" in page
    # header lines 1-14, players 15-16, section 17, games 18-20: the bad score is line 20.
    assert '<td class="num">20</td>' in page
    assert Submission.objects.count() == 0
    assert Event.objects.get(code="OLG1").status == Event.Status.REGISTERED


def test_upload_check_submit_gives_feedback_on_screen_and_queues_the_mail(
    officer: Any,
) -> None:
    client = signed_in(officer)
    register(client)
    data = good_file()

    checked = upload(client, data)
    assert "No problems found" in checked.content.decode()
    assert Submission.objects.count() == 0
    done = submit(client, data)

    page = done.content.decode()
    assert "Results accepted" in page
    assert "graded standard: 2 games" in page
    assert Game.objects.filter(event__code="OLG1").count() == 2
    assert set(Player.objects.values_list("surname", flat=True)) == {"Bloggs", "Smith"}
    kept = Submission.objects.get()
    assert bytes(kept.raw) == data and kept.sender == officer
    mail = OutboxMessage.objects.get()  # the mail worker delivers it
    assert (mail.kind, mail.to, mail.status) == ("feedback", "olga@club.example", "queued")
    assert mail.subject == "Results accepted: OLG1 Anytown Congress"
    assert "graded standard: 2 games" in mail.body_text
    assert mail.key == f"feedback:{kept.id}"
    assert "also being sent to olga@club.example" in page


def test_his_accepted_file_comes_back_byte_for_byte(officer: Any) -> None:
    client = signed_in(officer)
    register(client)
    data = good_file().replace(b"\n", b"\r\n")
    submit(client, data)
    event = Event.objects.get(code="OLG1")

    response = client.get(reverse("backoffice:download", kwargs={"event_id": event.id}))

    assert response.status_code == 200
    assert response.content == data
    assert 'filename="OLG1.txt"' in response["Content-Disposition"]


def test_a_file_for_another_officers_event_is_refused(officer: Any, other_officer: Any) -> None:
    register(signed_in(other_officer), code="OSC1")
    client = signed_in(officer)
    data = good_file(code="OSC1")

    checked = upload(client, data).content.decode()
    done = submit(client, data).content.decode()

    assert "got OSC1: register the event first" in checked
    assert '<td class="num">2</td>' in checked  # the EVENT CODE line
    assert "Results rejected" in done
    assert Game.objects.count() == 0 and Player.objects.count() == 0
    kept = Submission.objects.get()  # only the rejected bytes
    assert kept.status == Submission.Status.REJECTED and bytes(kept.raw) == data
    assert Event.objects.get(code="OSC1").status == Event.Status.REGISTERED


def test_a_binary_file_is_refused_with_a_clear_message_and_only_its_bytes_kept(
    officer: Any,
) -> None:
    client = signed_in(officer)
    spreadsheet = b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(256)) * 4

    checked = upload(client, spreadsheet, "results.xlsx")
    assert Submission.objects.count() == 0  # a check stores nothing
    submitted = submit(client, spreadsheet, "results.xlsx")

    assert checked.status_code == 400
    assert "binary file" in checked.content.decode()
    page = submitted.content.decode()
    assert "Results rejected" in page and "binary file" in page
    kept = Submission.objects.get()  # nothing sent is lost
    assert kept.status == Submission.Status.REJECTED and bytes(kept.raw) == spreadsheet
    assert Game.objects.count() == 0 and Player.objects.count() == 0


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_utf16_text_file_with_its_byte_order_mark_is_read_and_kept_as_sent(
    officer: Any, codec: str
) -> None:
    """Issue 24, case 14: Notepad's "Unicode" is text, not a binary file."""
    client = signed_in(officer)
    register(client)
    text = good_file().decode().replace("Smith, Jane", "Sørensen, Zoë")
    data = "\ufeff".encode(codec) + text.encode(codec)
    assert data[:2] == {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}[codec]

    checked = upload(client, data, "notepad.txt")
    assert checked.status_code == 200
    assert "No problems found" in checked.content.decode()
    submitted = submit(client, data, "notepad.txt")

    assert "Results accepted" in submitted.content.decode()
    kept = Submission.objects.get()
    assert kept.status == Submission.Status.ACCEPTED and bytes(kept.raw) == data
    assert Player.objects.filter(surname="Sørensen", forenames="Zoë").exists()
    assert Game.objects.count() == 2


def test_a_huge_file_is_refused_before_it_is_read(officer: Any) -> None:
    client = signed_in(officer)
    huge = b"#EVENT DETAILS\n" + b"#PIN=1#NAME=Padding, Line\n" * (MAX_UPLOAD_BYTES // 20)

    response = upload(client, huge)

    assert response.status_code == 400
    assert "at most 1024 KB" in response.content.decode()
    assert Submission.objects.count() == 0


def test_a_text_that_is_no_results_file_is_rejected_and_only_its_bytes_kept(officer: Any) -> None:
    client = signed_in(officer)
    letter = b"Dear grading team,\nplease find our results attached.\n"

    checked = upload(client, letter).content.decode()
    done = submit(client, letter).content.decode()

    assert "would be rejected" in checked
    assert "Results rejected" in done
    kept = Submission.objects.get()
    assert kept.status == Submission.Status.REJECTED and bytes(kept.raw) == letter
    assert Event.objects.count() == 0 and Game.objects.count() == 0


def test_rapid_results_of_a_rapid_event(officer: Any) -> None:
    client = signed_in(officer)
    register(client, code="OLR1", minutes_for_game=20, seconds_per_move=10)
    data = results_file([BLOGGS, SMITH], GAMES, code="OLR1", control=RAPID)

    done = submit(client, data).content.decode()

    assert Event.objects.get(code="OLR1").rate == "rapid"
    assert "graded rapid: 2 games" in done


def test_results_deadline_is_four_weeks_after_the_end() -> None:
    assert results_deadline(dt.date(2011, 12, 20)) == dt.date(2012, 1, 17)


def test_the_report_mail_is_queued_once_per_submission(officer: Any) -> None:
    from ecfgrading.services.officers import mail_report

    client = signed_in(officer)
    register(client)
    submit(client, good_file())
    submission = Submission.objects.get()

    again = mail_report(officer, accepted_report(submission.id))

    assert again == "queued"
    assert OutboxMessage.objects.filter(kind="feedback").count() == 1


def test_a_rejected_file_queues_its_report_too(officer: Any) -> None:
    letter = b"Dear grading team,\nplease find our results attached.\n"

    submit(signed_in(officer), letter)

    mail = OutboxMessage.objects.get()
    assert mail.to == "olga@club.example"
    assert mail.subject == "Results rejected: results.txt"


def accepted_report(submission_id: int) -> Any:
    from ecfgrading.services.results.import_report import ImportReport

    return ImportReport("results.txt", submission_id=submission_id, accepted=True)
