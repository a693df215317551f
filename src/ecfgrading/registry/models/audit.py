"""Who did what, when: every change the grading team or an import makes."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from ecfgrading.registry.inserts import insert_instances


class AuditLog(models.Model):
    at = models.DateTimeField(default=timezone.now, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor = models.CharField(max_length=100, blank=True, help_text="e.g. import, cli, system")
    action = models.CharField(max_length=50, db_index=True)
    object_type = models.CharField(max_length=50, blank=True)
    object_id = models.CharField(max_length=50, blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("-at", "-id")
        indexes = (models.Index(fields=("object_type", "object_id"), name="audit_object_idx"),)

    def __str__(self) -> str:
        who = self.actor or (str(self.user) if self.user_id else "?")
        return f"{self.at:%Y-%m-%d %H:%M} {who} {self.action} {self.object_type} {self.object_id}"

    @classmethod
    def record(
        cls,
        action: str,
        obj: models.Model | None = None,
        *,
        user: Any = None,
        actor: str = "",
        **details: Any,
    ) -> AuditLog:
        """Write one entry; ``obj`` names the object by its model and primary key. By a
        plain statement: an import writes one for each of a season's 1,500 files."""
        return insert_instances([cls.entry(action, obj, user=user, actor=actor, **details)])[0]

    @classmethod
    def entry(
        cls,
        action: str,
        obj: models.Model | None = None,
        *,
        user: Any = None,
        actor: str = "",
        **details: Any,
    ) -> AuditLog:
        """The entry ``record`` writes, not written yet (a turn's files' are written
        together, services.results.write)."""
        return cls(
            action=action,
            user=user,
            actor=actor,
            object_type=obj._meta.label_lower if obj is not None else "",
            object_id=str(obj.pk) if obj is not None else "",
            details=details,
        )
