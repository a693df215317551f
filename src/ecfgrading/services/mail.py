"""Mail: every message goes through the outbox (``OutboxMessage``), kept with its status,
sent by the mail worker and retried on failure (issue 11, item 5).

``queue_mail`` only writes a row (and, once the row is committed, asks the worker to
deliver); ``deliver_due`` is what the worker runs: it sends each message that is due
through Django's SMTP backend, as plain text with the HTML alternative when there is one.
A message the server refuses or cannot take is tried again later, each wait twice the
one before (``MAIL_RETRY_SECONDS``), and marked failed after ``MAIL_MAX_ATTEMPTS`` tries;
one that cannot be sent at all is marked failed at once with its reason, and the run goes
on with the others. Headers are made from text without line breaks (``header_text``).
Nothing here sends inside a web request. Delivery is the worker's task (``deliver_mail``),
which asks to be run again when a message is left to retry, at the time its retry is due.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import re
import smtplib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks import task
from django_tasks_db.models import DBTaskResult, get_date_max

from ecfgrading.lookups.outbox import due
from ecfgrading.progress import Progress
from ecfgrading.registry.models import OutboxMessage

log = logging.getLogger(__name__)

# While one worker sends a message, others leave it alone for this long (a lease, not a
# lock: no transaction stays open while the SMTP server answers).
LEASE = dt.timedelta(minutes=10)
# However many tries, a retry waits at most this long.
LONGEST_WAIT = dt.timedelta(hours=6)
# OutboxMessage.subject's length.
LONGEST_SUBJECT = 255


def header_text(text: str) -> str:
    """Text fit for a mail header: every run of white space, line breaks included, one
    space (issue 24, case 9). A subject is made from an event's name or a file's; a line
    break in it would be a header of the sender's choosing, and Django refuses to send it."""
    return re.sub(r"\s+", " ", text).strip()


def queue_mail(
    kind: str,
    to: str,
    subject: str,
    text: str,
    *,
    html: str = "",
    key: str | None = None,
) -> OutboxMessage:
    """Queue one message; with a ``key`` already queued, the earlier message is returned
    and nothing is queued twice. The worker is asked to send it once it is committed."""
    if key is not None:
        found = OutboxMessage.objects.filter(key=key).first()
        if found is not None:
            return found
    message = OutboxMessage.objects.create(
        kind=kind,
        to=to.strip(),
        subject=header_text(subject)[:LONGEST_SUBJECT],
        body_text=text,
        body_html=html,
        key=key,
    )
    transaction.on_commit(_ask_worker)
    return message


def _ask_worker() -> None:
    request_delivery()


def retry_wait(attempts: int) -> dt.timedelta:
    """The wait after the ``attempts``-th failure: 1, 2, 4... times the first wait."""
    first = dt.timedelta(seconds=settings.MAIL_RETRY_SECONDS)
    return min(first * 2 ** max(attempts - 1, 0), LONGEST_WAIT)


@dataclass(frozen=True)
class Delivery:
    """What one run of the sender did."""

    sent: int
    retrying: int  # failed this time, to be tried again
    failed: int  # failed for the last time
    next_attempt_at: dt.datetime | None  # the earliest retry still queued, if any

    def to_text(self) -> str:
        text = f"{self.sent} sent, {self.retrying} to retry, {self.failed} failed"
        if self.next_attempt_at is not None:
            text += f"; next try at {timezone.localtime(self.next_attempt_at):%Y-%m-%d %H:%M}"
        return text


def deliver_due(*, now: dt.datetime | None = None, progress: Progress | None = None) -> Delivery:
    """Send every message that is due, each marked sent, or its error recorded and a
    retry set. One SMTP connection serves the run; a server that cannot be reached at all
    counts as one failed try of each message due. A message another worker has claimed
    is skipped."""
    waiting = due(now)
    outcomes: list[str] = []
    connection = get_connection()
    try:
        connection.open()
    except (OSError, smtplib.SMTPException) as error:
        unreachable: BaseException | None = error
    else:
        unreachable = None
    try:
        for done, message in enumerate(waiting):
            if progress:
                progress(done, len(waiting), message.to)
            if _claim(message):
                outcomes.append(_send(connection, message, unreachable))
    finally:
        _close_quietly(connection)
    if progress:
        progress(len(waiting), len(waiting), "")
    # A message's status after its try: sent, queued again (a retry), or failed.
    return Delivery(
        outcomes.count("sent"), outcomes.count("queued"), outcomes.count("failed"), next_retry()
    )


