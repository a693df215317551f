"""A grading officer's pages: his events, registering one, upload-check-submit, and his
accepted files back. Every view reads lookups.officer_events or calls services.officers,
both of which keep each officer to his own events."""

from __future__ import annotations

import base64
import binascii

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from ecfgrading.backoffice.errors import office_view, refused
from ecfgrading.backoffice.forms import EventForm, SubmitForm, UploadForm, time_control_from
from ecfgrading.lookups.officer_events import accepted_file, officer_events, upload_events
from ecfgrading.lookups.officer_submissions import sent_files
from ecfgrading.lookups.paging import page_number
from ecfgrading.lookups.roles import Role
from ecfgrading.services import officers
from ecfgrading.services.errors import ServiceError

OFFICE = (Role.TEAM, Role.OFFICER)
UPLOAD = "backoffice/officers/upload.html"


@require_GET
@office_view(*OFFICE)
def events(request: HttpRequest) -> HttpResponse:
    """The officer's events with status and deadline; overdue ones marked in words."""
    rows = officer_events(request.user, today=timezone.localdate())
    return render(request, "backoffice/officers/events.html", {"events": rows})


@office_view(*OFFICE)
def register(request: HttpRequest) -> HttpResponse:
    """Register an event; the rate of play follows from the time control (G2)."""
    form = EventForm(request.POST or None)
    context = {"form": form, "shown": officers.rate_for(time_control_from(request.POST))}
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
            return refused(request, "backoffice/officers/register.html", context, error)
        deadline = officers.results_deadline(event.end_date)
        messages.success(
            request,
            f"Registered {event.code} {event.name}: {event.rate},"
            f" results due by {deadline:%-d %B %Y}.",
        )
        return redirect("backoffice:events")
    return render(request, "backoffice/officers/register.html", context)


@require_GET
@office_view(*OFFICE)
def rate(request: HttpRequest) -> JsonResponse:
    """G2's rate of play for a time control, for the registration form as it is typed."""
    shown = officers.rate_for(time_control_from(request.GET))
    return JsonResponse({"rate": shown.rate, "words": shown.words})


@office_view(*OFFICE)
def upload(request: HttpRequest) -> HttpResponse:
    """Upload a file (a results file, or a FIDE TRF for a chosen event) and see its
    check report; nothing is stored yet."""
    events = upload_events(request.user)
    form = UploadForm(request.POST or None, request.FILES or None, events=events)
    if request.method != "POST" or not form.is_valid():
        return render(request, UPLOAD, {"form": form})
    handle, code = form.cleaned_data["results"], form.cleaned_data["event"]
    data = handle.read(officers.MAX_UPLOAD_BYTES + 1)
    try:
        report = officers.check_upload(request.user, handle.name, data, code)
    except ServiceError as error:
        return refused(request, UPLOAD, {"form": UploadForm(events=events)}, error)
    content = base64.b64encode(data).decode("ascii")
    submit = SubmitForm(initial={"filename": handle.name, "content": content, "event": code})
    return render(
        request,
        "backoffice/officers/checked.html",
        {"report": report, "problems": officers.problems_in_order(report), "submit": submit},
    )


@require_POST
@office_view(*OFFICE)
def submit(request: HttpRequest) -> HttpResponse:
    """Import the checked file; the report on screen and by e-mail."""
    form = SubmitForm(request.POST)
    try:
        data = _checked_file(form)
        filename, code = form.cleaned_data["filename"], form.cleaned_data["event"]
        outcome = officers.submit_upload(request.user, filename, data, code)
    except ServiceError as error:
        form = UploadForm(events=upload_events(request.user))
        return refused(request, UPLOAD, {"form": form}, error)
    mailed = officers.mail_report(request.user, outcome.report)
    context = {
        "outcome": outcome,
        "report": outcome.report,
        "problems": officers.problems_in_order(outcome.report),
        "text": outcome.report.to_text(),
        "mailed": mailed,
    }
    return render(request, "backoffice/officers/submitted.html", context)


@require_GET
@office_view(*OFFICE)
def submissions(request: HttpRequest) -> HttpResponse:
    """The files he has sent, newest first: accepted, rejected with the reasons, and
    superseded (issue 24, case 14); never another officer's."""
    page = sent_files(request.user, page=page_number(request.GET.get("page")))
    return render(request, "backoffice/officers/submissions.html", {"page": page})


@require_GET
@office_view(*OFFICE)
def download(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's accepted results file, byte for byte."""
    found = accepted_file(request.user, event_id)
    response = HttpResponse(found.data, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{found.filename}"'
    return response


def _checked_file(form: SubmitForm) -> bytes:
    """The file the check page sent back, as it was checked."""
    if form.is_valid():
        try:
            return base64.b64decode(form.cleaned_data["content"], validate=True)
        except (binascii.Error, ValueError):
            pass
    raise ServiceError("expected a checked results file: upload it again")
