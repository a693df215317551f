"""A grading officer's work in the back office: registering an event, checking and
submitting a results file, and the report mailed back.

An officer submits only for the events he registered or was assigned
(``Event.grading_officer``, ``lookups.officer_events.events_of``); the grading team for
every event. His events and accepted files as shown are ``lookups.officer_events``.
"""

from __future__ import annotations

import datetime as dt
import enum
import re
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction

from ecfgrading.engine.rateplay import TimeControlInput, rate_of_play
from ecfgrading.engine.types import NotGraded, Rate
from ecfgrading.formats.encoding import utf16_marked
from ecfgrading.formats.problems import Problem
from ecfgrading.lookups.officer_events import events_of
from ecfgrading.lookups.roles import Role, has_role
from ecfgrading.registry.models import Event
from ecfgrading.services.errors import ServiceError
from ecfgrading.services.events import EventError, register_event
from ecfgrading.services.mail import queue_mail
from ecfgrading.services.results.import_report import ImportReport
from ecfgrading.services.results.ingest import (
    ImportResult,
    check_results,
    import_results,
    reject,
    store_raw,
)

# The seeds promise a deadline after an event's end but give no figure: four weeks lets a
# congress's officer type the results and still leaves the team time before a list.
RESULTS_DAYS = 28
# A results file of a large congress is some tens of kilobytes; anything near a megabyte
# is not a results file, and is refused before it is read.
MAX_UPLOAD_BYTES = 1024 * 1024


class UploadRefused(ServiceError):
    """A file refused before it is read: too large, empty, or not text."""


def results_deadline(end: dt.date) -> dt.date:
    """The date results are due for an event ending on ``end``."""
    return end + dt.timedelta(days=RESULTS_DAYS)


def results_due_words() -> str:
    """How long after an event's last day its results are due, as the pages say it."""
    return f"{RESULTS_DAYS} days"


@dataclass(frozen=True)
class RateShown:
    """G2's answer for a time control, in words for the form."""

    rate: str  # "standard", "rapid", or "" when not graded
    words: str
    total_minutes: float


def rate_for(control: TimeControlInput) -> RateShown:
    """G2: the rate of play of a time control, or why its games are not graded."""
    engine = control.as_engine()
    total = engine.total_minutes()
    if not engine.sessions:
        return RateShown("", "give the time control to see the rate of play", 0.0)
    found = rate_of_play(engine)
    if isinstance(found, NotGraded):
        return RateShown("", f"not graded ({found.value}): {engine}", total)
    return RateShown(found.value, f"{found.value} (G2: {total:g} minutes each): {engine}", total)


def register_officer_event(
    user: Any,
    *,
    code: str,
    name: str,
    kind: str,
    start: dt.date,
    end: dt.date,
    control: TimeControlInput,
) -> Event:
    """An event registered by its officer: the rate from its time control (G2), the
    deadline from its end date, the officer recorded as its grading officer."""
    shown = rate_for(control)
    if not shown.rate:
        raise EventError(f"expected a time control whose games are graded, got {shown.words}")
    with transaction.atomic():
        event = register_event(
            code,
            name=name,
            kind=kind,
            rate=Rate(shown.rate),
            start=start,
            end=end,
            deadline=results_deadline(end),
            officer=user.get_full_name() or user.get_username(),
            user=user,
        )
        for field, value in vars(control).items():
            setattr(event, field, value)
        event.grading_officer = user
        event.save()
    return event


def _own_codes(user: Any) -> set[str] | None:
    """The event codes the user may submit for; None for the grading team (any)."""
    if has_role(user, Role.TEAM):
        return None
    mine = Event.objects.filter(events_of(user)).values_list("code", flat=True)
    return {code.upper() for code in mine}


def _refuse_unreadable(data: bytes) -> None:
    """A clear refusal of what cannot be a results file, before parsing it."""
    _refuse_size(data)
    if _binary(data):
        raise UploadRefused(_BINARY)


def _refuse_size(data: bytes) -> None:
    if not data:
        raise UploadRefused("expected a results file, got an empty file")
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadRefused(
            f"expected a results file of at most {MAX_UPLOAD_BYTES // 1024} KB,"
            f" got {len(data) // 1024} KB: this is not a results file"
        )


_BINARY = (
    "expected a results file (plain text), got a binary file such as a spreadsheet"
    " or a picture: save the results as a text file"
)


def _binary(data: bytes) -> bool:
    """Zero bytes, unless the file says it is UTF-16 text (issue 24): it is read as such
    (formats.encoding), and kept as it came."""
    return b"\x00" in data[:8192] and not utf16_marked(data)


