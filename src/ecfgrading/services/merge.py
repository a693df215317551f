"""Merging two records of one person (the FAQ's most common error: misidentification).

One use case for every door: the CLI's ``ecfgrading merge`` and the back office's
"Merge two players" both call ``merge_players``, which merges, audits and records the
amendment the public amendments page shows (issue 11, item 6; issue 20, item 2).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from ecfgrading.registry.models import AuditLog, Player
from ecfgrading.registry.numbering import player_on_record
from ecfgrading.services.amendments import record_amendment
from ecfgrading.services.changes import note_changed
from ecfgrading.services.errors import ServiceError
from ecfgrading.services.locks import busy_as_error, take_registry_lock
from ecfgrading.services.results.remembered import remember_merge


class MergeError(ServiceError):
    """A merge that cannot be made: unknown codes, or the same person twice."""


WHY = "two records of the same player"  # the reason given when none is


def merge_players(
    absorbed: str, into: str, *, why: str = "", user: Any = None, actor: str = ""
) -> Player:
    """``absorbed`` becomes part of ``into``: his games, grades and history count for him.

    The absorbed code keeps resolving to the survivor (G28: codes are never reused),
    and the next grading run reads everything under the survivor. A merge changes grades
    already published under two codes, so it is also an amendment, saying ``why``.
    """
    with busy_as_error(f"merging {absorbed} into {into}"), transaction.atomic():
        take_registry_lock()  # it changes who is on record: one such writer at a time
        gone, kept = _player(absorbed), _player(into)
        if gone.id == kept.id:
            raise MergeError(f"expected two different players, got {gone.ref} twice")
        gone = Player.objects.select_for_update().get(id=gone.id)
        gone.merged_into = kept
        gone.save(update_fields=["merged_into"])
        _fill_in(kept, gone)
        remember_merge(gone, kept, user)  # later files find the survivor (issue 24, case 3)
        note_changed([gone.id, kept.id])
        AuditLog.record("merge players", kept, user=user, actor=actor, absorbed=gone.ref)
        record_amendment(
            what=f"{gone.name} ({gone.ref}) merged into {kept.name} ({kept.ref})",
            why=why.strip() or WHY,
            user=user,
            actor=actor,
            player=kept,
        )
    return kept


def _player(code: str) -> Player:
    return player_on_record(code, MergeError)


def _fill_in(kept: Player, gone: Player) -> None:
    """What the survivor's record lacks, the absorbed record may know."""
    changed = [
        name
        for name in ("date_of_birth", "fide_id", "sex", "membership_no")
        if not getattr(kept, name) and getattr(gone, name)
    ]
    for name in changed:
        setattr(kept, name, getattr(gone, name))
    if "date_of_birth" in changed:  # learnt by the survivor now (a replay reads it after)
        kept.born_noted_at = timezone.now()
        changed.append("born_noted_at")
    if changed:
        kept.save(update_fields=changed)
