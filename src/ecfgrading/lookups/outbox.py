"""The outbox as the grading team sees it: the latest messages with their status, how
many are in each status, and what a send would deliver now (the dry run). Queuing and
delivering mail are ``services.mail``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count
from django.utils import timezone

from ecfgrading.registry.models import OutboxMessage


def due(now: dt.datetime | None = None) -> list[OutboxMessage]:
    """The queued messages whose time has come, oldest first."""
    moment = now or timezone.now()
    return list(
        OutboxMessage.objects.filter(
            status=OutboxMessage.Status.QUEUED, next_attempt_at__lte=moment
        ).order_by("next_attempt_at", "id")
    )


@dataclass(frozen=True)
class OutboxRow:
    """One message as the outbox page and ``mail send --dry-run`` show it."""

    id: int
    kind: str
    to: str
    subject: str
    status: str
    status_words: str
    attempts: int
    last_error: str
    created_at: dt.datetime
    next_attempt_at: dt.datetime
    sent_at: dt.datetime | None
    has_html: bool


def outbox(*, status: str = "", limit: int = 200) -> list[OutboxRow]:
    """The latest messages, newest first; ``status`` keeps one status."""
    rows = OutboxMessage.objects.all()
    if status:
        rows = rows.filter(status=status)
    return [_row(message) for message in rows[:limit]]


def waiting_rows(now: dt.datetime | None = None) -> list[OutboxRow]:
    """What a send would deliver now (the dry run)."""
    return [_row(message) for message in due(now)]


def outbox_counts() -> dict[str, int]:
    """Messages by status, every status named."""
    counts = dict.fromkeys(OutboxMessage.Status.values, 0)
    for row in OutboxMessage.objects.values("status").annotate(n=Count("id")).order_by():
        counts[row["status"]] = row["n"]
    return counts


def _row(message: OutboxMessage) -> OutboxRow:
    return OutboxRow(
        id=message.pk,
        kind=message.kind,
        to=message.to,
        subject=message.subject,
        status=message.status,
        status_words=message.get_status_display(),
        attempts=message.attempts,
        last_error=message.last_error,
        created_at=message.created_at,
        next_attempt_at=message.next_attempt_at,
        sent_at=message.sent_at,
        has_html=bool(message.body_html),
    )
