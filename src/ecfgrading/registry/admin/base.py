"""What the registry's admin pages share."""

from typing import Any

from django.contrib import admin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest

from ecfgrading.engine.codes import GradingCode, InvalidCode


class AtomicActions(admin.ModelAdmin):
    """A list whose actions are each one transaction, as the admin's own add, change and
    delete pages are: Django logs the deletions of "delete selected" before it deletes,
    and a lock wait that runs out between the two must leave no log of deletions that
    did not happen (web.errors shows such a list's wait as "busy", ``atomic_actions``);
    an action run straight from the list (django-axes' clean-up) likewise. The page
    asking to confirm a deletion only reads: no transaction, so no write lock (SQLite)."""

    atomic_actions = True

    def response_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        if request.POST.get("action") == "delete_selected" and not request.POST.get("post"):
            return super().response_action(request, queryset)  # the page to confirm
        with transaction.atomic():
            return super().response_action(request, queryset)


def atomic_everywhere(site: admin.AdminSite) -> None:
    """Every list of ``site`` made an ``AtomicActions`` one, the registry's and other
    apps' alike (Django's users and groups, django-axes' attempts, the task queue's
    results): one mechanism, so that no admin written later is left out. Their "delete
    selected" logged, then deleted, in two commits, and a lock wait running out between
    the two was a server error that left a log of deletions never made. Called once
    every app's admin module is loaded (registry.apps)."""
    for model, model_admin in list(site._registry.items()):
        if isinstance(model_admin, AtomicActions):
            continue
        own = type(model_admin)
        site.unregister(model)
        site.register(
            model, type(own.__name__, (AtomicActions, own), {"__module__": own.__module__})
        )


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows written by imports and calculations: shown, never edited by hand."""

    show_full_result_count = False  # no COUNT(*) over a large table on every page

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CodeSearchAdmin(admin.ModelAdmin):
    """Searches a grading code too, with or without its check letter: 261619B, 261619."""

    code_field = "code"

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        found, duplicates = super().get_search_results(request, queryset, search_term)
        number = code_number(search_term)
        if number is not None:
            found |= queryset.filter(**{self.code_field: number})
        return found, duplicates


def code_number(text: str) -> int | None:
    """The six digits of a searched code, or None when the text is not one."""
    text = text.strip()
    if text.isdigit() and len(text) <= 6:
        return int(text)
    try:
        return GradingCode.parse(text).number
    except InvalidCode:
        return None
