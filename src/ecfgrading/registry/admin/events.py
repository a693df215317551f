"""Events, submissions, games and the identification queue."""

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from ecfgrading.registry.admin.base import ReadOnlyAdmin
from ecfgrading.registry.models import Event, Game, PendingIdentification, Submission

PREVIEW_BYTES = 4000


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("code", "name", "kind", "rate", "start_date", "end_date", "status")
    list_filter = ("status", "kind", "rate")
    search_fields = ("=code", "name", "officer_name")
    raw_id_fields = ("grading_officer",)
    readonly_fields = ("created_at", "updated_at")
    date_hierarchy = "end_date"


@admin.register(Submission)
class SubmissionAdmin(ReadOnlyAdmin):
    """A results file is kept byte for byte; the admin shows it and never edits it."""

    list_display = ("event_code", "submission_index", "filename", "status", "received_at")
    list_filter = ("status",)
    search_fields = ("=event_code", "filename", "sender_name", "=sha256")
    readonly_fields = ("size", "preview")
    exclude = ("raw",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Submission]:
        return super().get_queryset(request).defer("raw")

    @admin.display(description="size (bytes)")
    def size(self, submission: Submission) -> int:
        return submission.size

    @admin.display(description="file (start)")
    def preview(self, submission: Submission) -> str:
        return bytes(submission.raw[:PREVIEW_BYTES]).decode("utf-8", errors="replace")


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("sequence", "event", "player1", "result", "player2", "game_date", "rate")
    list_filter = ("rate", "graded", "result")
    list_select_related = ("event", "player1", "player2")
    search_fields = ("=event__code", "player1__surname", "player2__surname")


@admin.register(PendingIdentification)
class PendingIdentificationAdmin(ReadOnlyAdmin):
    list_display = ("name", "pin", "code_text", "club_name", "submission", "status")
    list_filter = ("status",)
    list_select_related = ("submission",)
    search_fields = ("name", "surname", "=code_text", "club_name")
