"""The back office's records: chases of late results, the mail outbox, direct members and
their results from abroad, and amendments made between versions of a list (issue 11)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from ecfgrading.registry.models.choices import RateChoice


class OutboxMessage(models.Model):
    """One e-mail: kept whatever becomes of it, sent by the mail worker and retried on
    failure. ``key`` makes a message idempotent (the games of one member before one list
    are queued once however often the sending is started)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed (gave up)"

    kind = models.CharField(max_length=40, db_index=True, help_text="e.g. feedback, chase, games")
    key = models.CharField(max_length=200, unique=True, null=True, blank=True)
    to = models.EmailField(max_length=254, help_text="Private.")
    subject = models.CharField(max_length=255)
    body_text = models.TextField()
    body_html = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = (models.Index(fields=("status", "next_attempt_at"), name="outbox_due_idx"),)

    def __str__(self) -> str:
        return f"{self.kind} to {self.to}: {self.subject} ({self.status})"


class ChaseRecord(models.Model):
    """The grading team chased an event's overdue results (the seeds' chasing)."""

    event = models.ForeignKey("Event", on_delete=models.CASCADE, related_name="chases")
    chased_at = models.DateTimeField(default=timezone.now, db_index=True)
    chased_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    message = models.ForeignKey(
        OutboxMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.TextField(blank=True)

    class Meta:
        ordering = ("-chased_at", "-id")

    def __str__(self) -> str:
        return f"chase of {self.event_id} at {self.chased_at:%Y-%m-%d}"


class DirectMember(models.Model):
    """A member of the federation in his own right, linked to his player record. The
    membership number, class and e-mail address are private."""

    player = models.OneToOneField("Player", on_delete=models.PROTECT, related_name="direct_member")
    number = models.CharField("membership number", max_length=20, unique=True)
    member_class = models.CharField(max_length=40, blank=True, help_text="e.g. Standard, Junior.")
    email = models.EmailField(blank=True, help_text="Private.")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="direct_member",
    )
    joined_on = models.DateField(null=True, blank=True)
    expires_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ("number",)

    def __str__(self) -> str:
        return f"member {self.number}"


class ForeignResult(models.Model):
    """A direct member's results of an event abroad, not registered here (the seeds' one
    exception): the results file built from his form waits for the grading team, who
    accept it (it is then imported like any file) or reject it."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the grading team"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"

    member = models.ForeignKey(DirectMember, on_delete=models.PROTECT, related_name="results")
    # XA and a number in sequence (issue 24, case 7): nothing of the member's.
    event_code = models.CharField(max_length=20, blank=True, db_index=True)
    event_name = models.CharField(max_length=200)
    country = models.CharField(max_length=60)
    start_date = models.DateField()
    end_date = models.DateField()
    raw = models.BinaryField(help_text="The results file built from the form.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    submitted_at = models.DateTimeField(default=timezone.now, db_index=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decision_note = models.TextField(blank=True)
    submission = models.ForeignKey(
        "Submission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ("-submitted_at", "-id")

    def __str__(self) -> str:
        return f"{self.event_name} ({self.country}) by {self.member_id}: {self.status}"


class Amendment(models.Model):
    """A correction made by the grading team, shown publicly with the list version that
    first carries it (``version`` is set when that version is published)."""

    player = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.PROTECT, related_name="amendments"
    )
    event = models.ForeignKey(
        "Event", null=True, blank=True, on_delete=models.PROTECT, related_name="amendments"
    )
    rate = models.CharField(max_length=10, choices=RateChoice.choices, blank=True)
    what = models.TextField(help_text="What changed, in plain words.")
    why = models.TextField(help_text="Why, in plain words.")
    made_at = models.DateTimeField(default=timezone.now, db_index=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    feedback = models.ForeignKey(
        "Feedback", null=True, blank=True, on_delete=models.SET_NULL, related_name="amendments"
    )
    version = models.ForeignKey(
        "ListVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="amendments"
    )

    class Meta:
        ordering = ("-made_at", "-id")

    def __str__(self) -> str:
        return f"amendment {self.pk}: {self.what[:40]}"
