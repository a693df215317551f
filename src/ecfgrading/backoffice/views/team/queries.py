"""Queries and corrections from the public: by status; assign, answer, resolve or
decline; the sender's status page reads the same record."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from ecfgrading.backoffice.errors import refused, refused_back
from ecfgrading.backoffice.forms_team import AnswerForm, AssignToForm
from ecfgrading.backoffice.views.team import team_only
from ecfgrading.lookups import queries as on_record
from ecfgrading.lookups.corrections import query_games
from ecfgrading.lookups.site import site_url
from ecfgrading.registry.models import Feedback
from ecfgrading.services.errors import ServiceError
from ecfgrading.services.team import queries

_T = "backoffice/team/"


@require_GET
@team_only
def index(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status", "")
    if status not in Feedback.Status.values:
        status = ""
    context = {
        "rows": on_record.queries(status),
        "status": status,
        "statuses": Feedback.Status.choices,
    }
    return render(request, _T + "queries.html", context)


@team_only
def detail(request: HttpRequest, ref: str) -> HttpResponse:
    """The query with the sender's details (private), and the answer form."""
    feedback = on_record.query(ref)
    initial = {"answer": feedback.answer, "status": feedback.status}
    form = AnswerForm(request.POST or None, initial=initial)
    context = {
        "query": feedback,
        "form": form,
        "assign": AssignToForm(
            on_record.team_members(),
            initial={"member": feedback.assigned_to_id or ""},
        ),
        "games": query_games(feedback),  # to correct what it asks (issue 24, case 2)
    }
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        correction = (
            queries.Correction(data["what"], data["why"]) if data["what"] and data["why"] else None
        )
        # On the configured site, never the request's Host (issue 24, case 11).
        status_url = site_url(reverse("web:feedback-status", kwargs={"ref": feedback.ref}))
        try:
            done = queries.answer(
                feedback.ref,
                text=data["answer"],
                status=data["status"],
                user=request.user,
                status_url=status_url,
                correction=correction,
            )
        except ServiceError as error:
            return refused(request, _T + "query.html", context, error)
        mailed = " The sender is told by e-mail." if done.mailed else ""
        noted = " The amendment is recorded." if done.amendment else ""
        messages.success(request, f"{done.ref} is now {done.status}.{mailed}{noted}")
        return redirect("backoffice:team_query", ref=done.ref)
    status = 400 if request.method == "POST" else 200
    return render(request, _T + "query.html", context, status=status)


@require_POST
@team_only
def assign(request: HttpRequest, ref: str) -> HttpResponse:
    feedback = on_record.query(ref)
    form = AssignToForm(on_record.team_members(), request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing changed: choose a member of the grading team.")
        return redirect("backoffice:team_query", ref=feedback.ref)
    try:
        done = queries.assign(feedback.ref, form.cleaned_data["member"], user=request.user)
    except ServiceError as error:
        return refused_back(request, error, _url(feedback.ref), prefix="Nothing changed: ")
    who = done.assigned_to.get_username() if done.assigned_to else "no one"
    messages.success(request, f"{done.ref} is assigned to {who}.")
    return redirect("backoffice:team_query", ref=done.ref)


def _url(ref: str) -> str:
    return reverse("backoffice:team_query", kwargs={"ref": ref})
