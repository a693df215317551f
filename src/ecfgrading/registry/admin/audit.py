"""The audit log: read only."""

from django.contrib import admin

from ecfgrading.registry.admin.base import ReadOnlyAdmin
from ecfgrading.registry.models import AuditLog


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyAdmin):
    list_display = ("at", "user", "actor", "action", "object_type", "object_id")
    list_filter = ("action", "object_type")
    list_select_related = ("user",)
    search_fields = ("=object_id", "actor", "user__username")
    date_hierarchy = "at"
