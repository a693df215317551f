"""Entries of the audit log for a row that changed: the fields before and after.
``lookups.audit`` reads the log for the grading team.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import models

from ecfgrading.registry.models import AuditLog

# An event's fields an entry shows before and after (an import or a registration).
EVENT_FIELDS = ("name", "kind", "rate", "start_date", "end_date", "results_deadline", "status")


def snapshot(obj: models.Model, fields: tuple[str, ...]) -> dict[str, Any]:
    """The named fields of a row as JSON values, for an entry's ``before``/``after``."""
    return {name: _plain(getattr(obj, name)) for name in fields}


def _plain(value: Any) -> Any:
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, models.Model):
        return str(value.pk)
    return value


def changed(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields that differ, as they were and as they are (a new row: all of them)."""
    names = [k for k in {**before, **after} if before.get(k) != after.get(k)]
    return {k: before.get(k) for k in names if k in before}, {k: after.get(k) for k in names}


def record_change(
    action: str,
    obj: models.Model,
    *,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    user: Any = None,
    actor: str = "",
    **details: Any,
) -> AuditLog | None:
    """One entry for a row that changed, with the fields that did; None when none did."""
    was, now = changed(before, after)
    if not now:
        return None
    return AuditLog.record(action, obj, user=user, actor=actor, before=was, after=now, **details)