def next_retry() -> dt.datetime | None:
    """When the earliest queued message is next due."""
    return (
        OutboxMessage.objects.filter(status=OutboxMessage.Status.QUEUED)
        .order_by("next_attempt_at")
        .values_list("next_attempt_at", flat=True)
        .first()
    )


def _claim(message: OutboxMessage) -> bool:
    """Take the message for this worker: one UPDATE that succeeds for one worker only."""
    now = timezone.now()
    taken = OutboxMessage.objects.filter(
        pk=message.pk,
        status=OutboxMessage.Status.QUEUED,
        next_attempt_at=message.next_attempt_at,
    ).update(next_attempt_at=now + LEASE)
    return taken == 1


def _email(message: OutboxMessage, connection: object) -> EmailMultiAlternatives:
    email = EmailMultiAlternatives(
        header_text(message.subject),  # a row queued before subjects were made safe
        message.body_text,
        settings.DEFAULT_FROM_EMAIL,
        [message.to],
        connection=connection,
    )
    if message.body_html:
        email.attach_alternative(message.body_html, "text/html")
    return email


def _send(connection: object, message: OutboxMessage, unreachable: BaseException | None) -> str:
    """Send one claimed message (unless the server is known unreachable) and record what
    became of it."""
    message.attempts += 1
    now = timezone.now()
    try:
        if unreachable is not None:
            raise unreachable
        _email(message, connection).send()
    except (OSError, smtplib.SMTPException) as error:
        log.warning(
            "mail %s to %s not sent (try %s): %s", message.pk, message.to, message.attempts, error
        )
        message.last_error = _said(error)
        if message.attempts >= settings.MAIL_MAX_ATTEMPTS:
            message.status = OutboxMessage.Status.FAILED
        message.next_attempt_at = now + retry_wait(message.attempts)
        if unreachable is None:
            _close_quietly(connection)  # half-open after a failure: the next one opens anew
    except Exception as error:
        # Not the server's doing: the message itself cannot be sent (Django refuses an
        # address with a line break, say). No retry can help; it must not stop the run.
        log.exception("mail %s to %r cannot be sent", message.pk, message.to)
        message.last_error = header_text(f"cannot be sent: {type(error).__name__}: {error}")
        message.status = OutboxMessage.Status.FAILED
        _close_quietly(connection)
    else:
        message.status = OutboxMessage.Status.SENT
        message.sent_at = now
        message.last_error = ""
    message.save(update_fields=["attempts", "status", "last_error", "next_attempt_at", "sent_at"])
    return str(message.status)


def _said(error: BaseException) -> str:
    """The server's answer in words, e.g. '451 try again later'."""
    if isinstance(error, smtplib.SMTPResponseException):
        text = (
            error.smtp_error.decode("utf-8", "replace")
            if isinstance(error.smtp_error, bytes)
            else str(error.smtp_error)
        )
        return f"{error.smtp_code} {text}"
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        answers = [
            f"{code} {text.decode('utf-8', 'replace')}" for code, text in error.recipients.values()
        ]
        return "; ".join(answers) or str(error)
    return f"{type(error).__name__}: {error}"


def _close_quietly(connection: object) -> None:
    close = getattr(connection, "close", None)
    if close is not None:
        with contextlib.suppress(OSError, smtplib.SMTPException):
            close()


@task()
def deliver_mail() -> dict[str, Any]:
    """Send what is due; ask to run again when the earliest retry is due."""
    done = deliver_due()
    if done.next_attempt_at is not None:
        request_delivery(at=done.next_attempt_at)
    return {"sent": done.sent, "retrying": done.retrying, "failed": done.failed}


def request_delivery(*, at: dt.datetime | None = None) -> bool:
    """Enqueue a delivery run now (or at ``at``) unless one is already waiting that will
    run by then. True when one was enqueued."""
    if _waiting_run(deliver_mail.module_path, at):
        return False
    runner = (
        deliver_mail if at is None or at <= timezone.now() else deliver_mail.using(run_after=at)
    )
    runner.enqueue()
    return True


def _waiting_run(task_path: str, at: dt.datetime | None) -> bool:
    """A run of the task not yet started that will start by ``at`` (now if None)."""
    by = at or timezone.now()
    return (
        DBTaskResult.objects.filter(status="READY", task_path=task_path)
        .filter(Q(run_after=get_date_max()) | Q(run_after__lte=by))
        .exists()
    )
