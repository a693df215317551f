"""Reports from the public (the seeds' Grading Feedback Form) and their status.

Anyone may report a wrong result, a wrong name or age, a missing event or a duplicate
record, naming the player by grading code; no account is needed. The report gets an
unguessable reference, and whoever holds it can follow the report's status and read the
grading team's answer. The sender's name and e-mail address are private: kept for the
answer, never part of a status.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction

from ecfgrading.engine.codes import InvalidCode
from ecfgrading.errors import ErrorKind, NotFound, ServiceError
from ecfgrading.registry.models import AuditLog, Feedback, Player
from ecfgrading.registry.numbering import resolve_code

Kind = Feedback.Kind
Status = Feedback.Status

KINDS: tuple[tuple[str, str], ...] = tuple(Kind.choices)
# The reports that are about one player's record, and so must name him by code.
NEEDS_PLAYER = frozenset({Kind.WRONG_RESULT, Kind.WRONG_DETAILS, Kind.DUPLICATE})
NEEDS_EVENT = frozenset({Kind.MISSING_EVENT})
# A reference: FB- and eight characters none of which can be read as another (no 0/O,
# 1/I/L, 5/S, 2/Z, 8/B): 25**8 is about 1.5 * 10**11 references.
REF_PREFIX = "FB-"
EXAMPLE_REF = "FB-7K3M9QXA"
REF_ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
REF_LENGTH = 8
_FIELDS = {name: Feedback._meta.get_field(name) for name in ("event", "message", "name", "email")}
MAX_LENGTHS = {name: int(field.max_length or 0) for name, field in _FIELDS.items()}


class FeedbackError(ServiceError):
    """A report that cannot be accepted as sent; ``problems`` maps each field to what
    was expected of it, so a form can show every one at once."""

    def __init__(self, problems: dict[str, str]) -> None:
        super().__init__("; ".join(f"{field}: {text}" for field, text in problems.items()))
        self.problems = problems


@dataclass(frozen=True)
class NewFeedback:
    """What the sender of the Grading Feedback Form wrote; the name and e-mail are private."""

    kind: str
    message: str
    player_code: str = ""
    event: str = ""
    name: str = ""
    email: str = ""


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
        return self.status in (Status.RESOLVED, Status.DECLINED)


def submit_feedback(sent: NewFeedback, *, actor: str = "public") -> str:
    """Store a report for the grading team and return its reference; FeedbackError
    lists everything wrong with it."""
    cleaned, player = _checked(sent)
    with transaction.atomic():
        feedback = _stored(cleaned, player)
        AuditLog.record(
            "feedback.submitted", feedback, actor=actor, ref=feedback.ref, kind=feedback.kind
        )
    return feedback.ref


def feedback_status(ref: str) -> FeedbackStatus:
    """The status of the report ``ref`` (case does not matter); NotFound otherwise."""
    wanted = ref.strip().upper()
    feedback = Feedback.objects.filter(ref=wanted).select_related("player").first()
    if feedback is None:
        raise NotFound(f"no report has the reference {ref!r} (they look like {EXAMPLE_REF})")
    return _status(feedback)


def new_ref() -> str:
    """FB-7K3M9QXA: random, so that no one can read another's report by counting."""
    return REF_PREFIX + "".join(secrets.choice(REF_ALPHABET) for _ in range(REF_LENGTH))


# Checking a report ------------------------------------------------------------------------


def _checked(sent: NewFeedback) -> tuple[NewFeedback, Player | None]:
    cleaned = NewFeedback(
        kind=sent.kind.strip(),
        message=sent.message.strip(),
        player_code=sent.player_code.strip().upper(),
        event=sent.event.strip(),
        name=sent.name.strip(),
        email=sent.email.strip(),
    )
    problems = _problems(cleaned)
    player = None
    if cleaned.player_code and "player_code" not in problems:
        player = _player(cleaned.player_code, problems)
    if problems:
        raise FeedbackError(problems)
    return cleaned, player


def _problems(sent: NewFeedback) -> dict[str, str]:
    problems: dict[str, str] = {}
    if sent.kind not in Kind.values:
        problems["kind"] = f"expected one of {', '.join(Kind.values)}, got {sent.kind!r}"
    elif sent.kind in NEEDS_PLAYER and not sent.player_code:
        problems["player_code"] = "give the grading code of the player this is about"
    if sent.kind in NEEDS_EVENT and not sent.event:
        problems["event"] = "name the event whose results are missing"
    if not sent.message:
        problems["message"] = "say what is wrong and what it should be"
    for field, limit in MAX_LENGTHS.items():
        value = getattr(sent, field)
        if len(value) > limit:
            problems[field] = f"at most {limit:,} characters, got {len(value):,}"
    if sent.email and "email" not in problems:
        try:
            validate_email(sent.email)
        except ValidationError:
            expected = "an e-mail address such as name@example.org"
            problems["email"] = f"expected {expected}, got {sent.email!r}"
    return problems


def _player(code: str, problems: dict[str, str]) -> Player | None:
    """The surviving player a code names (a merged code resolves); notes a problem else."""
    try:
        player = resolve_code(code)
    except InvalidCode as error:
        problems["player_code"] = f"{error}; find the code with the player lookup"
        return None
    if player is None:
        problems["player_code"] = f"no player has the grading code {code}"
    return player


# Storing and reading ----------------------------------------------------------------------


def _stored(sent: NewFeedback, player: Player | None) -> Feedback:
    """A new row with a fresh reference (drawn again in the unlikely event of a clash)."""
    for _ in range(5):
        ref = new_ref()
        try:
            with transaction.atomic():
                return Feedback.objects.create(
                    ref=ref,
                    kind=sent.kind,
                    player_code=sent.player_code,
                    player=player,
                    event=sent.event,
                    message=sent.message,
                    name=sent.name,
                    email=sent.email,
                )
        except IntegrityError:
            if not Feedback.objects.filter(ref=ref).exists():
                raise  # not a clash of references: a bug, shown as one
    raise ServiceError("could not draw a free reference; try again", kind=ErrorKind.CONFLICT)


def _status(feedback: Feedback) -> FeedbackStatus:
    player = feedback.player.surviving() if feedback.player is not None else None
    return FeedbackStatus(
        ref=feedback.ref,
        kind=feedback.kind,
        kind_label=Kind(feedback.kind).label,
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
