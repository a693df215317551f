"""/feedback/: the seeds' Grading Feedback Form, CSRF protected and limited per address;
/feedback/<ref>/: the report's status and answer, never the sender's name or e-mail."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client, override_settings

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.codes import GradingCode
from ecfgrading.registry.models import Feedback, Player
from ecfgrading.services import limits
from ecfgrading.services.merge import merge_players

pytestmark = pytest.mark.django_db

NAME, EMAIL = "Zebedee Quux", "zq@example.org"
MESSAGE = "Round 4 against Brown was a win for me, not a loss."


def _players(count: int) -> list[Player]:
    return list(Player.objects.filter(merged_into__isnull=True).order_by("code")[:count])


def _code(player: Player) -> str:
    return str(GradingCode(player.code))  # G28: digits and check letter


def _report(code: str, **changes: str) -> dict[str, str]:
    fields = {
        "kind": "wrong-result",
        "player_code": code,
        "event": "Bath League 2011-12",
        "message": MESSAGE,
        "name": NAME,
        "email": EMAIL,
    }
    return {**fields, **changes}


def _ref(response: Any) -> str:
    found = re.match(r"^/feedback/(FB-[0-9A-Z]{8})/\?sent=1$", response["Location"])
    assert found is not None, response["Location"]
    return found.group(1)


def test_the_form_offers_the_five_kinds_of_report(client: Client, demo: DemoSummary) -> None:
    response = client.get("/feedback/")
    html = response.content.decode()
    for value, words in (
        ("wrong-result", "A wrong result"),
        ("wrong-details", "A wrong name or age"),
        ("missing-event", "A missing event"),
        ("duplicate", "A duplicate record"),
        ("other", "Another question about a grade"),
    ):
        assert f'value="{value}"' in html and words in html
    assert "no-store" in response["Cache-Control"]  # never cached: it carries a CSRF token


def test_csrf_is_enforced(demo: DemoSummary) -> None:
    client = Client(enforce_csrf_checks=True)
    code = _code(_players(1)[0])

    refused = client.post("/feedback/", _report(code))
    assert refused.status_code == 403
    assert not Feedback.objects.exists()

    page = client.get("/feedback/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    accepted = client.post("/feedback/", {**_report(code), "csrfmiddlewaretoken": token.group(1)})
    assert accepted.status_code == 302
    assert Feedback.objects.count() == 1


def test_a_report_is_stored_with_its_fields(client: Client, demo: DemoSummary) -> None:
    player = _players(1)[0]
    response = client.post("/feedback/", _report(_code(player).lower()))

    stored = Feedback.objects.get(ref=_ref(response))
    assert stored.kind == "wrong-result"
    assert stored.player_id == player.id
    assert stored.event == "Bath League 2011-12"
    assert stored.message == MESSAGE
    assert (stored.name, stored.email, stored.status) == (NAME, EMAIL, "open")


def test_a_merged_code_resolves_to_the_surviving_player(client: Client, demo: DemoSummary) -> None:
    kept, gone = _players(2)
    merge_players(_code(gone), _code(kept))

    response = client.post("/feedback/", _report(_code(gone)))

    stored = Feedback.objects.get(ref=_ref(response))
    assert stored.player_id == kept.id
    page = client.get(f"/feedback/{stored.ref}/").content.decode()
    assert _code(kept) in page


def test_the_status_page_shows_status_and_answer_but_not_name_or_e_mail(
    client: Client, demo: DemoSummary
) -> None:
    player = _players(1)[0]
    ref = _ref(client.post("/feedback/", _report(_code(player))))
    first = client.get(f"/feedback/{ref}/?sent=1").content.decode()
    assert "Open" in first and "your report has been received" in first

    answer = "Corrected: the game is now recorded as a win."
    Feedback.objects.filter(ref=ref).update(status="resolved", answer=answer)
    response = client.get(f"/feedback/{ref}/")
    html = response.content.decode()

    assert response.status_code == 200
    assert "Resolved" in html and answer in html
    assert player.surname in html and _code(player) in html
    for private in (NAME, EMAIL, MESSAGE):
        assert private not in html
    assert "no-store" in response["Cache-Control"]  # it changes when the team answers


def test_the_status_json_twin_has_the_answer_but_not_name_or_e_mail(
    client: Client, demo: DemoSummary
) -> None:
    ref = _ref(client.post("/feedback/", _report(_code(_players(1)[0]))))
    Feedback.objects.filter(ref=ref).update(status="declined", answer="The result stands.")

    data = client.get(f"/feedback/{ref}/", {"format": "json"}).json()

    assert (data["ref"], data["status"], data["answer"]) == (ref, "declined", "The result stands.")
    assert data["kind"] == "wrong-result"
    text = str(data)
    for private in (NAME, EMAIL, MESSAGE):
        assert private not in text


def test_an_unknown_reference_is_a_404_page(client: Client, demo: DemoSummary) -> None:
    response = client.get("/feedback/FB-AAAAAAAA/")
    assert response.status_code == 404
    assert "FB-AAAAAAAA" in response.content.decode()


def test_a_reference_typed_in_small_letters_redirects_to_its_page(
    client: Client, demo: DemoSummary
) -> None:
    ref = _ref(client.post("/feedback/", _report(_code(_players(1)[0]))))
    response = client.get(f"/feedback/{ref.lower()}/")
    assert response.status_code == 301
    assert response["Location"] == f"/feedback/{ref}/"


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("999999Z", "wrong check letter"),  # G28: not 999999's letter
        ("12345", "six digits and a check letter"),
    ],
)
def test_an_invalid_code_is_an_error_on_the_form(
    client: Client, demo: DemoSummary, code: str, words: str
) -> None:
    response = client.post("/feedback/", _report(code))

    assert response.status_code == 400
    html = response.content.decode()
    assert words in html.lower()
    assert 'aria-invalid="true"' in html
    assert MESSAGE in html  # what was typed is kept
    assert not Feedback.objects.exists()


def test_a_code_held_by_no_player_is_an_error_on_the_form(
    client: Client, demo: DemoSummary
) -> None:
    held = set(Player.objects.values_list("code", flat=True))
    free = next(number for number in range(100_000, 999_999) if number not in held)
    code = str(GradingCode(free))

    response = client.post("/feedback/", _report(code))

    assert response.status_code == 400
    assert f"No player has the grading code {code}" in response.content.decode()
    assert not Feedback.objects.exists()


def test_a_wrong_result_without_a_code_or_message_says_what_is_missing(
    client: Client, demo: DemoSummary
) -> None:
    response = client.post("/feedback/", _report("", message=""))
    html = response.content.decode()
    assert response.status_code == 400
    assert 'href="#fb-code"' in html and 'href="#fb-message"' in html  # the summary's links


def test_a_link_can_fill_the_form_in(client: Client, demo: DemoSummary) -> None:
    code = _code(_players(1)[0])
    html = client.get("/feedback/", {"code": code, "kind": "wrong-details"}).content.decode()
    assert f'value="{code}"' in html
    assert 'value="wrong-details" id="fb-kind-2" checked' in html


@pytest.fixture
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits count in fixed windows: a frozen clock keeps a test inside one."""
    frozen, clock = limits.timezone.now(), limits.timezone
    monkeypatch.setattr(
        limits, "timezone", SimpleNamespace(now=lambda: frozen, localtime=clock.localtime)
    )


@override_settings(FEEDBACK_RATE="2/h")
def test_over_the_limit_the_form_says_when_to_try_again(
    client: Client, demo: DemoSummary, fixed_clock: None
) -> None:
    code = _code(_players(1)[0])
    assert client.post("/feedback/", _report(code)).status_code == 302
    assert client.post("/feedback/", _report(code, message="")).status_code == 400  # not counted
    assert client.post("/feedback/", _report(code)).status_code == 302

    response = client.post("/feedback/", _report(code))

    assert response.status_code == 429
    html = " ".join(response.content.decode().split())
    assert "Too many reports from this address" in html
    assert re.search(r"Please try again <strong>after \d\d:\d\d \(in \d+ minutes?\)</strong>", html)
    assert 0 < int(response["Retry-After"]) <= 3600
    assert MESSAGE in html  # nothing typed is lost
    assert Feedback.objects.count() == 2

    other = client.post("/feedback/", _report(code), REMOTE_ADDR="192.0.2.7")
    assert other.status_code == 302  # the limit is per client address
