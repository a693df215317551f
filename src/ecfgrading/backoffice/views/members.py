"""Direct members' pages (his games received for grading, his results from abroad) and
the grading team's review of results from abroad. A member sees only his own: every
member page starts from the record linked to his login (lookups.direct_members.member_of)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from ecfgrading.backoffice.errors import office_view, refused, refused_back
from ecfgrading.backoffice.forms_members import (
    AbroadEventForm,
    GamesFormSet,
    RejectForm,
    abroad_event,
)
from ecfgrading.lookups import direct_members, results_abroad
from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import DirectMember
from ecfgrading.services import abroad
from ecfgrading.services.errors import ServiceError


def _member_or_page(request: HttpRequest) -> DirectMember | HttpResponse:
    """The signed-in member's record, or the page telling him it is not linked yet."""
    member = direct_members.member_of(request.user)
    return member if member is not None else render(request, "backoffice/members/unlinked.html")


@require_GET
@office_view(Role.MEMBER)
def member_home(request: HttpRequest) -> HttpResponse:
    """His games received for a July list (``?list=``), and his results from abroad."""
    member = _member_or_page(request)
    if isinstance(member, HttpResponse):
        return member
    list_id = request.GET.get("list", "").strip() or direct_members.default_list(
        timezone.localdate()
    )
    try:
        games = direct_members.games_received(member.player, list_id)
    except ServiceError as error:  # a list asked for by hand: his page without it
        return refused_back(request, error, reverse("backoffice:member_home"))
    context = {
        "member": member,
        "player": member.player,
        "games": games,
        "abroad": results_abroad.members_results(member),
    }
    return render(request, "backoffice/members/home.html", context)


@office_view(Role.MEMBER)
def member_abroad(request: HttpRequest) -> HttpResponse:
    """The form for an event abroad: "check" shows the file built and its problems by
    line; "submit" keeps it for the grading team when it has no errors."""
    member = _member_or_page(request)
    if isinstance(member, HttpResponse):
        return member
    event_form = AbroadEventForm(request.POST or None)
    games = GamesFormSet(request.POST or None, prefix="game")
    context: dict[str, object] = {"form": event_form, "games": games, "member": member}
    if request.method != "POST" or not (event_form.is_valid() and games.is_valid()):
        status = 400 if request.method == "POST" else 200
        return render(request, "backoffice/members/abroad.html", context, status=status)
    event = abroad_event(event_form, games)
    try:
        # The check first: what it found is shown with any refusal, and a file that
        # cannot be built at all is refused once (issue 24, case 8: never checked again).
        context["built"] = abroad.check_abroad(member, event)
        if request.POST.get("action") == "submit":
            made = abroad.submit_abroad(member, event, user=request.user)
            messages.success(
                request, f"Your results of {made.event_name} are with the grading team."
            )
            return redirect("backoffice:member_home")
    except ServiceError as error:
        return refused(request, "backoffice/members/abroad.html", context, error)
    return render(request, "backoffice/members/abroad.html", context)


@require_GET
@office_view(Role.TEAM)
def abroad_list(request: HttpRequest) -> HttpResponse:
    """Results from abroad waiting for a decision, and the latest decided."""
    context = {
        "pending": results_abroad.results_for_team(),
        "accepted": results_abroad.results_for_team(status="accepted")[-20:],
        "rejected": results_abroad.results_for_team(status="rejected")[-20:],
    }
    return render(request, "backoffice/members/abroad_list.html", context)


@require_GET
@office_view(Role.TEAM)
def abroad_review(request: HttpRequest, result_id: int) -> HttpResponse:
    """One result from abroad: the file built, its check against today's records."""
    found = abroad.review(result_id)
    context = {"review": found, "built": found.built, "reject": RejectForm()}
    return render(request, "backoffice/members/abroad_review.html", context)


@require_POST
@office_view(Role.TEAM)
def abroad_accept(request: HttpRequest, result_id: int) -> HttpResponse:
    """Import it with the team member as sender."""
    try:
        imported = abroad.accept_abroad(result_id, user=request.user)
    except ServiceError as error:
        return refused_back(request, error, _review_url(result_id))
    if imported.accepted:
        messages.success(request, f"Imported as submission {imported.submission_id}.")
        return redirect("backoffice:abroad_list")
    context = {
        "report": imported.report,
        "text": imported.report.to_text(),
        "result_id": result_id,
    }
    return render(request, "backoffice/members/abroad_refused.html", context, status=409)


@require_POST
@office_view(Role.TEAM)
def abroad_reject(request: HttpRequest, result_id: int) -> HttpResponse:
    """Reject it with a note the member reads."""
    form = RejectForm(request.POST)
    try:
        if not form.is_valid():
            raise abroad.AbroadError("expected a note saying why, for the member, got nothing")
        abroad.reject_abroad(result_id, user=request.user, note=form.cleaned_data["note"])
    except ServiceError as error:
        return refused_back(request, error, _review_url(result_id))
    messages.success(request, "Rejected; the member sees your note.")
    return redirect("backoffice:abroad_list")


def _review_url(result_id: int) -> str:
    return reverse("backoffice:abroad_review", kwargs={"result_id": result_id})
