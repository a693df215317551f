"""Queries and corrections from the public feedback form, handled by the grading team:
assign, answer, resolve or decline (issue 11, item 3).

The sender follows the same ``Feedback`` row at /feedback/<ref>/, so a change here is
what he sees; his e-mail address, private, is used only to tell him of an answer. The
queries as the team lists them are ``lookups.queries``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from html import escape
from typing import Any

from django.db import transaction
from django.utils import timezone

from ecfgrading.lookups.queries import CLOSED, team_members
from ecfgrading.registry.models import Amendment, AuditLog, Feedback
from ecfgrading.services.amendments import record_amendment
from ecfgrading.services.audit import record_change
from ecfgrading.services.errors import NotFound, ServiceError
from ecfgrading.services.mail import queue_mail

Status = Feedback.Status


class QueryError(ServiceError):
    """A decision on a query that cannot be made as asked."""


@dataclass(frozen=True)
class Correction:
    """An amendment to record with a resolved correction: what changed and why."""

    what: str
    why: str


@dataclass(frozen=True)
class Answered:
    ref: str
    status: str
    mailed: bool
    amendment: Amendment | None


def assign(ref: str, member_id: int | None, *, user: Any) -> Feedback:
    """Give the query to a team member (None: to no one); an open query is then in
    progress."""
    member = _member(member_id)
    with transaction.atomic():
        feedback = _locked(ref)
        before = _assignment(feedback)
        feedback.assigned_to = member
        if member is not None and feedback.status == Status.OPEN:
            feedback.status = Status.IN_PROGRESS
        feedback.save(update_fields=["assigned_to", "status", "updated_at"])
        # Fields before and after, as every entry holds them (issue 24, case 6: a bare
        # user name here broke the audit page).
        record_change(
            "feedback.assigned",
            feedback,
            before=before,
            after=_assignment(feedback),
            user=user,
            ref=feedback.ref,
        )
    return feedback


def _assignment(feedback: Feedback) -> dict[str, str]:
    who = feedback.assigned_to.get_username() if feedback.assigned_to else ""
    return {"assigned_to": who, "status": str(feedback.status)}


def answer(
    ref: str,
    *,
    text: str,
    status: str,
    user: Any,
    status_url: str = "",
    correction: Correction | None = None,
) -> Answered:
    """Answer the query and set its status; the sender is told by e-mail when the answer
    is new and he left an address. A resolved correction may record an amendment."""
    if status not in Status.values:
        raise QueryError(f"expected a status among {', '.join(Status.values)}, got {status!r}")
    text = text.replace("\r\n", "\n").strip()  # a browser's textarea sends CRLF
    if status in CLOSED and not text:
        raise QueryError("expected an answer for the sender before the query is closed")
    if correction is not None and status != Status.RESOLVED:
        raise QueryError("expected a correction to be recorded with a resolved query only")
    with transaction.atomic():
        feedback = _locked(ref)
        before = {"status": feedback.status, "answer": feedback.answer}
        new_answer = bool(text) and text != feedback.answer
        feedback.answer, feedback.status = text, status
        feedback.resolved_at = timezone.now() if status in CLOSED else None
        feedback.save(update_fields=["answer", "status", "resolved_at", "updated_at"])
        AuditLog.record(
            "feedback.answered",
            feedback,
            user=user,
            ref=feedback.ref,
            before=before,
            after={"status": status, "answer": text},
        )
        amendment = _amend(feedback, correction, user)
        mailed = new_answer and bool(feedback.email)
        if mailed:
            _mail(feedback, status_url)
    return Answered(feedback.ref, feedback.status, mailed, amendment)


@dataclass(frozen=True)
class Noted:
    feedback: Feedback
    mailed: bool


def note_correction(ref: str, what: str, *, user: Any, status_url: str = "") -> Noted:
    """A correction made for the query (``services.team.corrections``, in its
    transaction): the answer says exactly what changed, the query is resolved and its
    sender told (issue 24, case 2)."""
    feedback = _locked(ref)
    before = {"status": feedback.status, "answer": feedback.answer}
    line = (
        f"Corrected on {_day(timezone.localdate())}: {what}. The next version of the "
        "list computed from now on counts it; the amendments page lists it."
    )
    feedback.answer = f"{feedback.answer}\n\n{line}" if feedback.answer else line
    feedback.status, feedback.resolved_at = Status.RESOLVED, timezone.now()
    feedback.save(update_fields=["answer", "status", "resolved_at", "updated_at"])
    after = {"status": feedback.status, "answer": feedback.answer}
    record_change(
        "feedback.answered", feedback, before=before, after=after, user=user, ref=feedback.ref
    )
    if feedback.email:
        _mail(feedback, status_url)
    return Noted(feedback, bool(feedback.email))


def _day(day: Any) -> str:
    return f"{day.day} {day:%B %Y}"


def _amend(feedback: Feedback, correction: Correction | None, user: Any) -> Amendment | None:
    if correction is None:
        return None
    return record_amendment(
        what=correction.what.strip(),
        why=correction.why.strip(),
        user=user,
        player=feedback.player.surviving() if feedback.player else None,
        feedback=feedback,
    )


def _mail(feedback: Feedback, status_url: str) -> None:
    """The answer in plain text with a simple HTML alternative (kind "answer")."""
    label = Status(feedback.status).label
    subject = f"Your grading query {feedback.ref}: {label.lower()}"
    follow = f"You can see it at any time at {status_url}" if status_url else ""
    hello = f"Dear {feedback.name}," if feedback.name else "Hello,"
    text = (
        f"{hello}\n\nThe grading team has answered your query {feedback.ref} "
        f"({feedback.get_kind_display().lower()}). Its status is now: {label.lower()}.\n\n"
        f"{feedback.answer}\n\n{follow}\n\nThe grading team\n"
    )
    link = (
        f'<p><a href="{escape(status_url)}">Your query {feedback.ref}</a></p>' if status_url else ""
    )
    paragraphs = "".join(f"<p>{escape(p)}</p>" for p in feedback.answer.split("\n\n") if p.strip())
    html = (
        f"<p>{escape(hello)}</p><p>The grading team has answered your query "
        f"<strong>{feedback.ref}</strong>. Its status is now: {escape(label.lower())}.</p>"
        f"{paragraphs}{link}<p>The grading team</p>"
    )
    digest = hashlib.sha256(f"{feedback.status}\n{feedback.answer}".encode()).hexdigest()[:16]
    queue_mail(
        "answer", feedback.email, subject, text, html=html, key=f"answer:{feedback.ref}:{digest}"
    )


def _locked(ref: str) -> Feedback:
    found = Feedback.objects.select_for_update().filter(ref=ref.strip().upper()).first()
    if found is None:
        raise NotFound(f"expected the reference of a query, got {ref!r}")
    return found


def _member(member_id: int | None) -> Any:
    if member_id is None:
        return None
    found = next((u for u in team_members() if u.id == member_id), None)
    if found is None:
        raise QueryError(f"expected a member of the grading team, got account {member_id}")
    return found
