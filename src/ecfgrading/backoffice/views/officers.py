"""A grading officer's pages: his events, registering one, upload-check-submit, and his
accepted files back. Every view calls services.officers, which keeps each officer to his
own events."""

from __future__ import annotations

import base64
import binascii

from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from ecfgrading.backoffice.access import role_required
from ecfgrading.backoffice.forms import EventForm, SubmitForm, UploadForm, time_control_from
from ecfgrading.services import officers
from ecfgrading.services.accounts import Role
from ecfgrading.services.errors import NotFound, ServiceError

OFFICE = (Role.TEAM, Role.OFFICER)


@require_GET
@role_required(*OFFICE)
def events(request: HttpRequest) -> HttpResponse:
    """The officer's events with status and deadline; overdue ones marked in words."""
    rows = officers.officer_events(request.user, today=timezone.localdate())
    return render(request, "backoffice/officers/events.html", {"events": rows})


@role_required(*OFFICE)
def register(request: HttpRequest) -> HttpResponse:
    """Register an event; the rate of play follows from the time control (G2)."""
    form = EventForm(request.POST or None)
    failure = ""
    if request.method == "POST" and form.is_valid():
        try:
            event = officers.register_officer_event(
                request.user,
                code=form.cleaned_data["code"],
                name=form.cleaned_data["name"],
                kind=form.cleaned_data["kind"],
                start=form.cleaned_data["start"],
                end=form.cleaned_data["end"],
                control=form.time_control(),
            )
        except ServiceError as error:
            failure = str(error)
        else:
            deadline = officers.results_deadline(event.end_date)
            messages.success(
                request,
                f"Registered {event.code} {event.name}: {event.rate},"
                f" results due by {deadline:%-d %B %Y}.",
            )
            return redirect("backoffice:events")
    shown = officers.rate_for(time_control_from(request.POST))
    context = {"form": form, "failure": failure, "shown": shown}
    return render(request, "backoffice/officers/register.html", context)


@require_GET
@role_required(*OFFICE)
def rate(request: HttpRequest) -> JsonResponse:
    """G2's rate of play for a time control, for the registration form as it is typed."""
    shown = officers.rate_for(time_control_from(request.GET))
    return JsonResponse({"rate": shown.rate, "words": shown.words})


@role_required(*OFFICE)
def upload(request: HttpRequest) -> HttpResponse:
    """Upload a file (a results file, or a FIDE TRF for a chosen event) and see its
    check report; nothing is stored yet."""
    events = officers.upload_events(request.user)
    form = UploadForm(request.POST or None, request.FILES or None, events=events)
    if request.method != "POST" or not form.is_valid():
        return render(request, "backoffice/officers/upload.html", {"form": form})
    handle, code = form.cleaned_data["results"], form.cleaned_data["event"]
    data = handle.read(officers.MAX_UPLOAD_BYTES + 1)
    try:
        feedback = officers.check_upload(request.user, handle.name, data, code)
    except ServiceError as error:
        context = {"form": UploadForm(events=events), "refused": str(error)}
        return render(request, "backoffice/officers/upload.html", context, status=400)
    content = base64.b64encode(data).decode("ascii")
    submit = SubmitForm(initial={"filename": handle.name, "content": content, "event": code})
    return render(
        request,
        "backoffice/officers/checked.html",
        {"feedback": feedback, "problems": officers.problems_in_order(feedback), "submit": submit},
    )


@require_POST
@role_required(*OFFICE)
def submit(request: HttpRequest) -> HttpResponse:
    """Import the checked file; the report on screen and by e-mail."""
    form = SubmitForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("expected a checked results file: upload it again")
    try:
        data = base64.b64decode(form.cleaned_data["content"], validate=True)
    except (binascii.Error, ValueError):
        return HttpResponseBadRequest("expected a checked results file: upload it again")
    filename, code = form.cleaned_data["filename"], form.cleaned_data["event"]
    try:
        outcome = officers.submit_upload(request.user, filename, data, code)
    except ServiceError as error:
        events = officers.upload_events(request.user)
        context = {"form": UploadForm(events=events), "refused": str(error)}
        return render(request, "backoffice/officers/upload.html", context, status=400)
    mailed = officers.mail_feedback(request.user, outcome.feedback)
    context = {
        "outcome": outcome,
        "feedback": outcome.feedback,
        "problems": officers.problems_in_order(outcome.feedback),
        "text": outcome.feedback.to_text(),
        "mailed": mailed,
    }
    return render(request, "backoffice/officers/submitted.html", context)


@require_GET
@role_required(*OFFICE)
def download(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's accepted results file, byte for byte."""
    try:
        found = officers.accepted_file(request.user, event_id)
    except NotFound as error:
        raise Http404(str(error)) from None
    response = HttpResponse(found.data, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{found.filename}"'
    return response
