"""The back office's records in the admin: the outbox, chases and amendments are written
by the back office's workflows and only shown here; member records may be corrected."""

from django.contrib import admin

from ecfgrading.registry.admin.base import AtomicActions, ReadOnlyAdmin
from ecfgrading.registry.models import (
    Amendment,
    ChaseRecord,
    DirectMember,
    ForeignResult,
    OutboxMessage,
)


@admin.register(OutboxMessage)
class OutboxMessageAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "kind", "to", "subject", "status", "attempts", "sent_at")
    list_filter = ("status", "kind")
    search_fields = ("=to", "subject", "=key")
    date_hierarchy = "created_at"


@admin.register(ChaseRecord)
class ChaseRecordAdmin(ReadOnlyAdmin):
    list_display = ("chased_at", "event", "chased_by")
    list_select_related = ("event", "chased_by")
    search_fields = ("=event__code",)


@admin.register(DirectMember)
class DirectMemberAdmin(AtomicActions):
    list_display = ("number", "player", "member_class", "expires_on")
    list_select_related = ("player",)
    search_fields = ("=number", "player__surname")
    raw_id_fields = ("player", "user")


@admin.register(ForeignResult)
class ForeignResultAdmin(ReadOnlyAdmin):
    list_display = ("submitted_at", "member", "event_name", "country", "status")
    list_filter = ("status",)
    list_select_related = ("member",)
    search_fields = ("event_name", "=member__number")


@admin.register(Amendment)
class AmendmentAdmin(ReadOnlyAdmin):
    list_display = ("made_at", "player", "event", "rate", "what", "version")
    list_select_related = ("player", "event", "version")
    search_fields = ("what", "why")
