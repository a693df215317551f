"""The background work of mail, run by the worker (django-tasks, database backend):
delivering the outbox, and building a members' games mailing.

A web request or a command only enqueues these; ``ecfgrading mail worker`` (Django's
``db_worker``) runs them. Delivery asks to be run again when a message is left to
retry, at the time its retry is due, so a refused message is tried again without anyone
pressing a button.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django_tasks import task
from django_tasks_db.models import DBTaskResult, get_date_max

from ecfgrading.registry.models import AuditLog
from ecfgrading.services import mail


@task()
def deliver_mail() -> dict[str, Any]:
    """Send what is due; ask to run again when the earliest retry is due."""
    done = mail.deliver_due()
    if done.next_attempt_at is not None:
        request_delivery(at=done.next_attempt_at)
    return {"sent": done.sent, "retrying": done.retrying, "failed": done.failed}


@task()
def mail_games_task(list_id: str, before: str) -> dict[str, Any]:
    """Queue every direct member's games received for a list, then deliver them."""
    from ecfgrading.services.members import mail_games

    made = mail_games(list_id, before)
    request_delivery()
    return {"queued": made.queued, "already": made.already, "no_address": made.no_address}


def request_delivery(*, at: dt.datetime | None = None) -> bool:
    """Enqueue a delivery run now (or at ``at``) unless one is already waiting that will
    run by then. True when one was enqueued."""
    if _waiting_run(deliver_mail.module_path, at):
        return False
    runner = (
        deliver_mail if at is None or at <= timezone.now() else deliver_mail.using(run_after=at)
    )
    runner.enqueue()
    return True


def request_games_mailing(list_id: str, before: str, *, user: Any = None) -> str:
    """Enqueue the games mailing of one list (audited); the id of the task."""
    result = mail_games_task.enqueue(list_id, before)
    AuditLog.record(
        "queue members' games mailing", user=user, list=list_id, before=before, task=str(result.id)
    )
    return str(result.id)


def _waiting_run(task_path: str, at: dt.datetime | None) -> bool:
    """A run of the task not yet started that will start by ``at`` (now if None)."""
    by = at or timezone.now()
    return (
        DBTaskResult.objects.filter(status="READY", task_path=task_path)
        .filter(Q(run_after=get_date_max()) | Q(run_after__lte=by))
        .exists()
    )


def pending_runs() -> int:
    """Mail runs enqueued and not yet started (the outbox page says so)."""
    paths = (deliver_mail.module_path, mail_games_task.module_path)
    return DBTaskResult.objects.filter(status="READY", task_path__in=paths).count()
