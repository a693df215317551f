"""The audit log and the notes of changed identities and clubs: read only."""

from django.contrib import admin

from ecfgrading.registry.admin.base import ReadOnlyAdmin
from ecfgrading.registry.models import AuditLog, ClubChange, IdentityChange


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyAdmin):
    list_display = ("at", "user", "actor", "action", "object_type", "object_id")
    list_filter = ("action", "object_type")
    list_select_related = ("user",)
    search_fields = ("=object_id", "actor", "user__username")
    date_hierarchy = "at"


@admin.register(IdentityChange)
class IdentityChangeAdmin(ReadOnlyAdmin):
    list_display = ("id", "player_id")
    search_fields = ("=player_id",)


@admin.register(ClubChange)
class ClubChangeAdmin(ReadOnlyAdmin):
    list_display = ("id", "club_id")
    search_fields = ("=club_id",)
