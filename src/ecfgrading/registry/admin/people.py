"""Counties, clubs, players and their codes.

``merged_into`` is shown, never edited, here: a merge moves games, grades and history to
the survivor and is audited, so it goes through the merge service only (players:
``ecfgrading merge``; clubs have none yet). The registry lies beneath the services, so
its admin does not call them; a player or a club edited here is noted for running
importers as the services note theirs (services.changes), under the registry's lock.
"""

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import ProtectedError, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from ecfgrading.registry.admin.base import CodeSearchAdmin, ReadOnlyAdmin
from ecfgrading.registry.locking import take_registry_lock
from ecfgrading.registry.models import (
    Club,
    ClubChange,
    ClubMembership,
    County,
    IdentityChange,
    NameAlias,
    Player,
    PlayerAlias,
    RateCount,
    Sequence,
)
from ecfgrading.registry.numbering import issue_code


def _noted(players: Iterable[int | None] = (), clubs: Iterable[int | None] = ()) -> None:
    """Players and clubs changed in place, noted for running importers (which read them
    again) and the public pages (their data token). The caller holds the registry lock,
    so that the notes commit in the order of their ids (services.changes)."""
    IdentityChange.objects.bulk_create(
        IdentityChange(player_id=pk) for pk in sorted({p for p in players if p is not None})
    )
    ClubChange.objects.bulk_create(
        ClubChange(club_id=pk) for pk in sorted({c for c in clubs if c is not None})
    )


def _clubs_of(player: Player) -> set[tuple[int, int]]:
    """(membership id, club id) of the player's memberships as stored now."""
    return set(ClubMembership.objects.filter(player=player).values_list("id", "club_id"))


_Notes = tuple[list[int], list[int]]  # the players and the clubs to note


class _NotesDeletions(admin.ModelAdmin):
    """Rows deleted here, one or a list's selection, noted under the registry lock (a
    list's "delete selected" in one transaction, as every list's: ``atomic_everywhere``)."""

    def notes_of(self, rows: QuerySet[Any]) -> _Notes:
        raise NotImplementedError

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with transaction.atomic(), _refused_if_protected():
            take_registry_lock()
            players, clubs = self.notes_of(type(obj)._default_manager.filter(pk=obj.pk))
            super().delete_model(request, obj)
            _noted(players, clubs)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        with transaction.atomic(), _refused_if_protected():  # the list's "delete selected"
            take_registry_lock()
            players, clubs = self.notes_of(queryset)
            super().delete_queryset(request, queryset)
            _noted(players, clubs)


@contextmanager
def _refused_if_protected() -> Iterator[None]:
    """A row protected since the page was shown (a player merged into the one deleted
    while the deletion waited for the lock) refuses the deletion (403), as the page
    would have, rather than a server error."""
    try:
        yield
    except ProtectedError as error:
        raise PermissionDenied(f"protected since the page was shown: {error.args[0]}") from None


class CountyForm(forms.ModelForm):
    """The association code may be typed in any case; left empty, the name makes it."""

    class Meta:
        model = County
        fields = ("name", "code")

    def clean_code(self) -> str:
        return str(self.cleaned_data.get("code") or "").strip().upper()


@admin.register(County)
class CountyAdmin(admin.ModelAdmin):
    form = CountyForm
    list_display = ("name", "code")
    search_fields = ("name", "=code")


@admin.register(Club)
class ClubAdmin(_NotesDeletions):
    """A club edited or deleted here is noted (``ClubChange``), under the registry lock as
    any change to who is where: running importers read it and its members again, and
    public pages showing it are made anew (lookups.freshness)."""

    list_display = ("name", "code", "county", "is_location", "merged_into")
    list_filter = ("is_location", "county")
    list_select_related = ("county", "merged_into")
    search_fields = ("name", "=code")
    readonly_fields = ("merged_into",)

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        with transaction.atomic():  # the admin's own, or one of its own
            take_registry_lock()  # a new club too: importers find it by its id, in order
            super().save_model(request, obj, form, change)
            if change:
                _noted(clubs=[obj.pk])

    def notes_of(self, rows: QuerySet[Club]) -> _Notes:
        return [], list(rows.values_list("id", flat=True))


class MembershipInline(admin.TabularInline):
    model = ClubMembership
    raw_id_fields = ("club",)
    extra = 0


