"""The members' games mailing, built by the worker (django-tasks, database backend), and
what the outbox page counts of the worker's runs; delivering the outbox is ``mail``'s.

A web request or a command only enqueues the mailing; ``ecfgrading mail worker`` (Django's
``db_worker``) runs it.
"""

from __future__ import annotations

from typing import Any

from django_tasks import task
from django_tasks_db.models import DBTaskResult

from ecfgrading.registry.models import AuditLog
from ecfgrading.services import mail
from ecfgrading.services.members import mail_games


@task()
def mail_games_task(list_id: str, before: str) -> dict[str, Any]:
    """Queue every direct member's games received for a list, then deliver them."""
    made = mail_games(list_id, before)
    mail.request_delivery()
    return {"queued": made.queued, "already": made.already, "no_address": made.no_address}


def request_games_mailing(list_id: str, before: str, *, user: Any = None) -> str:
    """Enqueue the games mailing of one list (audited); the id of the task."""
    result = mail_games_task.enqueue(list_id, before)
    AuditLog.record(
        "queue members' games mailing", user=user, list=list_id, before=before, task=str(result.id)
    )
    return str(result.id)


def pending_runs() -> int:
    """Mail runs enqueued and not yet started (the outbox page says so)."""
    paths = (mail.deliver_mail.module_path, mail_games_task.module_path)
    return DBTaskResult.objects.filter(status="READY", task_path__in=paths).count()
