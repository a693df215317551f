"""The grading team's decision on a file holding games already on record under another
event code (issue 24, case 1): the import accepts it with a warning and flags it
(``Submission.duplicates``), and until the team decides its games would count twice.

Three decisions, each under the registry lock, audited, and kept on the submission:

- **a correction of that event**: the file replaces the event's accepted files, as a
  higher SUBMISSION INDEX of that event would have (their games are superseded), and
  its games move to that event;
- **its new games only**: its games already on record elsewhere are removed (kept on
  record, not graded: ``removed``), the others count;
- **rejected**: the file is rejected and all its games removed.

A game's identity is what was played (services.results.same_games).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, ProtectedError, RestrictedError

from ecfgrading.registry.bulk import IN_CHUNK
from ecfgrading.registry.models import AuditLog, Event, Game, NotGradedReason, Submission
from ecfgrading.services.errors import Conflict, NotFound
from ecfgrading.services.locks import busy_as_error, take_registry_lock
from ecfgrading.services.results.same_games import (
    Holding,
    held_anywhere,
    held_elsewhere,
    submission_games,
)
from ecfgrading.services.results.write import supersede

Decision = Submission.Duplicates
CORRECTION = str(Decision.CORRECTION)
NEW_GAMES = str(Decision.NEW_GAMES)
REJECTED = str(Decision.REJECTED)


@dataclass(frozen=True)
class FlaggedFile:
    """An accepted file waiting for the team's decision, and where its games are."""

    submission_id: int
    filename: str
    event_code: str
    submission_index: int | None
    sender: str
    received_at: dt.datetime
    games: int  # its graded games between players on record
    holdings: tuple[Holding, ...]  # the other events' files holding some of them

    @property
    def on_record(self) -> int:
        """Its games on record elsewhere (a game held by two files counts twice)."""
        return sum(h.games for h in self.holdings)


@dataclass(frozen=True)
class Decided:
    """What a decision did, for the team's message and the audit."""

    submission_id: int
    decision: str
    event_code: str  # the event the file now belongs to
    removed: int = 0  # its games no longer graded
    superseded: int = 0  # games of the corrected event's earlier files replaced

    def words(self) -> str:
        if self.decision == Decision.CORRECTION:
            return (
                f"Submission {self.submission_id} accepted as a correction of"
                f" {self.event_code}: {self.superseded} games of its earlier files replaced."
            )
        if self.decision == Decision.NEW_GAMES:
            return (
                f"Submission {self.submission_id} ({self.event_code}) accepted for its new"
                f" games only: {self.removed} games already on record removed."
            )
        return (
            f"Submission {self.submission_id} ({self.event_code}) rejected:"
            f" its {self.removed} games removed."
        )


# --- what waits ------------------------------------------------------------------------


def flagged_files() -> list[FlaggedFile]:
    """The accepted files waiting for a decision, oldest first."""
    waiting = Submission.objects.filter(
        status=Submission.Status.ACCEPTED, duplicates=Decision.FLAGGED
    ).defer("raw", "report")
    return [_flagged_file(s) for s in waiting.order_by("received_at", "id")]


def flagged_file(submission_id: int) -> FlaggedFile:
    return _flagged_file(_waiting(submission_id))


def _flagged_file(submission: Submission) -> FlaggedFile:
    games = submission_games(submission.id)
    holdings = held_elsewhere(Counter(games.values()), submission.event_code)
    return FlaggedFile(
        submission.id,
        submission.filename,
        submission.event_code,
        submission.submission_index,
        submission.sender_name,
        submission.received_at,
        len(games),
        tuple(holdings),
    )


def _waiting(submission_id: int, *, lock: bool = False) -> Submission:
    found = Submission.objects.defer("raw").filter(id=submission_id)
    submission = (found.select_for_update() if lock else found).first()
    if submission is None:
        raise NotFound(f"expected a submission on record, got {submission_id}")
    if (submission.status, submission.duplicates) != (
        Submission.Status.ACCEPTED,
        Decision.FLAGGED,
    ):
        raise Conflict(
            f"expected an accepted file whose games on record elsewhere wait for a decision,"
            f" got submission {submission_id} ({submission.status},"
            f" {submission.get_duplicates_display().lower()})"
        )
    return submission


# --- what a decision will do, before it is confirmed ---------------------------------------


def preview(submission_id: int, decision: str, event_code: str = "") -> str:
    """In words, what ``decision`` would do to the file, writing nothing."""
    if decision not in (CORRECTION, NEW_GAMES, REJECTED):
        raise Conflict(
            "expected a decision: a correction of an event holding its games, its new games"
            f" only, or reject; got {decision!r}"
        )
    submission = _waiting(submission_id)
    name = f"Submission {submission_id} ({submission.event_code})"
    games = submission_games(submission.id)
    if decision == CORRECTION:
        target = _holding_event(submission, event_code)
        replaced = (
            Game.objects.filter(
                submission__event_code=target.code,
                submission__status=Submission.Status.ACCEPTED,
            )
            .exclude(not_graded_reason=NotGradedReason.SUPERSEDED)
            .count()
        )
        return (
            f"{name} becomes {target.code}'s submission {_next_index(target.code)}, its"
            f" games moved there; the {replaced} games of {target.code}'s accepted files are"
            f" replaced (kept on record, superseded); {submission.event_code} is removed if"
            " nothing else names it."
        )
    if decision == NEW_GAMES:
        twice = sum(held_anywhere(Counter(games.values()), submission.event_code).values())
        return (
            f"{name} stays accepted: {twice} of its {len(games)} graded games, on record"
            f" elsewhere, are removed (kept on record, not graded); the other"
            f" {len(games) - twice} count."
        )
    return f"{name} is rejected: all its games are removed (kept on record, not graded)."