@admin.register(Player)
class PlayerAdmin(_NotesDeletions, CodeSearchAdmin):
    """Staff see the date of birth here, and only here."""

    list_display = ("ref", "surname", "forenames", "sex", "date_of_birth", "nation", "merged_into")
    list_filter = ("sex", "nation")
    list_select_related = ("merged_into",)
    search_fields = ("surname", "forenames", "=membership_no")
    readonly_fields = ("ref", "merged_into", "born_noted_at", "created_at", "updated_at")
    fields = (
        "ref",
        ("surname", "forenames"),
        ("sex", "date_of_birth", "born_noted_at"),
        ("nation", "fide_id", "membership_no"),
        "merged_into",
        ("created_at", "updated_at"),
    )
    inlines = (MembershipInline,)
    show_full_result_count = False

    @admin.display(description="code", ordering="code")
    def ref(self, player: Player) -> str:
        return player.ref if player.code is not None else "(issued on save)"

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        with transaction.atomic():
            take_registry_lock()  # who is who, as importers match them (a newcomer by id)
            if not change:
                obj.code = issue_code().number  # G28: codes are issued by the system
            elif obj.date_of_birth is not None and form.initial.get("date_of_birth") is None:
                obj.born_noted_at = timezone.now()  # learnt now: replays of lists leave it
            super().save_model(request, obj, form, change)
            if change:  # noted for running importers, which read him again
                _noted(players=[obj.pk])

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """His memberships edited below his record: each club whose membership of his was
        moved or deleted is noted, so that importers forget it; they read him again (noted
        by ``save_model``), and with him the memberships he holds now."""
        with transaction.atomic():
            take_registry_lock()
            before = _clubs_of(form.instance) if change else set()
            super().save_related(request, form, formsets, change)
            if change:
                _noted(clubs=[club for _, club in before - _clubs_of(form.instance)])

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """A player merged into another is protected, as his survivor is by him: his code
        finds the survivor for good (G28, services.merge), in a fresh view of the registry
        as in an importer's running one, only while his record stays. Django's "cannot
        delete" page then names him, one at a time or among a list's selection."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        merged = [player for player in objs if player.merged_into_id is not None]
        return deleted, counts, perms_needed, [*protected, *map(_merged_label, merged)]

    def notes_of(self, rows: QuerySet[Player]) -> _Notes:
        """The players, and the clubs of the memberships deleted with them; refused if
        one was merged meanwhile (a merge takes the registry lock too, services.merge)."""
        if rows.filter(merged_into__isnull=False).exists():
            raise PermissionDenied("a player merged into another is never deleted (G28)")
        clubs = ClubMembership.objects.filter(player__in=rows).values_list("club_id", flat=True)
        return list(rows.values_list("id", flat=True)), list(clubs)


def _merged_label(player: Player) -> str:
    return f"Player: {player} (merged into {player.merged_into}; his code finds him, G28)"


@admin.register(PlayerAlias)
class PlayerAliasAdmin(CodeSearchAdmin, ReadOnlyAdmin):
    list_display = ("ref", "player", "note", "created_at")
    list_select_related = ("player",)
    search_fields = ("player__surname",)

    @admin.display(description="code", ordering="code")
    def ref(self, alias: PlayerAlias) -> str:
        return alias.ref


@admin.register(ClubMembership)
class ClubMembershipAdmin(_NotesDeletions, CodeSearchAdmin):
    """A membership changed or deleted here notes its players, before and after, and the
    club it left: importers forget it there and read its players again."""

    list_display = ("player", "club", "first_season", "last_season")
    list_filter = ("last_season",)
    list_select_related = ("player", "club")
    search_fields = ("player__surname", "club__name", "=club__code")
    code_field = "player__code"
    raw_id_fields = ("player", "club")

    def save_model(
        self, request: HttpRequest, obj: ClubMembership, form: Any, change: bool
    ) -> None:
        with transaction.atomic():
            take_registry_lock()  # a new one too: importers find it by its id, in order
            super().save_model(request, obj, form, change)
            if change:  # its players read again; its old club's pair forgotten if it moved
                player, club = form.initial.get("player"), form.initial.get("club")
                moved = (player, club) != (obj.player_id, obj.club_id)
                _noted([player, obj.player_id], [club] if moved else [])

    def notes_of(self, rows: QuerySet[ClubMembership]) -> _Notes:
        pairs = list(rows.values_list("player_id", "club_id"))
        return [player for player, _ in pairs], [club for _, club in pairs]


@admin.register(Sequence)
class SequenceAdmin(ReadOnlyAdmin):
    list_display = ("name", "last_value")


@admin.register(NameAlias)
class NameAliasAdmin(CodeSearchAdmin, ReadOnlyAdmin):
    """The team's identification decisions, remembered for later files (issue 24)."""

    list_display = ("spelling", "club_code", "event", "player", "decision", "decided_at")
    list_filter = ("decision",)
    list_select_related = ("event", "player")
    search_fields = ("spelling", "player__surname", "=event__code")
    code_field = "player__code"
    raw_id_fields = ("event", "player", "case")


@admin.register(RateCount)
class RateCountAdmin(ReadOnlyAdmin):
    """The exact counters of the rate limits (issue 24): forgotten after ``ends_at``."""

    list_display = ("key", "count", "ends_at")
    search_fields = ("key",)
