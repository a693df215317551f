"""What a published version's files show beside its entries, frozen when it is published.

A list file shows each player's name, sex, FIDE code, nation and clubs, Grade1 from the
previous list's current version (G4) and, for a July list, the august grades (G27). All of
these live elsewhere in the registry and change after publication (a membership ended, a
name corrected, a later version published); a published version never does (G26). So
publication freezes them here, once, and the version's files are written only from its
entries and this snapshot (``lookups.exports``): the same bytes for ever.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from ecfgrading.errors import Conflict
from ecfgrading.registry.models.lists import ListVersion


class SnapshotFrozenError(Conflict):
    """A change to a published version's snapshot: it is frozen with the version (G26)."""


class PublishedSnapshotQuerySet(models.QuerySet["PublishedSnapshot"]):
    def update(self, **kwargs: Any) -> int:
        raise SnapshotFrozenError("a published version's snapshot never changes")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise SnapshotFrozenError("a published version's snapshot is never deleted")


class PublishedSnapshot(models.Model):
    """One published version's public player details, as they were when it was published."""

    version = models.OneToOneField(
        ListVersion, on_delete=models.PROTECT, primary_key=True, related_name="snapshot"
    )
    # One row per published player: [player id, code, 'Surname, Forenames', sex,
    # FIDE code, nation, [clubs, most recent first, locations with '*']]. Public
    # fields only: never a date of birth, an address or an e-mail address.
    players = models.JSONField(default=list)
    # G4: the previous list's current version when this one was published (Grade1).
    previous = models.ForeignKey(
        ListVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # G27: the list's august version, if published before this one (a later revision).
    august = models.ForeignKey(
        ListVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # G31: the rule set's name and its words, as the spreadsheet's About sheet shows them.
    rule_set = models.CharField(max_length=40, blank=True, default="")
    rule_words = models.TextField(blank=True, default="")
    frozen_at = models.DateTimeField(auto_now_add=True)

    objects = PublishedSnapshotQuerySet.as_manager()

    def __str__(self) -> str:
        return f"snapshot of {self.version}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise SnapshotFrozenError(f"the {self} never changes")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise SnapshotFrozenError(f"the {self} is never deleted")