# --- the three decisions ---------------------------------------------------------------


def accept_as_correction(
    submission_id: int, event_code: str, *, user: Any = None, actor: str = ""
) -> Decided:
    """The file corrects ``event_code`` (one of the events holding its games): it becomes
    that event's latest submission, and the event's earlier files are superseded."""
    with busy_as_error(f"deciding submission {submission_id}"), transaction.atomic():
        take_registry_lock()
        submission = _waiting(submission_id, lock=True)
        target = _holding_event(submission, event_code)
        own = submission.event
        if own is not None and own.rate != target.rate:
            raise Conflict(
                f"expected a file at {target.code}'s rate of play ({target.rate}), got"
                f" {own.rate}: correct the event's rate first"
            )
        before = (submission.event_code, submission.submission_index)
        superseded = supersede(target.code)
        index = _next_index(target.code)
        Game.objects.filter(submission=submission).update(event=target)
        _settle(submission, CORRECTION, event=target, code=target.code, index=index)
        target.status = Event.Status.RECEIVED
        target.save()  # its updated_at tells the public pages
        dropped = _drop_if_empty(own)
        AuditLog.record(
            "duplicates: accept as correction",
            submission,
            user=user,
            actor=actor,
            before={"event": before[0], "submission_index": before[1]},
            after={"event": target.code, "submission_index": index},
            superseded=superseded,
            event_dropped=dropped,
        )
    return Decided(submission_id, CORRECTION, target.code, superseded=superseded)


def accept_new_games_only(submission_id: int, *, user: Any = None, actor: str = "") -> Decided:
    """Only the file's games not on record elsewhere count: the others are removed."""
    with busy_as_error(f"deciding submission {submission_id}"), transaction.atomic():
        take_registry_lock()
        submission = _waiting(submission_id, lock=True)
        games = submission_games(submission.id)
        twice = held_anywhere(Counter(games.values()), submission.event_code)
        removed = _remove([pk for pk, game in sorted(games.items()) if _take(twice, game)])
        _settle(submission, NEW_GAMES)
        _touch(submission.event)
        AuditLog.record(
            "duplicates: accept new games only",
            submission,
            user=user,
            actor=actor,
            event=submission.event_code,
            removed=removed,
        )
    return Decided(submission_id, NEW_GAMES, submission.event_code, removed=removed)


def reject_file(submission_id: int, *, user: Any = None, actor: str = "") -> Decided:
    """The file is rejected after all: none of its games count (they stay on record)."""
    with busy_as_error(f"deciding submission {submission_id}"), transaction.atomic():
        take_registry_lock()
        submission = _waiting(submission_id, lock=True)
        ids = list(
            Game.objects.filter(submission=submission)
            .exclude(not_graded_reason=NotGradedReason.REMOVED)
            .values_list("id", flat=True)
        )
        removed = _remove(ids)
        _settle(submission, REJECTED, status=str(Submission.Status.REJECTED))
        _touch(submission.event)
        AuditLog.record(
            "duplicates: reject",
            submission,
            user=user,
            actor=actor,
            event=submission.event_code,
            removed=removed,
        )
    return Decided(submission_id, REJECTED, submission.event_code, removed=removed)


# --- helpers ---------------------------------------------------------------------------


def _holding_event(submission: Submission, event_code: str) -> Event:
    """``event_code`` if it is one of the events holding the file's games."""
    games = submission_games(submission.id)
    holders = {h.event_code for h in held_elsewhere(Counter(games.values()), submission.event_code)}
    code = event_code.strip().upper()
    if code not in holders:
        said = ", ".join(sorted(holders)) or "none any more"
        raise Conflict(f"expected one of the events holding its games ({said}), got {code!r}")
    return Event.objects.select_for_update().get(code=code)


def _next_index(event_code: str) -> int:
    """Above every SUBMISSION INDEX the event has received."""
    found = Submission.objects.filter(event_code=event_code).aggregate(top=Max("submission_index"))
    return int(found["top"] or 0) + 1


def _take(counts: Counter[Any], key: Any) -> bool:
    """Whether ``key`` is still counted, counting it off."""
    if counts[key] > 0:
        counts[key] -= 1
        return True
    return False


def _remove(ids: list[int]) -> int:
    """Games kept on record, no longer graded (``removed``)."""
    removed = 0
    for start in range(0, len(ids), IN_CHUNK):
        chunk = Game.objects.filter(id__in=ids[start : start + IN_CHUNK])
        removed += chunk.update(graded=False, not_graded_reason=NotGradedReason.REMOVED)
    return removed


def _settle(
    submission: Submission,
    decision: str,
    *,
    status: str | None = None,
    event: Event | None = None,
    code: str | None = None,
    index: int | None = None,
) -> None:
    submission.duplicates = decision
    fields = ["duplicates"]
    for name, value in (
        ("status", status),
        ("event", event),
        ("event_code", code),
        ("submission_index", index),
    ):
        if value is not None:
            setattr(submission, name, value)
            fields.append(name)
    submission.save(update_fields=fields)


def _touch(event: Event | None) -> None:
    """The event's updated_at moves: public pages showing its games are made again."""
    if event is not None:
        event.save(update_fields=["updated_at"])


def _drop_if_empty(event: Event | None) -> bool:
    """The event the corrected file was sent under, gone when nothing else holds it (a
    code given by mistake); kept when anything on record still names it."""
    if event is None or event.submissions.exists() or event.games.exists():
        return False
    try:
        with transaction.atomic():
            event.delete()
    except (ProtectedError, RestrictedError, IntegrityError):
        return False
    return True
