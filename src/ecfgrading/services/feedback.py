"""Reports from the public (the seeds' Grading Feedback Form) and their status.

Anyone may report a wrong result, a wrong name or age, a missing event or a duplicate
record, naming the player by grading code; no account is needed. The report gets an
unguessable reference, and whoever holds it can follow the report's status and read the
grading team's answer (``lookups.queries.feedback_status``). The sender's name and e-mail
address are private: kept for the answer, never part of a status.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction

from ecfgrading.engine.codes import GradingCode, InvalidCode
from ecfgrading.errors import ErrorKind, ServiceError
from ecfgrading.registry.models import AuditLog, Feedback, Player
from ecfgrading.registry.numbering import resolve_code

Kind = Feedback.Kind

KINDS: tuple[tuple[str, str], ...] = tuple(Kind.choices)
# The reports that are about one player's record, and so must name him by code.
NEEDS_PLAYER = frozenset({Kind.WRONG_RESULT, Kind.WRONG_DETAILS, Kind.DUPLICATE})
NEEDS_EVENT = frozenset({Kind.MISSING_EVENT})
# A reference: FB- and eight characters none of which can be read as another (no 0/O,
# 1/I/L, 5/S, 2/Z, 8/B): 25**8 is about 1.5 * 10**11 references.
REF_PREFIX = "FB-"
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
    """What is wrong with each field, in the words of the form (no internal names: the
    sender reads these)."""
    problems: dict[str, str] = {}
    if sent.kind not in Kind.values:
        problems["kind"] = f"choose what is wrong: {_kinds_in_words()}"
    elif sent.kind in NEEDS_PLAYER and not sent.player_code:
        problems["player_code"] = "give the grading code of the player this is about"
    if sent.kind in NEEDS_EVENT and not sent.event:
        problems["event"] = "name the event whose results are missing"
    if not sent.message:
        problems["message"] = "say what is wrong and what it should be"
    for field, limit in MAX_LENGTHS.items():
        value = getattr(sent, field)
        if len(value) > limit:
            problems[field] = (
                f"too long: {len(value):,} characters where at most {limit:,} fit; "
                "please shorten it"
            )
    if sent.email and "email" not in problems:
        try:
            validate_email(sent.email)
        except ValidationError:
            problems["email"] = (
                f"‘{sent.email}’ is not an e-mail address: write it like name@example.org, "
                "or leave it empty"
            )
    return problems


def _kinds_in_words() -> str:
    """'a wrong result, ..., or another question about a grade': the form's own labels."""
    labels = [str(label)[:1].lower() + str(label)[1:] for label in Kind.labels]
    return f"{', '.join(labels[:-1])}, or {labels[-1]}"


def _player(code: str, problems: dict[str, str]) -> Player | None:
    """The surviving player a code names (a merged code resolves); notes a problem else."""
    try:
        player = resolve_code(code)
    except InvalidCode:
        problems["player_code"] = f"{_code_problem(code)}; find it with the player lookup"
        return None
    if player is None:
        problems["player_code"] = f"no player has the grading code {code}"
    return player


def _code_problem(code: str) -> str:
    """Why ``code`` is no grading code, in plain words (G28: six digits, a check letter)."""
    digits, letter = code[:6], code[6:]
    if digits.isdigit() and len(digits) == 6 and len(letter) == 1 and letter.isalpha():
        right = GradingCode(int(digits)).letter
        return f"wrong check letter: the code of {digits} ends in {right}, not {letter}"
    return f"‘{code}’ is not a grading code, which is six digits and a check letter (123456A)"


# Storing a report -------------------------------------------------------------------------


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
