"""Queries and corrections sent by the public (the seeds' Grading Feedback Form)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Feedback(models.Model):
    """One report from the public; its reference lets the sender follow its status.

    The sender's name and e-mail address are private: they are for the grading team's
    answer, never shown on the status page, in the API or in a published file.
    """

    class Kind(models.TextChoices):
        WRONG_RESULT = "wrong-result", "A wrong result"
        WRONG_DETAILS = "wrong-details", "A wrong name or age"
        MISSING_EVENT = "missing-event", "A missing event"
        DUPLICATE = "duplicate", "A duplicate record"
        OTHER = "other", "Another question about a grade"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        IN_PROGRESS = "in-progress", "In progress"
        RESOLVED = "resolved", "Resolved"
        DECLINED = "declined", "Declined"

    ref = models.CharField(
        "reference", max_length=12, unique=True, help_text="Given to the sender, e.g. FB-7K3M9Q."
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    player_code = models.CharField(max_length=10, blank=True, help_text="As the sender typed it.")
    player = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.PROTECT, related_name="feedback"
    )
    event = models.CharField(
        max_length=200, blank=True, help_text="The event, as the sender named it."
    )
    message = models.TextField(max_length=5000)
    name = models.CharField(max_length=200, blank=True, help_text="Private.")
    email = models.EmailField(blank=True, help_text="Private: for the answer only.")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN)
    answer = models.TextField(
        blank=True, help_text="The grading team's answer, shown to the sender."
    )
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-submitted_at", "-id")
        verbose_name_plural = "feedback"
        indexes = (models.Index(fields=("status",), name="feedback_status_idx"),)

    def __str__(self) -> str:
        return f"{self.ref} {self.get_kind_display()} ({self.status})"
