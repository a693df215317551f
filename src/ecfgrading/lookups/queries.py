"""Queries and corrections from the public (the seeds' Grading Feedback Form): where one
stands, as its sender may see it at /feedback/<ref>/, and the list the grading team
works through, private details included.

Sending one is ``services.feedback``; the team's decisions on it are
``services.team.queries``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from ecfgrading.errors import NotFound, ServiceError
from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import Feedback

Status = Feedback.Status
CLOSED = (Status.RESOLVED, Status.DECLINED)
EXAMPLE_REF = "FB-7K3M9QXA"  # what a reference looks like, for a message


@dataclass(frozen=True)
class FeedbackStatus:
    """Where a report stands: everything the sender may see, never his name or e-mail."""

    ref: str
    kind: str
    kind_label: str
    status: str
    status_label: str
    player_code: str  # the surviving player's code, if one was named
    player_name: str
    event: str
    answer: str  # the grading team's answer, once given
    submitted_at: dt.datetime
    updated_at: dt.datetime
    resolved_at: dt.datetime | None

    @property
    def closed(self) -> bool:
        return self.status in CLOSED


@dataclass(frozen=True)
class QueryRow:
    ref: str
    kind: str  # its label
    status: str
    status_label: str
    player: str  # "Smith, John (123456A)" or the code as typed
    submitted_at: dt.datetime
    assigned_to: str


def feedback_status(ref: str) -> FeedbackStatus:
    """The status of the report ``ref`` (case does not matter); NotFound otherwise."""
    wanted = ref.strip().upper()
    feedback = Feedback.objects.filter(ref=wanted).select_related("player").first()
    if feedback is None:
        raise NotFound(f"no report has the reference {ref!r} (they look like {EXAMPLE_REF})")
    return _status(feedback)


def queries(status: str = "") -> list[QueryRow]:
    """Reports by status (all when ``status`` is empty), newest first."""
    found = Feedback.objects.select_related("player", "assigned_to")
    if status:
        if status not in Status.values:
            known = ", ".join(Status.values)
            raise ServiceError(f"expected a status among {known}, got {status!r}")
        found = found.filter(status=status)
    return [_row(f) for f in found.order_by("-submitted_at", "-id")]


def query(ref: str) -> Feedback:
    """One report with everything the team needs, private details included."""
    found = (
        Feedback.objects.select_related("player", "assigned_to")
        .filter(ref=ref.strip().upper())
        .first()
    )
    if found is None:
        raise NotFound(f"expected the reference of a query, got {ref!r}")
    return found


def team_members() -> list[Any]:
    """The accounts a query can be assigned to: active members of the grading team."""
    users = get_user_model().objects.filter(groups__name=Role.TEAM.value, is_active=True)
    return list(users.order_by("username"))


def _status(feedback: Feedback) -> FeedbackStatus:
    player = feedback.player.surviving() if feedback.player is not None else None
    return FeedbackStatus(
        ref=feedback.ref,
        kind=feedback.kind,
        kind_label=Feedback.Kind(feedback.kind).label,
        status=feedback.status,
        status_label=Status(feedback.status).label,
        player_code=player.ref if player else "",
        player_name=player.name if player else "",
        event=feedback.event,
        answer=feedback.answer,
        submitted_at=feedback.submitted_at,
        updated_at=feedback.updated_at,
        resolved_at=feedback.resolved_at,
    )


def _row(feedback: Feedback) -> QueryRow:
    player = (
        f"{feedback.player.name} ({feedback.player.ref})"
        if feedback.player
        else feedback.player_code
    )
    return QueryRow(
        feedback.ref,
        str(feedback.get_kind_display()),
        feedback.status,
        str(feedback.get_status_display()),
        player,
        feedback.submitted_at,
        feedback.assigned_to.get_username() if feedback.assigned_to else "",
    )
