"""Mail (issue 11, item 5): every message through the outbox, delivered by the real
background worker (django-tasks' database worker, run here in-process) to a real SMTP
server on loopback; a refusal is retried later, and given up after the last try.

The worker's tests use ``transactional_db``: the worker commits and closes connections
as it does in production, which a test wrapped in one transaction would not survive.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import OutboxMessage
from ecfgrading.services import mail
from ecfgrading.services.accounts import create_user
from ecfgrading.services.mail import (
    deliver_due,
    deliver_mail,
    queue_mail,
    request_delivery,
    retry_wait,
)
from tests.backoffice.conftest import PASSWORD, Mailbox, _free_port, serving, signed_in


class RefusingMailbox(Mailbox):
    """A server that answers the first ``refusals`` messages with 451 (try later)."""

    def __init__(self, refusals: int) -> None:
        super().__init__()
        self.refusals = refusals
        self.refused = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refused < self.refusals:
            self.refused += 1
            return "451 4.3.0 Mailbox busy, try again later"
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def refuses_once() -> Iterator[RefusingMailbox]:
    yield from serving(RefusingMailbox(1))


@pytest.fixture
def refuses_always() -> Iterator[RefusingMailbox]:
    yield from serving(RefusingMailbox(10**6))


def team_login() -> Any:
    """A team login in a transactional test, whose flushes drop the migrations' groups."""
    for role in Role:
        Group.objects.get_or_create(name=role.value)
    return create_user("tess", role=Role.TEAM, email="tess@team.example", password=PASSWORD)


def run_worker() -> None:
    """The real worker: django-tasks' db_worker, until nothing is ready."""
    call_command(
        "db_worker", batch=True, interval=0, startup_delay=False, reload=False, verbosity=0
    )


HTML = "<p>Your games: <strong>3</strong></p>"


@pytest.mark.django_db(transaction=True)
def test_the_worker_delivers_a_queued_message_as_text_with_its_html_alternative(
    smtp: Mailbox,
) -> None:
    with override_settings(DEFAULT_FROM_EMAIL="grading@federation.example"):
        queue_mail("games", "mia@home.example", "Your games", "Your games: 3\n", html=HTML)
        assert DBTaskResult.objects.filter(task_path=deliver_mail.module_path).count() == 1

        run_worker()

    (message,) = smtp.messages
    assert smtp.recipients == [["mia@home.example"]]
    assert message["Subject"] == "Your games"
    assert message["From"] == "grading@federation.example"
    assert message.get_content_type() == "multipart/alternative"
    text, html = (part for part in message.iter_parts())
    assert text.get_content_type() == "text/plain"
    assert text.get_content().replace("\r\n", "\n") == "Your games: 3\n"  # CRLF on the wire
    assert html.get_content_type() == "text/html"
    assert "<strong>3</strong>" in html.get_content()
    sent = OutboxMessage.objects.get()
    assert (sent.status, sent.attempts, sent.last_error) == ("sent", 1, "")
    assert sent.sent_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_message_without_html_is_plain_text_only(smtp: Mailbox) -> None:
    queue_mail("chase", "olga@club.example", "Results overdue", "Please send them.\n")

    run_worker()

    (message,) = smtp.messages
    assert message.get_content_type() == "text/plain"
    assert message.get_content().replace("\r\n", "\n") == "Please send them.\n"


@pytest.mark.django_db(transaction=True)
def test_a_refused_message_is_retried_by_the_worker_and_then_delivered(
    refuses_once: RefusingMailbox,
) -> None:
    # No wait between tries, so one batch run of the worker reaches the retry it enqueues.
    with override_settings(MAIL_RETRY_SECONDS=0):
        queue_mail("feedback", "olga@club.example", "Results accepted", "Report\n")

        run_worker()

    assert refuses_once.refused == 1
    (message,) = refuses_once.messages
    assert message["Subject"] == "Results accepted"
    sent = OutboxMessage.objects.get()
    assert (sent.status, sent.attempts, sent.last_error) == ("sent", 2, "")
    # The first run found the refusal and enqueued a second run, which delivered it.
    runs = DBTaskResult.objects.filter(task_path=deliver_mail.module_path)
    assert runs.count() == 2
    assert set(runs.values_list("status", flat=True)) == {"SUCCESSFUL"}


@pytest.mark.django_db(transaction=True)
def test_a_refusal_is_recorded_and_the_retry_waits_its_turn(
    refuses_once: RefusingMailbox,
) -> None:
    queue_mail("feedback", "olga@club.example", "Results accepted", "Report\n")
    before = timezone.now()

    run_worker()  # the default first wait is 300 s: the retry is not ready yet

    waiting = OutboxMessage.objects.get()
    assert waiting.status == "queued"
    assert waiting.attempts == 1
    assert waiting.last_error == "451 4.3.0 Mailbox busy, try again later"
    assert before + dt.timedelta(seconds=299) < waiting.next_attempt_at
    assert waiting.next_attempt_at < timezone.now() + dt.timedelta(seconds=301)
    later = DBTaskResult.objects.get(status="READY", task_path=deliver_mail.module_path)
    assert later.run_after == waiting.next_attempt_at
    assert refuses_once.messages == []

    done = deliver_due(now=waiting.next_attempt_at)  # the retry's time has come

    assert (done.sent, done.retrying, done.failed) == (1, 0, 0)
    assert len(refuses_once.messages) == 1
    assert OutboxMessage.objects.get().attempts == 2


