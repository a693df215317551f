"""The feedback form's messages in plain words (issue 23, item 12): a report sent back
says what is wrong in the form's own words, never with the internal names of its
choices ("Expected one of wrong-result, ...") or fields ("player_code").

The cases are what a person (or a program posting the form) can send that the form's own
checks in the browser do not stop: every message the server gives.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.codes import GradingCode
from ecfgrading.registry.models import Feedback, Player

pytestmark = pytest.mark.django_db

# The internal names a sender must never read: the kinds' values and the fields' names.
SLUGS = ("wrong-result", "wrong-details", "missing-event", "player_code", "expected one of")
# The five kinds as the form labels them (the seeds' Grading Feedback Form).
LABELS = (
    "a wrong result",
    "a wrong name or age",
    "a missing event",
    "a duplicate record",
    "another question about a grade",
)


def _code() -> str:
    player = Player.objects.filter(merged_into__isnull=True).order_by("code").first()
    assert player is not None
    return str(GradingCode(player.code))


def _sent(client: Client, **changes: str) -> str:
    """The problems a report sent back shows: the summary and each field's message."""
    fields = {"kind": "other", "player_code": "", "event": "", "message": "Please look."}
    response = client.post("/feedback/", {**fields, **changes})
    assert response.status_code == 400, changes
    html = response.content.decode()
    found = re.findall(r'<div class="notice problems"[^>]*>(.*?)</div>', html, re.S)
    found += re.findall(r'<p class="error"[^>]*>(.*?)</p>', html, re.S)
    assert found, changes
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", " ".join(found))).split())


CASES = {
    "no kind": {"kind": ""},
    "an unknown kind": {"kind": "wrong-grade"},
    "a kind in other letters": {"kind": "Wrong Result"},
    "a wrong result without a code": {"kind": "wrong-result"},
    "a missing event without its name": {"kind": "missing-event"},
    "no message": {"message": ""},
    "a message too long": {"message": "x" * 5001},
    "an event name too long": {"event": "x" * 1000},
    "a name too long": {"name": "x" * 1000},
    "an e-mail address too long": {"email": "x" * 300 + "@example.org"},
    "no e-mail address": {"email": "zebedee at example"},
    "a code of the wrong shape": {"player_code": "12345"},
    "a code with a wrong check letter": {"player_code": "999999Z"},
}


@pytest.mark.parametrize("changes", CASES.values(), ids=CASES.keys())
def test_no_message_shows_an_internal_name(
    client: Client, demo: DemoSummary, changes: dict[str, str]
) -> None:
    text = _sent(client, **changes)
    for slug in SLUGS:
        assert slug not in text.lower(), text
    assert not Feedback.objects.exists()


def test_an_unknown_kind_is_answered_with_the_forms_own_choices(
    client: Client, demo: DemoSummary
) -> None:
    text = _sent(client, kind="wrong-grade").lower()
    assert "choose what is wrong" in text
    for label in LABELS:
        assert label in text, label


def test_a_long_message_says_how_long_it_is_and_how_long_it_may_be(
    client: Client, demo: DemoSummary
) -> None:
    text = _sent(client, message="x" * 5001)
    assert "5,001 characters" in text and "at most 5,000" in text


def test_a_wrong_check_letter_says_which_letter_goes_with_the_digits(
    client: Client, demo: DemoSummary
) -> None:
    code = _code()
    digits, letter = code[:6], code[6]
    wrong = next(c for c in "ABCDEFGHJK" if c != letter)
    text = _sent(client, kind="wrong-result", player_code=digits + wrong)
    assert f"ends in {letter}, not {wrong}" in text
