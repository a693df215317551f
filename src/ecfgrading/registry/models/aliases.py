"""Identification decisions remembered: the file's spelling of a name, with its club and
event, is the player the grading team chose (issue 24, case 3)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class NameAlias(models.Model):
    """A spelling the team identified: later files of the event (and, where the evidence
    is as strong, of other events) give it to ``player`` without asking again.

    Not a ``PlayerAlias``, which is a grading code resolving to a surviving record.
    """

    class Decision(models.TextChoices):
        LINK = "link", "Linked to a player on record"
        NEW = "new", "Put on record as a new player"
        MERGE = "merge", "Merged into another player"

    spelling = models.CharField(max_length=200, help_text="The name as the file wrote it.")
    # Folded by matching.remembered.spelling_key and the club folds of matching.names.
    spelling_key = models.CharField(max_length=200)
    club_code = models.CharField(max_length=10, blank=True)
    club_name = models.CharField(max_length=100, blank=True)
    event = models.ForeignKey(
        "registry.Event", on_delete=models.CASCADE, related_name="name_aliases"
    )
    player = models.ForeignKey(
        "registry.Player", on_delete=models.CASCADE, related_name="name_aliases"
    )
    decision = models.CharField(max_length=5, choices=Decision.choices)
    case = models.ForeignKey(
        "registry.PendingIdentification",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-decided_at", "-id")
        verbose_name_plural = "name aliases"
        indexes = (models.Index(fields=("spelling_key",), name="name_alias_spelling_idx"),)
        constraints = (
            models.UniqueConstraint(
                fields=("event", "spelling_key", "club_code", "club_name"),
                name="name_alias_one_per_spelling",
            ),
        )

    def __str__(self) -> str:
        return f"{self.spelling} ({self.club_name or self.club_code or 'no club'}) -> {self.player}"
