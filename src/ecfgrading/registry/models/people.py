"""Counties, clubs and players, with the codes that identify them (G28)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.core.validators import MaxValueValidator, MinLengthValidator
from django.db import IntegrityError, models, transaction
from django.db.models import F, Q
from django.db.models.functions import Length, Upper
from django.db.models.lookups import Exact

from ecfgrading.engine.codes import LAST_CODE, GradingCode
from ecfgrading.formats.names import full_name
from ecfgrading.matching.names import search_key
from ecfgrading.registry.associations import (
    ASSOC_CODE_LENGTH,
    assoc_code_for,
    validate_assoc_code,
)
from ecfgrading.registry.merges import surviving_id
from ecfgrading.registry.models.choices import Sex

MADE_CODE_ATTEMPTS = 3  # a county made at the same moment may take the code first


class County(models.Model):
    """A county or union: the association its clubs belong to, and its code."""

    name = models.CharField(max_length=100, unique=True)
    code = models.CharField(
        "association code",
        max_length=ASSOC_CODE_LENGTH,
        unique=True,
        blank=True,
        validators=[validate_assoc_code],
        help_text=(
            "Four capital letters or digits, e.g. NORF: the county's assoc_code in the "
            "federation's API. Left empty, it is made from the name (docs/api.md)."
        ),
    )
    # Edited in the admin: pages showing its name or code follow (lookups.freshness).
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name",)
        verbose_name_plural = "counties"
        constraints = (
            # validate_assoc_code says the rest (letters and digits only).
            models.CheckConstraint(
                condition=Exact(Length("code"), ASSOC_CODE_LENGTH), name="county_code_length"
            ),
            models.CheckConstraint(
                condition=Exact(F("code"), Upper("code")), name="county_code_upper_case"
            ),
        )

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """A form left without a code shows and checks the one the name makes."""
        if not self.code:
            self.code = self.made_code()

    def made_code(self) -> str:
        """The code the rule (registry.associations) makes from the name, beside the
        other counties' codes."""
        taken = set(County.objects.exclude(pk=self.pk).values_list("code", flat=True))
        return assoc_code_for(self.name, taken)

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A county saved without a code gets the one its name makes (associations)."""
        if self.code:
            super().save(*args, **kwargs)
            return
        for attempt in range(MADE_CODE_ATTEMPTS):
            self.code = self.made_code()
            try:
                with transaction.atomic():
                    super().save(*args, **kwargs)
                return
            except IntegrityError:
                # Another import may have made a county with this code meanwhile: take
                # the next free one; any other refusal (its name, say) is the caller's.
                raced = County.objects.filter(code=self.code).exclude(pk=self.pk).exists()
                self.code = ""
                if not raced or attempt == MADE_CODE_ATTEMPTS - 1:
                    raise


class Club(models.Model):
    """A club, or a location (shown with an asterisk). Some arrive by name only."""

    code = models.CharField(
        max_length=4,
        unique=True,
        null=True,
        blank=True,
        validators=[MinLengthValidator(4)],
        help_text="Four characters, e.g. 7WAL; empty if known by name only.",
    )
    name = models.CharField(max_length=100, db_index=True)
    county = models.ForeignKey(
        County, null=True, blank=True, on_delete=models.PROTECT, related_name="clubs"
    )
    is_location = models.BooleanField(
        default=False, help_text="A location rather than a club: shown with an asterisk."
    )
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="absorbed"
    )

    class Meta:
        ordering = ("name", "code")
        constraints = (
            # No code is NULL, never '', so that several clubs may lack one.
            models.CheckConstraint(condition=~Q(code=""), name="club_code_not_empty"),
            models.CheckConstraint(
                condition=~Q(merged_into=F("id")), name="club_not_merged_into_self"
            ),
        )

    def __str__(self) -> str:
        return f"{self.name}*" if self.is_location else self.name


class PlayerQuerySet(models.QuerySet["Player"]):
    """Keeps ``name_key`` in step with the name on every path that writes players."""

    def bulk_create(self, objs: Iterable[Player], *args: Any, **kwargs: Any) -> list[Player]:
        objs = list(objs)
        for player in objs:
            player.name_key = player.search_key()
        return super().bulk_create(objs, *args, **kwargs)

    def bulk_update(
        self, objs: Iterable[Player], fields: Sequence[str], *args: Any, **kwargs: Any
    ) -> int:
        objs, fields = list(objs), list(fields)
        if {"surname", "forenames"} & set(fields):
            for player in objs:
                player.name_key = player.search_key()
            fields = [*fields, "name_key"] if "name_key" not in fields else fields
        return super().bulk_update(objs, fields, *args, **kwargs)

    def update(self, **kwargs: Any) -> int:
        if {"surname", "forenames"} & set(kwargs) and "name_key" not in kwargs:
            raise TypeError("change names with save() or bulk_update(): name_key follows them")
        return super().update(**kwargs)


class Player(models.Model):
    """A player on record: everyone who has ever had a game graded."""

    code = models.PositiveIntegerField(
        unique=True,
        validators=[MaxValueValidator(LAST_CODE)],
        help_text="Six digits of the grading code; issued, never reused (G28).",
    )
    surname = models.CharField(max_length=100)
    forenames = models.CharField(max_length=100, blank=True)
    sex = models.CharField(max_length=1, choices=Sex.choices, blank=True)
    date_of_birth = models.DateField(
        null=True,
        blank=True,
        help_text="Private: never public, in the API or in a published file.",
    )
    born_noted_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the date of birth was learnt after the record was made (a later "
        "results file, a correction, a merge, the admin); empty: with the record.",
    )
    # Player lookups match a prefix of this (matching.names.search_key): kept in step by
    # save() and PlayerQuerySet; compared byte-wise (collation "C" on PostgreSQL).
    name_key = models.CharField(max_length=210, editable=False, default="")
    fide_id = models.PositiveBigIntegerField("FIDE id", null=True, blank=True, db_index=True)
    membership_no = models.CharField("membership number", max_length=20, blank=True, db_index=True)
    nation = models.CharField(max_length=3, default="ENG")
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="absorbed",
        help_text="The surviving record, when found to be the same person.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)  # public pages' token

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ("surname", "forenames", "code")
        indexes = (
            models.Index(fields=("surname", "forenames"), name="player_name_idx"),
            models.Index(fields=("name_key", "code"), name="player_name_key_idx"),
            models.Index(Upper("surname"), name="player_surname_upper_idx"),
        )
        constraints = (
            models.CheckConstraint(condition=Q(code__lte=LAST_CODE), name="player_code_six_digits"),
            models.CheckConstraint(
                condition=~Q(merged_into=F("id")), name="player_not_merged_into_self"
            ),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.ref})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = self.search_key()
        fields = kwargs.get("update_fields")
        if fields is not None and {"surname", "forenames"} & set(fields):
            kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)

    def search_key(self) -> str:
        return search_key(self.surname, self.forenames)

    @property
    def grading_code(self) -> GradingCode:
        return GradingCode(self.code)

    @property
    def ref(self) -> str:
        """The full grading code with its check letter, e.g. ``261619B``."""
        return str(self.grading_code)

    @property
    def name(self) -> str:
        """``Surname, Forenames``, as results files and lists write it."""
        return full_name(self.surname, self.forenames)

    def surviving(self) -> Player:
        """The record this player counts for, following chains of merges (G28)."""
        if self.merged_into_id is None:
            return self
        return Player.objects.get(pk=surviving_id(Player.merges(), self.pk))

    @classmethod
    def merges(cls) -> dict[int, int]:
        """Each merged record's id -> the id it was merged into: one query, few rows."""
        merged = cls.objects.filter(merged_into__isnull=False).order_by()  # by its index
        return dict(merged.values_list("id", "merged_into"))


