"""The grading team's events (issue 24, case 5): find one by code or name, then edit it,
withdraw it with a reason, or give it to another grading officer; services.events does
each, audited."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from ecfgrading.backoffice.errors import refused
from ecfgrading.backoffice.forms_team import EventEditForm, ReassignForm, WithdrawForm
from ecfgrading.backoffice.views.team import team_only
from ecfgrading.engine import Rate
from ecfgrading.lookups.team_events import TeamEvent, find_events, grading_officers, team_event
from ecfgrading.services import events
from ecfgrading.services.errors import ServiceError

EVENT_PAGE = "backoffice/team/event.html"


@require_GET
@team_only
def index(request: HttpRequest) -> HttpResponse:
    """Events whose code starts with, or whose name holds, what was typed."""
    text = request.GET.get("q", "").strip()
    context = {"q": text, "found": find_events(text)}
    return render(request, "backoffice/team/events.html", context)


@require_GET
@team_only
def detail(request: HttpRequest, event_id: int) -> HttpResponse:
    return render(request, EVENT_PAGE, _context(team_event(event_id)))


@require_POST
@team_only
def edit(request: HttpRequest, event_id: int) -> HttpResponse:
    found = team_event(event_id)
    form = EventEditForm(request.POST)
    try:
        if not form.is_valid():
            raise events.EventError(f"expected the event's details: {_problems(form)}")
        data = form.cleaned_data
        events.edit_event(
            event_id,
            name=data["name"],
            rate=Rate(data["rate"]),
            start=data["start"],
            end=data["end"],
            deadline=data["deadline"],
            officer_name=data["officer_name"],
            user=request.user,
        )
    except ServiceError as error:
        return refused(request, EVENT_PAGE, _context(found, edit=form), error)
    messages.success(request, f"{found.code} is corrected.")
    return redirect(_url(found))


@require_POST
@team_only
def withdraw(request: HttpRequest, event_id: int) -> HttpResponse:
    found = team_event(event_id)
    form = WithdrawForm(request.POST)
    try:
        if not form.is_valid():
            raise events.EventError("expected a reason for withdrawing the event, got nothing")
        events.withdraw_event(event_id, reason=form.cleaned_data["reason"], user=request.user)
    except ServiceError as error:
        return refused(request, EVENT_PAGE, _context(found, withdraw=form), error)
    messages.success(request, f"{found.code} is withdrawn.")
    return redirect(_url(found))


@require_POST
@team_only
def reassign(request: HttpRequest, event_id: int) -> HttpResponse:
    found = team_event(event_id)
    officers = grading_officers()
    form = ReassignForm(officers, request.POST)
    try:
        if not form.is_valid():
            raise events.EventError(f"expected a grading officer: {_problems(form)}")
        chosen = form.cleaned_data["member"]
        officer = next((u for u in officers if u.pk == chosen), None)
        events.reassign_event(event_id, officer=officer, user=request.user)
    except ServiceError as error:
        return refused(request, EVENT_PAGE, _context(found, reassign=form), error)
    who = officer.get_username() if officer is not None else "no officer"
    messages.success(request, f"{found.code} is given to {who}.")
    return redirect(_url(found))


def _context(found: TeamEvent, **forms: Any) -> dict[str, Any]:
    """The event and its three forms (those posted, with what was typed)."""
    initial = {
        "name": found.name,
        "rate": found.rate,
        "start": found.start,
        "end": found.end,
        "deadline": found.deadline,
        "officer_name": found.officer_name,
    }
    return {
        "event": found,
        "edit": forms.get("edit") or EventEditForm(initial=initial),
        "withdraw": forms.get("withdraw") or WithdrawForm(),
        "reassign": forms.get("reassign")
        or ReassignForm(grading_officers(), initial={"member": found.officer_id}),
    }


def _problems(form: Any) -> str:
    return "; ".join(
        f"{form.fields[name].label if name in form.fields else name}: {' '.join(errors)}"
        for name, errors in form.errors.items()
    )


def _url(found: TeamEvent) -> str:
    return reverse("backoffice:team_event", kwargs={"event_id": found.id})
