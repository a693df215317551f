"""The chase list of overdue events, and the Chase button (an e-mail to the officer)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from ecfgrading.backoffice.errors import refused_back
from ecfgrading.backoffice.views.team import team_only
from ecfgrading.lookups.chases import chase_list, chases
from ecfgrading.services.errors import ServiceError
from ecfgrading.services.team import chasing


@require_GET
@team_only
def index(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    context = {"rows": chase_list(today), "chases": chases(), "today": today}
    return render(request, "backoffice/team/chase.html", context)


@require_POST
@team_only
def chase(request: HttpRequest, event_id: int) -> HttpResponse:
    try:
        record = chasing.chase(event_id, today=timezone.localdate(), user=request.user)
    except ServiceError as error:
        return refused_back(request, error, reverse("backoffice:team_chase"), prefix="Not chased: ")
    to = record.message.to if record.message else "the officer"
    messages.success(request, f"Chased {record.event.code}: a reminder is queued for {to}.")
    return redirect("backoffice:team_chase")
