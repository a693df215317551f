"""The back office's records in the admin: the outbox, chases and amendments are written
by the back office's workflows and only shown here; member records may be corrected."""

from typing import Any

from django import forms
from django.contrib import admin

from ecfgrading.registry.admin.base import ReadOnlyAdmin
from ecfgrading.registry.models import (
    Amendment,
    ChaseRecord,
    DirectMember,
    ForeignResult,
    OutboxMessage,
)
from ecfgrading.registry.roles import Role


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


class DirectMemberForm(forms.ModelForm):  # type: ignore[type-arg]
    """A member's record may be given only a login in the member role: any other (a
    grader's) would show this member's games under its name. A login it holds already is
    not asked again, so that a record whose login has left the role can still be
    corrected (its e-mail address, its class) or have the login taken away."""

    class Meta:
        model = DirectMember
        fields = "__all__"

    def clean_user(self) -> Any:
        user = self.cleaned_data.get("user")
        given = user is not None and user.pk != self.instance.user_id
        if given and not user.groups.filter(name=Role.MEMBER).exists():
            raise forms.ValidationError(
                f"expected a login in the {Role.MEMBER} role, got {user.get_username()!r}"
            )
        return user


@admin.register(DirectMember)
class DirectMemberAdmin(admin.ModelAdmin):
    form = DirectMemberForm
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
