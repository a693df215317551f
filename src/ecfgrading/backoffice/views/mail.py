"""The grading team's outbox page: every message with its status, "Send now" (which asks
the worker; nothing is sent inside the request), a dry run, and the members' games
mailing before a July list and its August revision."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from ecfgrading.backoffice.errors import office_view, refused
from ecfgrading.backoffice.forms_members import GamesMailingForm
from ecfgrading.lookups import outbox as on_record
from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import OutboxMessage
from ecfgrading.services import mail, mail_tasks, members
from ecfgrading.services.errors import ServiceError


@require_GET
@office_view(Role.TEAM)
def outbox(request: HttpRequest) -> HttpResponse:
    """The outbox, newest first (``?status=`` keeps one status)."""
    status = request.GET.get("status", "")
    if status not in OutboxMessage.Status.values:
        status = ""
    context = {
        "rows": on_record.outbox(status=status),
        "counts": on_record.outbox_counts(),
        "status": status,
        "statuses": OutboxMessage.Status.choices,
        "pending_runs": mail_tasks.pending_runs(),
        "games_form": GamesMailingForm(),
    }
    return render(request, "backoffice/mail/outbox.html", context)


@require_GET
@office_view(Role.TEAM)
def preview(request: HttpRequest) -> HttpResponse:
    """The dry run: what a send would deliver now, sending nothing."""
    return render(request, "backoffice/mail/preview.html", {"rows": on_record.waiting_rows()})


@require_POST
@office_view(Role.TEAM)
def send(request: HttpRequest) -> HttpResponse:
    """Ask the worker to deliver what is due."""
    asked = mail.request_delivery()
    messages.success(
        request,
        "The worker has been asked to send what is due."
        if asked
        else "A send is already waiting for the worker.",
    )
    return redirect("backoffice:mail")


@office_view(Role.TEAM)
def games(request: HttpRequest) -> HttpResponse:
    """GET: the dry run of the members' games mailing; POST: hand it to the worker."""
    form = GamesMailingForm(request.POST if request.method == "POST" else request.GET or None)
    context: dict[str, object] = {"form": form}
    if not form.is_valid():
        return render(request, "backoffice/mail/games.html", context, status=400)
    list_id, before = form.cleaned_data["list_id"], form.cleaned_data["before"]
    try:
        planned = members.mail_games(list_id, before, dry_run=True)
    except ServiceError as error:
        return refused(request, "backoffice/mail/games.html", context, error)
    if request.method == "POST":
        mail_tasks.request_games_mailing(list_id, before, user=request.user)
        messages.success(
            request,
            f"The worker will queue {planned.queued} members' games before the {before}"
            f" {list_id} list, then send them.",
        )
        return redirect("backoffice:mail")
    context["planned"] = planned
    return render(request, "backoffice/mail/games.html", context)
