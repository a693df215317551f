"""Feedback from the public: the grading team answers it (the back office will do more)."""

from django.contrib import admin

from ecfgrading.registry.models import Feedback


@admin.register(Feedback)
class FeedbackAdmin(admin.ModelAdmin):
    list_display = ("ref", "kind", "player_code", "status", "submitted_at", "assigned_to")
    list_filter = ("status", "kind")
    list_select_related = ("assigned_to",)
    search_fields = ("=ref", "=player_code", "event")
    date_hierarchy = "submitted_at"
    readonly_fields = ("ref", "kind", "player_code", "player", "event", "message", "submitted_at")
    raw_id_fields = ("player", "assigned_to")
