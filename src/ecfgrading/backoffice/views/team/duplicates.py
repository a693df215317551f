"""Files holding games already on record under another event code (issue 24, case 1):
the list of those waiting, and the team's decision on each (services.team.duplicates)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from ecfgrading.backoffice.errors import refused_back
from ecfgrading.backoffice.views.team import team_only
from ecfgrading.services.errors import ServiceError
from ecfgrading.services.team import duplicates

_CORRECTION = "correction:"  # followed by the event code the file corrects


@require_GET
@team_only
def index(request: HttpRequest) -> HttpResponse:
    context = {"files": duplicates.flagged_files(), "correction": _CORRECTION}
    return render(request, "backoffice/team/duplicates.html", context)


@require_POST
@team_only
def decide(request: HttpRequest, submission_id: int) -> HttpResponse:
    """``decision`` is one of ``correction:<event code>``, ``new-games``, ``reject``:
    first what it will do is shown, then ``confirm`` carries it out."""
    choice = request.POST.get("decision", "")
    decision, code = _parsed(choice)
    back = reverse("backoffice:team_duplicates")
    try:
        if request.POST.get("confirm") != "yes":
            said = duplicates.preview(submission_id, decision, code)
            context = {"submission_id": submission_id, "choice": choice, "said": said}
            return render(request, "backoffice/team/duplicates_confirm.html", context)
        done = _decide(request, submission_id, decision, code)
    except ServiceError as error:
        return refused_back(request, error, back, prefix="Nothing decided: ")
    messages.success(request, done.words())
    return redirect(back)


def _parsed(choice: str) -> tuple[str, str]:
    """The decision and, for a correction, the event it corrects."""
    if choice.startswith(_CORRECTION):
        return duplicates.CORRECTION, choice.removeprefix(_CORRECTION)
    return {"new-games": duplicates.NEW_GAMES, "reject": duplicates.REJECTED}.get(
        choice, choice
    ), ""


def _decide(
    request: HttpRequest, submission_id: int, decision: str, code: str
) -> duplicates.Decided:
    actor = request.user.get_username()
    if decision == duplicates.CORRECTION:
        return duplicates.accept_as_correction(submission_id, code, user=request.user, actor=actor)
    if decision == duplicates.NEW_GAMES:
        return duplicates.accept_new_games_only(submission_id, user=request.user, actor=actor)
    return duplicates.reject_file(submission_id, user=request.user, actor=actor)
