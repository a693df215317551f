"""The results files a user has sent, as his back-office page lists them (issue 24, case
14: officers could not see their rejected or earlier submissions): newest first, a page
at a time, each with its status, the reasons a rejected one was refused, and what became
of an accepted one later (superseded by a higher submission index).

Only the files the user sent himself (``Submission.sender``): never another officer's,
whatever the event. A page costs two queries (the count and the page); the files' bytes
are not read.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ecfgrading.lookups.paging import Page, bounds
from ecfgrading.registry.models import Submission

PER_PAGE = 25
REASONS_SHOWN = 20  # a file with hundreds of errors shows the first, then a count
_FIELDS = (
    "id",
    "filename",
    "event_code",
    "event__name",
    "submission_index",
    "received_at",
    "status",
    "duplicates",
    "report",
)


@dataclass(frozen=True)
class SentFile:
    """One file sent, as its sender sees it."""

    id: int
    filename: str
    event_code: str
    event_name: str
    index: int | None
    received_at: dt.datetime
    status: str  # received, accepted, rejected, superseded
    status_words: str
    reasons: tuple[str, ...]  # a rejected file's errors, by line (the first REASONS_SHOWN)
    more_reasons: int  # errors beyond those
    warnings: int
    decision: str  # the grading team's decision on games on record elsewhere, if any


def sent_files(user: Any, *, page: int = 1, per_page: int = PER_PAGE) -> Page[SentFile]:
    """The files ``user`` sent, newest first: page ``page`` (the last when past it)."""
    mine = Submission.objects.filter(sender_id=getattr(user, "pk", None)).order_by(
        "-received_at", "-id"
    )
    total = mine.count()
    number = min(max(1, page), max(1, -(-total // per_page)))
    start, end = bounds(number, per_page)
    rows = [_sent(values) for values in mine.values(*_FIELDS)[start:end]]
    return Page(rows, number, per_page, total)


def _sent(values: Mapping[str, Any]) -> SentFile:
    problems = _problems(values["report"])
    errors = [p.get("message", "") for p in problems if p.get("severity") == "error"]
    status = values["status"]
    rejected = status == Submission.Status.REJECTED
    shown = errors[:REASONS_SHOWN] if rejected else []
    duplicates = values["duplicates"]
    return SentFile(
        id=values["id"],
        filename=values["filename"],
        event_code=values["event_code"],
        event_name=values["event__name"] or "",
        index=values["submission_index"],
        received_at=values["received_at"],
        status=status,
        status_words=_words(status),
        reasons=tuple(shown),
        more_reasons=len(errors) - len(shown) if rejected else 0,
        warnings=sum(1 for p in problems if p.get("severity") == "warning"),
        decision=Submission.Duplicates(duplicates).label if duplicates else "",
    )


def _problems(report: Any) -> Sequence[Mapping[str, Any]]:
    found = report.get("problems", []) if isinstance(report, dict) else []
    return [p for p in found if isinstance(p, dict)]


# Submission.Status in words, by value.
_WORDS = {
    "received": "received: being checked",
    "accepted": "accepted",
    "rejected": "rejected: nothing was imported",
    "superseded": "superseded by a later file for the event",
}


def _words(status: str) -> str:
    return _WORDS.get(status, status)
