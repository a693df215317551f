"""The chase list of overdue events, and the Chase button (an e-mail to the officer): its
confirm page shows who gets what, and sends it once with that page's one-time key."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

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


@team_only
def chase(request: HttpRequest, event_id: int) -> HttpResponse:
    """GET: the confirm step (the reminder and its address); POST: queue it, once per key."""
    back = reverse("backoffice:team_chase")
    today = timezone.localdate()
    try:
        if request.method != "POST":
            shown = chasing.preview(event_id, today=today)
            context = {"preview": shown, "key": chasing.new_key()}
            return render(request, "backoffice/team/chase_confirm.html", context)
        key = request.POST.get("key", "")
        done = chasing.chase(event_id, today=today, user=request.user, key=key)
    except ServiceError as error:
        return refused_back(request, error, back, prefix="Not chased: ")
    record = done.record
    to = record.message.to if record.message else "the officer"
    if done.repeated:
        messages.info(request, f"{record.event.code} was already chased from that page: sent once.")
    else:
        messages.success(request, f"Chased {record.event.code}: a reminder is queued for {to}.")
    return redirect(back)
