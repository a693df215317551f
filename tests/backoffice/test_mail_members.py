"""The members' games mailing end to end: queued by the CLI or by the team's button
(the worker builds it), delivered by the worker or `ecfgrading mail send` to a real SMTP
server on loopback, read back as plain text with its HTML alternative."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from django.urls import reverse

from ecfgrading.cli import main
from ecfgrading.registry.models import DirectMember, OutboxMessage, Player
from ecfgrading.services.members import create_member
from ecfgrading.services.results.ingest import import_results
from tests.backoffice.conftest import Mailbox, signed_in
from tests.backoffice.test_mail import run_worker, team_login
from tests.backoffice.test_members import PLAYERS, STANDARD_GAMES
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def joe() -> DirectMember:
    assert import_results(results_file(PLAYERS, STANDARD_GAMES), filename="open.txt").accepted
    return create_member("261619B", "DM1001", email="joe@home.example")


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def _parts(message: Any) -> tuple[str, str]:
    text, html = message.iter_parts()
    return text.get_content().replace("\r\n", "\n"), html.get_content()


def test_the_cli_queues_the_mailing_once_and_sends_it(joe: DirectMember, smtp: Mailbox) -> None:
    Player.objects.create(code=300003, surname="Other", forenames="Olly")
    DirectMember.objects.create(player_id=Player.objects.get(code=300003).pk, number="DM3003")

    dry = invoke("mail", "games", "--list", "2013-07", "--before", "initial", "--dry-run")
    first = invoke("mail", "games", "--list", "2013-07", "--before", "initial")
    second = invoke("mail", "games", "--list", "2013-07", "--before", "initial")
    preview = invoke("mail", "send", "--dry-run")
    sent = invoke("mail", "send")

    assert dry == (
        0,
        "games before the initial 2013-07 list: would queue 1, 0 already queued before,"
        " 1 members without e-mail\n",
    )
    assert first[0] == 0 and "queued 1, 0 already" in first[1]
    assert second[0] == 0 and "queued 0, 1 already queued before" in second[1]
    assert "joe@home.example" in preview[1]
    assert "1 messages would be sent (dry run: nothing sent)" in preview[1]
    assert sent == (0, "1 sent, 0 to retry, 0 failed\n")
    (message,) = smtp.messages
    assert message["To"] == "joe@home.example"
    text, html = _parts(message)
    assert "Standard: 2 games" in text
    assert "12 May 2013  ½  black  Smith, Jane" in text
    assert '<td style="text-align: right; padding: .2em .6em;">½</td>' in html
    assert OutboxMessage.objects.get().status == "sent"


def test_a_mailing_that_cannot_go_is_a_clean_error(joe: DirectMember) -> None:
    code, output = invoke("mail", "games", "--list", "2013-07", "--before", "august")

    assert code == 1
    assert "no initial version published yet" in output


def test_the_teams_button_hands_the_mailing_to_the_worker_which_sends_it(
    joe: DirectMember, smtp: Mailbox
) -> None:
    client = signed_in(team_login())

    response = client.post(
        reverse("backoffice:mail_games"), {"list_id": "2013-07", "before": "initial"}
    )
    assert response.status_code == 302
    assert smtp.messages == []

    run_worker()

    (message,) = smtp.messages
    assert message["Subject"] == "Your games received for the 2013-07 initial grading list"
    text, html = _parts(message)
    assert "11 May 2013  1  white  Smith, Jane" in text
    assert "<caption" in html
    page = client.get(reverse("backoffice:mail")).content.decode()
    assert "0 queued, 1 sent, 0 failed" in page
