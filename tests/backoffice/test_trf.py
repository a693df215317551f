"""A FIDE TRF uploaded by a grading officer (issue 11, item 8): told from a results file
by its content, for the event he chooses from his own, checked with its problems by line
before anything is stored, then imported like a results file."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from ecfgrading.registry.models import Event, Game, Player, Submission
from tests.backoffice.conftest import signed_in
from tests.formats.test_trf import PLAYERS, player, trf

pytestmark = pytest.mark.django_db

DATA = trf().encode()


def register(client: Client, code: str = "TRF1") -> None:
    client.post(
        reverse("backoffice:register"),
        {
            "code": code,
            "name": "Anytown Rapidplay",
            "kind": "congress",
            "start": "2013-05-11",
            "end": "2013-05-12",
            "minutes_for_game": 20,
            "seconds_per_move": 10,
        },
    )


def upload(client: Client, data: bytes, event: str = "TRF1") -> Any:
    handle = SimpleUploadedFile("round3.trf", data)
    return client.post(reverse("backoffice:upload"), {"results": handle, "event": event})


def submit(client: Client, data: bytes, event: str = "TRF1") -> Any:
    content = base64.b64encode(data).decode()
    return client.post(
        reverse("backoffice:submit"), {"filename": "round3.trf", "content": content, "event": event}
    )


def test_the_upload_form_offers_his_own_events_only(officer: Any, other_officer: Any) -> None:
    register(signed_in(other_officer), "OSC1")
    client = signed_in(officer)
    register(client)

    page = client.get(reverse("backoffice:upload")).content.decode()

    assert '<option value="TRF1">TRF1 Anytown Rapidplay</option>' in page
    assert "OSC1" not in page


def test_a_trf_is_checked_for_the_chosen_event_and_nothing_is_stored(officer: Any) -> None:
    client = signed_in(officer)
    register(client)

    page = upload(client, DATA).content.decode()

    assert "Event <strong>TRF1</strong> Anytown Rapidplay 2013, submission 1." in page
    # The one warning: Adams-Jones marked not rated, on Adams's line (line 9).
    assert '<td class="num">9</td>' in page and "not graded" in page.lower()
    assert "Submit the file" in page
    assert Submission.objects.count() == 0 and Player.objects.count() == 0


def test_a_submitted_trf_is_imported_like_a_results_file(officer: Any) -> None:
    client = signed_in(officer)
    register(client)

    done = submit(client, DATA).content.decode()

    assert "Results accepted" in done
    kept = Submission.objects.get()
    assert bytes(kept.raw) == DATA and kept.status == Submission.Status.ACCEPTED
    assert (kept.event_code, kept.submission_index) == ("TRF1", 1)
    games = Game.objects.filter(event__code="TRF1")
    # Five games read: four played (graded) and one forfeit (recorded, never graded, G1).
    assert games.count() == 5
    assert games.filter(graded=True).count() == 4
    adams = Player.objects.get(surname="Adams")
    assert (adams.forenames, adams.fide_id) == ("Michael", 400041)
    # The registered time control (20 + 10: rapid, G2) wins over the file's 122 line.
    assert Event.objects.get(code="TRF1").rate == "rapid"


def test_a_second_trf_replaces_the_first(officer: Any) -> None:
    client = signed_in(officer)
    register(client)
    submit(client, DATA)
    players = [*PLAYERS[:4], player(5, "Brown,Ann", [(0, "-", "H"), (2, "-", "-")], sex="w")]

    submit(client, trf(players).encode())

    first, second = Submission.objects.order_by("id")
    assert (first.status, second.status) == ("superseded", "accepted")
    assert second.submission_index == 2


def test_a_trf_without_its_event_is_rejected_with_a_message_at_line_1(officer: Any) -> None:
    client = signed_in(officer)
    register(client)

    checked = upload(client, DATA, event="").content.decode()
    done = submit(client, DATA, event="").content.decode()

    assert "the event chosen with a TRF file" in checked
    assert '<td class="num">1</td>' in checked
    assert "Results rejected" in done
    kept = Submission.objects.get()
    assert kept.status == Submission.Status.REJECTED and bytes(kept.raw) == DATA
    assert Game.objects.count() == 0 and Player.objects.count() == 0


def test_a_trf_for_another_officers_event_is_refused(officer: Any, other_officer: Any) -> None:
    register(signed_in(other_officer), "OSC1")
    client = signed_in(officer)

    checked = upload(client, DATA, event="OSC1")
    done = submit(client, DATA, event="OSC1").content.decode()

    assert "Select a valid choice" in checked.content.decode()  # not among his events
    assert "Results rejected" in done and "register the event first" in done
    assert Submission.objects.get().status == Submission.Status.REJECTED
    assert Game.objects.count() == 0 and Player.objects.count() == 0


def test_players_on_record_are_found_by_their_fide_id_when_the_names_agree(
    officer: Any,
) -> None:
    adams = Player.objects.create(code=261619, surname="Adams", forenames="Michael", fide_id=400041)
    # Smith's FIDE id is on record under another name: she is not linked by it.
    other = Player.objects.create(code=100003, surname="Jones", forenames="Mary", fide_id=12345678)
    client = signed_in(officer)
    register(client)

    done = submit(client, DATA).content.decode()

    assert "Results accepted" in done
    assert Player.objects.filter(surname="Adams").count() == 1  # linked, not created
    # Adams (start rank 1) plays rounds 1 and 2 as pin1; round 3 was not rated.
    assert Game.objects.filter(event__code="TRF1", player1=adams).count() == 2
    assert Player.objects.filter(surname="Smith").count() == 1  # a new player, not Mary Jones
    played = Game.objects.filter(Q(player1=other) | Q(player2=other))
    assert not played.exists()