class PlayerAlias(models.Model):
    """A code that no longer has its own record: it resolves to the surviving player."""

    code = models.PositiveIntegerField(unique=True, validators=[MaxValueValidator(LAST_CODE)])
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="aliases")
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("code",)
        verbose_name_plural = "player aliases"
        constraints = (
            models.CheckConstraint(condition=Q(code__lte=LAST_CODE), name="alias_code_six_digits"),
        )

    def __str__(self) -> str:
        return f"{self.ref} -> {self.player.ref}"

    @property
    def grading_code(self) -> GradingCode:
        return GradingCode(self.code)

    @property
    def ref(self) -> str:
        return str(self.grading_code)


class ClubMembership(models.Model):
    """A player's club over seasons (named by the year they end: 2009 is 2008-09)."""

    # Indexed by the unique (player, club) constraint.
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", db_index=False
    )
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="memberships")
    first_season = models.PositiveSmallIntegerField()
    last_season = models.PositiveSmallIntegerField()
    ended_on = models.DateField(
        null=True,
        blank=True,
        help_text="Ended by hand by the grading team: no longer shown, kept for identification.",
    )

    class Meta:
        ordering = ("player", "-last_season", "club")
        constraints = (
            models.UniqueConstraint(fields=("player", "club"), name="membership_unique"),
            models.CheckConstraint(
                condition=Q(first_season__lte=F("last_season")), name="membership_seasons_in_order"
            ),
        )

    def __str__(self) -> str:
        return f"{self.player} at {self.club}, {self.first_season}-{self.last_season}"
