"""Mail headers from safe text, and a message that cannot be sent never blocks the others
(issue 24, case 9): a line break in a subject (an event's name, a file's name) or in an
address, delivered to a real SMTP server on loopback.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from ecfgrading.registry.models import OutboxMessage
from ecfgrading.services.mail import deliver_due, queue_mail
from tests.backoffice.conftest import Mailbox
from tests.backoffice.test_mail import run_worker

CRAFTED = "Results accepted: Congress\r\nBcc: spy@elsewhere.example"
BAD_ADDRESS = "olga@club.example\nBcc: spy@elsewhere.example"


@pytest.mark.django_db
def test_a_line_break_in_a_subject_is_sent_as_a_space_and_makes_no_header(smtp: Mailbox) -> None:
    """Issue 24, case 9: the subject arrives on one line; no Bcc of the sender's choosing."""
    queue_mail("feedback", "olga@club.example", CRAFTED, "The report.\n")

    done = deliver_due()

    (message,) = smtp.messages
    assert message["Subject"] == "Results accepted: Congress Bcc: spy@elsewhere.example"
    assert message["Bcc"] is None
    assert smtp.recipients == [["olga@club.example"]]
    assert (done.sent, done.failed) == (1, 0)
    assert OutboxMessage.objects.get().subject == (
        "Results accepted: Congress Bcc: spy@elsewhere.example"
    )


@pytest.mark.django_db
def test_a_subject_stored_with_a_line_break_before_the_fix_is_still_sent(smtp: Mailbox) -> None:
    """Issue 24, case 9: a row queued by the old code is sent, its subject on one line."""
    OutboxMessage.objects.create(
        kind="feedback", to="olga@club.example", subject="Results\naccepted", body_text="R\n"
    )

    deliver_due()

    (message,) = smtp.messages
    assert message["Subject"] == "Results accepted"
    assert OutboxMessage.objects.get().status == "sent"


@pytest.mark.django_db
def test_a_message_that_cannot_be_sent_is_failed_with_its_reason_and_the_others_go(
    smtp: Mailbox,
) -> None:
    """Issue 24, case 9: the bad message comes first; it fails at once, with why, and the
    run delivers the two behind it."""
    earlier = timezone.now() - timezone.timedelta(minutes=1)
    bad = queue_mail("feedback", BAD_ADDRESS, "Results accepted", "R\n")
    OutboxMessage.objects.filter(pk=bad.pk).update(next_attempt_at=earlier)
    queue_mail("chase", "oscar@club.example", "Results overdue", "Please.\n")
    queue_mail("games", "mia@home.example", "Your games", "3\n")

    done = deliver_due()

    assert (done.sent, done.retrying, done.failed) == (2, 0, 1)
    assert sorted(r for (r,) in smtp.recipients) == ["mia@home.example", "oscar@club.example"]
    bad.refresh_from_db()
    assert (bad.status, bad.attempts) == ("failed", 1)
    assert bad.last_error.startswith("cannot be sent: ValueError: Invalid address"), bad.last_error
    assert deliver_due().sent == 0  # nothing left queued: it is not tried for ever


@pytest.mark.django_db(transaction=True)
def test_the_worker_run_is_not_stopped_by_a_message_that_cannot_be_sent(smtp: Mailbox) -> None:
    """Issue 24, case 9: the real worker (db_worker) delivers what follows a bad message."""
    bad = queue_mail("feedback", BAD_ADDRESS, "Results accepted", "R\n")
    OutboxMessage.objects.filter(pk=bad.pk).update(
        next_attempt_at=timezone.now() - timezone.timedelta(minutes=1)
    )
    queue_mail("chase", "oscar@club.example", "Results overdue", "Please.\n")

    run_worker()

    assert smtp.recipients == [["oscar@club.example"]]
    statuses = dict(OutboxMessage.objects.values_list("to", "status"))
    assert statuses == {BAD_ADDRESS: "failed", "oscar@club.example": "sent"}