@pytest.mark.django_db(transaction=True)
def test_a_message_always_refused_is_given_up_after_the_last_try(
    refuses_always: RefusingMailbox,
) -> None:
    with override_settings(MAIL_RETRY_SECONDS=0, MAIL_MAX_ATTEMPTS=3):
        queue_mail("games", "mia@home.example", "Your games", "Text\n")

        run_worker()

    failed = OutboxMessage.objects.get()
    assert (failed.status, failed.attempts) == ("failed", 3)
    assert failed.last_error.startswith("451 ")
    assert refuses_always.refused == 3
    assert not DBTaskResult.objects.filter(status="READY").exists()


@pytest.mark.django_db(transaction=True)
def test_a_server_that_is_down_is_a_failed_try_of_each_message_and_a_retry_later() -> None:
    nothing_listens = _free_port()
    with override_settings(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=nothing_listens,
    ):
        queue_mail("games", "mia@home.example", "Your games", "Text\n")
        queue_mail("games", "joe@home.example", "Your games", "Text\n")

        run_worker()

    rows = OutboxMessage.objects.order_by("id")
    assert [(m.status, m.attempts) for m in rows] == [("queued", 1), ("queued", 1)]
    assert all(m.last_error.startswith("ConnectionRefusedError") for m in rows)
    run = DBTaskResult.objects.get(task_path=deliver_mail.module_path, status="SUCCESSFUL")
    assert run.return_value == {"sent": 0, "retrying": 2, "failed": 0}
    assert DBTaskResult.objects.filter(status="READY").count() == 1  # the retry, later


def test_each_wait_is_twice_the_one_before_up_to_six_hours() -> None:
    with override_settings(MAIL_RETRY_SECONDS=300):
        waits = [retry_wait(n).total_seconds() for n in (1, 2, 3, 4, 8, 12)]

    assert waits == [300, 600, 1200, 2400, 6 * 3600, 6 * 3600]  # 300 x 2^7 > 6 h


@pytest.mark.django_db
def test_queue_mail_with_a_key_queues_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        first = queue_mail("games", "a@b.example", "One", "x", key="games:2013-07:initial:1")
        again = queue_mail("games", "a@b.example", "Two", "y", key="games:2013-07:initial:1")

    assert again.pk == first.pk
    assert OutboxMessage.objects.get().subject == "One"
    assert len(callbacks) == 1  # the worker asked once, on commit
    assert DBTaskResult.objects.filter(task_path=deliver_mail.module_path).count() == 1


@pytest.mark.django_db
def test_asking_for_delivery_twice_enqueues_one_run() -> None:
    assert request_delivery() is True
    assert request_delivery() is False
    # A run enqueued for later does not stand in for one wanted now.
    DBTaskResult.objects.all().delete()
    assert request_delivery(at=timezone.now() + dt.timedelta(hours=1)) is True
    assert request_delivery() is True
    assert DBTaskResult.objects.filter(status="READY").count() == 2


@pytest.mark.django_db
def test_a_message_claimed_by_another_worker_is_left_alone(smtp: Mailbox) -> None:
    message = queue_mail("games", "mia@home.example", "Your games", "Text\n")
    OutboxMessage.objects.filter(pk=message.pk).update(next_attempt_at=timezone.now() + mail.LEASE)

    done = deliver_due()

    assert done.sent == 0
    assert smtp.messages == []


# --- the outbox page ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_send_now_enqueues_the_worker_and_sends_nothing_in_the_request(
    smtp: Mailbox,
) -> None:
    team = team_login()
    OutboxMessage.objects.create(
        kind="chase", to="olga@club.example", subject="Late", body_text="x"
    )
    client = signed_in(team)

    response = client.post(reverse("backoffice:mail_send"))

    assert response.status_code == 302
    assert smtp.messages == []  # nothing sent by the request
    assert DBTaskResult.objects.filter(status="READY").count() == 1

    run_worker()

    assert [m["Subject"] for m in smtp.messages] == ["Late"]
    page = client.get(reverse("backoffice:mail")).content.decode()
    assert "0 queued, 1 sent, 0 failed" in page


@pytest.mark.django_db
def test_the_outbox_page_shows_status_kind_address_subject_tries_and_error(team: Any) -> None:
    OutboxMessage.objects.create(
        kind="games",
        to="mia@home.example",
        subject="Your games received",
        body_text="x",
        status="failed",
        attempts=8,
        last_error="451 4.3.0 Mailbox busy",
    )

    page = signed_in(team).get(reverse("backoffice:mail") + "?status=failed").content.decode()

    for shown in ("mia@home.example", "Your games received", "games", "Failed (gave up)"):
        assert shown in page
    assert "451 4.3.0 Mailbox busy" in page
    assert '<td class="num">8</td>' in page


@pytest.mark.django_db
def test_the_dry_run_lists_what_is_due_and_sends_nothing(team: Any, smtp: Mailbox) -> None:
    OutboxMessage.objects.create(kind="chase", to="due@club.example", subject="Due", body_text="x")
    OutboxMessage.objects.create(
        kind="chase",
        to="later@club.example",
        subject="Later",
        body_text="x",
        next_attempt_at=timezone.now() + dt.timedelta(hours=1),
    )

    page = signed_in(team).get(reverse("backoffice:mail_preview")).content.decode()

    assert "due@club.example" in page
    assert "later@club.example" not in page
    assert "1 message due" in page
    assert smtp.messages == []
    assert OutboxMessage.objects.filter(status="queued").count() == 2


@pytest.mark.parametrize("name", ["mail_send", "mail_games"])
@pytest.mark.django_db
def test_mail_forms_refuse_a_post_without_the_csrf_token(name: str, team: Any) -> None:
    client = signed_in(team, enforce_csrf_checks=True)

    response = client.post(reverse(f"backoffice:{name}"), {})

    assert response.status_code == 403
    assert b"CSRF" in response.content
