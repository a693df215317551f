"""Events, the results files submitted for them, and the games they record."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from ecfgrading.engine.rateplay import CONTROL_FIELDS, TimeControl, TimeControlInput
from ecfgrading.registry.models.choices import Colour, NotGradedReason, PlayRate, Result


class Event(models.Model):
    """A registered competition; its time control decides the rate of play (G2)."""

    class Kind(models.TextChoices):
        CONGRESS = "congress", "Congress"
        LEAGUE = "league", "League"
        CLUB = "club", "Club"
        COUNTY_MATCH = "county-match", "County match"
        JUNIOR = "junior", "Junior"
        OTHER = "other", "Other"

    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        RECEIVED = "received", "Results received"
        GRADED = "graded", "Graded"
        # Withdrawn by the grading team (issue 24, case 5): kept on record, not chased;
        # only an event holding no accepted games may be withdrawn.
        WITHDRAWN = "withdrawn", "Withdrawn"

    code = models.CharField(max_length=20, unique=True)
    name = models.CharField(max_length=200, db_index=True)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.OTHER)
    # The time control as the results file gives it (one of the three combinations).
    minutes_for_game = models.PositiveSmallIntegerField(null=True, blank=True)
    moves_first_session = models.PositiveSmallIntegerField(null=True, blank=True)
    minutes_first_session = models.PositiveSmallIntegerField(null=True, blank=True)
    moves_second_session = models.PositiveSmallIntegerField(null=True, blank=True)
    minutes_second_session = models.PositiveSmallIntegerField(null=True, blank=True)
    minutes_rest_of_game = models.PositiveSmallIntegerField(null=True, blank=True)
    seconds_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    environment = models.CharField(max_length=20, default="OTB")
    rate = models.CharField(max_length=10, choices=PlayRate.choices)
    not_graded_reason = models.CharField(max_length=20, choices=NotGradedReason.choices, blank=True)
    start_date = models.DateField()
    end_date = models.DateField(help_text="The final result date.")
    grading_officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="events",
    )
    officer_name = models.CharField(max_length=200, blank=True)
    fee_class = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    results_deadline = models.DateField(null=True, blank=True)
    withdrawn_reason = models.TextField(blank=True, help_text="Why the team withdrew it.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)  # public pages' token

    class Meta:
        ordering = ("-end_date", "code")
        indexes = (models.Index(fields=("end_date",), name="event_end_date_idx"),)
        constraints = (
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")), name="event_dates_in_order"
            ),
            # A reason is given exactly when the event is not graded.
            models.CheckConstraint(
                condition=(Q(rate=PlayRate.NONE) & ~Q(not_graded_reason=""))
                | (~Q(rate=PlayRate.NONE) & Q(not_graded_reason="")),
                name="event_reason_iff_not_graded",
            ),
        )

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    def time_control(self) -> TimeControl | None:
        """The time control the event was registered or sent with (G2); None if not given."""
        if not (self.minutes_for_game or self.minutes_first_session):
            return None
        given = {name: getattr(self, name) for name in CONTROL_FIELDS}
        return TimeControlInput(**given).as_engine()


class Submission(models.Model):
    """A results file exactly as received, kept even when it is rejected."""

    class Status(models.TextChoices):
        RECEIVED = "received", "Received"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"
        SUPERSEDED = "superseded", "Superseded"

    event = models.ForeignKey(
        Event,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="submissions",
        help_text="Empty when the file was rejected before its event was known.",
    )
    event_code = models.CharField(max_length=20, blank=True, help_text="As the file gives it.")
    submission_index = models.PositiveIntegerField(null=True, blank=True)
    raw = models.BinaryField(help_text="The file byte for byte.")
    filename = models.CharField(max_length=255, blank=True)
    sha256 = models.CharField(max_length=64, db_index=True)
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="submissions",
    )
    sender_name = models.CharField(max_length=200, blank=True)
    received_at = models.DateTimeField(default=timezone.now, db_index=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.RECEIVED)
    report = models.JSONField(default=dict, blank=True, help_text="The check's problems.")

    class Duplicates(models.TextChoices):
        """Games of the file already on record under another event code (issue 24, case 1),
        and what the grading team decided."""

        NONE = "", "None on record elsewhere"
        FLAGGED = "flagged", "On record elsewhere: the grading team decides"
        CORRECTION = "correction", "Accepted as a correction of that event"
        NEW_GAMES = "new-games", "Accepted for its new games only"
        REJECTED = "rejected", "Rejected: its games were on record"

    duplicates = models.CharField(
        max_length=20, choices=Duplicates.choices, blank=True, default=Duplicates.NONE
    )

    class Meta:
        ordering = ("-received_at", "-id")
        indexes = (
            models.Index(fields=("event_code", "submission_index"), name="submission_event_idx"),
        )
        constraints = (
            # A higher index replaces earlier results; two accepted files never share one.
            models.UniqueConstraint(
                fields=("event_code", "submission_index"),
                condition=Q(status="accepted"),
                name="submission_index_unique_when_accepted",
            ),
        )

    def __str__(self) -> str:
        return f"{self.event_code or '?'} #{self.submission_index or '?'} ({self.status})"

    @property
    def size(self) -> int:
        return len(self.raw)


class PendingIdentification(models.Model):
    """A player in a submission who could not be identified with confidence.

    His games are recorded at import with this row instead of a player; resolving it
    fills in the player on those games (``Game.pending1``/``pending2``).
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        LINKED = "linked", "Linked to a player on record"
        CREATED = "created", "New player created"
        # Closed by itself: a later submission of the event replaced its file (issue 24).
        SUPERSEDED = "superseded", "Closed: its file was superseded"

    # Indexed by the unique (submission, pin) constraint.
    submission = models.ForeignKey(
        Submission, on_delete=models.PROTECT, related_name="pending_identifications", db_index=False
    )
    pin = models.PositiveIntegerField()
    # As received in the file.
    name = models.CharField(max_length=200)
    surname = models.CharField(max_length=100, blank=True)
    forenames = models.CharField(max_length=100, blank=True)
    sex = models.CharField(max_length=1, blank=True)
    date_of_birth = models.DateField(null=True, blank=True, help_text="Private.")
    code_text = models.CharField("grading code as received", max_length=20, blank=True)
    club_code = models.CharField(max_length=10, blank=True)
    club_name = models.CharField(max_length=100, blank=True)
    fide_no = models.CharField(max_length=20, blank=True)
    membership_no = models.CharField(max_length=20, blank=True)
    candidates = models.JSONField(
        default=list, blank=True, help_text='Likely players: [{"player_id": 1, "score": 0.9}].'
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    resolved_player = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Indexed: the public pages' data token reads its maximum on every request.
    resolved_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ("submission", "pin")
        indexes = (models.Index(fields=("status",), name="pending_status_idx"),)
        constraints = (
            models.UniqueConstraint(fields=("submission", "pin"), name="pending_pin_unique"),
            models.CheckConstraint(
                condition=Q(status__in=("open", "superseded")) | Q(resolved_player__isnull=False),
                name="pending_resolved_has_player",
            ),
        )

    def __str__(self) -> str:
        return f"{self.name} (PIN {self.pin}, {self.status})"


class Game(models.Model):
    """One result as recorded; ``graded`` says whether it counts for grading (G1)."""

    class Part(models.TextChoices):
        MATCH = "match", "Match results"
        SECTION = "section", "Section results"
        OTHER = "other", "Other results"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="games")
    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="games")
    # Each side is a player on record or, until identified, a pending identification.
    # Indexed with ``graded`` and ``game_date`` (Meta), not alone: a player's games are
    # found by the same index, and his latest graded game is read from it alone.
    player1 = models.ForeignKey(
        "Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="games_as_player1",
        db_index=False,
    )
    player2 = models.ForeignKey(
        "Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="games_as_player2",
        db_index=False,
    )
    pending1 = models.ForeignKey(
        PendingIdentification,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="games_as_player1",
    )
    pending2 = models.ForeignKey(
        PendingIdentification,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="games_as_player2",
    )
    result = models.CharField(max_length=2, choices=Result.choices)
    game_date = models.DateField(help_text="G3: the event's final result date when undated.")
    date_given = models.BooleanField(default=True, help_text="False when the file gave no date.")
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    board = models.PositiveSmallIntegerField(null=True, blank=True)
    part_kind = models.CharField(max_length=10, choices=Part.choices, blank=True)
    part_name = models.CharField(max_length=200, blank=True)
    colour = models.CharField(
        "colour of player 1", max_length=1, choices=Colour.choices, blank=True
    )
    rate = models.CharField(max_length=10, choices=PlayRate.choices)
    graded = models.BooleanField()
    not_graded_reason = models.CharField(max_length=20, choices=NotGradedReason.choices, blank=True)
    line = models.PositiveIntegerField(help_text="Line of the result in the submitted file.")
    sequence = models.BigIntegerField(
        unique=True, help_text="Recording order: larger was recorded later (G15 tie-break)."
    )
    comment = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ("sequence",)
        indexes = (
            models.Index(fields=("rate", "graded", "game_date"), name="game_rate_graded_date_idx"),
            # Issue 25: each side's games, covering "his latest graded game" (the rating
            # API's player rows, 300 at a time: 10 ms, against 40-130 ms through the
            # table's rows), in place of the foreign keys' own indexes: no more indexes
            # to write on import than before.
            models.Index(fields=("player1", "graded", "game_date"), name="game_player1_graded_idx"),
            models.Index(fields=("player2", "graded", "game_date"), name="game_player2_graded_idx"),
        )
        constraints = (
            models.CheckConstraint(
                condition=Q(player1__isnull=False) | Q(pending1__isnull=False),
                name="game_player1_known_or_pending",
            ),
            models.CheckConstraint(
                condition=Q(player2__isnull=False) | Q(pending2__isnull=False),
                name="game_player2_known_or_pending",
            ),
            models.CheckConstraint(
                condition=~Q(player1=F("player2")), name="game_player_not_himself"
            ),
            # A reason is given exactly when the game is not graded.
            models.CheckConstraint(
                condition=Q(graded=True, not_graded_reason="")
                | (Q(graded=False) & ~Q(not_graded_reason="")),
                name="game_reason_iff_not_graded",
            ),
        )

    def __str__(self) -> str:
        first, second = self.player1 or self.pending1, self.player2 or self.pending2
        return f"{first} {self.get_result_display()} {second}, {self.game_date}"
