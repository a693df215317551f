"""Grading lists, their versions, and what each computation stores (G17, G26).

Published versions are immutable (G26). Single rows refuse ``save``/``delete`` and
querysets refuse ``update``/``delete``/``bulk_create`` on a published version; any
other bulk path calls :func:`assert_version_editable` first.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q

from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from ecfgrading.errors import Conflict
from ecfgrading.registry.models.choices import CategoryChoice, RateChoice, StartSourceChoice


class PublishedVersionError(Conflict):
    """A change to a published list version: corrections make a new version (G26)."""


def validate_list_id(value: str) -> None:
    try:
        ListId.parse(value)
    except ValueError as error:
        raise ValidationError(str(error)) from None


class GradingList(models.Model):
    """One publication of grades for one rate, such as standard 2010-07."""

    list_id = models.CharField(
        "list", max_length=7, validators=[validate_list_id], help_text="e.g. 2010-07"
    )
    rate = models.CharField(max_length=10, choices=RateChoice.choices)

    class Meta:
        ordering = ("-list_id", "rate")
        constraints = (
            models.UniqueConstraint(fields=("list_id", "rate"), name="grading_list_unique"),
            # Standard lists are annual, in July, up to 2011-07; half-yearly from 2012-01
            # (rules section 1, G31). List ids sort as text: '2011-07' < '2012-01'.
            models.CheckConstraint(
                condition=Q(rate=RateChoice.RAPID)
                | Q(list_id__endswith="-07")
                | Q(list_id__gte="2012-01"),
                name="grading_list_standard_in_july_until_2012",
            ),
        )

    def __str__(self) -> str:
        return f"{self.list_id} {self.rate}"

    @property
    def list(self) -> ListId:
        return ListId.parse(self.list_id)

    @property
    def has_august(self) -> bool:
        """G27: only a July list has an august version, its definitive one."""
        return self.list.has_august

    def clean(self) -> None:
        try:
            self.list.check_rate(Rate(self.rate))
        except ValueError as error:
            raise ValidationError(str(error)) from None


class ListVersionQuerySet(models.QuerySet["ListVersion"]):
    def update(self, **kwargs: Any) -> int:
        _refuse_if_published(self.filter(status=ListVersion.Status.PUBLISHED))
        return super().update(**kwargs)

    def delete(self) -> tuple[int, dict[str, int]]:
        _refuse_if_published(self.filter(status=ListVersion.Status.PUBLISHED))
        return super().delete()


class ListVersion(models.Model):
    """``initial``, ``august``, ``rev1``...; a draft until published, then immutable."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"

    INITIAL = "initial"  # G26: a list's first version
    AUGUST = "august"  # G27: the definitive version of a July list
    NAMES = rf"^({INITIAL}|{AUGUST}|rev[1-9][0-9]*)$"  # then rev1, rev2... (G26)

    grading_list = models.ForeignKey(GradingList, on_delete=models.PROTECT, related_name="versions")
    name = models.CharField(
        max_length=10,
        validators=[RegexValidator(NAMES)],
        help_text="initial, august, rev1, rev2...",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    computed_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    # G31: the rule set it was computed under; left empty, that of the list's date.
    rules_name = models.CharField(max_length=40, blank=True, default="")
    report = models.JSONField(default=dict, blank=True)

    objects = ListVersionQuerySet.as_manager()

    class Meta:
        ordering = ("grading_list_id", "id")
        get_latest_by = "published_at"
        constraints = (
            models.UniqueConstraint(fields=("grading_list", "name"), name="list_version_unique"),
            models.CheckConstraint(
                condition=Q(status="draft") | Q(published_at__isnull=False),
                name="list_version_published_has_date",
            ),
        )

    def __str__(self) -> str:
        return f"{self.grading_list} {self.name} ({self.status})"

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED

    def clean(self) -> None:
        if self.name != self.AUGUST or self.grading_list_id is None:
            return
        if not self.grading_list.has_august:
            raise ValidationError({"name": "only July lists have an august version"})

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            _refuse_if_published(ListVersion.objects.filter(pk=self.pk, status="published"))
        if not self.rules_name:
            self.rules_name = rules_for(self.grading_list.list).name
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        assert_version_editable(self)
        return super().delete(*args, **kwargs)


def assert_version_editable(version: ListVersion | int | None) -> None:
    """Raise PublishedVersionError unless the version is a draft (checked in the database)."""
    if isinstance(version, ListVersion):
        if version.is_published:
            raise _published_error(version)
        version = version.pk
    if version is not None:
        _refuse_if_published(ListVersion.objects.filter(pk=version, status="published"))


def _refuse_if_published(published: models.QuerySet[ListVersion]) -> None:
    version = published.select_related("grading_list").first()
    if version is not None:
        raise _published_error(version)


def _published_error(version: ListVersion) -> PublishedVersionError:
    return PublishedVersionError(
        f"list version {version} is published and immutable; make a new version"
    )


class VersionRowQuerySet(models.QuerySet[Any]):
    """Bulk operations that refuse to touch a published version."""

    def update(self, **kwargs: Any) -> int:
        self._refuse_published()
        return super().update(**kwargs)

    def delete(self) -> tuple[int, dict[str, int]]:
        self._refuse_published()
        return super().delete()

    def bulk_create(self, objs: Iterable[Any], *args: Any, **kwargs: Any) -> list[Any]:
        objs = list(objs)
        for version_id in {obj.version_id for obj in objs}:
            assert_version_editable(version_id)
        return super().bulk_create(objs, *args, **kwargs)

    def _refuse_published(self) -> None:
        versions = ListVersion.objects.filter(status="published")
        _refuse_if_published(versions.filter(pk__in=self.values("version_id")))


class VersionRow(models.Model):
    """A row that belongs to a list version and is frozen with it."""

    version_id: int

    objects = VersionRowQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        assert_version_editable(self.version_id)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        assert_version_editable(self.version_id)
        return super().delete(*args, **kwargs)


class ListEntry(VersionRow):
    """One player's outcome in a list version, published or not."""

    # Indexed by the unique (version, player) constraint.
    version = models.ForeignKey(
        ListVersion, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    player = models.ForeignKey("Player", on_delete=models.PROTECT, related_name="list_entries")
    grade = models.PositiveSmallIntegerField(null=True, blank=True, help_text="G22: published.")
    unrounded = models.FloatField(null=True, blank=True, help_text="After bonus and floor.")
    calculated = models.FloatField(null=True, blank=True, help_text="Before the junior bonus.")
    category = models.CharField(max_length=1, choices=CategoryChoice.choices, blank=True)
    previous_grade = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The previous list's grade (Grade1) as published."
    )
    games_latest = models.PositiveIntegerField(default=0, help_text="G24: games in P0.")
    games_counted = models.PositiveIntegerField(default=0, help_text="G24: games counted.")
    n1 = models.PositiveIntegerField(default=0, help_text="Games stored for P1.")
    n2 = models.PositiveIntegerField(default=0, help_text="Games stored for P2.")
    junior_age = models.PositiveSmallIntegerField(null=True, blank=True)
    bonus = models.FloatField(default=0.0, help_text="G20: junior bonus.")
    start_grade = models.FloatField(null=True, blank=True)
    start_source = models.CharField(max_length=20, choices=StartSourceChoice.choices, blank=True)
    flags = models.CharField(max_length=100, blank=True, help_text="Comma-separated.")
    published = models.BooleanField(default=False, help_text="G23: has a category.")

    class Meta:
        ordering = ("version", "player")
        verbose_name_plural = "list entries"
        constraints = (
            models.UniqueConstraint(fields=("version", "player"), name="list_entry_unique"),
        )

    def __str__(self) -> str:
        return f"{self.player} in {self.version}: {self.grade}{self.category}"


class StoredGamePoints(VersionRow):
    """G17: the points one player scored in one game, as this version computed them."""

    # A national list stores 400,000 of these rows, so they carry one index only: the
    # unique (version, player, game), which also serves lookups by (version, player).
    # Games and players are never deleted (PROTECT, checked by Django), so their keys
    # need no index and no database constraint: PostgreSQL's deferred checks of two
    # keys on 400,000 rows took longer at commit than writing the rows. Nor does the
    # version's, for the same reason (9 s at a national run's commit): a run writes its
    # rows for the draft it holds locked, and Django cascades a version's deletion.
    version = models.ForeignKey(
        ListVersion,
        on_delete=models.CASCADE,
        related_name="stored_points",
        db_index=False,
        db_constraint=False,
    )
    game = models.ForeignKey(
        "Game",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="stored_points",
        db_index=False,
        db_constraint=False,
        help_text="Empty for lists loaded from a file, which have no games.",
    )
    player = models.ForeignKey(
        "Player",
        on_delete=models.PROTECT,
        related_name="stored_points",
        db_index=False,
        db_constraint=False,
    )
    period = models.PositiveSmallIntegerField(default=0, help_text="0: the version's P0.")
    date = models.DateField()
    sequence = models.BigIntegerField(default=0, help_text="The game's recording order.")
    points = models.FloatField()

    class Meta:
        ordering = ("version", "player", "date", "sequence")
        verbose_name_plural = "stored game points"
        constraints = (
            # NULL games (lists loaded from a file) never collide: NULLs are distinct.
            models.UniqueConstraint(
                fields=("version", "player", "game"), name="stored_points_unique_game"
            ),
            models.CheckConstraint(condition=Q(period__lte=2), name="stored_points_period_0_to_2"),
        )

    def __str__(self) -> str:
        return f"{self.player_id} {self.points:g} on {self.date} (version {self.version_id})"


class PackedGamePoints(VersionRow):
    """G17: a version's stored game points (StoredGamePoints of its P0) again, packed as
    columns in one value: what a later list's load reads of them (G15, G34), in one row.

    Read row by row, a national version's 260,000 points took 0.45 s, nine tenths of it
    making Python values that numpy then laid into columns, and a national run reads two
    to four versions (issue 25). The rows stay what every page, report and the admin
    read; this copy is written with them, from the same arrays, by the run that computes
    the version, and frozen with it. A version without it (a list loaded from a file, or
    computed before it existed) is read row by row."""

    version = models.OneToOneField(
        ListVersion, on_delete=models.CASCADE, primary_key=True, related_name="packed_points"
    )
    rows = models.PositiveIntegerField()
    data = models.BinaryField(
        help_text="STORED_ROW's columns (registry.packed), one after another, zlib-compressed."
    )

    class Meta:
        verbose_name_plural = "packed game points"

    def __str__(self) -> str:
        return f"{self.rows} stored game points (version {self.version_id})"


class StoredPeriodTotal(VersionRow):
    """G17: a player's graded games and total points in the version's P0."""

    # Indexed by the unique (version, player) constraint.
    version = models.ForeignKey(
        ListVersion, on_delete=models.CASCADE, related_name="stored_totals", db_index=False
    )
    player = models.ForeignKey("Player", on_delete=models.PROTECT, related_name="stored_totals")
    n = models.PositiveIntegerField()
    total = models.FloatField()

    class Meta:
        ordering = ("version", "player")
        constraints = (
            models.UniqueConstraint(fields=("version", "player"), name="stored_total_unique"),
        )

    def __str__(self) -> str:
        return (
            f"{self.player_id}: {self.n} games, {self.total:g} points (version {self.version_id})"
        )


class StartingGradeAssignment(models.Model):
    """G6: a starting grade set by the grading team, e.g. converted from FIDE (G30)."""

    # Indexed by assignment_lookup_idx (player, rate, valid_from).
    player = models.ForeignKey(
        "Player", on_delete=models.PROTECT, related_name="starting_grades", db_index=False
    )
    rate = models.CharField(max_length=10, choices=RateChoice.choices)
    grade = models.FloatField()
    reason = models.CharField(max_length=200, help_text="e.g. FIDE 1850")
    valid_from = models.CharField(
        max_length=7, validators=[validate_list_id], help_text="The first list it applies to."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("player", "rate", "-valid_from")
        indexes = (
            models.Index(fields=("player", "rate", "valid_from"), name="assignment_lookup_idx"),
        )

    def __str__(self) -> str:
        return f"{self.player} {self.rate} {self.grade:g} from {self.valid_from} ({self.reason})"