def _kept_binary(user: Any, filename: str, data: bytes) -> ImportResult:
    """A binary file sent for import: kept on record (nothing sent is lost), rejected
    with the same words as its check, never read."""
    sender = user.get_full_name() or user.get_username()
    submission = store_raw(data, filename, sender, user)
    expected = "a results file (plain text) or a FIDE report (.trf)"
    problem = Problem.make("not-text", 1, "", expected, "a binary file")
    problem = replace(problem, message=_BINARY)
    report = ImportReport(filename, submission_id=submission.id, problems=(problem,))
    reject(submission, report)
    return ImportResult(submission.id, False, report)


def _event_code_line(data: bytes) -> int:
    for number, line in enumerate(data.splitlines(), start=1):
        if re.match(rb"\s*#?\s*EVENT CODE\s*=", line, re.IGNORECASE):
            return number
    return 1


def _ownership(user: Any, data: bytes, report: ImportReport) -> ImportReport:
    """The report with one more error if the file's EVENT CODE is not the user's, or is
    an event the grading team withdrew (issue 24, case 5)."""
    codes = _own_codes(user)
    code = report.event_code.strip().upper()
    report = _not_withdrawn(data, report, code)
    if codes is None or not code or code in codes:
        return report
    problem = Problem(
        code="not-your-event",
        severity="error",
        line=_event_code_line(data),
        field="EVENT CODE",
        expected="one of your events",
        got=code,
        message=(
            f"expected EVENT CODE one of your events, got {code}: register the event first,"
            " or ask the grading team to assign it to you"
        ),
    )
    return report.with_problem(problem)


def _not_withdrawn(data: bytes, report: ImportReport, code: str) -> ImportReport:
    withdrawn = Event.objects.filter(code=code, status=Event.Status.WITHDRAWN).first()
    if not code or withdrawn is None:
        return report
    problem = Problem(
        code="withdrawn-event",
        severity="error",
        line=_event_code_line(data),
        field="EVENT CODE",
        expected="an event not withdrawn",
        got=code,
        message=(
            f"expected EVENT CODE an event not withdrawn, got {code}: the grading team"
            f" withdrew it ({withdrawn.withdrawn_reason}); ask them if it should be graded"
        ),
    )
    return report.with_problem(problem)


def check_upload(user: Any, filename: str, data: bytes, event_code: str = "") -> ImportReport:
    """The check report of an upload, writing nothing (UploadRefused if unreadable). A
    FIDE TRF is for ``event_code``, one of the user's events (the file cannot say)."""
    _refuse_unreadable(data)
    (report,) = check_results([(filename, data)], event_code=event_code)
    return _ownership(user, data, report)


def submit_upload(user: Any, filename: str, data: bytes, event_code: str = "") -> ImportResult:
    """Import an upload (a results file, or a TRF for ``event_code``) as the user's
    submission. A file for someone else's event, or a binary file, is kept on record,
    rejected, and nothing else is written; one too large is refused unread."""
    _refuse_size(data)
    if _binary(data):
        return _kept_binary(user, filename, data)
    sender = user.get_full_name() or user.get_username()
    (checked,) = check_results([(filename, data)], event_code=event_code)
    owned = _ownership(user, data, checked)
    if owned is not checked:
        submission = store_raw(data, filename, sender, user, event_code)
        reject(submission, owned)
        return ImportResult(submission.id, False, owned)
    return import_results(data, filename=filename, sender=sender, user=user, event_code=event_code)


class Mailed(enum.StrEnum):
    """What became of an import report's e-mail."""

    QUEUED = "queued"
    NO_ADDRESS = "no address"


def mail_report(user: Any, report: ImportReport) -> Mailed:
    """The import report to the officer who sent the file, through the outbox: the mail
    worker sends it and retries a server that is down, so a failure neither undoes the
    import nor loses the report. One message per submission (its key), however often
    this is called."""
    if not user.email:
        return Mailed.NO_ADDRESS
    title = " ".join(s for s in (report.event_code, report.event_name) if s)
    outcome = "accepted" if report.accepted else "rejected"
    key = f"feedback:{report.submission_id}" if report.submission_id else None
    queue_mail(
        "feedback",
        user.email,
        f"Results {outcome}: {title or report.filename}",
        "This is the report on the results file you sent.\n\n" + report.to_text() + "\n",
        key=key,
    )
    return Mailed.QUEUED


def problems_in_order(report: ImportReport) -> list[Problem]:
    """A report's problems in file order, errors before warnings on a line."""
    return sorted(report.problems, key=lambda p: (p.line, p.severity != "error", p.code))
