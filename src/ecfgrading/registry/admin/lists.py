"""Grading lists, versions and what each computation stored."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ecfgrading.registry.admin.base import CodeSearchAdmin, ReadOnlyAdmin
from ecfgrading.registry.models import (
    GradingList,
    ListEntry,
    ListVersion,
    PackedGamePoints,
    PublishedSnapshot,
    StartingGradeAssignment,
    StoredGamePoints,
    StoredPeriodTotal,
)


@admin.register(GradingList)
class GradingListAdmin(admin.ModelAdmin):
    list_display = ("list_id", "rate")
    list_filter = ("rate",)
    search_fields = ("list_id",)


@admin.register(ListVersion)
class ListVersionAdmin(admin.ModelAdmin):
    """Versions are made and published by the services; published ones are read-only."""

    list_display = ("grading_list", "name", "status", "computed_at", "published_at")
    list_filter = ("status", "grading_list__rate")
    list_select_related = ("grading_list",)
    search_fields = ("grading_list__list_id", "name")
    readonly_fields = ("status", "computed_at", "published_at", "rules_name", "report")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_draft(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_draft(obj) and super().has_delete_permission(request, obj)


def _is_draft(version: ListVersion | None) -> bool:
    return version is None or not version.is_published


@admin.register(ListEntry)
class ListEntryAdmin(CodeSearchAdmin, ReadOnlyAdmin):
    list_display = ("player", "version", "grade", "category", "games_latest", "games_counted")
    list_filter = ("published", "category", "version__grading_list__rate")
    list_select_related = ("player", "version__grading_list")
    search_fields = ("player__surname",)
    code_field = "player__code"
    raw_id_fields = ("player", "version")


@admin.register(StoredGamePoints)
class StoredGamePointsAdmin(CodeSearchAdmin, ReadOnlyAdmin):
    list_display = ("player", "version", "date", "points", "game")
    list_select_related = ("player", "version__grading_list")
    search_fields = ("player__surname",)
    code_field = "player__code"
    raw_id_fields = ("player", "version", "game")


@admin.register(PackedGamePoints)
class PackedGamePointsAdmin(ReadOnlyAdmin):
    """The same points as the version's stored game points, packed for later runs."""

    list_display = ("version", "rows")
    list_select_related = ("version__grading_list",)
    search_fields = ("version__grading_list__list_id",)
    exclude = ("data",)


@admin.register(StoredPeriodTotal)
class StoredPeriodTotalAdmin(CodeSearchAdmin, ReadOnlyAdmin):
    list_display = ("player", "version", "n", "total")
    list_select_related = ("player", "version__grading_list")
    search_fields = ("player__surname",)
    code_field = "player__code"
    raw_id_fields = ("player", "version")


@admin.register(StartingGradeAssignment)
class StartingGradeAssignmentAdmin(CodeSearchAdmin):
    list_display = ("player", "rate", "grade", "reason", "valid_from", "created_by")
    list_filter = ("rate", "valid_from")
    list_select_related = ("player", "created_by")
    search_fields = ("player__surname", "reason")
    code_field = "player__code"
    raw_id_fields = ("player",)
    readonly_fields = ("created_by", "created_at")

    def save_model(
        self, request: HttpRequest, obj: StartingGradeAssignment, form: Any, change: bool
    ) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(PublishedSnapshot)
class PublishedSnapshotAdmin(ReadOnlyAdmin):
    """What a published version's files were written from (issue 24): never changed."""

    list_display = ("version", "previous", "august", "rule_set", "frozen_at")
    list_select_related = ("version__grading_list", "previous__grading_list")
    search_fields = ("version__grading_list__list_id",)
    exclude = ("players",)  # thousands of rows: the files show them
